/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth_prometheus.h - roce-report --nodes --format prometheus: the ranking in the Prometheus
 * text exposition format (node_exporter's textfile collector): per node port, the jobs seen and
 * the jobs with each problem, labelled node, device, port. Every string came from a fragment and
 * is escaped for the format. Pure.
 */
#ifndef ROCE_NODEHEALTH_PROMETHEUS_H
#define ROCE_NODEHEALTH_PROMETHEUS_H

#include <stdio.h>
#include "report/nodehealth.h"

/* h ranked (roce_nodehealth_rank).  0, or -1 on a write error (or ENOMEM). */
int roce_nodehealth_prometheus_print(FILE *out, const struct roce_nodehealth *h);

#endif
