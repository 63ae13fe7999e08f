/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h - one node, start to finish: collect -> check -> locality -> plan.
 * Not pure: it runs the collectors, loads the topology and reads the GPUs'
 * PCIe paths from sysfs.
 *
 * roce-check and the SPANK plugin's step check (spank/step.c) both run
 * this; they differ only in the options below.  The locality step runs only
 * when the job has GPUs or a topology is asked for, and reads in pipeline.c
 * in the order it runs: topo.h loads the topology, locality.h turns it into
 * path types, gpuset.h reads the job's GPUs, pcie.h and pciecheck.h read
 * each GPU's PCIe path (ACS redirects and degraded links between it and the
 * HCAs; pcie_link and iommu findings), choice.h picks their HCAs and GDR
 * level; plan.h builds the environment.
 */
#ifndef ROCE_PIPELINE_H
#define ROCE_PIPELINE_H

#include "check/check.h"
#include "check/choice.h"
#include "collect/collect.h"
#include "check/locality.h"
#include "check/plan.h"
#include "read/policy.h"
#include "collect/topo.h"

struct roce_pipeline_opts {
	struct roce_collect_opts collect;
	const char *topology;   /* hwloc XML overriding TopologyFile=; NULL = policy */
	bool topology_required; /* a topology that cannot be loaded is an error, not a warning */
	const char *gpus;       /* the job's GPUs (Slurm indexes or UUIDs); NULL/"" = none */
	bool gpus_strict;       /* an unparsable GPU list is an error, not a warning */
	const char *proc_root;  /* for GPU UUIDs; NULL = /proc */
	bool matrix;            /* load the topology even without GPUs (to show it) */
};

struct roce_pipeline {
	struct roce_node node;
	struct roce_check_result check;
	struct roce_plan plan;
	struct roce_topo *topo;     /* NULL when no locality step ran, or no topology loaded */
	struct roce_locality *loc;  /* NULL when no topology */
	struct roce_choice *choice; /* NULL when no locality step ran */
};

/*
 * Run every step.  Problems of the node are findings in out->check; -1
 * (err set) only for errors of the caller's making (a topology that
 * topology_required says must load and does not, or a bad GPU list under
 * gpus_strict), more RDMA devices or healthy HCAs than the locality step
 * takes (ROCE_LOCALITY_HCA_MAX, ROCE_HCA_MAX), out of memory, or a plan
 * whose values do not fit.  Free with roce_pipeline_free in every case.
 */
int roce_pipeline_run(const struct roce_policy *policy, const struct roce_pipeline_opts *opts,
                      struct roce_pipeline *out, struct roce_error *err);
void roce_pipeline_free(struct roce_pipeline *p);

#endif
