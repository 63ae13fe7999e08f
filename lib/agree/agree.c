/* SPDX-License-Identifier: GPL-2.0-or-later */
/* agree.c - the job-wide agreement of a step's nodes (agree.h). */
#include "config.h"
#include "agree/agree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_MAX 4096 /* a warning line; the rest is "..." */
#define GROUPS_MAX 8 /* distinct values named in one clause */

/* ---------------------------------------------------------------- text */

struct text {
	char *s;
	size_t len;
	bool oom;
};

__attribute__((format(printf, 2, 3))) static void text_add(struct text *t, const char *fmt, ...)
{
	char buf[MSG_MAX];
	va_list ap;
	if (t->oom || t->len >= MSG_MAX)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t add = (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
	if (t->len + add >= MSG_MAX)
		add = MSG_MAX - t->len;
	char *grown = realloc(t->s, t->len + add + 4);
	if (!grown) {
		t->oom = true;
		return;
	}
	t->s = grown;
	memcpy(t->s + t->len, buf, add);
	t->len += add;
	t->s[t->len] = '\0';
	if (t->len >= MSG_MAX)
		strcpy(t->s + t->len, "...");
}

static void text_list(struct text *t, roce_nodelist_fn fn, const char *const *names, size_t n)
{
	char *list = roce_nodelist(fn, names, n);
	if (!list) {
		t->oom = true;
		return;
	}
	text_add(t, "%s", list);
	free(list);
}

/* ---------------------------------------------------------------- the rails */

struct rail {
	const char *device;
	unsigned port;
	size_t count; /* nodes that have it */
};

struct agree_ctx {
	const struct roce_fingerprint **fp; /* the present ones */
	const char **names;                 /* their nodes */
	size_t n;
	roce_nodelist_fn fn;
	struct rail rails[ROCE_AGREE_UNION_MAX];
	size_t n_rails;
	size_t extra_rails; /* beyond ROCE_AGREE_UNION_MAX: counted, not named */
	const char **sel;   /* scratch: n names */
};

/* Index of f's port device:port, or -1; tries index hint first (the same
 * order on every node is the common case, so the search is usually one
 * comparison). */
static int fp_find(const struct roce_fingerprint *f, const char *device, unsigned port, size_t hint)
{
	if (hint < f->n_ports && f->ports[hint].port == port && strcmp(f->ports[hint].device, device) == 0)
		return (int)hint;
	for (size_t i = 0; i < f->n_ports; i++)
		if (f->ports[i].port == port && strcmp(f->ports[i].device, device) == 0)
			return (int)i;
	return -1;
}

static void count_rails(struct agree_ctx *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct roce_fingerprint *f = c->fp[i];
		for (size_t j = 0; j < f->n_ports; j++) {
			size_t k = j;
			if (k >= c->n_rails || c->rails[k].port != f->ports[j].port ||
			    strcmp(c->rails[k].device, f->ports[j].device) != 0)
				for (k = 0; k < c->n_rails; k++)
					if (c->rails[k].port == f->ports[j].port &&
					    strcmp(c->rails[k].device, f->ports[j].device) == 0)
						break;
			if (k == c->n_rails) {
				if (c->n_rails == ROCE_AGREE_UNION_MAX) {
					c->extra_rails++;
					continue;
				}
				c->rails[c->n_rails++] = (struct rail){ f->ports[j].device, f->ports[j].port, 0 };
			}
			c->rails[k].count++;
		}
	}
}

/* "node3: mlx5_1:1 missing; node[1-2]: mlx5_2:1 missing" */
static void trimmed_text(struct agree_ctx *c, struct text *t)
{
	for (size_t k = 0; k < c->n_rails; k++) {
		const struct rail *r = &c->rails[k];
		size_t m = 0;
		if (r->count == c->n)
			continue;
		for (size_t i = 0; i < c->n; i++)
			if (fp_find(c->fp[i], r->device, r->port, k) < 0)
				c->sel[m++] = c->names[i];
		text_add(t, "%s", t->len ? "; " : "");
		text_list(t, c->fn, c->sel, m);
		text_add(t, ": %s:%u missing", r->device, r->port);
	}
	if (c->extra_rails)
		text_add(t, "; and %zu more rails on some nodes only", c->extra_rails);
}

/* "LABEL 4096 on node[1,3]; 1024 on node2" when vals (one per present
 * node) are not all the same; nothing otherwise.  Returns true if added. */
static bool groups_text(struct agree_ctx *c, struct text *t, const char *label, const int *vals,
                        const char *(*show)(int, char *))
{
	int distinct[GROUPS_MAX];
	size_t nd = 0, more = 0;
	char buf[32];
	for (size_t i = 0; i < c->n; i++) {
		size_t g = 0;
		while (g < nd && distinct[g] != vals[i])
			g++;
		if (g == nd && nd < GROUPS_MAX)
			distinct[nd++] = vals[i];
		else if (g == nd)
			more++;
	}
	if (nd < 2)
		return false;
	text_add(t, "%s%s", t->len ? "; " : "", label);
	for (size_t g = 0; g < nd; g++) {
		size_t m = 0;
		for (size_t i = 0; i < c->n; i++)
			if (vals[i] == distinct[g])
				c->sel[m++] = c->names[i];
		text_add(t, "%s %s on ", g ? ";" : "", show(distinct[g], buf));
		text_list(t, c->fn, c->sel, m);
	}
	if (more)
		text_add(t, "; %zu more nodes with other values", more);
	return true;
}

static const char *show_int(int v, char *buf)
{
	if (v < 0)
		return "none";
	snprintf(buf, 32, "%d", v);
	return buf;
}

static const char *show_family(int v, char *buf)
{
	(void)buf;
	return v == 6 ? "ipv6" : "ipv4";
}

/* What NCCL needs the same on every node and trimming cannot fix. */
static void mismatch_text(struct agree_ctx *c, const struct roce_agreement *a, struct text *t, int *vals)
{
	char label[ROCE_NAME_MAX + 32];
	for (size_t k = 0; k < a->n_rails; k++) {
		const struct roce_agree_rail *r = &a->rails[k];
		for (size_t i = 0; i < c->n; i++)
			vals[i] = c->fp[i]->ports[fp_find(c->fp[i], r->device, r->port, k)].active_mtu;
		snprintf(label, sizeof(label), a->n_rails > 1 ? "%s:%u RDMA MTU" : "RDMA MTU", r->device, r->port);
		groups_text(c, t, a->n_rails > 1 ? label : "RDMA MTU", vals, show_int);
	}
#define FIELD_GROUPS(field, label, show)              \
	do {                                          \
		for (size_t i = 0; i < c->n; i++)     \
			vals[i] = c->fp[i]->field;    \
		groups_text(c, t, label, vals, show); \
	} while (0)
	FIELD_GROUPS(gid_index, "GID index", show_int);
	FIELD_GROUPS(addr_family, "GID family", show_family);
	FIELD_GROUPS(traffic_class, "traffic class", show_int);
#undef FIELD_GROUPS
}

/* ---------------------------------------------------------------- roce_agree */

static void agreed_rails(const struct agree_ctx *c, struct roce_agreement *a)
{
	for (size_t k = 0; k < c->n_rails && a->n_rails < ROCE_FP_PORTS_MAX; k++) {
		if (c->rails[k].count != c->n)
			continue;
		struct roce_agree_rail *r = &a->rails[a->n_rails++];
		snprintf(r->device, sizeof(r->device), "%s", c->rails[k].device);
		r->port = c->rails[k].port;
		r->active_mtu = c->fp[0]->ports[fp_find(c->fp[0], r->device, r->port, k)].active_mtu;
	}
}

static int missing_text(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n,
                        roce_nodelist_fn fn, struct roce_agreement *a, const char **sel)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!fps[i])
			sel[m++] = nodes[i];
	if (!m)
		return 0;
	a->flags |= ROCE_AGREE_MISSING;
	return (a->missing = roce_nodelist(fn, sel, m)) ? 0 : -1;
}

static char *text_take(struct text *t, bool *oom)
{
	if (t->oom) {
		*oom = true;
		free(t->s);
		return NULL;
	}
	return t->s;
}

int roce_agree(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n, roce_nodelist_fn fn,
               struct roce_agreement *out)
{
	struct agree_ctx c = { .fn = fn };
	struct text trimmed = { 0 }, mismatch = { 0 };
	int *vals = NULL, rc = -1;
	bool oom = false;

	memset(out, 0, sizeof(*out));
	c.fp = malloc((n ? n : 1) * sizeof(*c.fp));
	c.names = malloc((n ? n : 1) * sizeof(*c.names));
	c.sel = malloc((n ? n : 1) * sizeof(*c.sel));
	vals = malloc((n ? n : 1) * sizeof(*vals));
	if (!c.fp || !c.names || !c.sel || !vals || missing_text(fps, nodes, n, fn, out, c.sel) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (fps[i]) {
			c.fp[c.n] = fps[i];
			c.names[c.n++] = nodes[i];
		}
	count_rails(&c);
	if (c.n)
		agreed_rails(&c, out);
	trimmed_text(&c, &trimmed);
	if (trimmed.len)
		out->flags |= ROCE_AGREE_TRIMMED;
	if (c.n)
		mismatch_text(&c, out, &mismatch, vals);
	if (mismatch.len)
		out->flags |= ROCE_AGREE_MISMATCH;
	if (!out->n_rails)
		out->flags |= ROCE_AGREE_EMPTY;
	out->trimmed = text_take(&trimmed, &oom);
	out->mismatch = text_take(&mismatch, &oom);
	rc = oom ? -1 : 0;
out:
	free(c.fp);
	free(c.names);
	free(c.sel);
	free(vals);
	if (rc < 0)
		roce_agree_free(out);
	return rc;
}

void roce_agree_free(struct roce_agreement *a)
{
	free(a->trimmed);
	free(a->mismatch);
	free(a->missing);
	memset(a, 0, sizeof(*a));
}

/* ---------------------------------------------------------------- to the step */

static const char *const verdict_words[] = { "rails", "empty", "own", "fail" };

enum roce_agree_verdict roce_agree_verdict(const struct roce_agreement *a, bool strict)
{
	if (strict && a->flags)
		return ROCE_AGREED_FAIL;
	if (a->flags & ROCE_AGREE_MISSING)
		return ROCE_AGREED_OWN;
	return a->flags & ROCE_AGREE_EMPTY ? ROCE_AGREED_EMPTY : ROCE_AGREED_RAILS;
}

int roce_agree_encode(const struct roce_agreement *a, enum roce_agree_verdict v, const char *step, char *buf,
                      size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "1;%s;%s", step, verdict_words[v]);
	/* MTUs that differ (warn: said, not trimmed) are not held against any node: @0 */
	bool any_mtu = a->flags & ROCE_AGREE_MISMATCH;
	for (size_t k = 0; v == ROCE_AGREED_RAILS && k < a->n_rails && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s:%u@%d", k ? "," : ";", a->rails[k].device,
		                         a->rails[k].port, any_mtu ? 0 : a->rails[k].active_mtu);
	return used < len ? 0 : -1;
}

/* "mlx5_0:1@4096" */
static int decode_rail(char *s, struct roce_agree_rail *r)
{
	char *colon = strrchr(s, ':'), *at = strrchr(s, '@'), *end;
	if (!colon || !at || at < colon)
		return -1;
	*colon = *at = '\0';
	unsigned long port = strtoul(colon + 1, &end, 10);
	if (end != at || colon[1] < '0' || colon[1] > '9' || port < 1 || port > 255)
		return -1;
	long mtu = strtol(at + 1, &end, 10);
	if (*end || at[1] < '0' || at[1] > '9' || mtu > 4096 || !roce_device_name_ok(s))
		return -1;
	snprintf(r->device, sizeof(r->device), "%s", s);
	r->port = (unsigned)port;
	r->active_mtu = (int)mtu;
	return 0;
}

static int decode_rails(char *list, struct roce_agreed *d)
{
	char *save = NULL;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (d->n_rails == ROCE_FP_PORTS_MAX || decode_rail(tok, &d->rails[d->n_rails]) < 0)
			return -1;
		d->n_rails++;
	}
	return d->n_rails ? 0 : -1;
}

int roce_agree_decode(const char *s, struct roce_agreed *d, struct roce_error *err)
{
	char copy[ROCE_AGREE_ENV_MAX], *save = NULL;
	memset(d, 0, sizeof(*d));
	if (!s || strlen(s) >= sizeof(copy) || strncmp(s, "1;", 2) != 0)
		goto bad;
	snprintf(copy, sizeof(copy), "%s", s + 2);
	char *step = strtok_r(copy, ";", &save), *word = strtok_r(NULL, ";", &save),
	     *rails = strtok_r(NULL, ";", &save);
	if (!step || !word || strlen(step) >= sizeof(d->step) || strspn(step, "0123456789.") != strlen(step) ||
	    strtok_r(NULL, ";", &save))
		goto bad;
	snprintf(d->step, sizeof(d->step), "%s", step);
	int v = 0;
	while (v <= ROCE_AGREED_FAIL && strcmp(word, verdict_words[v]) != 0)
		v++;
	if (v > ROCE_AGREED_FAIL || (v == ROCE_AGREED_RAILS) != (rails != NULL))
		goto bad;
	d->verdict = (enum roce_agree_verdict)v;
	if (rails && decode_rails(rails, d) < 0)
		goto bad;
	return 0;
bad:
	memset(d, 0, sizeof(*d));
	roce_error_set(err, "%s is not a value the plugin's srun side wrote", ROCE_AGREE_ENV);
	return -1;
}

/* ---------------------------------------------------------------- on each node */

int roce_agree_apply(const struct roce_agreed *d, const struct roce_fingerprint *self, struct roce_plan *plan,
                     char *why, size_t len)
{
	char hca[sizeof(plan->vars[0].value)] = "", ifs[sizeof(plan->vars[0].value)] = "", item[ROCE_NAME_MAX + 8];
	size_t wused = 0;
	int lacking = 0;
	why[0] = '\0';
	for (size_t k = 0; k < d->n_rails; k++) {
		const struct roce_agree_rail *r = &d->rails[k];
		const struct roce_fp_port *p = roce_fingerprint_port(self, r->device, r->port);
		if (!p || (r->active_mtu && p->active_mtu != r->active_mtu)) {
			lacking++;
			if (wused < len)
				wused += (size_t)snprintf(why + wused, len - wused, "%s%s:%u %s", wused ? ", " : "",
				                          r->device, r->port,
				                          p ? "has another RDMA MTU" : "is not healthy here");
			continue;
		}
		snprintf(item, sizeof(item), "%s:%u", r->device, r->port);
		roce_plan_list_add(hca, sizeof(hca), item);
		roce_plan_list_add(ifs, sizeof(ifs), p->netdev);
	}
	if (!plan->valid)
		return lacking;
	if (!hca[0]) {
		plan->valid = false;
		snprintf(plan->why, sizeof(plan->why), "none of the step's agreed rails is usable here");
		return lacking;
	}
	/* Both fit (each list is at most a value long) and a valid plan sets both. */
	(void)roce_plan_setf(plan, "NCCL_IB_HCA", "%s", hca);
	(void)roce_plan_setf(plan, "NCCL_SOCKET_IFNAME", "%s", ifs);
	return lacking;
}
