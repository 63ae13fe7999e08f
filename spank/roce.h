/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce.h - what the files of the SPANK plugin share, grouped by file.
 *
 * roce.c dispatches each callback on spank_context() to one file per
 * context: client.c (srun, sbatch, salloc), slurmstepd.c (the remote
 * context: one check per step per node), jobscript.c (job_prolog and
 * job_epilog); srun's local_user_init goes to jobwide.c.  What they share:
 * request.c (what the user asked for and what it means), option.c (the
 * --roce option), config.c (the site policy: lib/read/plugargs.c's, or the
 * last good one), exported.c (the marks on values the plugin exported),
 * step.c (the step's check in a worker process), jobwide.c (the job-wide
 * agreement: srun computes it, each node's slurmstepd applies it), abort.c
 * (ending a step on every node), drain.c (draining this node).  The logic
 * lives in lib/.
 */
#ifndef ROCE_SPANK_H
#define ROCE_SPANK_H

#include <stdbool.h>
#include <stdint.h>
#include <slurm/spank.h>

#include "check/check.h"
#include "agree/fingerprint.h"
#include "check/plan.h"
#include "read/policy.h"
#include "read/plugargs.h"  /* the plugstack words: config=, default=, roce.conf keys */
#include "base/printable.h" /* roce_printable(): every hostile value in a log line */

#define ROCE_LOG "roce: "
#define ROCE_ENV_MODE "SLURM_ROCE"        /* for users who cannot pass --roce */
#define ROCE_ENV_EXPORTED "ROCE_EXPORTED" /* which values the plugin itself set */

/* ---------------------------------------------------------------- request.c: pure */

/* What the user asked for: --roce, SLURM_ROCE, or the client's word for the
 * job prolog (SPANK_ROCE_MODE). */
struct roce_request {
	bool given;     /* a value was found */
	bool site_mode; /* --roce without a value: the site's Mode= */
	bool valid;
	enum roce_mode mode;
	char raw[48];       /* printable copy for messages */
	const char *source; /* "--roce", "SLURM_ROCE", "SPANK_ROCE_MODE" */
};

/* Parse a value from the option or the environment; NULL/""/"(null)" = site mode. */
void roce_request_parse(struct roce_request *r, const char *value, const char *source);
/* The mode a request means, in every context: fallback (the plugstack's
 * default=) when nothing or nothing valid was asked (r may be NULL), site
 * (roce.conf's Mode=) for --roce alone, else the mode asked for. */
enum roce_mode roce_request_mode(const struct roce_request *r, enum roce_mode fallback, enum roce_mode site);
/* The client's word for "--roce alone" in SPANK_ROCE_MODE (the job prolog
 * reads the site's Mode= itself). */
#define ROCE_REQUEST_SITE "site"
/* One line naming the valid values. */
#define ROCE_VALID_MODES "valid values are off, warn and strict (--roce alone: the Mode= of the site's roce.conf)"

/* ---------------------------------------------------------------- option.c: Slurm's side */

int roce_option_register(spank_t sp);
/* The --roce value seen by the option callback (remote, local, allocator). */
const struct roce_request *roce_option_request(void);
/* The option in the job script context (the only way to read it there); 0 if given. */
int roce_option_getopt(spank_t sp, char **optarg);

/* ---------------------------------------------------------------- config.c */

/* The site's policy on a node: lib/read/plugargs.h's, with the last good
 * copy of a roce.conf that does not parse, logged once per change. */
int roce_config_policy(const struct roce_plugargs *c, struct roce_policy *p, struct roce_error *err);

/* ---------------------------------------------------------------- exported.c: pure */

/* ROCE_EXPORTED is "NAME:hash,...": was name=value set by the plugin (an earlier step)? */
bool roce_exported_has(const char *exported, const char *name, const char *value);
/* Append name's mark to list (len bytes); -1 (list unchanged) when it does not fit. */
int roce_exported_add(char *list, size_t len, const char *name, const char *value);

/* ---------------------------------------------------------------- step.c */

#define ROCE_MAX_FINDINGS 64

/* What the worker process sends back: plain data, no pointers. */
struct roce_step_result {
	int rc; /* 0, or -1 with error set (internal failure) */
	char error[ROCE_ERR_MAX];
	bool failed; /* the node fails under the mode */
	bool drain;  /* hardware fault: drain_reason is set */
	char drain_reason[256];
	size_t n_pass, n_warn, n_fail, n_unknown;
	size_t n_ports, n_healthy;
	double pipeline_ms;   /* collect+check+locality+plan in the worker (debug log) */
	double worker_cpu_ms; /* the worker's CPU time, fork included */
	struct roce_plan plan;
	struct roce_fingerprint self; /* what this node offers, as its prolog writes it (jobwide.c) */
	size_t n_findings;            /* non-PASS findings (at most ROCE_MAX_FINDINGS) */
	struct roce_finding findings[ROCE_MAX_FINDINGS];
};

/* collect + check + locality + plan in a worker; gives up after the
 * policy's TimeoutMs plus a margin.  gpus: the step's GPU list ("" = none). */
int roce_step_check(const struct roce_policy *p, const char *gpus, struct roce_step_result *out);

/* ---------------------------------------------------------------- drain.c */

/* Drain node with reason (a hardware fault's, check.h), unless someone
 * else holds it (roce_check_drain_leave_alone): 0 drained, 1 left alone,
 * -1 slurmctld could not be asked or refused (logged). */
int roce_drain_node(const char *node, const char *reason);

/* ---------------------------------------------------------------- prologflags.c */

/* Does the job prolog run at allocation (PrologFlags=Alloc, or Contain,
 * which implies it)?  Asked of slurmctld once per process: 1 yes, 0 no,
 * -1 it could not be asked (each caller says what that means to it). */
int roce_prologflags_alloc(void);

/* ---------------------------------------------------------------- jobwide.c */

/* The job-wide agreement (lib/agree/agree.h) on the plugin's two sides. */
/* srun, once per step (local_user_init): read the step's fingerprints in
 * SharedDir, agree, tell the user, and pass the verdict to the step in
 * ROCE_AGREEMENT (or remove a stale one).  -1 only when srun must stop. */
int roce_jobwide_srun(spank_t sp, int ac, char **av);

enum roce_jobwide_outcome { ROCE_JOBWIDE_NONE = 0, ROCE_JOBWIDE_APPLIED, ROCE_JOBWIDE_WARN, ROCE_JOBWIDE_FAIL };
/* slurmstepd, each node: res->plan restricted to the step's agreed rails.
 * WARN and FAIL come with msg (len bytes) for the user. */
/* The problems srun said for this step's nodes (ROCE_SAID: problems.h),
 * their keys into keys; false when srun said none for this step. */
bool roce_jobwide_said(spank_t sp, char *keys, size_t len);
enum roce_jobwide_outcome roce_jobwide_step(spank_t sp, enum roce_mode mode, const char *node,
                                            struct roce_step_result *res, char *msg, size_t len);
/* The job epilog (root): at most once an hour across the cluster, remove
 * what crashed nodes left in SharedDir, asking slurmctld which jobs are over. */
void roce_jobwide_sweep(const struct roce_policy *p);

/* ---------------------------------------------------------------- abort.c */

/* End step job_id.step_id on every node (slurmctld cancels it with SIGKILL,
 * whatever KillOnBadExit): for a node that must not let the step run.  node
 * and why go to the slurmd log.  The batch and extern steps are refused (-1):
 * ending them ends the job.  0 when slurmctld took the request. */
int roce_step_abort(uint32_t job_id, uint32_t step_id, const char *node, const char *why);
/* Called by slurm_spank_exit in slurmstepd: after a roce_step_abort() of this
 * process, repeat the request a few times over some seconds (a node whose
 * tasks were not yet started dropped the first one); nothing otherwise. */
void roce_step_abort_repeat(void);

/* ---------------------------------------------------------------- client.c */

int roce_client_init(spank_t sp, int ac, char **av);
int roce_client_init_post_opt(spank_t sp);
/* The option, else SLURM_ROCE in the client's environment (parsed into
 * env_req); NULL when neither. */
const struct roce_request *roce_client_request(struct roce_request *env_req);
/* srun: was it started inside an allocation (SLURM_JOB_ID at its start)? */
bool roce_client_in_allocation(void);

/* ---------------------------------------------------------------- slurmstepd.c */

int roce_slurmstepd_init(spank_t sp, int ac, char **av);
int roce_slurmstepd_init_post_opt(spank_t sp);
void roce_slurmstepd_user_init(void);
void roce_slurmstepd_task_init(void);
void roce_slurmstepd_exit(void);

/* ---------------------------------------------------------------- jobscript.c */

/* slurmd starts a `slurmstepd spank prolog|epilog` for every job because
 * these exist. */
int roce_jobscript_init(spank_t sp);
int roce_jobscript_run(spank_t sp, int ac, char **av, bool prolog);

#endif
