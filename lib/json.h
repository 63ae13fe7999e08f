/*
 * json.h - the model, findings and plan as json-c objects (roce-check
 * --format json, report fragments).  Schema: doc in README "JSON output".
 */
#ifndef ROCE_JSON_H
#define ROCE_JSON_H
#include <json-c/json.h>
#include "model.h"
#include "check.h"
#include "plan.h"
json_object *roce_json_node(const struct roce_node *node);
json_object *roce_json_check(const struct roce_check_result *r);
json_object *roce_json_plan(const struct roce_plan *plan);
json_object *roce_json_reading(const struct roce_reading *r);
#endif
