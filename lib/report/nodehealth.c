/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodehealth.c - jobs' reports folded into node port rows, ranked (nodehealth.h). */
#include "config.h"
#include "report/nodehealth.h"
#include "report/report_metric.h"
#include "pipeline/delta.h"
#include "read/sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *key, *title;
} problems[ROCE_NH_N] = {
	[ROCE_NH_LOSS] = { "loss", "Loss" },
	[ROCE_NH_TIMEOUT] = { "timeouts", "RDMA timeouts" },
	[ROCE_NH_PAUSE_STORM] = { "pause_storm", "Pause storms" },
	[ROCE_NH_LINK_DOWN] = { "link_down", "Link downs" },
	[ROCE_NH_SLOW_LINK] = { "slow_link", "Slow link" },
	[ROCE_NH_TREND] = { "counter_trend", "Counter trend" },
};

const char *roce_nodehealth_problem_key(enum roce_nodehealth_problem p) { return problems[p].key; }

const char *roce_nodehealth_problem_title(enum roce_nodehealth_problem p) { return problems[p].title; }

/* The verdict codes each kind gathers: the rules that make them are in
 * verdicts.c; a code not here is not a problem this view ranks. */
static const struct {
	const char *code;
	enum roce_nodehealth_problem p;
} codes[] = {
	{ "packet_loss", ROCE_NH_LOSS },         { "rdma_timeouts", ROCE_NH_TIMEOUT },
	{ "retries_exceeded", ROCE_NH_TIMEOUT }, { "pause_storm", ROCE_NH_PAUSE_STORM },
	{ "link_down", ROCE_NH_LINK_DOWN },      { "port_down", ROCE_NH_LINK_DOWN },
	{ "counter_trend", ROCE_NH_TREND },
};

/* A slow link fails the port's check with the link rate check's finding
 * (check_link.c), which the fragment keeps as the port's check_why, after
 * when it was seen (roce_delta_check_why). */
#define SLOW_LINK_CHECK "link_rate"

void roce_nodehealth_init(struct roce_nodehealth *h)
{
	memset(h, 0, sizeof(*h));
	h->uid = -1;
}

void roce_nodehealth_free(struct roce_nodehealth *h)
{
	free(h->rows);
	roce_hashindex_free(&h->index);
	roce_arena_free(&h->names);
	roce_report_ports_free(&h->ports);
	memset(h, 0, sizeof(*h));
}

const char *roce_nodehealth_port_name(const struct roce_nodehealth_row *row, char *buf, size_t len)
{
	if (!row->device[0])
		snprintf(buf, len, "node");
	else
		snprintf(buf, len, "%s:%u", row->device, row->port);
	return buf;
}

/* ---------------------------------------------------------------- rows */

struct row_key {
	const struct roce_nodehealth *h;
	const char *node, *device;
	unsigned port;
};

static bool same_row(size_t pos, const void *arg)
{
	const struct row_key *k = arg;
	const struct roce_nodehealth_row *row = &k->h->rows[pos];
	return row->port == k->port && strcmp(row->node, k->node) == 0 && strcmp(row->device, k->device) == 0;
}

/* The key's hash: node, device (each with its NUL) and port. */
static uint64_t row_hash(const char *node, const char *device, unsigned port)
{
	char key[64 + ROCE_FRAGMENT_DEVICE_MAX + sizeof(port)];
	size_t nl = strnlen(node, 63), dl = strnlen(device, ROCE_FRAGMENT_DEVICE_MAX - 1);
	memcpy(key, node, nl);
	key[nl] = '\0';
	memcpy(key + nl + 1, device, dl);
	key[nl + 1 + dl] = '\0';
	memcpy(key + nl + dl + 2, &port, sizeof(port));
	return roce_hashindex_hash(key, nl + dl + 2 + sizeof(port));
}

/* A new row of (node, device, port) at the end; NULL on ENOMEM. */
static struct roce_nodehealth_row *row_new(struct roce_nodehealth *h, const char *node, const char *device,
                                           unsigned port, uint64_t hash)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		struct roce_nodehealth_row *grown = realloc(h->rows, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		h->rows = grown;
		h->cap = cap;
	}
	struct roce_nodehealth_row *row = &h->rows[h->n];
	memset(row, 0, sizeof(*row));
	/* the name whole (a cut one would be another row each job) */
	if (!(row->device = device[0] ? roce_arena_strdup(&h->names, device) : ""))
		return NULL;
	if (roce_hashindex_add(&h->index, hash, h->n) < 0)
		return NULL;
	snprintf(row->node, sizeof(row->node), "%s", node);
	row->port = port;
	row->stamp = (size_t)-1;
	h->n++;
	return row;
}

/* The row of (node, device, port), made when new; NULL on ENOMEM. */
static struct roce_nodehealth_row *row_of(struct roce_nodehealth *h, const char *node, const char *device,
                                          unsigned port)
{
	struct row_key k = { h, node, device, port };
	uint64_t hash = row_hash(node, device, port);
	size_t pos = roce_hashindex_find(&h->index, hash, same_row, &k);
	return pos != SIZE_MAX ? &h->rows[pos] : row_new(h, node, device, port, hash);
}

/* The row was in job number h->jobs: counted once per job. */
static void seen(struct roce_nodehealth *h, struct roce_nodehealth_row *row)
{
	if (row->stamp == h->jobs)
		return;
	row->stamp = h->jobs;
	row->mask = 0;
	row->seen++;
}

static void problem(struct roce_nodehealth_row *row, enum roce_nodehealth_problem p, const char *job_id, int64_t end_ns)
{
	if (row->mask & (1u << p))
		return;
	if (!row->mask) {
		row->bad++;
		if (!row->last_job[0] || end_ns >= row->last_ns) {
			snprintf(row->last_job, sizeof(row->last_job), "%s", job_id);
			row->last_ns = end_ns;
		}
	}
	row->mask |= 1u << p;
	row->jobs[p]++;
}

/* ---------------------------------------------------------------- a job */

/* The port a verdict is about ("mlx5_0:1 prio 3" is port mlx5_0:1), NULL
 * for the node or a port the fragment does not list (h->ports indexes n). */
static const struct roce_fragment_port *verdict_port(const struct roce_nodehealth *h, const struct roce_fragment *n,
                                                     const struct roce_fragment_verdict *v)
{
	bool exact;
	long i = roce_report_ports_of(&h->ports, v, &exact);
	return i >= 0 ? &n->ports[i] : NULL;
}

/* The kind of problem a verdict is, -1 none; *p the port it is about
 * (NULL: the node), looked up only for a verdict of a kind. */
static int kind(const struct roce_nodehealth *h, const struct roce_fragment *n, const struct roce_fragment_verdict *v,
                const struct roce_fragment_port **p)
{
	*p = NULL;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(v->code, codes[i].code) == 0) {
			*p = verdict_port(h, n, v);
			return (int)codes[i].p;
		}
	if (strcmp(v->code, "check_failed") != 0)
		return -1;
	*p = verdict_port(h, n, v);
	if (*p && (*p)->check_why && roce_delta_check_why_is((*p)->check_why, SLOW_LINK_CHECK))
		return ROCE_NH_SLOW_LINK;
	return -1;
}

static int add_node(struct roce_nodehealth *h, const struct roce_fragment *n, const char *job_id, bool *bad)
{
	struct roce_nodehealth_row *self = row_of(h, n->name, "", 0);
	if (!self)
		return -1;
	seen(h, self);
	for (size_t i = 0; i < n->n_ports; i++) {
		struct roce_nodehealth_row *row = row_of(h, n->name, n->ports[i].device, n->ports[i].port);
		if (!row)
			return -1;
		seen(h, row);
	}
	if (roce_report_ports_index(&h->ports, n) < 0)
		return -1;
	for (size_t i = 0; i < n->n_verdicts; i++) {
		const struct roce_fragment_port *p;
		int k = kind(h, n, &n->verdicts[i], &p);
		if (k < 0)
			continue;
		/* looked up again: a new row above may have moved the rows */
		struct roce_nodehealth_row *row = row_of(h, n->name, p ? p->device : "", p ? p->port : 0);
		if (!row)
			return -1;
		problem(row, (enum roce_nodehealth_problem)k, job_id, n->end_ns);
		*bad = true;
	}
	return 0;
}

int64_t roce_nodehealth_job_end(const struct roce_job_report *r)
{
	int64_t end = 0;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].end_ns > end)
			end = r->nodes[i].end_ns;
	return end;
}

int roce_nodehealth_add(struct roce_nodehealth *h, const struct roce_job_report *r)
{
	if (r->n_nodes == 0)
		return 0;
	bool bad = false;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (add_node(h, &r->nodes[i], r->job_id, &bad) < 0)
			return -1;
	int64_t end = roce_nodehealth_job_end(r);
	if (end && (!h->first_ns || end < h->first_ns))
		h->first_ns = end;
	if (end > h->last_ns)
		h->last_ns = end;
	h->jobs++;
	h->jobs_bad += bad;
	return 0;
}

/* ---------------------------------------------------------------- rank */

static unsigned problems_counted(const struct roce_nodehealth_row *r)
{
	unsigned n = 0;
	for (int p = 0; p < ROCE_NH_N; p++)
		n += r->jobs[p];
	return n;
}

static int by_sickness(const void *a, const void *b)
{
	const struct roce_nodehealth_row *x = a, *y = b;
	if (x->bad != y->bad)
		return x->bad > y->bad ? -1 : 1;
	unsigned px = problems_counted(x), py = problems_counted(y);
	if (px != py)
		return px > py ? -1 : 1;
	if (x->seen != y->seen)
		return x->seen < y->seen ? -1 : 1;
	int c = roce_sysfs_natural_cmp(x->node, y->node);
	if (!c)
		c = strcmp(x->node, y->node);
	if (!c)
		c = roce_sysfs_natural_cmp(x->device, y->device);
	if (!c) /* rows come in the order first seen: every key decides */
		c = strcmp(x->device, y->device);
	return c ? c : (x->port > y->port) - (x->port < y->port);
}

void roce_nodehealth_rank(struct roce_nodehealth *h)
{
	/* sorted: the index no longer says where a row is */
	roce_hashindex_free(&h->index);
	if (h->n > 1)
		qsort(h->rows, h->n, sizeof(*h->rows), by_sickness);
}
