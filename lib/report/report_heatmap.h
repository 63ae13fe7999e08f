/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_heatmap.h - one metric of a job's report as a node-by-port heat
 * map: an HTML <figure> with a legend and an inline SVG whose cells carry
 * class "cell KEY lN" (N 0-4, "na" not read), data-node, data-port and
 * data-v (the value), for the HTML report (report_html.h).
 */
#ifndef ROCE_REPORT_HEATMAP_H
#define ROCE_REPORT_HEATMAP_H

#include <stdio.h>
#include "report/report.h"
#include "report/report_metric.h"

/* The figure of metric m to out; -1 on ENOMEM. */
int roce_report_heatmap_print(FILE *out, const struct roce_job_report *r, enum roce_report_metric m);

#endif
