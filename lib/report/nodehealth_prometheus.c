/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodehealth_prometheus.c - node health across jobs as an exposition (nodehealth_prometheus.h). */
#include "config.h"
#include "report/nodehealth_prometheus.h"
#include "report/report_prometheus.h"

#include <inttypes.h>
#include <stdio.h>

#define LABELS_MAX 1024

/* node, device and port ("" for the node's own row: no port). */
static void port_labels(char *buf, size_t len, const struct roce_nodehealth_row *r)
{
	char num[16] = "";
	if (r->device[0])
		snprintf(num, sizeof(num), "%u", r->port);
	buf[0] = '\0';
	roce_report_prometheus_label(buf, len, "node", r->node, true);
	roce_report_prometheus_label(buf, len, "device", r->device, false);
	roce_report_prometheus_label(buf, len, "port", num, false);
}

/* The rows a printer shows: every port, the node itself only when it had a problem. */
static bool shown(const struct roce_nodehealth_row *r) { return r->device[0] || r->bad; }

static void per_row(FILE *out, const struct roce_nodehealth *h, const char *name, const char *help,
                    unsigned (*value)(const struct roce_nodehealth_row *))
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, name, help);
	for (size_t i = 0; i < h->n; i++) {
		if (!shown(&h->rows[i]))
			continue;
		port_labels(l, sizeof(l), &h->rows[i]);
		fprintf(out, "%s{%s} %u\n", name, l, value(&h->rows[i]));
	}
}

static unsigned seen(const struct roce_nodehealth_row *r) { return r->seen; }
static unsigned bad(const struct roce_nodehealth_row *r) { return r->bad; }

static void problems(FILE *out, const struct roce_nodehealth *h)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_node_port_problem_jobs",
	                              "Jobs that saw this problem on the node port (problem: loss, timeouts, "
	                              "pause_storm, link_down, slow_link, counter_trend; port \"\" = the node "
	                              "itself)");
	for (size_t i = 0; i < h->n; i++) {
		if (!shown(&h->rows[i]))
			continue;
		for (int k = 0; k < ROCE_NH_N; k++) {
			port_labels(l, sizeof(l), &h->rows[i]);
			roce_report_prometheus_label(l, sizeof(l), "problem",
			                             roce_nodehealth_problem_key((enum roce_nodehealth_problem)k),
			                             false);
			fprintf(out, "roce_node_port_problem_jobs{%s} %u\n", l, h->rows[i].jobs[k]);
		}
	}
}

static void last_problem(FILE *out, const struct roce_nodehealth *h)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_node_port_last_problem_timestamp_seconds",
	                              "When the latest job with a problem on the node port ended there "
	                              "(slurm_job_id: that job)");
	for (size_t i = 0; i < h->n; i++) {
		const struct roce_nodehealth_row *r = &h->rows[i];
		if (!r->bad || r->last_ns <= 0)
			continue;
		port_labels(l, sizeof(l), r);
		roce_report_prometheus_label(l, sizeof(l), "slurm_job_id", r->last_job, false);
		fprintf(out, "roce_node_port_last_problem_timestamp_seconds{%s} %" PRId64 "\n", l,
		        r->last_ns / 1000000000);
	}
}

int roce_nodehealth_prometheus_print(FILE *out, const struct roce_nodehealth *h)
{
	roce_report_prometheus_family(out, "roce_nodes_jobs",
	                              "Jobs whose reports were read (--since and the user's view)");
	fprintf(out, "roce_nodes_jobs %zu\n", h->jobs);
	roce_report_prometheus_family(out, "roce_nodes_jobs_with_problem",
	                              "Of those, jobs with a problem on any node port");
	fprintf(out, "roce_nodes_jobs_with_problem %zu\n", h->jobs_bad);
	per_row(out, h, "roce_node_port_jobs", "Jobs that had the node port", seen);
	per_row(out, h, "roce_node_port_jobs_with_problem", "Jobs that saw any problem on the node port", bad);
	problems(out, h);
	last_problem(out, h);
	return ferror(out) ? -1 : 0;
}
