/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.h - the check's findings (and the locality step's choice) -> the
 * environment a job gets, and the one writer of a plan's variables (the
 * job-wide agreement narrows a plan with it too: agree.h).  Pure.
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
/* name's value, or NULL when the plan does not set it. */
const char *roce_plan_get(const struct roce_plan *plan, const char *name);

/*
 * The plan's one variable writer (roce_plan_build, and roce_agreed_apply
 * when it narrows a plan to the step's agreed rails).
 *
 * roce_plan_setf: name's value becomes the formatted text, overwriting the
 * value when the plan already sets name, else as the next variable.  -1 when
 * a new name finds all ROCE_PLAN_VARS taken (the plan is unchanged), or when
 * the text does not fit the value (it is cut; the variable is set).
 *
 * roce_plan_list_add: item appended to list (len > 0 bytes), an NCCL list
 * "=a,b,c" ("" while empty): "=item" first, ",item" after, nothing when item
 * is one of its entries already.  What does not fit is cut at len.
 */
__attribute__((format(printf, 3, 4))) int roce_plan_setf(struct roce_plan *plan, const char *name, const char *fmt,
                                                         ...);
void roce_plan_list_add(char *list, size_t len, const char *item);

#endif
