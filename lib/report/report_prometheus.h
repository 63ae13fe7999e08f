/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_prometheus.h - a job's report in the Prometheus text exposition
 * format, for node_exporter's textfile collector (etc/prometheus.md): one
 * gauge family per kind of value, labelled job, node, device, port.  Pure.
 */
#ifndef ROCE_REPORT_PROMETHEUS_H
#define ROCE_REPORT_PROMETHEUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report/report.h"

/* 0, or -1 on a write error. */
int roce_report_prometheus_print(FILE *out, const struct roce_job_report *r);

/* For other expositions (nodehealth_prometheus.c): name="value" appended to
 * buf, the value escaped as the format wants (backslash, double quote,
 * newline) and cut, never overflowing, at len; a leading comma unless
 * first.  And a family's HELP and TYPE (gauge) lines. */
void roce_report_prometheus_label(char *buf, size_t len, const char *name, const char *value, bool first);
void roce_report_prometheus_family(FILE *out, const char *name, const char *help);

#endif
