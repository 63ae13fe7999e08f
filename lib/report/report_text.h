/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_text.h - a job's report as text for a terminal: a row per port,
 * then job verdicts, consistency across nodes, node verdicts, notes and
 * unusable fragments.  Pure (writes to the stream it is given).
 */
#ifndef ROCE_REPORT_TEXT_H
#define ROCE_REPORT_TEXT_H

#include <stdio.h>
#include "report/report.h"

/* 0, or -1 on ENOMEM (the text is then incomplete). */
int roce_report_text_print(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist);

#endif
