/*
 * pipeline.c - collect -> check -> locality -> plan for one node.
 */
#include "config.h"
#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Locality only when it can change the answer: the job has GPUs, or a
 * topology was asked for.  Loading one costs ~0.1 ms from the cache. */
static bool want_locality(const struct roce_pipeline_opts *o)
{
	return (o->gpus && o->gpus[0]) || (o->topology && o->topology[0]) || o->matrix;
}

static int locality(const struct roce_policy *p, const struct roce_pipeline_opts *o,
                    struct roce_pipeline *out, struct roce_error *err)
{
	const char *xml = o->topology && o->topology[0] ? o->topology : p->topology_file;
	struct roce_topo_source src = { .xml_file = xml, .cache_file = p->topology_cache };
	struct roce_error lerr = { "" };
	char msg[ROCE_ERR_MAX + 96];
	struct roce_gpu_set gpus;

	if (!(out->loc = calloc(1, sizeof(*out->loc))) || !(out->choice = calloc(1, sizeof(*out->choice))))
		goto nomem;
	if (roce_topo_load(&src, &out->topo, &lerr) < 0) {
		if (o->topology_required) {
			roce_error_set(err, "topology: %s", lerr.msg);
			return -1;
		}
		snprintf(msg, sizeof(msg), "topology cannot be loaded (%s): NCCL_IB_HCA lists every healthy HCA", lerr.msg);
		if (roce_check_add(&out->check, "locality", NULL, 0, ROCE_WARN, msg) < 0)
			goto nomem;
		free(out->loc);
		out->loc = NULL;
	} else if (roce_topo_locality_node(out->topo, &out->node, out->loc, err) < 0) {
		return -1;
	}
	if (out->topo && roce_topo_origin(out->topo) == ROCE_TOPO_FROM_LIVE) {
		const struct roce_reading *c = roce_topo_cache_reading(out->topo);
		if (c->status != ROCE_OK && c->status != ROCE_NOT_READ) {
			snprintf(msg, sizeof(msg), "topology cache not used (%s): every start loads the live topology", c->why);
			if (roce_check_add(&out->check, "locality", NULL, 0, ROCE_WARN, msg) < 0)
				goto nomem;
		}
	}
	roce_gpu_set_parse(o->gpus, o->proc_root, out->loc, &gpus);
	if (gpus.status == ROCE_GPUS_INVALID) {
		if (o->gpus_strict) {
			roce_error_set(err, "GPU list: %s", gpus.why);
			return -1;
		}
		snprintf(msg, sizeof(msg), "GPU list not understood (%s): NCCL_IB_HCA lists every healthy HCA", gpus.why);
		if (roce_check_add(&out->check, "locality", NULL, 0, ROCE_WARN, msg) < 0)
			goto nomem;
	}
	return roce_plan_locality(&out->check, p, out->loc, &gpus, out->choice, err);
nomem:
	roce_error_set(err, "out of memory");
	return -1;
}

int roce_pipeline_run(const struct roce_policy *policy, const struct roce_pipeline_opts *opts,
                      struct roce_pipeline *out, struct roce_error *err)
{
	memset(out, 0, sizeof(*out));
	roce_node_init(&out->node);
	roce_collect(&out->node, policy, &opts->collect);
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
