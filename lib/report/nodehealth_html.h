/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth_html.h - roce-report --nodes --format html: the ranking as one self-contained HTML
 * page (the job report's look, reportable as a mail attachment): a sortable table of the node
 * ports with a problem. Every string came from a fragment and is escaped for the format. Pure.
 */
#ifndef ROCE_NODEHEALTH_HTML_H
#define ROCE_NODEHEALTH_HTML_H

#include <stdio.h>
#include "report/nodehealth.h"

/* h ranked (roce_nodehealth_rank).  0, or -1 on a write error (or ENOMEM). */
int roce_nodehealth_html_print(FILE *out, const struct roce_nodehealth *h);

#endif
