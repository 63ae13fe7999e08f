/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_html.h - a job's report as one self-contained HTML page: the
 * header, the job verdicts with their fixes, the consistency rows, a
 * node-by-port heat map per metric (report_metric.h), the sortable port
 * table and the node verdicts.  Sized for 4,096 nodes (report_html.c says
 * what is left out and how it is counted).
 */
#ifndef ROCE_REPORT_HTML_H
#define ROCE_REPORT_HTML_H

#include <stdio.h>
#include "report/report.h"

/* The page to out; -1 on an output error or ENOMEM (the page may then be partial). */
int roce_report_html_print(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist);

/* The page's inline CSS and its script, for other pages in the same look
 * (nodehealth_html.c).  The script sorts the table with id "ports" by the
 * heading clicked (th data-key; numbers by the cells' data-v). */
const char *roce_report_html_style(void);
const char *roce_report_html_script(void);

#endif
