/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - the node model, findings and plan as json-c objects: roce-check
 * --format json (schema in README.md, "JSON (`--format json`, version 1)"),
 * and the one JSON form of a struct roce_reading, which counter snapshots
 * use too (read back by roce_jin_reading(), jsonin.h).  Output only.
 */
#ifndef ROCE_JSON_H
#define ROCE_JSON_H
#include <json-c/json.h>
#include "base/model.h"
#include "check/check.h"
#include "check/plan.h"
json_object *roce_json_node(const struct roce_node *node);
json_object *roce_json_check(const struct roce_check_result *r);
json_object *roce_json_plan(const struct roce_plan *plan);
/* {"status": "missing", "why": "..."}: the errno is in why's text. */
json_object *roce_json_reading(const struct roce_reading *r);
#endif
