/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abort.c - end a whole step, on every node, from one node's slurmstepd.
 *
 * A strict failure on one node fails only that node's tasks: without
 * KillOnBadExit (the default, and -K0 overrides a site's) srun waits for the
 * healthy nodes' tasks, which in a real job sit in NCCL's init waiting for
 * the rank that never started: the hang strict exists to prevent.  So the
 * failing node asks slurmctld to cancel the step (REQUEST_CANCEL_JOB_STEP
 * with SIGKILL, as `scancel JOB.STEP` does): slurmctld tells srun (which
 * aborts) and every node's slurmd.  slurm_kill_job_step()'s prototype
 * differs by release (kill_step below).  Called as root (init_post_opt)
 * or as the job's user: both may cancel the user's step.
 */
#include "config.h"
#include "roce.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <slurm/slurm.h>

/* A node whose slurmstepd has no task container yet drops the signal
 * (seen on 22.05 under load: one healthy node slept on), so the request is
 * repeated from this node's slurmstepd before it ends: slurmctld sends it to
 * every node of the step again.  Seconds after the first attempt. */
static const unsigned repeat_after_s[] = { 1, 2, 4 };

static struct {
	bool pending;
	uint32_t job_id, step_id;
	char node[128];
} aborted;

/* 22.05 (job, step, signal); 24.11 adds flags (configure checks); 26.05
 * names the step by slurm_step_id_t (its slurm.h defines slurm_load_job_sluid). */
static int kill_step(uint32_t job_id, uint32_t step_id)
{
#if defined(slurm_load_job_sluid)
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;
	id.job_id = job_id;
	id.step_id = step_id;
	return slurm_kill_job_step(&id, SIGKILL, 0);
#elif defined(HAVE_SLURM_KILL_JOB_STEP_FLAGS)
	return slurm_kill_job_step(job_id, step_id, SIGKILL, 0);
#else
	return slurm_kill_job_step(job_id, step_id, SIGKILL);
#endif
}

static int request(uint32_t job_id, uint32_t step_id, const char *node)
{
	if (kill_step(job_id, step_id) == SLURM_SUCCESS)
		return 0;
	int e = errno;
	if (e != ESLURM_ALREADY_DONE && e != ESLURM_INVALID_JOB_ID)
		slurm_error(ROCE_LOG "%s: cannot end step %" PRIu32 ".%" PRIu32 ": %s", node, job_id, step_id,
		            slurm_strerror(e));
	return -1;
}

int roce_step_abort(uint32_t job_id, uint32_t step_id, const char *node, const char *why)
{
	/* The batch script and the extern step are the job's, not a step to cancel. */
	if (step_id == SLURM_BATCH_SCRIPT || step_id == SLURM_EXTERN_CONT) {
		slurm_info(ROCE_LOG "%s: job %" PRIu32 ": not ending the %s step (%s)", node, job_id,
		           step_id == SLURM_BATCH_SCRIPT ? "batch" : "extern", why);
		return -1;
	}
	slurm_info(ROCE_LOG "%s: ending step %" PRIu32 ".%" PRIu32 " on every node: %s", node, job_id, step_id, why);
	if (request(job_id, step_id, node) < 0)
		return -1;
	aborted.pending = true;
	aborted.job_id = job_id;
	aborted.step_id = step_id;
	snprintf(aborted.node, sizeof(aborted.node), "%s", node);
	return 0;
}

void roce_step_abort_repeat(void)
{
	unsigned waited = 0;
	if (!aborted.pending)
		return;
	aborted.pending = false;
	for (size_t i = 0; i < sizeof(repeat_after_s) / sizeof(repeat_after_s[0]); i++) {
		sleep(repeat_after_s[i] - waited);
		waited = repeat_after_s[i];
		if (request(aborted.job_id, aborted.step_id, aborted.node) < 0)
			return; /* the step is gone (or slurmctld refuses: said once) */
	}
}
