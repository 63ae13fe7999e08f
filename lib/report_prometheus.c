/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_prometheus.c - the Prometheus exposition of a report (report_prometheus.h). */
#include "config.h"
#include "report_prometheus.h"

#include <inttypes.h>
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

/* The labels of one sample; longer (hostile) values are cut by label(), never overflow. */
#define LABELS_MAX 1024

static void node_families(FILE *out, const struct roce_job_report *r)
{
	char lb[LABELS_MAX];
	family(out, "roce_job_seconds", "Time between the job's prolog and epilog snapshots on the node.");
	for (size_t i = 0; i < r->n_nodes; i++) {
		node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
		fprintf(out, "roce_job_seconds{%s} %.3f\n", lb, r->nodes[i].seconds);
	}
	family(out, "roce_job_shared_node", "1 when other jobs ran on the node during the job (counters are per port).");
	for (size_t i = 0; i < r->n_nodes; i++) {
		node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
		fprintf(out, "roce_job_shared_node{%s} %d\n", lb, r->nodes[i].n_shared ? 1 : 0);
	}
}

static void counter_deltas(FILE *out, const struct roce_job_report *r)
{
	char lb[LABELS_MAX];
	family(out, "roce_job_port_counter_delta",
	       "Change of a RoCE port counter during the job; counter is the sysfs name, data counters in bytes.");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_fragment_port *p = &r->nodes[i].ports[j];
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				if (p->cs[c] != ROCE_DELTA_UNREAD)
					fprintf(out, "roce_job_port_counter_delta{%s,counter=\"%s\"} %" PRIu64 "\n", lb,
					        roce_counter_defs[c].report_name, p->c[c]);
		}
}

static void counter_lower_bounds(FILE *out, const struct roce_job_report *r)
{
	char lb[LABELS_MAX];
	family(out, "roce_job_port_counter_lower_bound",
	       "1 when the counter's delta is only a lower bound (counter reset or saturated during the job).");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_fragment_port *p = &r->nodes[i].ports[j];
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				if (p->cs[c] == ROCE_DELTA_RESET || p->cs[c] == ROCE_DELTA_SATURATED)
					fprintf(out, "roce_job_port_counter_lower_bound{%s,counter=\"%s\"} 1\n", lb,
					        roce_counter_defs[c].report_name);
		}
}

static void pause_frames(FILE *out, const struct roce_job_report *r)
{
	char lb[LABELS_MAX];
	family(out, "roce_job_port_pfc_pause_frames", "PFC pause frames during the job per priority; direction rx = received.");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_fragment_port *p = &r->nodes[i].ports[j];
			if (p->pfc_status == ROCE_DELTA_UNREAD)
				continue;
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int q = 0; q < ROCE_PRIOS; q++)
				fprintf(out, "roce_job_port_pfc_pause_frames{%s,priority=\"%d\",direction=\"rx\"} %" PRIu64 "\n"
				             "roce_job_port_pfc_pause_frames{%s,priority=\"%d\",direction=\"tx\"} %" PRIu64 "\n",
				        lb, q, p->pfc_ind[q], lb, q, p->pfc_req[q]);
		}
}

static void verdicts(FILE *out, const struct roce_job_report *r)
{
	char lb[LABELS_MAX];
	family(out, "roce_job_verdict", "A verdict on the node's fabric during the job (severity info, warn or fail).");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts; j++) {
			const struct roce_fragment_verdict *v = &r->nodes[i].verdicts[j];
			node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
			label(lb, sizeof(lb), "subject", v->subject, false);
			label(lb, sizeof(lb), "code", v->code, false);
			label(lb, sizeof(lb), "severity", roce_verdict_severity_name(v->severity), false);
			fprintf(out, "roce_job_verdict{%s} 1\n", lb);
		}
}

int roce_report_prometheus_print(FILE *out, const struct roce_job_report *r)
{
	node_families(out, r);
	counter_deltas(out, r);
	counter_lower_bounds(out, r);
	pause_frames(out, r);
	verdicts(out, r);
	return ferror(out) ? -1 : 0;
}

void roce_report_prometheus_label(char *buf, size_t len, const char *name, const char *value, bool first)
{
	label(buf, len, name, value, first);
}

void roce_report_prometheus_family(FILE *out, const char *name, const char *help)
{
	family(out, name, help);
}
