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

struct roce_locality;                /* topo.h: GPU-to-HCA path types */
struct roce_gpu_set;                 /* topo.h: the job's GPUs */
struct roce_topo_choice;             /* topo.h: HCAs in locality order and the GDR level */

/*
 * choice NULL: every healthy port in device order, GdrLevel from the policy.
 * Otherwise NCCL_IB_HCA follows choice->hca (each device expanded to its
 * healthy ports) and NCCL_NET_GDR_LEVEL is choice->gdr_level.
 */
int roce_plan_build(const struct roce_policy *policy, const struct roce_check_result *check,
                    const struct roce_topo_choice *choice, struct roce_plan *out);

/*
 * The locality step between check and plan: choose HCAs for the job's GPUs
 * among the devices that have a healthy port (check order), and add one
 * "locality" warn finding per warning of the choice (a GPU without a near
 * HCA, an unknown GPU mapping).  loc or gpus may be NULL.  0, or -1 (err).
 */
int roce_plan_locality(struct roce_check_result *check, const struct roce_policy *policy,
                       const struct roce_locality *loc, const struct roce_gpu_set *gpus,
                       struct roce_topo_choice *out, struct roce_error *err);
const char *roce_plan_get(const struct roce_plan *plan, const char *name);

#endif
