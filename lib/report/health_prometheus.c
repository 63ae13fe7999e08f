/* SPDX-License-Identifier: GPL-2.0-or-later */
/* health_prometheus.c - a node's health check as an exposition (health_prometheus.h). */
#include "config.h"
#include "report/health_prometheus.h"
#include "report/report_prometheus.h"

#include <inttypes.h>

/* The labels of one sample; longer (hostile) values are cut, never overflow. */
#define LABELS_MAX 1024

/* node, then device and port ("" for what is not about a port). */
static void port_labels(char *buf, size_t len, const char *node, const char *device, unsigned port)
{
	char num[16] = "";
	if (port)
		snprintf(num, sizeof(num), "%u", port);
	buf[0] = '\0';
	roce_report_prometheus_label(buf, len, "node", node, true);
	roce_report_prometheus_label(buf, len, "device", device, false);
	roce_report_prometheus_label(buf, len, "port", num, false);
}

static void ports(FILE *out, const struct roce_health_prometheus *h)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_health_port_healthy",
	                              "1 when the RoCE port passed every check (NCCL may use it), 0 when a check "
	                              "failed it");
	for (size_t i = 0; i < h->run->n_ports; i++) {
		const struct roce_port_result *p = &h->run->ports[i];
		if (!p->roce)
			continue;
		port_labels(l, sizeof(l), h->node, p->device, p->port);
		roce_report_prometheus_label(l, sizeof(l), "netdev", p->netdev, false);
		fprintf(out, "roce_health_port_healthy{%s} %d\n", l, p->healthy ? 1 : 0);
	}
}

/* Only what did not pass: a passing finding is the absence of a series. */
static void findings(FILE *out, const struct roce_health_prometheus *h)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_health_finding",
	                              "1 per check that did not pass (status warn, unknown or fail; hardware 1: a "
	                              "node fault, which drains when it fails)");
	for (size_t i = 0; i < h->run->n_findings; i++) {
		const struct roce_finding *f = &h->run->findings[i];
		if (f->status == ROCE_PASS)
			continue;
		port_labels(l, sizeof(l), h->node, f->device, f->port);
		roce_report_prometheus_label(l, sizeof(l), "check", f->check, false);
		roce_report_prometheus_label(l, sizeof(l), "subject", f->subject, false);
		roce_report_prometheus_label(l, sizeof(l), "status", roce_finding_verdict_name(f->status), false);
		roce_report_prometheus_label(l, sizeof(l), "hardware", f->hardware ? "1" : "0", false);
		fprintf(out, "roce_health_finding{%s} 1\n", l);
	}
}

/* Each tracked counter read at this run: its growth when the port is sick
 * for it, else 0 (the alert's "> 0"). */
static void growth(FILE *out, const struct roce_health_prometheus *h)
{
	char l[LABELS_MAX];
	roce_report_prometheus_family(out, "roce_port_counter_growth",
	                              "Growth of a link-quality counter between health checks that reached its "
	                              "TrendCounters threshold within TrendWindow (0: quiet, or below it)");
	for (size_t i = 0; i < h->trend->n_ports; i++) {
		const struct roce_trend_port *p = &h->trend->ports[i];
		for (int c = 0; c < ROCE_N_COUNTERS; c++) {
			if (!h->threshold[c] || !p->c[c].known)
				continue;
			port_labels(l, sizeof(l), h->node, p->device, p->port);
			roce_report_prometheus_label(l, sizeof(l), "counter", roce_counter_defs[c].name, false);
			fprintf(out, "roce_port_counter_growth{%s} %" PRIu64 "\n", l,
			        roce_trend_sick_growth(&p->c[c], h->threshold[c]));
		}
	}
}

int roce_health_prometheus_print(FILE *out, const struct roce_health_prometheus *h)
{
	char l[LABELS_MAX];
	bool drain = h->drain_reason && h->drain_reason[0];

	l[0] = '\0';
	roce_report_prometheus_label(l, sizeof(l), "node", h->node, true);
	roce_report_prometheus_family(out, "roce_health_timestamp_seconds", "When the health check ran");
	fprintf(out, "roce_health_timestamp_seconds{%s} %" PRId64 "\n", l, h->now_s);
	roce_report_prometheus_family(out, "roce_health_drain",
	                              "1 when a hardware failure drains the node (roce-check --drain, "
	                              "roce-healthcheck; reason: the drain reason), else 0");
	roce_report_prometheus_label(l, sizeof(l), "reason", drain ? h->drain_reason : "", false);
	fprintf(out, "roce_health_drain{%s} %d\n", l, drain ? 1 : 0);
	ports(out, h);
	findings(out, h);
	if (h->trend && h->threshold)
		growth(out, h);
	return ferror(out) ? -1 : 0;
}
