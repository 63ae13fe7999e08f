/* SPDX-License-Identifier: GPL-2.0-or-later */
/* livereport_prometheus.c - roce-report --live as an exposition (livereport_prometheus.h). */
#include "config.h"
#include "report/livereport_prometheus.h"
#include "fragment/verdicts.h"
#include "report/report_metric.h"
#include "report/report_prometheus.h"

#include <inttypes.h>
#include <stdio.h>

#define LABELS_MAX 1024

static void node_labels(char *buf, size_t len, const struct roce_livereport *r, const struct roce_live *l)
{
	buf[0] = '\0';
	roce_report_prometheus_label(buf, len, "slurm_job_id", r->job_id, true);
	roce_report_prometheus_label(buf, len, "node", l->node, false);
}

static void port_labels(char *buf, size_t len, const struct roce_livereport *r, const struct roce_live *l,
                        const struct roce_live_port *p, const char *since)
{
	char num[16];
	snprintf(num, sizeof(num), "%u", p->port);
	node_labels(buf, len, r, l);
	roce_report_prometheus_label(buf, len, "device", p->device, false);
	roce_report_prometheus_label(buf, len, "port", num, false);
	roce_report_prometheus_label(buf, len, "since", since, false);
}

static void times(FILE *out, const struct roce_livereport *r)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_live_sample_timestamp_seconds",
	                              "When the node's health check took its latest sample of the running job.");
	for (size_t i = 0; i < r->n_nodes; i++) {
		node_labels(l, sizeof(l), r, &r->nodes[i]);
		fprintf(out, "roce_live_sample_timestamp_seconds{%s} %.3f\n", l, (double)r->nodes[i].now_ns / 1e9);
	}
	roce_report_prometheus_family(out, "roce_live_start_timestamp_seconds",
	                              "When the job started on the node (its prolog's snapshot).");
	for (size_t i = 0; i < r->n_nodes; i++) {
		node_labels(l, sizeof(l), r, &r->nodes[i]);
		fprintf(out, "roce_live_start_timestamp_seconds{%s} %.3f\n", l, (double)r->nodes[i].start_ns / 1e9);
	}
}

/* Every metric of every port over both intervals: rates in one family,
 * counts in the other (a metric not read has no sample). */
static void metrics(FILE *out, const struct roce_livereport *r, bool rates)
{
	const char *family = rates ? "roce_live_port_rate_bytes_per_second" : "roce_live_port_count";
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, family,
	                              rates ? "RDMA bytes per second (metric tx, rx) since the job started "
	                                      "(since=\"start\") or since the node's sample before (since=\"last\")."
	                                    : "Counts (metric loss, timeout, ecn, cnp, pause, linkdown: as "
	                                      "roce-report's "
	                                      "heat maps) since the job started or since the node's sample before.");
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_live *n = &r->nodes[i];
		for (size_t k = 0; k < n->n_ports; k++)
			for (int half = 0; half < 2; half++) {
				const struct roce_live_port *p = &n->ports[k];
				struct roce_fragment fn;
				struct roce_fragment_port fp;
				roce_livereport_metric_port(n, p, half ? &p->since_last : &p->since_start, &fn, &fp);
				for (int m = 0; m < ROCE_METRIC_N; m++) {
					double v;
					if (roce_report_metric_is_rate((enum roce_report_metric)m) != rates ||
					    roce_report_metric_value(&fn, &fp, (enum roce_report_metric)m, &v) ==
					            ROCE_METRIC_UNREAD)
						continue;
					port_labels(l, sizeof(l), r, n, p, half ? "last" : "start");
					roce_report_prometheus_label(l, sizeof(l), "metric",
					                             roce_report_metric_key((enum roce_report_metric)m),
					                             false);
					fprintf(out, rates ? "%s{%s} %.1f\n" : "%s{%s} %.0f\n", family, l, v);
				}
			}
	}
}

static void events(FILE *out, const struct roce_livereport *r)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_live_event",
	                              "A GID or link change seen while the job runs (code gid_changed, link_down); "
	                              "1 while the latest sample still sees it, else 0.");
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_live *n = &r->nodes[i];
		for (size_t k = 0; k < n->n_events; k++) {
			const struct roce_live_event *e = &n->events[k];
			node_labels(l, sizeof(l), r, n);
			roce_report_prometheus_label(l, sizeof(l), "subject", e->subject, false);
			roce_report_prometheus_label(l, sizeof(l), "code", e->code, false);
			roce_report_prometheus_label(l, sizeof(l), "severity",
			                             roce_verdict_severity_name(
			                                     (enum roce_severity)roce_live_event_severity(e->code)),
			                             false);
			fprintf(out, "roce_live_event{%s} %d\n", l, e->last_ns == n->now_ns);
		}
	}
}

int roce_livereport_prometheus_print(FILE *out, const struct roce_livereport *r)
{
	times(out, r);
	metrics(out, r, true);
	metrics(out, r, false);
	events(out, r);
	return ferror(out) ? -1 : 0;
}
