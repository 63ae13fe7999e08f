/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth_text.h - roce-report --nodes --format text: the ranking as a table for a terminal:
 * the node ports with a problem in any job, worst first, and a count of the rest. Every string
 * came from a fragment and is escaped for the format. Pure.
 */
#ifndef ROCE_NODEHEALTH_TEXT_H
#define ROCE_NODEHEALTH_TEXT_H

#include <stdio.h>
#include "report/nodehealth.h"

/* h ranked (roce_nodehealth_rank).  0, or -1 on a write error (or ENOMEM). */
int roce_nodehealth_text_print(FILE *out, const struct roce_nodehealth *h);

#endif
