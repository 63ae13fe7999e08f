/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.h - the check's findings (and the locality step's choice) -> the
 * environment a job gets.  Pure.
 */
#ifndef ROCE_PLAN_H
#define ROCE_PLAN_H

#include "check/check.h"

#define ROCE_PLAN_VARS 8

struct roce_env_var {
	char name[32];
	char value[2048]; /* 32 x "=mlx5_NN:P," fits */
};

struct roce_plan {
	bool valid; /* false: no plan (node failed in strict mode, or no usable port) */
	struct roce_env_var vars[ROCE_PLAN_VARS];
	size_t n_vars;
	char why[256]; /* when !valid */
};

struct roce_choice; /* choice.h: HCAs in locality order and the GDR level */

/*
 * choice NULL: every healthy port in device order, GdrLevel from the policy.
 * Otherwise NCCL_IB_HCA follows choice->hca (each device expanded to its
 * healthy ports) and NCCL_NET_GDR_LEVEL is choice->gdr_level.
 */
int roce_plan_build(const struct roce_policy *policy, const struct roce_check_result *check,
                    const struct roce_choice *choice, struct roce_plan *out);
const char *roce_plan_get(const struct roce_plan *plan, const char *name);

#endif
