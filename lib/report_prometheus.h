/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_prometheus.h - a job's report in the Prometheus text exposition
 * format, for node_exporter's textfile collector (etc/prometheus.md): one
 * gauge family per kind of value, labelled job, node, device, port.  Pure.
 */
#ifndef ROCE_REPORT_PROMETHEUS_H
#define ROCE_REPORT_PROMETHEUS_H

#include <stdio.h>
#include "report.h"

/* 0, or -1 on a write error. */
int roce_report_prometheus_print(FILE *out, const struct roce_job_report *r);

#endif
