/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * livereport_json.h - roce-report --live as one JSON document (schema
 * slurm-roce/live-report/1): each node's sample with each port's numbers
 * since the job started and since the sample before, and the events.  Pure.
 */
#ifndef ROCE_LIVEREPORT_JSON_H
#define ROCE_LIVEREPORT_JSON_H

#include <stdio.h>
#include "report/livereport.h"

/* 0, or -1 on a write error or ENOMEM. */
int roce_livereport_json_print(FILE *out, const struct roce_livereport *r);

#endif
