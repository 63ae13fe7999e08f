/*
 * plan.h - findings x model (x job GPUs) -> the environment a job gets.  Pure.
 */
#ifndef ROCE_PLAN_H
#define ROCE_PLAN_H

#include "check.h"

#define ROCE_PLAN_VARS 8

struct roce_env_var {
	char name[32];
	char value[2048];   /* 32 x "=mlx5_NN:P," fits */
};

struct roce_plan {
	bool valid;                      /* false: no plan (node failed in strict mode, or no usable port) */
	struct roce_env_var vars[ROCE_PLAN_VARS];
	size_t n_vars;
	char why[256];                   /* when !valid */
};

struct roce_locality;                /* topo.h: GPU-to-HCA path types; NULL = none */

int roce_plan_build(const struct roce_node *node, const struct roce_policy *policy,
                    const struct roce_check_result *check, const struct roce_locality *loc,
                    struct roce_plan *out);
const char *roce_plan_get(const struct roce_plan *plan, const char *name);

#endif
