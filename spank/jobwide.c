/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobwide.c - the job-wide agreement of a step's nodes (lib/agree/agree.h), on
 * both sides of the plugin.
 *
 * srun (local_user_init: the step exists, nothing is launched yet) asks
 * slurmctld for the step's nodes (one RPC: this context has no item for
 * them), reads their fingerprints from SharedDir (lib/agree/shareddir.h; each
 * node's job prolog wrote its own), waits at most TimeoutMs for missing
 * ones, agrees, prints one line per kind of difference, and passes the
 * verdict to the step in ROCE_AGREEMENT through its own environment, which
 * srun copies into the step's.  Each node's slurmstepd then restricts its
 * own plan to the agreed rails (it can only remove rails: the variable is
 * the user's to forge, and a forgery only hurts the user's own step).
 *
 * The job epilog also sweeps SharedDir now and then (roce_jobwide_sweep):
 * a node that crashed never ran its epilog, and its fingerprint would stay.
 *
 * No agreement: SharedDir unset, --roce=off, a step on one node (the batch
 * step too: it is not launched by srun), and SLURM_ROCE_AGREE=off under
 * warn (steps whose nodes differ on purpose).
 */
#include "config.h"
#include "roce.h"
#include "agree/agree.h"
#include "agree/shareddir.h"
#include "base/slurmnodes.h"
#include "proc/worker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <slurm/slurm.h>

#define ROCE_ENV_AGREE_OPTOUT "SLURM_ROCE_AGREE"
#define STEP_NODES_MAX 65536
#define SWEEP_PERIOD_S 3600
#define SWEEP_JOBS_MAX 1024
#define SWEEP_TIMEOUT_MS 30000

/* ------------------------------------------------------------------ srun */

/* 22.05 and 24.11 take (update_time, job, step, ...); 26.05 names the step
 * by slurm_step_id_t (its slurm.h defines slurm_load_job_sluid, as
 * spank/abort.c tells the same release). */
static int get_steps(uint32_t job_id, uint32_t step_id, job_step_info_response_msg_t **resp)
{
#if defined(slurm_load_job_sluid)
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;
	id.job_id = job_id;
	id.step_id = step_id;
	return slurm_get_job_steps(&id, resp, SHOW_ALL);
#else
	return slurm_get_job_steps(0, job_id, step_id, resp, SHOW_ALL);
#endif
}

/* The job as slurmctld knows it; -1 with errno (ESLURM_INVALID_JOB_ID: it
 * does not) when it cannot say. */
static int job_info(uint32_t job_id, time_t *start, uint32_t *state)
{
	job_info_msg_t *m = NULL;
#if defined(slurm_load_job_sluid)
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;
	id.job_id = job_id;
	int rc = slurm_load_job(&m, id, SHOW_ALL);
#else
	int rc = slurm_load_job(&m, job_id, SHOW_ALL);
#endif
	if (rc != SLURM_SUCCESS || !m)
		return -1;
	if (m->record_count < 1) {
		slurm_free_job_info_msg(m);
		errno = ESLURM_INVALID_JOB_ID;
		return -1;
	}
	*start = m->job_array[0].start_time;
	*state = m->job_array[0].job_state & JOB_STATE_BASE;
	slurm_free_job_info_msg(m);
	return 0;
}

/* The step's nodes, from slurmctld; NULL when it cannot say. */
static char **step_nodes(uint32_t job_id, uint32_t step_id, size_t *n)
{
	job_step_info_response_msg_t *resp = NULL;
	char **names = NULL;
	*n = 0;
	if (get_steps(job_id, step_id, &resp) != SLURM_SUCCESS || !resp)
		return NULL;
	if (resp->job_step_count >= 1 && resp->job_steps[0].nodes)
		names = roce_slurm_expand(resp->job_steps[0].nodes, STEP_NODES_MAX, n);
	slurm_free_job_step_info_response_msg(resp);
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* warn: the user is told, strict: it is an error. */
__attribute__((format(printf, 2, 3))) static void say(bool strict, const char *fmt, ...)
{
	char line[6000];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (strict)
		slurm_error(ROCE_LOG "%s", line);
	else
		slurm_info(ROCE_LOG "warning: %s", line);
}

static void rails_text(const struct roce_agreement *a, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < a->n_rails && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s:%u", k ? "," : "=", a->rails[k].device,
		                         a->rails[k].port);
}

/* One line per kind of difference; strict adds the verdict. */
static void tell(const struct roce_agreement *a, const struct roce_fp_gather *g, int timeout_ms, bool strict)
{
	char shown[ROCE_ERR_MAX * 4 + 1], rails[ROCE_AGREE_ENV_MAX];
	if (g && g->n_refused) {
		roce_printable(g->refused_why, shown, sizeof(shown));
		say(strict, "SharedDir: %zu fingerprint(s) refused (unknown nodes, never a pass), the first: %s",
		    g->n_refused, shown);
	}
	if (a->missing)
		say(strict, "no fingerprint from %s in SharedDir after %d ms (TimeoutMs)%s", a->missing, timeout_ms,
		    strict ? "" : ": the step's nodes were not compared, each uses its own rails");
	rails_text(a, rails, sizeof(rails));
	if (a->trimmed && !(a->flags & ROCE_AGREE_MISSING))
		say(strict, "%s%s%s", a->trimmed, strict || !a->n_rails ? "" : "; every node of the step uses ",
		    strict || !a->n_rails ? "" : rails);
	if (a->mismatch)
		say(strict, "the step's nodes differ where NCCL needs the same: %s", a->mismatch);
	if ((a->flags & (ROCE_AGREE_EMPTY | ROCE_AGREE_MISSING)) == ROCE_AGREE_EMPTY)
		say(strict, "no rail is usable on every node of the step%s", strict ? "" : ": no NCCL environment set");
	if (strict)
		slurm_error(ROCE_LOG
		            "the step's nodes do not agree on the RoCE fabric (--roce=strict): the step does not run");
}

/* Tell the step; a value too long to pass fails safe (each node its own). */
static void pass_on(const struct roce_agreement *a, enum roce_agree_verdict v, uint32_t job_id, uint32_t step_id)
{
	char step[32], val[ROCE_AGREE_ENV_MAX];
	snprintf(step, sizeof(step), "%" PRIu32 ".%" PRIu32, job_id, step_id);
	if (roce_agree_encode(a, v, step, val, sizeof(val)) == 0)
		setenv(ROCE_AGREE_ENV, val, 1);
}

/* Could not even look: unknown, never a pass. */
static void unknown(bool strict, uint32_t job_id, uint32_t step_id, const char *why)
{
	struct roce_agreement none = { .flags = ROCE_AGREE_MISSING };
	say(strict, "the step's nodes cannot be compared: %s%s", why, strict ? "" : "; each node uses its own rails");
	if (strict)
		slurm_error(ROCE_LOG
		            "the step's nodes do not agree on the RoCE fabric (--roce=strict): the step does not run");
	pass_on(&none, strict ? ROCE_AGREED_FAIL : ROCE_AGREED_OWN, job_id, step_id);
}

static void agree_step(const struct roce_policy *p, bool strict, uint32_t job_id, uint32_t step_id)
{
	struct roce_fp_gather g;
	struct roce_agreement a;
	struct roce_error err;
	char job[16], *names_err = NULL;
	size_t n = 0;
	time_t start = 0;
	uint32_t state;
	char **names = step_nodes(job_id, step_id, &n);
	const struct roce_fingerprint **fps = NULL;

	snprintf(job, sizeof(job), "%" PRIu32, job_id);
	if (!names) {
		unknown(strict, job_id, step_id, "slurmctld did not name the step's nodes");
		return;
	}
	/* A fingerprint written before the job started is an earlier job's with this id (requeued, a crashed node) */
	if (job_info(job_id, &start, &state) < 0 || start <= 0) {
		unknown(strict, job_id, step_id, "slurmctld did not say when the job started");
		free_names(names, n);
		return;
	}
	if (roce_shareddir_gather(p->shared_dir, job, start, (const char *const *)names, n, p->timeout_ms, &g, &err) <
	    0) {
		unknown(strict, job_id, step_id, err.msg);
		free_names(names, n);
		return;
	}
	if (!(fps = calloc(n, sizeof(*fps))))
		names_err = "out of memory";
	for (size_t i = 0; fps && i < n; i++)
		fps[i] = g.fp[i];
	if (!names_err && roce_agree(fps, (const char *const *)names, n, roce_slurm_nodelist, &a) < 0)
		names_err = "out of memory";
	if (names_err) {
		unknown(strict, job_id, step_id, names_err);
	} else {
		enum roce_agree_verdict v = roce_agree_verdict(&a, strict);
		if (a.flags)
			tell(&a, &g, p->timeout_ms, strict);
		pass_on(&a, v, job_id, step_id);
		slurm_debug(ROCE_LOG "job %s: %zu node(s) compared in %.0f ms (%zu read from %zu file(s), %zu refused, "
		                     "%zu of an earlier job ignored)",
		            job, n, g.waited_ms, g.n_read, g.n_files, g.n_refused, g.n_stale);
		roce_agree_free(&a);
	}
	free(fps);
	roce_shareddir_gather_free(&g);
	free_names(names, n);
}

int roce_jobwide_srun(spank_t sp, int ac, char **av)
{
	struct roce_plugargs config;
	struct roce_policy policy;
	struct roce_request env_req;
	struct roce_error err, other;
	uint32_t job_id = 0, step_id = 0, nnodes = 0;
	const char *optout = getenv(ROCE_ENV_AGREE_OPTOUT);
	static const char *const srun_keys[] = { "SharedDir", "TimeoutMs", "Mode", NULL };

	unsetenv(ROCE_AGREE_ENV); /* an outer step's verdict is never this step's */
	/* A bad plugstack line, or a problem of roce.conf with one of the keys
	 * srun reads: client.c said so at init, the nodes judge it.  Any other
	 * problem of the file is the nodes' to say (once, in slurmd's log). */
	if (roce_plugargs_parse(ac, av, &config, &err) < 0 ||
	    roce_plugargs_policy_keys(&config, srun_keys, &policy, &other, &err) < 0)
		return 0;
	if (other.msg[0])
		slurm_debug(ROCE_LOG "roce.conf: %s (not a key srun reads)", other.msg);
	if (!policy.shared_dir[0])
		return 0;
	enum roce_mode mode = roce_request_mode(roce_client_request(&env_req), config.default_mode, policy.mode);
	if (mode == ROCE_MODE_OFF)
		return 0;
	if (optout && strcmp(optout, "off") == 0) {
		if (mode == ROCE_MODE_WARN)
			return 0;
		slurm_error(ROCE_LOG "ignoring %s=off: only --roce=warn steps may skip the job-wide agreement",
		            ROCE_ENV_AGREE_OPTOUT);
	}
	if (spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_STEPID, &step_id) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_NNODES, &nnodes) != ESPANK_SUCCESS || nnodes < 2)
		return 0;
	agree_step(&policy, mode == ROCE_MODE_STRICT, job_id, step_id);
	return 0;
}

/* ------------------------------------------------------------------ the job epilog */

/* shareddir.h's question: is the job over? */
static int job_over(const char *job, time_t *start, void *arg)
{
	uint32_t state;
	(void)arg;
	if (job_info((uint32_t)strtoul(job, NULL, 10), start, &state) < 0)
		return errno == ESLURM_INVALID_JOB_ID ? 0 : -1;
	if (state > JOB_SUSPENDED)
		return 0; /* completed, cancelled, failed, timed out, node failure... */
	if (state == JOB_PENDING)
		*start = time(NULL); /* requeued: every fingerprint there is an earlier instance's */
	return 1;
}

struct sweep_result {
	int rc;
	struct roce_shareddir_swept s;
	struct roce_error err;
};

static void sweep_worker(const void *arg, void *res)
{
	struct sweep_result *r = res;
	r->rc = roce_shareddir_sweep(arg, time(NULL), SWEEP_PERIOD_S, SWEEP_JOBS_MAX, job_over, NULL, &r->s, &r->err);
}

void roce_jobwide_sweep(const struct roce_policy *p)
{
	struct sweep_result r;
	if (!p->shared_dir[0])
		return;
	/* In a child with a deadline: a hung shared file system must not hang the epilog. */
	if (roce_worker_run(sweep_worker, p->shared_dir, &r, sizeof(r), SWEEP_TIMEOUT_MS, NULL) < 0)
		slurm_error(ROCE_LOG "SharedDir sweep: no answer within %d ms", SWEEP_TIMEOUT_MS);
	else if (r.rc < 0)
		slurm_error(ROCE_LOG "SharedDir sweep: %.*s", ROCE_ERR_MAX - 1, r.err.msg);
	else if (r.s.ran)
		slurm_info(ROCE_LOG "SharedDir swept: %zu job(s) looked at, %zu over and removed, %zu stale entries",
		           r.s.jobs, r.s.jobs_removed, r.s.entries_removed);
}

/* ------------------------------------------------------------------ each node */

enum roce_jobwide_outcome roce_jobwide_step(spank_t sp, enum roce_mode mode, const char *node,
                                            struct roce_step_result *res, char *msg, size_t len)
{
	char val[ROCE_AGREE_ENV_MAX], want[32], why[1024];
	struct roce_agreed d;
	struct roce_error err;
	uint32_t job_id = 0, step_id = 0;

	spank_err_t got = spank_getenv(sp, ROCE_AGREE_ENV, val, sizeof(val));
	if (got != ESPANK_SUCCESS && got != ESPANK_NOSPACE)
		return ROCE_JOBWIDE_NONE;
	if (got == ESPANK_NOSPACE || roce_agree_decode(val, &d, &err) < 0) {
		snprintf(msg, len, ROCE_LOG "warning: %s: ignoring %s: not a value srun's plugin wrote", node,
		         ROCE_AGREE_ENV);
		return ROCE_JOBWIDE_WARN;
	}
	spank_get_item(sp, S_JOB_ID, &job_id);
	spank_get_item(sp, S_JOB_STEPID, &step_id);
	snprintf(want, sizeof(want), "%" PRIu32 ".%" PRIu32, job_id, step_id);
	if (strcmp(d.step, want) != 0)
		return ROCE_JOBWIDE_NONE; /* inherited from an outer step: not about this one */
	switch (d.verdict) {
	case ROCE_AGREED_FAIL:
		snprintf(msg, len,
		         ROCE_LOG "%s: the step's nodes do not agree on the RoCE fabric (--roce=strict; srun "
		                  "names the difference): the step does not run",
		         node);
		return ROCE_JOBWIDE_FAIL;
	case ROCE_AGREED_OWN: return ROCE_JOBWIDE_NONE;
	case ROCE_AGREED_EMPTY:
		res->plan.valid = false;
		snprintf(res->plan.why, sizeof(res->plan.why), "no rail is usable on every node of the step");
		return ROCE_JOBWIDE_APPLIED;
	case ROCE_AGREED_RAILS: break;
	}
	if (roce_agree_apply(&d, &res->self, &res->plan, why, sizeof(why)) == 0)
		return ROCE_JOBWIDE_APPLIED;
	if (mode == ROCE_MODE_STRICT) {
		snprintf(msg, len,
		         ROCE_LOG "%s: rails the step's nodes agreed on are not usable here (%s): the step "
		                  "does not run (--roce=strict)",
		         node, why);
		return ROCE_JOBWIDE_FAIL;
	}
	snprintf(msg, len, ROCE_LOG "warning: %s: rails the step's nodes agreed on are not usable here (%s): left out",
	         node, why);
	return ROCE_JOBWIDE_WARN;
}
