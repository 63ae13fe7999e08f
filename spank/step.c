/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * step.c - the check of one step on one node: lib/pipeline/pipeline.c (collect,
 * check, GPU locality, plan) in a worker process (lib/proc/worker.c) bounded by
 * the policy's TimeoutMs plus a margin, its result summed up as plain data.
 */
#include "config.h"
#include "roce.h"
#include "base/clock.h"
#include "pipeline/pipeline.h"
#include "proc/worker.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define ROCE_CHILD_MARGIN_MS 500

static void summarize(const struct roce_check_result *c, struct roce_step_result *out)
{
	out->failed = c->failed;
	out->n_pass = c->n_pass;
	out->n_warn = c->n_warn;
	out->n_fail = c->n_fail;
	out->n_unknown = c->n_unknown;
	out->n_ports = c->n_ports;
	for (size_t i = 0; i < c->n_ports; i++)
		out->n_healthy += c->ports[i].healthy;
	for (size_t i = 0; i < c->n_findings && out->n_findings < ROCE_MAX_FINDINGS; i++)
		if (c->findings[i].status != ROCE_PASS)
			out->findings[out->n_findings++] = c->findings[i];
	out->drain = roce_check_drain_reason(c, out->drain_reason, sizeof(out->drain_reason)) == 1;
}

struct step_input {
	const struct roce_policy *policy;
	const char *gpus; /* the step's GPUs (Slurm indexes or UUIDs), "" = none */
};

/* The worker's whole job.  Fills out; never fails silently. */
static void run_in_worker(const void *arg, void *res)
{
	const struct step_input *in = arg;
	struct roce_step_result *out = res;
	struct roce_pipeline run;
	struct roce_error err = { "" };
	/* No libibverbs: ibv_get_device_list() loads every provider plugin (ms per
	 * step) and the MTU it would cross-check is derived from the netdev.  A GPU
	 * list Slurm or the user got wrong is a warning finding, not an error. */
	struct roce_pipeline_opts opts = {
		.collect = { .sysfs_root = NULL, .netlink = true, .verbs = false },
		.gpus = in->gpus,
		.gpus_strict = false,
	};

	double t0 = roce_clock_ms_of(CLOCK_MONOTONIC);
	if (roce_pipeline_run(in->policy, &opts, &run, &err) < 0) {
		out->rc = -1;
		snprintf(out->error, sizeof(out->error), "%s", err.msg);
	} else {
		summarize(&run.check, out);
		out->plan = run.plan;
		roce_fingerprint_from_check(in->policy, &run.node, &run.check, "", "", &out->self);
	}
	out->pipeline_ms = roce_clock_ms_of(CLOCK_MONOTONIC) - t0;
	roce_pipeline_free(&run);
	out->worker_cpu_ms = roce_clock_ms_of(CLOCK_PROCESS_CPUTIME_ID);
}

int roce_step_check(const struct roce_policy *p, const char *gpus, struct roce_step_result *out)
{
	int deadline = p->timeout_ms + ROCE_CHILD_MARGIN_MS;
	struct step_input in = { .policy = p, .gpus = gpus };
	struct roce_error why = { "" };

	memset(out, 0, sizeof(*out));
	if (roce_worker_run_guarded(p, NULL, "the fabric check", ROCE_WORKER_SHARED, run_in_worker, &in, out,
	                            sizeof(*out), deadline, &why) < 0) {
		memset(out, 0, sizeof(*out));
		snprintf(out->error, sizeof(out->error), "%s", why.msg);
		return out->rc = -1;
	}
	/* The worker's struct is trusted no further than its bounds. */
	out->error[sizeof(out->error) - 1] = '\0';
	out->drain_reason[sizeof(out->drain_reason) - 1] = '\0';
	if (out->n_findings > ROCE_MAX_FINDINGS)
		out->n_findings = ROCE_MAX_FINDINGS;
	if (out->self.n_ports > ROCE_FP_PORTS_MAX)
		out->self.n_ports = 0;
	if (out->self.n_devices > ROCE_FP_PORTS_MAX)
		out->self.n_devices = 0;
	for (size_t i = 0; i < out->self.n_ports; i++) {
		struct roce_fp_port *fp = &out->self.ports[i];
		fp->device[sizeof(fp->device) - 1] = fp->netdev[sizeof(fp->netdev) - 1] =
		        fp->rail[sizeof(fp->rail) - 1] = '\0';
	}
	if (out->plan.n_vars > ROCE_PLAN_VARS) {
		out->plan.n_vars = 0;
		out->plan.valid = false;
	}
	return out->rc;
}
