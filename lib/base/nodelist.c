/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodelist.c - node names as one list (nodelist.h). */
#include "config.h"
#include "base/nodelist.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *join_names(const char *const *names, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", names[i]);
	return s;
}

/* A name as prefix and number: the digits at its end (at most 9; padded:
 * their count when the first is a 0, else 0). */
struct numbered {
	size_t prefix_len;
	long num; /* -1: no number */
	int width;
};

static struct numbered split(const char *s)
{
	size_t len = strlen(s), d = len;
	struct numbered x = { len, -1, 0 };
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9' && len - d < 9)
		d--;
	if (d == len || (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9'))
		return x;
	x.prefix_len = d;
	x.num = strtol(s + d, NULL, 10);
	x.width = s[d] == '0' && len - d > 1 ? (int)(len - d) : 0;
	return x;
}

struct run {
	const char *name; /* the first, for its prefix */
	struct numbered at;
	long hi;
};

static bool same_prefix(const struct run *r, const char *name, struct numbered x)
{
	return r->at.num >= 0 && x.num >= 0 && r->at.prefix_len == x.prefix_len && r->at.width == x.width &&
	       strncmp(r->name, name, x.prefix_len) == 0;
}

/* "lo" or "lo-hi" at p, numbers padded to width */
static char *put_range(char *p, const struct run *r)
{
	p += sprintf(p, "%0*ld", r->at.width, r->at.num);
	if (r->hi != r->at.num)
		p += sprintf(p, "-%0*ld", r->at.width, r->hi);
	return p;
}

char *roce_nodelist_ranged(const char *const *names, size_t n)
{
	struct run *runs = malloc((n ? n : 1) * sizeof(*runs));
	size_t nr = 0, len = 1;
	char *s = NULL, *p;
	if (!runs)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct numbered x = split(names[i]);
		len += strlen(names[i]) + 24;
		if (nr && same_prefix(&runs[nr - 1], names[i], x) && x.num == runs[nr - 1].hi + 1) {
			runs[nr - 1].hi = x.num;
			continue;
		}
		runs[nr++] = (struct run){ names[i], x, x.num };
	}
	if (!(s = malloc(len)))
		goto out;
	p = s;
	*p = '\0';
	for (size_t a = 0, b; a < nr; a = b) {
		/* runs with one prefix in a row share one bracket */
		for (b = a + 1; b < nr && same_prefix(&runs[a], runs[b].name, runs[b].at); b++)
			;
		p += sprintf(p, "%s", a ? "," : "");
		if (runs[a].at.num < 0 || (b == a + 1 && runs[a].hi == runs[a].at.num)) {
			p += sprintf(p, "%s", runs[a].name);
			continue;
		}
		p += sprintf(p, "%.*s[", (int)runs[a].at.prefix_len, runs[a].name);
		for (size_t k = a; k < b; k++) {
			p += sprintf(p, "%s", k > a ? "," : "");
			p = put_range(p, &runs[k]);
		}
		p += sprintf(p, "]");
	}
out:
	free(runs);
	return s;
}

char *roce_nodelist(roce_nodelist_fn fn, const char *const *names, size_t n)
{
	char *s = fn ? fn(names, n) : NULL;
	return s ? s : join_names(names, n);
}
