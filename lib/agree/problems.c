/* SPDX-License-Identifier: GPL-2.0-or-later */
/* problems.c - the step's nodes' problems, one line each (problems.h). */
#include "config.h"
#include "agree/problems.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One distinct problem and the nodes (indexes) that have it. */
struct group {
	struct roce_brief b;
	uint32_t key;
	size_t first; /* the first node's index: ties keep the step's order */
	size_t n, cap;
	size_t *nodes;
};

struct say_ctx {
	size_t n_groups;
	struct group g[ROCE_PROBLEM_KEYS_MAX];
	bool overflow;
	size_t more; /* problems the fingerprints only counted (once per distinct fingerprint) */
};

static int by_fingerprint(const void *a, const void *b, void *arg)
{
	const struct roce_fingerprint *const *fp = arg;
	uintptr_t x = (uintptr_t)fp[*(const size_t *)a], y = (uintptr_t)fp[*(const size_t *)b];
	if (x != y)
		return (x > y) - (x < y);
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* The same problem: field by field (what follows a string's NUL is no part of it). */
static bool same(const struct roce_brief *x, const struct roce_brief *y)
{
	return x->status == y->status && strcmp(x->check, y->check) == 0 && strcmp(x->cause, y->cause) == 0 &&
	       strcmp(x->subjects, y->subjects) == 0;
}

static struct group *group_of(struct say_ctx *c, const struct roce_brief *b, size_t first)
{
	uint32_t key = roce_brief_key(b);
	for (size_t i = 0; i < c->n_groups; i++)
		if (c->g[i].key == key && same(&c->g[i].b, b))
			return &c->g[i];
	if (c->n_groups == ROCE_PROBLEM_KEYS_MAX) {
		c->overflow = true;
		return NULL;
	}
	struct group *g = &c->g[c->n_groups++];
	memset(g, 0, sizeof(*g));
	g->b = *b;
	g->key = key;
	g->first = first;
	return g;
}

static int add_nodes(struct group *g, const size_t *idx, size_t k)
{
	if (g->n + k > g->cap) {
		size_t cap = g->cap ? g->cap : 16;
		while (cap < g->n + k)
			cap *= 2;
		size_t *grown = realloc(g->nodes, cap * sizeof(*grown));
		if (!grown)
			return -1;
		g->nodes = grown;
		g->cap = cap;
	}
	memcpy(g->nodes + g->n, idx, k * sizeof(*idx));
	g->n += k;
	return 0;
}

/* The nodes idx[0..k) share one fingerprint: its problems once for all. */
static int take_run(struct say_ctx *c, const struct roce_fingerprint *f, const size_t *idx, size_t k)
{
	c->more += f->problems_more;
	for (size_t p = 0; p < f->n_problems; p++) {
		struct group *g = group_of(c, &f->problems[p], idx[0]);
		if (g && add_nodes(g, idx, k) < 0)
			return -1;
	}
	return 0;
}

/* Worst verdict first, then the most nodes, then the step's order. */
static int rank(enum roce_verdict v) { return v == ROCE_FAIL ? 0 : v == ROCE_UNKNOWN ? 1 : 2; }
static int by_worst(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (rank(x->b.status) != rank(y->b.status))
		return rank(x->b.status) - rank(y->b.status);
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

static int say_groups(struct say_ctx *c, const char *const *names, roce_nodelist_fn fn, struct roce_lines *out)
{
	qsort(c->g, c->n_groups, sizeof(c->g[0]), by_worst);
	size_t shown = c->n_groups < ROCE_PROBLEM_LINES ? c->n_groups : ROCE_PROBLEM_LINES;
	for (size_t i = 0; i < shown; i++) {
		struct group *g = &c->g[i];
		const char **sel = malloc(g->n * sizeof(*sel));
		char text[ROCE_LINE_MAX];
		struct roce_line_build b = { .len = 0 };
		if (!sel)
			return -1;
		for (size_t k = 0; k < g->n; k++)
			sel[k] = names[g->nodes[k]];
		roce_brief_text(&g->b, text, sizeof(text));
		bool ok = roce_lines_nodes_first(&b, fn, sel, g->n, text);
		free(sel);
		if (!ok)
			return -1;
		roce_lines_end(out, ROCE_LINE_SHOULD, &b);
	}
	size_t rest = c->n_groups - shown + c->more;
	if (rest || c->overflow) {
		struct roce_line_build b = { .len = 0 };
		roce_lines_start(&b, "%s%zu more problem(s) on the step's nodes: slurmd's log there, roce-report after the job",
		                 c->overflow ? "over " : "", rest);
		roce_lines_end(out, ROCE_LINE_SHOULD, &b);
	}
	return 0;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

int roce_problems_say(const struct roce_fingerprint *const *fp, const char *const *names, size_t n,
                      roce_nodelist_fn fn, struct roce_lines *out, struct roce_problem_keys *keys)
{
	struct say_ctx *c = calloc(1, sizeof(*c));
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), m = 0;
	int rc = -1;
	memset(keys, 0, sizeof(*keys));
	if (!c || !order)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (fp[i])
			order[m++] = i;
	/* one pass per distinct fingerprint, not per node: 16,384 nodes are a few contents */
	qsort_r(order, m, sizeof(*order), by_fingerprint, (void *)fp);
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a + 1; b < m && fp[order[b]] == fp[order[a]]; b++)
			;
		if (take_run(c, fp[order[a]], order + a, b - a) < 0)
			goto out;
	}
	for (size_t i = 0; i < c->n_groups; i++) /* the node list in the step's order */
		qsort(c->g[i].nodes, c->g[i].n, sizeof(size_t), by_index);
	if (say_groups(c, names, fn, out) < 0)
		goto out;
	keys->overflow = c->overflow;
	for (size_t i = 0; i < c->n_groups; i++)
		keys->key[keys->n++] = c->g[i].key;
	rc = 0;
out:
	free(order);
	if (c) {
		for (size_t i = 0; i < c->n_groups; i++)
			free(c->g[i].nodes);
		free(c);
	}
	return rc;
}

bool roce_problem_keys_format(const struct roce_problem_keys *keys, char *buf, size_t len)
{
	size_t used = 0;
	if (keys->overflow || !len)
		return false;
	buf[0] = '\0';
	for (size_t i = 0; i < keys->n; i++) {
		int w = snprintf(buf + used, len - used, "%s%08" PRIx32, i ? "," : "", keys->key[i]);
		if (w < 0 || (size_t)w >= len - used)
			return false;
		used += (size_t)w;
	}
	return true;
}

bool roce_problem_keys_have(const char *text, uint32_t key)
{
	char want[9];
	snprintf(want, sizeof(want), "%08" PRIx32, key);
	for (const char *p = text; *p;) {
		size_t k = strcspn(p, ",");
		if (k == 8 && memcmp(p, want, 8) == 0)
			return true;
		p += k + (p[k] == ',');
	}
	return false;
}
