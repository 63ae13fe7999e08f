/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth_json.h - roce-report --nodes --format json: the ranking as JSON (schema
 * slurm-roce/nodes/1): every node port, worst first. Every string came from a fragment and is
 * escaped for the format. Pure.
 */
#ifndef ROCE_NODEHEALTH_JSON_H
#define ROCE_NODEHEALTH_JSON_H

#include <json-c/json.h>
#include <stdio.h>
#include "report/nodehealth.h"

/* h ranked (roce_nodehealth_rank).  0, or -1 on a write error (or ENOMEM). */
int roce_nodehealth_json_print(FILE *out, const struct roce_nodehealth *h);

#endif
