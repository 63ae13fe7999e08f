/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpuset.h - the job's GPUs: SLURM_STEP_GPUS, SLURM_JOB_GPUS or
 * CUDA_VISIBLE_DEVICES, hostile text, as Slurm GPU indexes of this node.
 *
 * Not pure: a GPU UUID is mapped through the NVIDIA driver's files under
 * /proc (read only when the list holds one).  No hwloc: the node's GPUs
 * come from a struct roce_locality (locality.h), which may be absent.
 */
#ifndef ROCE_GPUSET_H
#define ROCE_GPUSET_H

#include <stddef.h>

#include "check/locality.h"
#include "base/model.h"

enum roce_gpuset_status {
	ROCE_GPUS_NONE = 0, /* empty or unset: the job has no GPUs */
	ROCE_GPUS_OK,       /* idx[] holds Slurm GPU indexes, ascending, no duplicates */
	ROCE_GPUS_UNKNOWN,  /* well-formed, but cannot be mapped to this node's GPUs */
	ROCE_GPUS_INVALID,  /* not a GPU list: garbage */
};

struct roce_gpuset {
	enum roce_gpuset_status status;
	size_t n;
	unsigned idx[ROCE_LOCALITY_GPU_MAX];
	char why[ROCE_WHY_MAX]; /* for UNKNOWN/INVALID: what and why, hostile text escaped */
};
const char *roce_gpuset_status_name(enum roce_gpuset_status s);

/*
 * Parse a comma separated list of GPU indexes ("0,2", ranges "2-3"
 * accepted) or UUIDs ("GPU-8-4-4-4-12 hex", "MIG-GPU-<uuid>/gi/ci").  GPU
 * UUIDs are mapped to indexes through
 * <proc_root>/driver/nvidia/gpus/<busid>/information ("GPU UUID:" and
 * "Bus Location:" lines) and loc's GPU bus ids; plain MIG UUIDs
 * ("MIG-<uuid>") and "NoDevFiles" have no known mapping.  loc may be NULL
 * (then indexes are not range-checked and UUIDs are UNKNOWN).
 * proc_root NULL = "/proc".  Never fails: the status says it all.
 */
void roce_gpuset_parse(const char *list, const char *proc_root, const struct roce_locality *loc,
                       struct roce_gpuset *out);

#endif
