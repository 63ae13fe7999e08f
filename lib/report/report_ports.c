/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_ports.c - a fragment's verdicts matched to its ports by name (report_ports.h). */
#include "config.h"
#include "report/report_ports.h"
#include "base/decimal.h"

#include <stdlib.h>
#include <string.h>

/* Room for n more bytes of names and one more name. */
static int room(struct roce_report_ports *x, size_t n)
{
	if (x->len + n > x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 1024;
		while (cap < x->len + n)
			cap *= 2;
		char *grown = realloc(x->names, cap);
		if (!grown)
			return -1;
		x->names = grown;
		x->cap = cap;
	}
	return 0;
}

/* Port p's name, "device:port" (roce_report_metric_port, uncut), appended. */
static int add_name(struct roce_report_ports *x, const struct roce_fragment_port *p, size_t i)
{
	char num[ROCE_DECIMAL_U64_MAX + 1];
	size_t dl = strlen(p->device), nl = roce_decimal_u64(num, p->port);
	if (room(x, dl + nl + 2) < 0)
		return -1;
	if (i >= x->cap_at) {
		size_t cap = x->cap_at ? 2 * x->cap_at : 16;
		size_t *grown = realloc(x->at, cap * sizeof(*grown));
		if (!grown)
			return -1;
		x->at = grown;
		x->cap_at = cap;
	}
	x->at[i] = x->len;
	char *s = x->names + x->len;
	memcpy(s, p->device, dl);
	s[dl] = ':';
	memcpy(s + dl + 1, num, nl);
	s[dl + 1 + nl] = '\0';
	x->len += dl + nl + 2;
	return 0;
}

struct name_of {
	const struct roce_report_ports *x;
	const char *name;
	size_t len;
};

static bool same_name(size_t pos, const void *arg)
{
	const struct name_of *k = arg;
	const char *s = k->x->names + k->x->at[pos];
	return strncmp(s, k->name, k->len) == 0 && s[k->len] == '\0';
}

int roce_report_ports_index(struct roce_report_ports *x, const struct roce_fragment *n)
{
	x->n = n;
	x->len = 0;
	roce_hashindex_clear(&x->index);
	for (size_t i = 0; i < n->n_ports; i++) {
		if (add_name(x, &n->ports[i], i) < 0)
			return -1;
		const char *s = x->names + x->at[i];
		size_t len = strlen(s);
		/* the first of two ports of one name keeps it, as a search would find it */
		if (roce_report_ports_find(x, s, len) < 0 &&
		    roce_hashindex_add(&x->index, roce_hashindex_hash(s, len), i) < 0)
			return -1;
	}
	return 0;
}

long roce_report_ports_find(const struct roce_report_ports *x, const char *name, size_t len)
{
	struct name_of k = { x, name, len };
	size_t pos = roce_hashindex_find(&x->index, roce_hashindex_hash(name, len), same_name, &k);
	return pos == SIZE_MAX ? -1 : (long)pos;
}

long roce_report_ports_of(const struct roce_report_ports *x, const struct roce_fragment_verdict *v, bool *exact)
{
	size_t len = strcspn(v->subject, " ");
	*exact = v->subject[len] == '\0';
	return roce_report_ports_find(x, v->subject, len);
}

/* *v holds at least n entries. */
static int grow(size_t **v, size_t *cap, size_t n)
{
	if (n <= *cap)
		return 0;
	size_t *grown = realloc(*v, n * sizeof(*grown));
	if (!grown)
		return -1;
	*v = grown;
	*cap = n;
	return 0;
}

int roce_report_ports_verdicts(struct roce_report_ports *x)
{
	const struct roce_fragment *n = x->n;
	if (grow(&x->first, &x->cap_first, n->n_ports + 2) < 0 || grow(&x->by, &x->cap_by, n->n_verdicts + 1) < 0)
		return -1;
	/* a counting sort by port, stable: first[p + 2] counts port p's verdicts,
	 * summed into where each port's run begins (first[p + 1]), which the
	 * placing moves on to where it ends, the next port's beginning */
	memset(x->first, 0, (n->n_ports + 2) * sizeof(*x->first));
	for (size_t k = 0; k < n->n_verdicts; k++) {
		bool exact;
		long p = roce_report_ports_of(x, &n->verdicts[k], &exact);
		if (p >= 0 && exact)
			x->first[p + 2]++;
	}
	for (size_t i = 2; i < n->n_ports + 2; i++)
		x->first[i] += x->first[i - 1];
	for (size_t k = 0; k < n->n_verdicts; k++) {
		bool exact;
		long p = roce_report_ports_of(x, &n->verdicts[k], &exact);
		if (p >= 0 && exact)
			x->by[x->first[p + 1]++] = k;
	}
	return 0;
}

void roce_report_ports_free(struct roce_report_ports *x)
{
	roce_hashindex_free(&x->index);
	free(x->names);
	free(x->at);
	free(x->first);
	free(x->by);
	memset(x, 0, sizeof(*x));
}
