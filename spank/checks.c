/*
 * checks.c - collect, check and plan for one step, in a worker process
 * (worker.c) bounded by the policy's TimeoutMs plus a margin.
 */
#include "config.h"
#include "roce.h"
#include "collect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROCE_CHILD_MARGIN_MS 500

static long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000L;
}

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

/* The child's whole job.  Fills out; never fails silently. */
static void run_in_child(const struct roce_policy *p, struct roce_step_result *out)
{
	struct roce_node node;
	struct roce_check_result check;
	/* No libibverbs: ibv_get_device_list() loads every provider plugin (ms per step)
	 * and the MTU it would cross-check is already derived from the netdev. */
	struct roce_collect_opts opts = { .sysfs_root = NULL, .netlink = true, .verbs = false };

	long t0 = now_us();
	roce_node_init(&node);
	memset(&check, 0, sizeof(check));
	/* A collector error is recorded per field in the model; check() judges it. */
	(void)roce_collect(&node, p, &opts);
	out->collect_us = now_us() - t0;
	if (roce_check(&node, p, &check) < 0) {
		out->rc = -1;
		snprintf(out->error, sizeof(out->error), "out of memory while checking");
		goto done;
	}
	summarize(&check, out);
	if (roce_plan_build(&node, p, &check, NULL, &out->plan) < 0) {
		out->rc = -1;
		snprintf(out->error, sizeof(out->error), "%s", out->plan.why);
	}
	out->check_us = now_us() - t0 - out->collect_us;
done:
	{
		struct timespec cpu;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		out->worker_cpu_us = cpu.tv_sec * 1000000L + cpu.tv_nsec / 1000L;
	}
	roce_check_result_free(&check);
	roce_node_free(&node);
}

static void worker(const void *arg, void *res)
{
	run_in_child(arg, res);
}

int roce_run_checks(const struct roce_policy *p, struct roce_step_result *out)
{
	int deadline = p->timeout_ms + ROCE_CHILD_MARGIN_MS;

	memset(out, 0, sizeof(*out));
	if (roce_worker_run(worker, p, out, sizeof(*out), deadline) < 0) {
		int saved = errno;
		memset(out, 0, sizeof(*out));
		if (saved == ETIMEDOUT)
			snprintf(out->error, sizeof(out->error),
			         "the fabric check did not finish within %d ms (TimeoutMs=%d): a sysfs or netlink read hangs",
			         deadline, p->timeout_ms);
		else
			snprintf(out->error, sizeof(out->error), "the fabric check process failed: %s", strerror(saved));
		return out->rc = -1;
	}
	/* The child's struct is trusted no further than its bounds. */
	out->error[sizeof(out->error) - 1] = '\0';
	out->drain_reason[sizeof(out->drain_reason) - 1] = '\0';
	if (out->n_findings > ROCE_MAX_FINDINGS)
		out->n_findings = ROCE_MAX_FINDINGS;
	if (out->plan.n_vars > ROCE_PLAN_VARS) {
		out->plan.n_vars = 0;
		out->plan.valid = false;
	}
	return out->rc;
}
