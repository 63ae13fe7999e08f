/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * livereport_prometheus.h - roce-report --live in the Prometheus text
 * exposition format (labels slurm_job_id, node, device, port, since="start"
 * or "last"), for node_exporter's textfile collector (etc/prometheus.md).  Pure.
 */
#ifndef ROCE_LIVEREPORT_PROMETHEUS_H
#define ROCE_LIVEREPORT_PROMETHEUS_H

#include <stdio.h>
#include "report/livereport.h"

/* 0, or -1 on a write error. */
int roce_livereport_prometheus_print(FILE *out, const struct roce_livereport *r);

#endif
