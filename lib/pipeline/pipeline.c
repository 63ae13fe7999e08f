/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.c - collect -> check -> locality -> plan for one node.
 *
 * The locality step is all here, in the order it runs: load the topology,
 * compute its path types, read the job's GPUs, their PCIe paths, choose
 * their HCAs.  Its troubles are the node's (warn findings, every healthy
 * HCA is used) except what the caller named and asked to be strict about.
 */
#include "config.h"
#include "pipeline/pipeline.h"
#include "check/gpuset.h"
#include "collect/pcie.h"
#include "check/pciecheck.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Locality only when it can change the answer: the job has GPUs, or a
 * topology was asked for.  From the cache, the whole step costs about
 * 0.2 ms of CPU; a live load without it 20 ms (bench/topo.sh). */
static bool want_locality(const struct roce_pipeline_opts *o)
{
	return (o->gpus && o->gpus[0]) || (o->topology && o->topology[0]) || o->matrix;
}

/* A "locality" warn finding with its cause (finding.h).  0, or -1 (err) when out of memory. */
__attribute__((format(printf, 4, 5))) static int locality_warning(struct roce_pipeline *out, struct roce_error *err,
                                                                  const char *cause, const char *fmt, ...)
{
	char msg[ROCE_ERR_MAX + 96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (roce_finding_addf(&out->check, "locality", NULL, 0, ROCE_WARN, cause, 0, NULL, "%s", msg) < 0) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	return 0;
}

/* A live topology whose cache cannot be used: every job start pays a full hwloc load. */
static int cache_warning(struct roce_pipeline *out, struct roce_error *err)
{
	const struct roce_reading *c = roce_topo_cache_reading(out->topo);
	if (roce_topo_origin(out->topo) != ROCE_TOPO_FROM_LIVE || c->status == ROCE_OK || c->status == ROCE_NOT_READ)
		return 0;
	return locality_warning(out, err, "no topology cache",
	                        "topology cache not used (%s): every start loads the live topology", c->why);
}

/* The topology (roce-check's --topology, else the policy's TopologyFile or
 * the live machine through TopologyCache) and the node's path types. */
static int load_locality(const struct roce_policy *p, const struct roce_pipeline_opts *o, struct roce_pipeline *out,
                         struct roce_error *err)
{
	const char *xml = o->topology && o->topology[0] ? o->topology : p->topology_file;
	struct roce_topo_source src = { .xml_file = xml, .cache_file = p->topology_cache };
	struct roce_error lerr = { "" };
	if (roce_topo_load(&src, &out->topo, &lerr) < 0) {
		free(out->loc);
		out->loc = NULL;
		if (o->topology_required) {
			roce_error_set(err, "topology: %s", lerr.msg);
			return -1;
		}
		return locality_warning(out, err, "no topology",
		                        "topology cannot be loaded (%s): NCCL_IB_HCA lists every healthy HCA",
		                        lerr.msg);
	}
	if (roce_locality_build_node(out->topo, &out->node, out->loc, err) < 0)
		return -1;
	return cache_warning(out, err);
}

/* Is GPU g one whose own PCIe path is judged: the job's, or with no job
 * GPUs known (roce-check without a list, a list that cannot be mapped)
 * every GPU of the topology. */
static bool judged_gpu(const struct roce_gpuset *gpus, size_t g)
{
	if (gpus->status != ROCE_GPUS_OK)
		return true;
	for (size_t i = 0; i < gpus->n; i++)
		if (gpus->idx[i] == g)
			return true;
	return false;
}

/* Every GPU's PCIe path (each bridge the HCAs' paths share read once):
 * the facts of every GPU-HCA pair (ACS redirect, degraded links) into the
 * locality, for the choice's GDR level and the matrix, and pcie_link and
 * iommu findings for the judged GPUs.  A GPU of the topology that sysfs
 * does not have (a TopologyFile from elsewhere) gets no marks and no
 * findings. */
static int pcie_gpus(const struct roce_policy *p, const struct roce_pipeline_opts *o, const struct roce_gpuset *gpus,
                     struct roce_pipeline *out, struct roce_error *err)
{
	struct roce_locality *loc = out->loc;
	if (!loc || loc->n_gpus == 0)
		return 0;
	const char *root = o->collect.sysfs_root ? o->collect.sysfs_root : p->sysfs_root;
	struct roce_pcie_want want = roce_pcie_want_of(p, true);
	struct roce_pcie_path *paths = calloc(loc->n_gpus, sizeof(*paths));
	struct roce_pcie_seen *seen = calloc(1, sizeof(*seen));
	int rc = -1;
	if (!paths || !seen)
		goto nomem;
	for (size_t d = 0; d < out->node.n_devices; d++)
		roce_pcie_seen_path(seen, &out->node.devices[d].pcie);
	for (size_t g = 0; g < loc->n_gpus; g++) {
		struct roce_pcie_path *gp = &paths[g];
		roce_pcie_collect_path_wanted(root, loc->gpus[g].pci_addr, &want, gp, seen);
		for (size_t h = 0; h < loc->n_hcas; h++) {
			const struct roce_device *dev = roce_node_find_device(&out->node, loc->hcas[h].name);
			const char *bridge = NULL;
			unsigned bits = dev ? roce_pciecheck_pair(gp, &dev->pcie, p, &bridge) : 0;
			if (bits)
				roce_locality_block(loc, g, h, bits, bridge);
		}
		if (judged_gpu(gpus, g) && roce_pciecheck_gpu(&out->check, p, root, (unsigned)g, loc->gpus[g].pci_addr,
		                                              loc->gpus[g].device_id, gp) < 0)
			goto nomem;
	}
	roce_check_decide(&out->check, p);
	rc = 0;
nomem:
	if (rc < 0)
		roce_error_set(err, "out of memory");
	free(seen);
	free(paths);
	return rc;
}

/* The job's GPUs against the node's (out->loc may be NULL). */
static int job_gpus(const struct roce_pipeline_opts *o, struct roce_pipeline *out, struct roce_gpuset *gpus,
                    struct roce_error *err)
{
	roce_gpuset_parse(o->gpus, o->proc_root, out->loc, gpus);
	if (gpus->status != ROCE_GPUS_INVALID)
		return 0;
	if (o->gpus_strict) {
		roce_error_set(err, "GPU list: %s", gpus->why);
		return -1;
	}
	if (locality_warning(out, err, "GPU list not understood",
	                     "GPU list not understood (%s): NCCL_IB_HCA lists every healthy HCA", gpus->why) < 0)
		return -1;
	/* said once: from here on a list that names no GPU (every GPU's path
	 * judged, every healthy HCA), or the choice says it again */
	gpus->status = ROCE_GPUS_NONE;
	return 0;
}

/* The locality step: topology -> path types -> the job's GPUs -> their HCAs and GDR level. */
static int locality(const struct roce_policy *p, const struct roce_pipeline_opts *o, struct roce_pipeline *out,
                    struct roce_error *err)
{
	struct roce_gpuset gpus;
	if (!(out->loc = calloc(1, sizeof(*out->loc))) || !(out->choice = calloc(1, sizeof(*out->choice)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	if (load_locality(p, o, out, err) < 0 || job_gpus(o, out, &gpus, err) < 0 ||
	    pcie_gpus(p, o, &gpus, out, err) < 0)
		return -1;
	return roce_choice_for_check(&out->check, p, out->loc, &gpus, out->choice, err);
}

int roce_pipeline_run(const struct roce_policy *policy, const struct roce_pipeline_opts *opts,
                      struct roce_pipeline *out, struct roce_error *err)
{
	memset(out, 0, sizeof(*out));
	roce_node_init(&out->node);
	struct roce_collect_opts copts = opts->collect;
	if (!copts.proc_root)
		copts.proc_root = opts->proc_root;
	copts.locality = want_locality(opts);
	roce_collect(&out->node, policy, &copts);
	if (roce_check(&out->node, policy, &out->check) < 0) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	if (want_locality(opts) && locality(policy, opts, out, err) < 0)
		return -1;
	if (roce_plan_build(policy, &out->check, out->choice, &out->plan) < 0) {
		roce_error_set(err, "%s", out->plan.why);
		return -1;
	}
	return 0;
}

void roce_pipeline_free(struct roce_pipeline *p)
{
	roce_topo_free(p->topo);
	free(p->loc);
	free(p->choice);
	roce_check_result_free(&p->check);
	roce_node_free(&p->node);
	memset(p, 0, sizeof(*p));
}
