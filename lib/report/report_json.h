/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_json.h - a job's report as one JSON document: the summary (node
 * list, job verdicts, consistency, errors) and every node as in its
 * fragment (roce-report(1) describes the keys).  Pure.
 */
#ifndef ROCE_REPORT_JSON_H
#define ROCE_REPORT_JSON_H

#include <stdio.h>
#include "report/report.h"

/* The document streamed node by node (memory: one node's JSON at a time,
 * each the fragment writer's text, fragment.h), one line.  0, or -1 on
 * ENOMEM or a write error. */
int roce_report_json_print(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist);

#endif
