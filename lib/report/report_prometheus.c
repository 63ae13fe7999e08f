/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_prometheus.c - the Prometheus exposition of a report (report_prometheus.h). */
#include "config.h"
#include "report/report_prometheus.h"
#include "base/decimal.h"
#include "base/parprint.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* name="value" with backslash, double quote and newline escaped
 * (exposition format), appended to buf; a leading comma unless first. */
static void label(char *buf, size_t len, const char *name, const char *value, bool first)
{
	size_t n = strlen(buf);
	n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = value; *p && n + 3 < len; p++) {
		if (*p == '\\' || *p == '"')
			buf[n++] = '\\', buf[n++] = *p;
		else if (*p == '\n')
			buf[n++] = '\\', buf[n++] = 'n';
		else
			buf[n++] = *p;
	}
	if (n + 2 <= len) {
		buf[n++] = '"';
		buf[n] = '\0';
	}
}

/* Labels are built once per node or port and reused for every sample. */
static void node_labels(char *buf, size_t len, const char *job, const struct roce_fragment *n)
{
	buf[0] = '\0';
	label(buf, len, "slurm_job_id", job, true);
	label(buf, len, "node", n->name, false);
}

static void port_labels(char *buf, size_t len, const char *job, const struct roce_fragment *n,
                        const struct roce_fragment_port *p)
{
	char num[16];
	snprintf(num, sizeof(num), "%u", p->port);
	node_labels(buf, len, job, n);
	label(buf, len, "device", p->device, false);
	label(buf, len, "port", num, false);
}

static void family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* Nodes a thread formats at a time (parprint.h): 128 nodes' counter
 * samples are about 3 MB. */
#define NODES_PER_CHUNK 128

/* The labels of one sample; longer (hostile) values are cut by label(), never overflow. */
#define LABELS_MAX 1024

/* Each family below prints the lines of nodes [begin, end) (roce_parprint_fn). */
static int job_seconds(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	char lb[LABELS_MAX];
	for (size_t i = begin; i < end; i++) {
		node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
		fprintf(out, "roce_job_seconds{%s} %.3f\n", lb, r->nodes[i].seconds);
	}
	return ferror(out) ? -1 : 0;
}

static int shared_node(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	char lb[LABELS_MAX];
	for (size_t i = begin; i < end; i++) {
		node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
		fprintf(out, "roce_job_shared_node{%s} %d\n", lb, r->nodes[i].n_shared ? 1 : 0);
	}
	return ferror(out) ? -1 : 0;
}

/* One family's samples of a port, written line by line without printf:
 * the exposition of a 16,384-node job is some 5 million lines.  The
 * prefix (family, labels, the open label of what varies) is built once. */
#define ROOM (40 + 32 + 20 + 1) /* what, tail, digits, newline */
struct sample_line {
	char buf[LABELS_MAX + 128];
	size_t prefix;
};

static void line_start(struct sample_line *l, const char *family, const char *labels, const char *open)
{
	int n = snprintf(l->buf, sizeof(l->buf), "%s{%s,%s=\"", family, labels, open);
	l->prefix = n < 0 ? 0 : (size_t)n < sizeof(l->buf) - ROOM ? (size_t)n : sizeof(l->buf) - ROOM;
}

/* The sample: prefix, what (at most 40 bytes: a counter or a priority),
 * then tail (label text closing the braces, at most 32 bytes), then value. */
static void line_put(FILE *out, struct sample_line *l, const char *what, const char *tail, uint64_t value)
{
	size_t n = l->prefix;
	size_t wl = strnlen(what, 40), tl = strnlen(tail, 32);
	memcpy(l->buf + n, what, wl);
	n += wl;
	memcpy(l->buf + n, tail, tl);
	n += tl;
	n += roce_decimal_u64(l->buf + n, value);
	l->buf[n++] = '\n';
	fwrite(l->buf, 1, n, out);
}

static int counter_deltas(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	char lb[LABELS_MAX];
	struct sample_line l;
	for (size_t i = begin; i < end; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_fragment_port *p = &r->nodes[i].ports[j];
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			line_start(&l, "roce_job_port_counter_delta", lb, "counter");
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				if (p->cs[c] != ROCE_DELTA_UNREAD)
					line_put(out, &l, roce_counter_defs[c].report_name, "\"} ", p->c[c]);
		}
	return ferror(out) ? -1 : 0;
}

static int counter_lower_bounds(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	char lb[LABELS_MAX];
	for (size_t i = begin; i < end; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_fragment_port *p = &r->nodes[i].ports[j];
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				if (p->cs[c] == ROCE_DELTA_RESET || p->cs[c] == ROCE_DELTA_SATURATED)
					fprintf(out, "roce_job_port_counter_lower_bound{%s,counter=\"%s\"} 1\n", lb,
					        roce_counter_defs[c].report_name);
		}
	return ferror(out) ? -1 : 0;
}

static int pause_frames(FILE *out, size_t begin, size_t end, const void *arg)
{
	static const char *const prio[ROCE_PRIOS] = { "0", "1", "2", "3", "4", "5", "6", "7" };
	const struct roce_job_report *r = arg;
	char lb[LABELS_MAX];
	struct sample_line l;
	for (size_t i = begin; i < end; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_fragment_port *p = &r->nodes[i].ports[j];
			if (p->pfc_status == ROCE_DELTA_UNREAD)
				continue;
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			line_start(&l, "roce_job_port_pfc_pause_frames", lb, "priority");
			for (int q = 0; q < ROCE_PRIOS; q++) {
				line_put(out, &l, prio[q], "\",direction=\"rx\"} ", p->pfc_ind[q]);
				line_put(out, &l, prio[q], "\",direction=\"tx\"} ", p->pfc_req[q]);
			}
		}
	return ferror(out) ? -1 : 0;
}

static int verdicts(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	char lb[LABELS_MAX];
	for (size_t i = begin; i < end; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts; j++) {
			const struct roce_fragment_verdict *v = &r->nodes[i].verdicts[j];
			node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
			label(lb, sizeof(lb), "subject", v->subject, false);
			label(lb, sizeof(lb), "code", v->code, false);
			label(lb, sizeof(lb), "severity", roce_verdict_severity_name(v->severity), false);
			fprintf(out, "roce_job_verdict{%s} 1\n", lb);
		}
	return ferror(out) ? -1 : 0;
}

/* The families in the order they are written. */
static const struct {
	const char *name, *help;
	roce_parprint_fn lines;
} families[] = {
	{ "roce_job_seconds", "Time between the job's prolog and epilog snapshots on the node.", job_seconds },
	{ "roce_job_shared_node", "1 when other jobs ran on the node during the job (counters are per port).",
	  shared_node },
	{ "roce_job_port_counter_delta",
	  "Change of a RoCE port counter during the job; counter is the sysfs name, data counters in bytes.",
	  counter_deltas },
	{ "roce_job_port_counter_lower_bound",
	  "1 when the counter's delta is only a lower bound (counter reset or saturated during the job).",
	  counter_lower_bounds },
	{ "roce_job_port_pfc_pause_frames", "PFC pause frames during the job per priority; direction rx = received.",
	  pause_frames },
	{ "roce_job_verdict", "A verdict on the node's fabric during the job (severity info, warn or fail).",
	  verdicts },
};

int roce_report_prometheus_print(FILE *out, const struct roce_job_report *r)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		family(out, families[i].name, families[i].help);
		if (roce_parprint(out, r->n_nodes, NODES_PER_CHUNK, families[i].lines, r) < 0)
			return -1;
	}
	return ferror(out) ? -1 : 0;
}

void roce_report_prometheus_label(char *buf, size_t len, const char *name, const char *value, bool first)
{
	label(buf, len, name, value, first);
}

void roce_report_prometheus_family(FILE *out, const char *name, const char *help) { family(out, name, help); }
