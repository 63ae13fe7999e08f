/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_ranwith.h - what the job ran with, across its nodes: per NCCL
 * variable, the values and the nodes that had each (ranwith.h records
 * them per node), for the printers.
 */
#ifndef ROCE_REPORT_RANWITH_H
#define ROCE_REPORT_RANWITH_H

#include "report/report.h"

/* The variables any node recorded, in order of first appearance, into
 * names (at most max); their number. */
size_t roce_report_ranwith_names(const struct roce_job_report *r, const char **names, size_t max);
/* name's values -> nodes, in order of first appearance.  A user's value is
 * keyed "VALUE (the job's own; checked: CHECKED)"; nodes that recorded
 * nothing are left out.  -1 on ENOMEM. */
int roce_report_ranwith_groups(const struct roce_job_report *r, const char *name, struct roce_report_groups *gs);

#endif
