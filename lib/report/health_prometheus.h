/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * health_prometheus.h - a node's health check (roce-check --format
 * prometheus, which roce-healthcheck writes for node_exporter's textfile
 * collector) as an exposition: when it ran, each RoCE port's health, each
 * finding that did not pass, the drain decision and the link-quality trend
 * (roce_port_counter_growth), labelled node (and device, port).
 * etc/prometheus-rules.yml alerts on them.  Pure.
 */
#ifndef ROCE_HEALTH_PROMETHEUS_H
#define ROCE_HEALTH_PROMETHEUS_H

#include <stdint.h>
#include <stdio.h>
#include "check/finding.h"
#include "pipeline/trend.h"

struct roce_health_prometheus {
	const char *node;                    /* the Slurm node name */
	int64_t now_s;                       /* when the check ran (Unix seconds) */
	const struct roce_check_result *run; /* the check's findings and ports */
	const char *drain_reason;            /* the drain reason, NULL or "" when nothing drains */
	const struct roce_trend *trend;      /* the link-quality trend, NULL when none was kept */
	const uint64_t *threshold;           /* [ROCE_N_COUNTERS] its thresholds (TrendCounters=) */
};

/* 0, or -1 on a write error. */
int roce_health_prometheus_print(FILE *out, const struct roce_health_prometheus *h);

#endif
