/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * choice.h - the job's HCAs and GDR level, from the node's locality and
 * the job's GPUs: NCCL_IB_HCA in the order the GPUs want them and
 * NCCL_NET_GDR_LEVEL.  Pure.
 *
 * The locality step of the pipeline (pipeline.c) ends here:
 * roce_choice_for_check() takes the healthy devices from the check's
 * results and hands the choice's warnings back to it as findings;
 * plan.c turns the choice into the environment.
 */
#ifndef ROCE_CHOICE_H
#define ROCE_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#include "check/check.h"
#include "base/error.h"
#include "check/gpuset.h"
#include "check/locality.h"
#include "read/policy.h"

#define ROCE_CHOICE_WARN_LEN 256

struct roce_choice_gpu {
	unsigned gpu;              /* Slurm index */
	enum roce_sysfs_path best; /* best path to any healthy HCA (UNKNOWN if none known) */
	bool gdr;                  /* best is within the cap: NCCL will use GPUDirect RDMA */
	bool acs;                  /* ACS redirect on the path to a chosen HCA: the level is lowered below best */
	/* Why: bits of loc->hcas (index < ROCE_LOCALITY_HCA_MAX): the HCAs it
	 * got, and those as near with less bandwidth that it did not
	 * (HcaTies=bandwidth); bw_unknown: a tied HCA's bandwidth is unknown,
	 * so every tied one was kept. */
	uint64_t chosen, slower;
	bool bw_unknown;
};

struct roce_choice {
	size_t n_hca; /* NCCL_IB_HCA, in this order (device names) */
	char hca[ROCE_HCA_MAX][ROCE_NAME_MAX];
	enum roce_gdr_level gdr_level; /* NCCL_NET_GDR_LEVEL */
	bool by_locality;              /* false: every healthy HCA (no GPUs, unknown mapping, none near) */
	size_t n_gpus;
	struct roce_choice_gpu gpus[ROCE_LOCALITY_GPU_MAX];
	size_t n_warnings; /* human text, one finding each */
	char warnings[ROCE_LOCALITY_GPU_MAX + 4][ROCE_CHOICE_WARN_LEN];
	char causes[ROCE_LOCALITY_GPU_MAX + 4][ROCE_CAUSE_MAX]; /* each warning's cause (finding.h) */
};

/*
 * The choice.  healthy: the healthy, policy-allowed RoCE HCAs (device
 * names, in the order NCCL_IB_HCA should list them when there is no
 * locality).  loc may be NULL (no topology), gpus too (no GPUs).  For each
 * GPU of gpus (in index order): its nearest healthy HCAs, no duplicates;
 * among those tied at its best path type, as NCCL breaks the tie
 * (ncclTopoGetLocal: the highest path bandwidth first), the ones with the
 * most bandwidth (roce_locality_hca_bw: the lower of port rate and PCIe
 * link), or all of them with ties ROCE_TIES_ALL or when one's bandwidth is
 * unknown; the GDR level is the worst of those best
 * paths, capped at cap, and below the path of any GPU whose path to a chosen
 * HCA crosses ACS redirect (loc->gpu_hca_block; a warning names the
 * bridge).  A GPU with no HCA within the cap gets a warning;
 * if no GPU has one, or the GPUs are unknown/invalid, or there is no
 * topology: every healthy HCA, at level cap.  No GPUs: every healthy HCA,
 * level cap.  Returns 0, or -1 when n_healthy > ROCE_HCA_MAX (err set).
 */
int roce_choice_make(const struct roce_locality *loc, const struct roce_gpuset *gpus, const char *const healthy[],
                     size_t n_healthy, enum roce_gdr_level cap, enum roce_hca_ties ties, struct roce_choice *out,
                     struct roce_error *err);

/*
 * The choice for a node's check: among the devices with a healthy port
 * (check order), at the policy's GdrLevel; one "locality" warn finding is
 * added to check per warning of the choice (a GPU without a near HCA, an
 * unknown GPU mapping).  loc or gpus may be NULL.  0, or -1 (err).
 */
int roce_choice_for_check(struct roce_check_result *check, const struct roce_policy *policy,
                          const struct roce_locality *loc, const struct roce_gpuset *gpus, struct roce_choice *out,
                          struct roce_error *err);

/* {"hca":[...], "gdr_level", "by_locality", "gpus":[{gpu,best,gdr,acs,hcas,slower}], "warnings":[...]};
 * loc (may be NULL) names the HCAs of hcas and slower. */
json_object *roce_choice_json(const struct roce_choice *c, const struct roce_locality *loc);

/* Why each GPU got its HCAs, after roce-check --matrix's matrix: its path,
 * each HCA's bandwidth, the equally near ones left out. */
void roce_choice_print(const struct roce_choice *c, const struct roce_locality *loc, FILE *out);

#endif
