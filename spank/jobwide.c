/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobwide.c - the job-wide agreement of a step's nodes (lib/agree/agree.h), on
 * both sides of the plugin.
 *
 * srun (local_user_init: the step exists, nothing is launched yet) asks
 * slurmctld for the step's nodes (one RPC: this context has no item for
 * them), reads their fingerprints from SharedDir (lib/agree/shareddir.h; each
 * node's job prolog wrote its own), waits for missing ones (TimeoutMs, or
 * until a new allocation's prologs could have written), agrees, prints one
 * line per kind of difference, and passes the verdict to the step in
 * ROCE_AGREEMENT through its own environment, which srun copies into the
 * step's.  Each node's slurmstepd then restricts its
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
#include "agree/agreed.h"
#include "agree/problems.h"
#include "agree/shareddir.h"
#include "base/clock.h"
#include "base/nodelist.h"
#include "base/slurmnodes.h"
#include "job/job.h"
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
#define SRUN_MARGIN_MS 500 /* past the wait, for the worker's listing and reads */
/* The allocation's --roce, as sbatch and salloc leave it in the job's environment */
#define ROCE_ENV_ALLOC_OPTION "SLURM_SPANK__SLURM_SPANK_OPTION_roce_roce"

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

/* ---------------------------------------------------------------- why fingerprints are missing */

/* The mode the job prolog ran with, as far as srun can tell: for an srun
 * started inside an allocation, the allocation's --roce (sbatch and salloc
 * put it in the job's environment, which srun inherits), else SLURM_ROCE
 * there, else the plugstack's default=.  Only used to say why no node wrote
 * a fingerprint, and not to wait for one then. */
static enum roce_mode allocation_mode(const struct roce_plugargs *config, const struct roce_policy *p,
                                      enum roce_mode step)
{
	struct roce_request r;
	const char *v = getenv(ROCE_ENV_ALLOC_OPTION);
	if (!roce_client_in_allocation())
		return step; /* srun made it: its prolog ran with this step's request */
	if (!v)
		v = getenv(ROCE_ENV_MODE);
	if (!v)
		return config->default_mode;
	roce_request_parse(&r, v, "allocation");
	return roce_request_mode(&r, config->default_mode, p->mode);
}

/* ---------------------------------------------------------------- the worker */

/* Why a node may have no fingerprint, for the line that says so. */
enum missing_why {
	MISSING_UNKNOWN = 0, /* slurmctld did not say how prologs run */
	MISSING_PLUGIN,      /* prologs ran at allocation: the plugin did not write (not loaded, failed) */
	MISSING_NO_ALLOC,    /* no PrologFlags=Alloc: a node's prolog runs when its first step starts */
	MISSING_ALLOC_OFF,   /* the allocation's mode was off: its prologs wrote nothing */
};

/* What the worker gets (a copy: it is forked). */
struct agree_in {
	const struct roce_policy *p;
	char job[16], step[32];
	time_t start;
	const char *const *names;
	size_t n;
	int wait_ms; /* how long to wait for missing fingerprints */
	bool strict;
	enum missing_why why;
};

/* What the worker sends back: plain data. */
struct agree_out {
	int rc; /* 0, or -1 with err: the nodes cannot be compared */
	char err[ROCE_ERR_MAX];
	enum roce_agree_verdict verdict;
	bool env_ok;
	char env[ROCE_AGREE_ENV_MAX];
	unsigned flags;
	struct roce_lines lines;
	struct roce_problem_keys said; /* the problems said for the nodes (problems.h) */
	char uses[ROCE_LINE_MAX];
	double waited_ms;
	size_t n_read, n_files, n_refused, n_stale;
};

static void add_line(struct agree_out *o, enum roce_line_kind kind, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static void add_line(struct agree_out *o, enum roce_line_kind kind, const char *fmt, ...)
{
	struct roce_line_build b;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b.text, sizeof(b.text), fmt, ap);
	va_end(ap);
	b.len = strlen(b.text);
	b.clauses = b.more = 0;
	roce_lines_end(&o->lines, kind, &b);
}

/* The nodes without a fingerprint, with an earlier job's (stale) or not, as a list; NULL none. */
static char *nodes_in(const struct agree_in *in, const struct roce_fp_gather *g, bool stale, size_t *count)
{
	const char **sel = malloc((in->n ? in->n : 1) * sizeof(*sel));
	char *list = NULL;
	*count = 0;
	for (size_t i = 0; sel && i < in->n; i++)
		if (g->state[i] == ROCE_FP_MISSING && g->stale[i] == stale)
			sel[(*count)++] = in->names[i];
	if (sel && *count)
		list = roce_nodelist(roce_nodelist_ranged, sel, *count);
	free(sel);
	return list;
}

/* The lines for the nodes without a fingerprint (those refused have theirs),
 * by why they may have none. */
static void missing_lines(const struct agree_in *in, const struct roce_fp_gather *g, struct agree_out *o)
{
	const char *own = in->strict ? "" : "; each node uses its own rails";
	size_t n_stale, n_none;
	char *stale = nodes_in(in, g, true, &n_stale), *none = nodes_in(in, g, false, &n_none);
	if (stale)
		add_line(o, ROCE_LINE_UNKNOWN,
		         "only an earlier job's fingerprint from %s in SharedDir (a requeue, or a crashed node's): not "
		         "taken%s",
		         stale, own);
	if (none && in->why == MISSING_NO_ALLOC)
		add_line(o, ROCE_LINE_UNKNOWN,
		         "SharedDir needs PrologFlags=Alloc in slurm.conf: no fingerprint from %s%s", none, own);
	else if (none && in->why == MISSING_ALLOC_OFF && n_none == in->n)
		add_line(o, ROCE_LINE_UNKNOWN,
		         "no fingerprint in SharedDir: the allocation's mode was off (--roce=off, or no --roce and "
		         "default=off)%s",
		         own);
	else if (none && in->why == MISSING_PLUGIN)
		add_line(o, ROCE_LINE_UNKNOWN,
		         "no fingerprint from %s in SharedDir after %d ms: the plugin is not loaded there "
		         "or its prolog failed%s",
		         none, in->wait_ms, own);
	else if (none)
		add_line(o, ROCE_LINE_UNKNOWN, "no fingerprint from %s in SharedDir after %d ms%s", none,
		         in->wait_ms, own);
	free(stale);
	free(none);
}

/* In the worker: SharedDir read (bounded by the caller's deadline), the
 * agreement, its lines and its value for the step. */
static void agree_worker(const void *arg, void *res)
{
	const struct agree_in *in = arg;
	struct agree_out *o = res;
	struct roce_fp_gather g;
	struct roce_agreement a;
	struct roce_error err;
	char shown[ROCE_ERR_MAX * 4 + 1];

	if (roce_shareddir_gather(in->p->shared_dir, in->job, in->start, in->names, in->n, in->wait_ms, &g, &err) < 0) {
		o->rc = -1;
		snprintf(o->err, sizeof(o->err), "%s", err.msg);
		return;
	}
	if (roce_agree((const struct roce_fingerprint *const *)g.fp, in->names, in->n, roce_nodelist_ranged, in->p,
	               &a) < 0) {
		o->rc = -1;
		snprintf(o->err, sizeof(o->err), "out of memory");
		roce_shareddir_gather_free(&g);
		return;
	}
	if (g.n_refused)
		add_line(o, ROCE_LINE_UNKNOWN,
		         "SharedDir: %zu fingerprint(s) refused (unknown nodes, never a pass), the first: %s",
		         g.n_refused, roce_printable(g.refused_why, shown, sizeof(shown)));
	missing_lines(in, &g, o);
	for (size_t i = 0; i < a.lines.n; i++)
		if (o->lines.n < ROCE_LINES_MAX)
			o->lines.line[o->lines.n++] = a.lines.line[i];
	o->lines.dropped += a.lines.dropped;
	/* each node's problems once for the step (issue 31); on ENOMEM the nodes say their own */
	if (roce_problems_say((const struct roce_fingerprint *const *)g.fp, in->names, in->n, roce_nodelist_ranged,
	                      &o->lines, &o->said) < 0)
		memset(&o->said, 0, sizeof(o->said));
	o->flags = a.flags;
	o->verdict = roce_agree_verdict(&a, in->strict);
	o->env_ok = roce_agreed_encode(&a, o->verdict, in->step, o->env, sizeof(o->env)) == 0;
	snprintf(o->uses, sizeof(o->uses), "%s", a.uses);
	o->waited_ms = g.waited_ms;
	o->n_read = g.n_read;
	o->n_files = g.n_files;
	o->n_refused = g.n_refused;
	o->n_stale = g.n_stale;
	roce_agree_free(&a);
	roce_shareddir_gather_free(&g);
}

/* ---------------------------------------------------------------- telling */

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

#define STRICT_FAILS "the step's nodes do not agree on the RoCE fabric (--roce=strict): the step does not run"

/* One line per difference; warn says what every node uses after the last
 * rail it left out; strict adds the verdict. */
static void tell(const struct agree_out *o, bool strict)
{
	size_t last_trim = o->lines.n;
	for (size_t i = 0; i < o->lines.n; i++)
		if (o->lines.line[i].kind == ROCE_LINE_TRIM)
			last_trim = i;
	bool missing = o->flags & ROCE_AGREE_MISSING;
	for (size_t i = 0; i < o->lines.n; i++) {
		const struct roce_line *l = &o->lines.line[i];
		if (l->kind == ROCE_LINE_SHOULD)
			slurm_info(ROCE_LOG "warning: %s", l->text); /* both modes: the step runs */
		else if (i == last_trim && !strict && !missing && o->uses[0])
			say(false, "%s; every node of the step uses %s", l->text, o->uses);
		else
			say(strict, "%s", l->text);
	}
	if (o->lines.dropped)
		say(strict, "and %zu more differences", o->lines.dropped);
	if ((o->flags & (ROCE_AGREE_EMPTY | ROCE_AGREE_MISSING)) == ROCE_AGREE_EMPTY)
		say(strict, "no rail is usable on every node of the step%s", strict ? "" : ": no NCCL environment set");
	if (strict && o->verdict == ROCE_AGREED_FAIL)
		slurm_error(ROCE_LOG STRICT_FAILS);
}

/* Tell the step. */
static void pass_on_value(const char *val) { setenv(ROCE_AGREE_ENV, val, 1); }

/* Tell the nodes which problems srun said (their own line leaves them out). */
static void pass_on_said(const struct roce_problem_keys *said, const char *step)
{
	char keys[ROCE_SAID_ENV_MAX], val[ROCE_SAID_ENV_MAX + 40];
	if (said->n && roce_problem_keys_format(said, keys, sizeof(keys)) &&
	    snprintf(val, sizeof(val), "%s %s", step, keys) < (int)sizeof(val))
		setenv(ROCE_SAID_ENV, val, 1);
}

/* Could not even look: unknown, never a pass. */
static void unknown(bool strict, const char *step, const char *why)
{
	struct roce_agreement none = { .flags = ROCE_AGREE_MISSING };
	char val[ROCE_AGREE_ENV_MAX];
	say(strict, "the step's nodes cannot be compared: %s%s", why, strict ? "" : "; each node uses its own rails");
	if (strict)
		slurm_error(ROCE_LOG STRICT_FAILS);
	if (roce_agreed_encode(&none, strict ? ROCE_AGREED_FAIL : ROCE_AGREED_OWN, step, val, sizeof(val)) == 0)
		pass_on_value(val);
}

/* How long to wait for a missing fingerprint: TimeoutMs, or, in an
 * allocation made just now (srun's own), until its prologs could have
 * written.  They run beside srun, not before it: each may take TimeoutMs
 * and its margin (job.h) and start up to TimeoutMs late (slurmctld's
 * fan-out, a busy slurmd); waiting less failed healthy strict steps on a
 * loaded machine.  Counted from slurmctld's start time (whole seconds),
 * never more than that whole span (a clock ahead of slurmctld's). */
static int fingerprint_wait_ms(const struct roce_policy *p, time_t start)
{
	int64_t span = 2 * (int64_t)p->timeout_ms + ROCE_JOB_PROLOG_MARGIN_MS;
	int64_t left = ((int64_t)start + 1) * 1000 + span - roce_clock_realtime_ns() / 1000000;
	left = left > span ? span : left;
	return left > p->timeout_ms ? (int)left : p->timeout_ms;
}

/* How long to wait, and what to say of missing nodes. */
static void missing_context(const struct roce_plugargs *config, const struct roce_policy *p, struct agree_in *in)
{
	int alloc = roce_prologflags_alloc();
	in->wait_ms = fingerprint_wait_ms(p, in->start);
	in->why = alloc < 0 ? MISSING_UNKNOWN : MISSING_PLUGIN;
	/* no waiting: nothing would come */
	if (alloc == 0) {
		in->why = MISSING_NO_ALLOC;
		in->wait_ms = 0;
	} else if (allocation_mode(config, p, in->strict ? ROCE_MODE_STRICT : ROCE_MODE_WARN) == ROCE_MODE_OFF) {
		in->why = MISSING_ALLOC_OFF;
		in->wait_ms = 0;
	}
}

static void agree_step(const struct roce_plugargs *config, const struct roce_policy *p, bool strict, uint32_t job_id,
                       uint32_t step_id)
{
	struct agree_in in = { .p = p, .strict = strict };
	struct agree_out *o = NULL;
	struct roce_worker_end end;
	char **names;
	size_t n = 0;
	uint32_t state;

	snprintf(in.job, sizeof(in.job), "%" PRIu32, job_id);
	snprintf(in.step, sizeof(in.step), "%" PRIu32 ".%" PRIu32, job_id, step_id);
	if (!(names = step_nodes(job_id, step_id, &n))) {
		unknown(strict, in.step, "slurmctld did not name the step's nodes");
		return;
	}
	/* A fingerprint written before the job started is an earlier job's with this id (requeued, a crashed node) */
	if (job_info(job_id, &in.start, &state) < 0 || in.start <= 0) {
		unknown(strict, in.step, "slurmctld did not say when the job started");
		goto out;
	}
	in.names = (const char *const *)names;
	in.n = n;
	missing_context(config, p, &in);
	/* A worker with a deadline: a stalled shared file system (a read asleep
	 * in the kernel) must not hold srun past the wait. */
	int deadline = in.wait_ms + SRUN_MARGIN_MS;
	if (!(o = malloc(sizeof(*o)))) {
		unknown(strict, in.step, "out of memory");
	} else if (roce_worker_run(agree_worker, &in, o, sizeof(*o), deadline, &end) < 0) {
		char why[128];
		snprintf(why, sizeof(why),
		         errno == ETIMEDOUT ? "SharedDir did not answer within %d ms (a stalled file system?)"
		                            : "its reader failed (%d)",
		         errno == ETIMEDOUT ? deadline : errno);
		unknown(strict, in.step, why);
	} else if (o->rc < 0) {
		o->err[sizeof(o->err) - 1] = '\0';
		unknown(strict, in.step, o->err);
	} else {
		o->env[sizeof(o->env) - 1] = o->uses[sizeof(o->uses) - 1] = '\0';
		if (o->lines.n > ROCE_LINES_MAX)
			o->lines.n = 0;
		for (size_t i = 0; i < o->lines.n; i++)
			o->lines.line[i].text[ROCE_LINE_MAX - 1] = '\0';
		tell(o, strict);
		if (o->env_ok)
			pass_on_value(o->env); /* a value too long to pass fails safe: each node its own */
		if (o->said.n > ROCE_PROBLEM_KEYS_MAX)
			o->said.n = 0;
		pass_on_said(&o->said, in.step);
		slurm_debug(ROCE_LOG "job %s: %zu node(s) compared in %.0f ms (%zu read from %zu file(s), %zu refused, "
		                     "%zu of an earlier job ignored)",
		            in.job, n, o->waited_ms, o->n_read, o->n_files, o->n_refused, o->n_stale);
	}
out:
	free(o);
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
	static const char *const srun_keys[] = { "SharedDir", "TimeoutMs", "Mode", "Rails", NULL };

	unsetenv(ROCE_AGREE_ENV); /* an outer step's verdict is never this step's */
	unsetenv(ROCE_SAID_ENV);
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
	agree_step(&config, &policy, mode == ROCE_MODE_STRICT, job_id, step_id);
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

/* "JOB.STEP " of this step, into want. */
static void this_step(spank_t sp, char *want, size_t len)
{
	uint32_t job_id = 0, step_id = 0;
	spank_get_item(sp, S_JOB_ID, &job_id);
	spank_get_item(sp, S_JOB_STEPID, &step_id);
	snprintf(want, len, "%" PRIu32 ".%" PRIu32, job_id, step_id);
}

bool roce_jobwide_said(spank_t sp, char *keys, size_t len)
{
	char val[ROCE_SAID_ENV_MAX + 40], want[32];
	if (spank_getenv(sp, ROCE_SAID_ENV, val, sizeof(val)) != ESPANK_SUCCESS)
		return false;
	this_step(sp, want, sizeof(want));
	size_t w = strlen(want);
	/* another step's (inherited), or not srun's: the node says its own */
	if (strncmp(val, want, w) != 0 || val[w] != ' ' || strspn(val + w + 1, "0123456789abcdef,") != strlen(val + w + 1))
		return false;
	return snprintf(keys, len, "%s", val + w + 1) < (int)len;
}

enum roce_jobwide_outcome roce_jobwide_step(spank_t sp, enum roce_mode mode, const char *node,
                                            struct roce_step_result *res, char *msg, size_t len)
{
	char val[ROCE_AGREE_ENV_MAX], want[32], why[1024];
	struct roce_agreed d;
	struct roce_error err;

	spank_err_t got = spank_getenv(sp, ROCE_AGREE_ENV, val, sizeof(val));
	if (got != ESPANK_SUCCESS && got != ESPANK_NOSPACE)
		return ROCE_JOBWIDE_NONE;
	if (got == ESPANK_NOSPACE || roce_agreed_decode(val, &d, &err) < 0) {
		snprintf(msg, len, ROCE_LOG "warning: %s: ignoring %s: not a value srun's plugin wrote", node,
		         ROCE_AGREE_ENV);
		return ROCE_JOBWIDE_WARN;
	}
	this_step(sp, want, sizeof(want));
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
	if (roce_agreed_apply(&d, &res->self, &res->plan, why, sizeof(why)) == 0)
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
