/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmstepd.c - the remote context: once per step per node.
 *
 * init parses the plugstack configuration; init_post_opt runs as root
 * before any task exists, once per step: it decides the mode of the
 * request, runs the checks (step.c), exports the plan with spank_setenv and
 * drains the node on a hardware fault.  Messages reach the user only from
 * user_init onwards (what init_post_opt logs goes to the slurmd log only,
 * seen on 22.05), so they are kept and printed there, once per node.  Slurm
 * 22.05 ignores a failing user_init for srun's exit code (SchedMD bug 7573),
 * so strict mode fails in task_init, as pyxis does: the step fails, srun
 * and sbatch report it, and the node is not drained for the user's choice.
 * The other nodes' tasks would wait for this node's (without KillOnBadExit):
 * strict also ends the step on every node (abort.c).
 */
#include "config.h"
#include "roce.h"
#include "base/clock.h"
#include "base/hostname.h"
#include "base/printable.h"
#include "agree/problems.h"
#include "check/brief.h"
#include "base/slurmid.h"
#include "fragment/ranwith.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <slurm/slurm.h>

#define ROCE_MSGS 48
#define ROCE_MSG_LEN ROCE_BRIEF_LINE_MAX /* what the user sees; slurmd's log has the rest */

enum msg_level { MSG_WARN, MSG_ERROR };

static struct {
	struct roce_plugargs config;
	bool config_ok; /* the plugstack words parsed; else config_err says why */
	struct roce_error config_err;
	bool fail_tasks; /* strict failure: task_init refuses */
	uint32_t job_id, step_id;
	size_t n_msgs;
	enum msg_level level[ROCE_MSGS];
	char *msgs[ROCE_MSGS];
} step;

__attribute__((format(printf, 2, 3))) static void keep_msg(enum msg_level level, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	if (step.n_msgs >= ROCE_MSGS)
		return;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (strlen(s) > ROCE_MSG_LEN)
		strcpy(s + ROCE_MSG_LEN - 3, "...");
	step.level[step.n_msgs] = level;
	step.msgs[step.n_msgs++] = s;
}


/* The Slurm node name: gethostname() is wrong with NodeHostname or several slurmd per host. */
static const char *node_name(void)
{
	const char *n = getenv("SLURMD_NODENAME");
	return n && *n ? n : "(unknown node)";
}

/* ------------------------------------------------------------------ mode */

/* The option, else SLURM_ROCE in the job's environment (slurmrestd, wrappers); NULL when neither. */
static const struct roce_request *find_request(spank_t sp, struct roce_request *env_req)
{
	const struct roce_request *r = roce_option_request();
	char val[64];

	if (r->given)
		return r;
	spank_err_t got = spank_getenv(sp, ROCE_ENV_MODE, val, sizeof(val));
	if (got == ESPANK_NOSPACE)
		roce_request_parse(env_req, "(too long)", ROCE_ENV_MODE); /* shown as such; not a mode */
	else if (got == ESPANK_SUCCESS && val[0])
		roce_request_parse(env_req, val, ROCE_ENV_MODE);
	else
		return NULL;
	return env_req;
}

static enum roce_mode step_mode(spank_t sp, const struct roce_policy *p)
{
	struct roce_request env_req;
	const struct roce_request *r = find_request(sp, &env_req);
	enum roce_mode fallback = step.config.default_mode;

	if (r && !r->valid) {
		/* Clients refuse bad values; this one came around them.  Never fail a job on it. */
		keep_msg(MSG_WARN, ROCE_LOG "%s: ignoring %s=\"%s\": " ROCE_VALID_MODES "; using %s", node_name(),
		         r->source, r->raw, roce_mode_name(fallback));
	}
	return roce_request_mode(r, fallback, p->mode);
}

/* ------------------------------------------------------------------ environment */

/* What the step runs with, for the job's report (lib/fragment/ranwith.h): never fails the step. */
static void record_ran_with(const struct roce_policy *policy, const struct roce_ranwith *rw)
{
	struct roce_error err = { "" };
	char job[16], host[64];
	/* the node's name as the job epilog finds it (job.c), which files the record */
	const char *node = roce_hostname_node(getenv("SLURMD_NODENAME"), host, sizeof(host));
	snprintf(job, sizeof(job), "%" PRIu32, step.job_id);
	if (!node || !roce_slurmid_node_ok(node))
		roce_error_set(&err, "no node name to file it under");
	if (err.msg[0] || roce_ranwith_record(policy->state_dir, job, node, rw, &err) < 0)
		slurm_error(ROCE_LOG "%s: cannot record the step's NCCL values for the job report: %s", node_name(),
		            err.msg);
}

static void export_plan(spank_t sp, const struct roce_policy *policy, const struct roce_plan *plan)
{
	char exported[1024] = "", mark[1024] = "", cur[2048];
	bool mark_full = false;
	struct roce_ranwith rw = { .n = 0 };

	if (spank_getenv(sp, ROCE_ENV_EXPORTED, exported, sizeof(exported)) != ESPANK_SUCCESS)
		exported[0] = '\0';
	for (size_t i = 0; i < plan->n_vars; i++) {
		const struct roce_env_var *v = &plan->vars[i];
		/* A value too long for cur is still the user's. */
		spank_err_t got = spank_getenv(sp, v->name, cur, sizeof(cur));
		bool have = got == ESPANK_SUCCESS || got == ESPANK_NOSPACE;
		if (have && !roce_exported_has(exported, v->name, cur)) {
			/* The user's value wins; say so once if it contradicts the checked one. */
			if (strcmp(cur, v->value) != 0) {
				char shown[256];
				roce_printable(cur, shown, sizeof(shown));
				keep_msg(MSG_WARN, ROCE_LOG "%s: keeping your %s=%s; the checked value is %s",
				         node_name(), v->name, shown, v->value);
			}
			roce_ranwith_set(&rw, v->name, cur, v->value, true);
			continue;
		}
		if (spank_setenv(sp, v->name, v->value, 1) != ESPANK_SUCCESS) {
			slurm_error(ROCE_LOG "%s: cannot set %s", node_name(), v->name);
			continue;
		}
		roce_ranwith_set(&rw, v->name, v->value, v->value, false);
		if (roce_exported_add(mark, sizeof(mark), v->name, v->value) < 0)
			mark_full = true;
	}
	if (mark[0] && !mark_full)
		spank_setenv(sp, ROCE_ENV_EXPORTED, mark, 1);
	record_ran_with(policy, &rw);
}

/* No valid plan: values an earlier step on another node exported must not leak into this one. */
static void unset_inherited(spank_t sp)
{
	static const char *const names[] = { "NCCL_IB_HCA",        "NCCL_IB_GID_INDEX", "NCCL_NET_GDR_LEVEL",
		                             "NCCL_SOCKET_IFNAME", "NCCL_IB_TC",        "NCCL_IB_SL" };
	char exported[1024], cur[2048];
	if (spank_getenv(sp, ROCE_ENV_EXPORTED, exported, sizeof(exported)) != ESPANK_SUCCESS)
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (spank_getenv(sp, names[i], cur, sizeof(cur)) == ESPANK_SUCCESS &&
		    roce_exported_has(exported, names[i], cur))
			spank_unsetenv(sp, names[i]);
	spank_unsetenv(sp, ROCE_ENV_EXPORTED);
}

/* ------------------------------------------------------------------ verdict */

/* Leave out of b[0..*n) the problems srun said for the step's nodes
 * (keys: roce_jobwide_said), counting them out of *total. */
static void leave_out_said(struct roce_brief *b, size_t *n, size_t *total, const char *keys)
{
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++)
		if (!roce_problem_keys_have(keys, roce_brief_key(&b[i])))
			b[kept++] = b[i];
	*total -= *n - kept;
	*n = kept;
}

/* "roce: [warning: ]NODE: " and the step's problems as brief.h says them,
 * the worst first, in one line that fits, without those srun said (keys,
 * NULL: none); false when there is none. */
static bool brief_line(const struct roce_step_result *r, enum roce_brief_which which, const char *keys,
                       const char *lead, char *line, size_t len)
{
	struct roce_brief b[ROCE_MAX_FINDINGS];
	size_t total = roce_brief_of(r->findings, r->n_findings, which, b, ROCE_MAX_FINDINGS);
	size_t n = total < ROCE_MAX_FINDINGS ? total : ROCE_MAX_FINDINGS;
	if (keys)
		leave_out_said(b, &n, &total, keys);
	if (!n)
		return false;
	int head = snprintf(line, len, ROCE_LOG "%s%s: ", lead, node_name());
	if (head < 0 || (size_t)head >= len)
		return false;
	roce_brief_join(b, n, total, line + head, len - (size_t)head);
	return true;
}

/* warn: one short line per node naming what the user should know (quiet
 * findings are not said: finding.h), but not what srun said once for the
 * step's nodes (issue 31); the messages go to slurmd's log. */
static void warn_line(spank_t sp, const struct roce_step_result *r)
{
	char line[ROCE_MSG_LEN + 1], keys[ROCE_SAID_ENV_MAX];
	const char *said = roce_jobwide_said(sp, keys, sizeof(keys)) ? keys : NULL;
	if (brief_line(r, ROCE_BRIEF_SAID, said, "warning: ", line, sizeof(line)))
		keep_msg(MSG_WARN, "%s", line);
}

/* strict: what fails, in one short line, then the step fails in task_init. */
static void strict_lines(const struct roce_step_result *r)
{
	char line[ROCE_MSG_LEN + 1];
	if (brief_line(r, ROCE_BRIEF_FAILING, NULL, "", line, sizeof(line)))
		keep_msg(MSG_ERROR, "%s", line);
	keep_msg(MSG_ERROR, ROCE_LOG "%s: the RoCE fabric fails the site policy (--roce=strict): the step does not run",
	         node_name());
}

static void plan_summary(const struct roce_plan *plan, char *buf, size_t len)
{
	const char *hca = roce_plan_get(plan, "NCCL_IB_HCA");
	const char *gid = roce_plan_get(plan, "NCCL_IB_GID_INDEX");
	if (plan->valid)
		snprintf(buf, len, "NCCL_IB_HCA%s GID index %s", hca ? hca : "=?", gid ? gid : "?");
	else
		snprintf(buf, len, "no NCCL environment (%s)", plan->why);
}

/* Strict and this node cannot run the step: its tasks fail in task_init,
 * and the step is ended on every node (abort.c), so that the healthy nodes'
 * tasks do not wait for this one's.  Asked here, before user_init prints
 * why: from user_init, Slurm 24.11's slurmstepd dies in the RPC
 * ("auth_g_create: pthread_rwlock_rdlock(): Resource deadlock avoided",
 * CI on trixie).  So the cancel can reach srun before the lines saying
 * why (seen once on 22.05 under load; slurmd's log has them). */
static void fail_step(spank_t sp, const char *why)
{
	step.fail_tasks = true;
	unset_inherited(sp);
	if (roce_step_abort(step.job_id, step.step_id, node_name(), why) == 0)
		keep_msg(MSG_ERROR, ROCE_LOG "%s: ending step %" PRIu32 ".%" PRIu32 " on every node (--roce=strict)",
		         node_name(), step.job_id, step.step_id);
}

/* An internal error (timeout, bad config) fails only strict steps, without
 * draining; no NCCL environment either way. */
static void internal_error(spank_t sp, enum roce_mode mode, const char *what)
{
	slurm_error(ROCE_LOG "%s: %s", node_name(), what);
	if (mode == ROCE_MODE_STRICT) {
		keep_msg(MSG_ERROR, ROCE_LOG "%s: cannot check the RoCE fabric (--roce=strict): %s", node_name(), what);
		fail_step(sp, what);
		return;
	}
	keep_msg(MSG_WARN, ROCE_LOG "warning: %s: cannot check the RoCE fabric, no NCCL environment set: %s",
	         node_name(), what);
	unset_inherited(sp);
}

/* The step's GPUs, first set wins: SLURM_STEP_GPUS (a step given GPUs),
 * SLURM_JOB_GPUS (the batch step; inner steps inherit it), both Slurm's
 * node-wide gres indexes, then CUDA_VISIBLE_DEVICES.  Here, before any task
 * exists, Slurm has not yet set its per-task CUDA_VISIBLE_DEVICES (which may
 * be relative to a device cgroup): a value seen now is the user's own,
 * exported to a node without gres/gpu, where CUDA ordinals are the PCI
 * order of identical GPUs, or UUIDs (mapped through /proc/driver/nvidia).
 * Parsed as hostile text in lib/check/gpuset.c.  A value too long for buf still
 * counts as set: its truncated text (buf is longer than any list the parser
 * takes) is refused there with a warning, never replaced by the next one. */
static const char *step_gpus(spank_t sp, char *buf, size_t len)
{
	static const char *const names[] = { "SLURM_STEP_GPUS", "SLURM_JOB_GPUS", "CUDA_VISIBLE_DEVICES" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		spank_err_t rc = spank_getenv(sp, names[i], buf, (int)len);
		if ((rc == ESPANK_SUCCESS || rc == ESPANK_NOSPACE) && buf[0])
			return names[i];
	}
	buf[0] = '\0';
	return NULL;
}

/* The step's agreed rails (jobwide.c): false when the step fails here. */
static bool job_wide(spank_t sp, const struct roce_policy *policy, struct roce_step_result *res)
{
	char msg[ROCE_MSG_LEN];
	switch (roce_jobwide_step(sp, policy->mode, node_name(), res, msg, sizeof(msg))) {
	case ROCE_JOBWIDE_FAIL:
		keep_msg(MSG_ERROR, "%s", msg);
		step.fail_tasks = true;
		unset_inherited(sp);
		return false;
	case ROCE_JOBWIDE_WARN: keep_msg(MSG_WARN, "%s", msg); return true;
	default: return true;
	}
}

/* Drain, export or fail, from what the worker found. */
static void apply_result(spank_t sp, const struct roce_policy *policy, struct roce_step_result *res)
{
	if (res->drain && policy->drain)
		roce_drain_node(node_name(), res->drain_reason);
	if (res->failed && policy->mode == ROCE_MODE_STRICT) {
		strict_lines(res);
		fail_step(sp, "the RoCE fabric fails the site policy");
		return;
	}
	if (!job_wide(sp, policy, res))
		return;
	if (res->n_findings)
		warn_line(sp, res);
	if (res->plan.valid)
		export_plan(sp, policy, &res->plan);
	else
		unset_inherited(sp);
}

/* One info line per node and step; each finding the job's output names
 * (briefly) in full at info, the quiet ones at debug. */
static void log_verdict(uint32_t job_id, enum roce_mode mode, const struct roce_step_result *res)
{
	char summary[2200];
	plan_summary(&res->plan, summary, sizeof(summary));
	slurm_info(ROCE_LOG "%s: job %" PRIu32 " mode %s: %s (%zu pass, %zu warn, %zu fail, %zu unknown; "
	                    "%zu of %zu ports healthy): %s",
	           node_name(), job_id, roce_mode_name(mode),
	           step.fail_tasks ? "FAIL"
	           : res->failed   ? "no usable port"
	                           : "ok",
	           res->n_pass, res->n_warn, res->n_fail, res->n_unknown, res->n_healthy, res->n_ports, summary);
	for (size_t i = 0; i < res->n_findings; i++) {
		const struct roce_finding *f = &res->findings[i];
		if (f->quiet)
			slurm_debug(ROCE_LOG "%s: %s %s %s (%s, quiet): %s", node_name(), f->subject, f->check,
			            roce_finding_verdict_name(f->status), f->cause, f->message);
		else
			slurm_info(ROCE_LOG "%s: %s %s %s (%s): %s", node_name(), f->subject, f->check,
			           roce_finding_verdict_name(f->status), f->cause, f->message);
	}
}

/* The site's policy: roce.conf and the plugstack words; -1 with err set
 * when either is bad (p is still filled: its Mode= may decide the mode). */
static int step_policy(struct roce_policy *p, struct roce_error *err)
{
	int rc = roce_config_policy(&step.config, p, err);
	if (!step.config_ok) {
		roce_error_set(err, "plugstack.conf: %s", step.config_err.msg);
		return -1;
	}
	return rc;
}

/* The checks in a worker, then drain, export or fail. */
static void check_step(spank_t sp, uint32_t job_id, const struct roce_policy *policy, struct roce_step_result *res)
{
	char gpus[8192]; /* more than lib/check/gpuset.c's GPU list limit (4096) */
	const char *gpus_from = step_gpus(sp, gpus, sizeof(gpus));

	if (gpus_from)
		slurm_debug(ROCE_LOG "%s: the step's GPUs from %s", node_name(), gpus_from);
	if (roce_step_check(policy, gpus, res) < 0) {
		internal_error(sp, policy->mode, res->error);
		return;
	}
	apply_result(sp, policy, res);
	log_verdict(job_id, policy->mode, res);
}

int roce_slurmstepd_init(spank_t sp, int ac, char **av)
{
	if (roce_option_register(sp) < 0)
		return -1;
	/* A bad plugstack line is judged by mode in init_post_opt: strict fails, warn warns. */
	step.config_ok = roce_plugargs_parse(ac, av, &step.config, &step.config_err) == 0;
	return 0;
}

/* Once per step and node, as root, before any task exists. */
int roce_slurmstepd_init_post_opt(spank_t sp)
{
	struct roce_policy policy;
	struct roce_error err = { "" };
	struct roce_step_result *res;
	uint32_t job_id = 0, step_id = 0;

	spank_get_item(sp, S_JOB_ID, &job_id);
	if (spank_get_item(sp, S_JOB_STEPID, &step_id) == ESPANK_SUCCESS && step_id == SLURM_EXTERN_CONT)
		return 0; /* the extern step runs no user task */
	step.job_id = job_id;
	step.step_id = step_id;

	double t0 = roce_clock_ms_of(CLOCK_MONOTONIC), cpu0 = roce_clock_ms_of(CLOCK_THREAD_CPUTIME_ID);
	int policy_rc = step_policy(&policy, &err);
	policy.mode = step_mode(sp, &policy);
	if (policy.mode == ROCE_MODE_OFF) {
		slurm_debug(ROCE_LOG "%s: job %" PRIu32 ": mode off", node_name(), job_id);
		return 0;
	}
	if (policy_rc < 0 || !(res = malloc(sizeof(*res)))) {
		internal_error(sp, policy.mode, policy_rc < 0 ? err.msg : "out of memory");
		return 0;
	}
	check_step(sp, job_id, &policy, res);
	/* Wall time includes waiting for a CPU; cpu is this thread's plus the worker's. */
	double cpu = roce_clock_ms_of(CLOCK_THREAD_CPUTIME_ID) - cpu0, wall = roce_clock_ms_of(CLOCK_MONOTONIC) - t0;
	slurm_debug(ROCE_LOG "%s: step setup took %.3f ms (cpu %.3f ms: slurmstepd %.3f, worker %.3f; "
	                     "pipeline %.3f ms)",
	            node_name(), wall, cpu + res->worker_cpu_ms, cpu, res->worker_cpu_ms, res->pipeline_ms);
	free(res);
	return 0;
}

void roce_slurmstepd_user_init(void)
{
	/* From here on, messages reach srun's stderr or the batch output. */
	for (size_t i = 0; i < step.n_msgs; i++) {
		if (step.level[i] == MSG_ERROR)
			slurm_error("%s", step.msgs[i]);
		else
			slurm_spank_log("%s", step.msgs[i]);
	}
}

/* Runs in each task process just before execve, as the user.  Returning -1
 * fails the step only for a `required` plugin; ending the task here fails it
 * either way (srun: "task 0: Exited with exit code 1", sbatch: FAILED 1:0).
 * The reasons were printed once per node by user_init. */
void roce_slurmstepd_task_init(void)
{
	if (step.fail_tasks)
		_exit(1);
}

void roce_slurmstepd_exit(void)
{
	roce_step_abort_repeat();
	for (size_t i = 0; i < step.n_msgs; i++)
		free(step.msgs[i]);
	memset(&step, 0, sizeof(step));
}
