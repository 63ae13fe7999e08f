/*
 * roce.h - what the files of the SPANK plugin share.
 *
 * roce.c dispatches each callback on spank_context() to one file per
 * context: client.c (srun, sbatch, salloc), slurmstepd.c (the remote
 * context: one check per step per node), jobscript.c (job_prolog and
 * job_epilog).  args.c holds the --roce option, the SLURM_ROCE variable and
 * the plugstack arguments; checks.c runs the library's collect/check/plan in
 * a child process with a deadline.  The logic lives in lib/.
 */
#ifndef ROCE_SPANK_H
#define ROCE_SPANK_H

#include <stdbool.h>
#include <slurm/spank.h>

#include "check.h"
#include "plan.h"
#include "policy.h"
#include "printable.h"   /* roce_printable(): every hostile value in a log line */
#include "worker.h"

#define ROCE_LOG "roce: "
#define ROCE_ENV_MODE "SLURM_ROCE"        /* for users who cannot pass --roce */
#define ROCE_ENV_EXPORTED "ROCE_EXPORTED" /* which values the plugin itself set */
#define ROCE_ARGS_MAX 64

/* ---------------------------------------------------------------- request.c, args.c */

/* Plugstack arguments: config=PATH, default=MODE, and roce.conf keys. */
struct roce_args {
	char config[256];              /* "" = ROCE_DEFAULT_CONFIG, missing file allowed */
	enum roce_mode default_mode;   /* for jobs that did not ask */
	char *kv[ROCE_ARGS_MAX];       /* roce.conf Key=Value words, in order (point into argv) */
	int n_kv;
};

/* What the user asked for, from --roce or SLURM_ROCE. */
struct roce_request {
	bool given;                    /* --roce or SLURM_ROCE present */
	bool site_mode;                /* --roce without a value: the site's Mode= */
	bool valid;
	enum roce_mode mode;
	char raw[48];                  /* printable copy for messages */
	const char *source;            /* "--roce" or "SLURM_ROCE" */
};

int roce_args_parse(int ac, char **av, struct roce_args *a, struct roce_error *err);
/* Defaults, then the config file, then the Key=Value arguments (which win). */
int roce_args_policy(const struct roce_args *a, struct roce_policy *p, struct roce_error *err);
int roce_option_register(spank_t sp);
/* The --roce value seen by the option callback (remote, local, allocator). */
const struct roce_request *roce_option_request(void);
/* The option in the job script context (the only way to read it there); 0 if given. */
int roce_option_getopt(spank_t sp, char **optarg);
/* Parse a value from the option or the environment; NULL/""/"(null)" = site mode. */
void roce_request_parse(struct roce_request *r, const char *value, const char *source);
/* ROCE_EXPORTED is "NAME:hash,...": was name=value set by the plugin (an earlier step)? */
bool roce_exported_has(const char *exported, const char *name, const char *value);
/* Append name's mark to list (len bytes); -1 (list unchanged) when it does not fit. */
int roce_exported_add(char *list, size_t len, const char *name, const char *value);
/* One line naming the valid values. */
#define ROCE_VALID_MODES "valid values are off, warn and strict (--roce alone: the Mode= of the site's roce.conf)"

/* ---------------------------------------------------------------- checks.c */

#define ROCE_MAX_FINDINGS 64

/* What the child process sends back: plain data, no pointers. */
struct roce_step_result {
	int rc;                        /* 0, or -1 with error set (internal failure) */
	char error[ROCE_ERR_MAX];
	bool failed;                   /* the node fails under the mode */
	bool drain;                    /* hardware fault: drain_reason is set */
	char drain_reason[256];
	size_t n_pass, n_warn, n_fail, n_unknown;
	size_t n_ports, n_healthy;
	long pipeline_us;              /* collect+check+locality+plan in the worker (debug log) */
	long worker_cpu_us;            /* the worker's CPU time, fork included */
	struct roce_plan plan;
	size_t n_findings;             /* non-PASS findings (at most ROCE_MAX_FINDINGS) */
	struct roce_finding findings[ROCE_MAX_FINDINGS];
};

/* collect + check + locality + plan in a child; gives up after the policy's
 * timeout plus a margin.  gpus: the step's GPU list ("" = none). */
int roce_run_checks(const struct roce_policy *p, const char *gpus, struct roce_step_result *out);

/* ---------------------------------------------------------------- contexts */

int roce_client_init_post_opt(spank_t sp, const struct roce_args *a);
/* args_error: some plugstack arguments did not parse (a holds every word that did). */
int roce_remote_init_post_opt(spank_t sp, const struct roce_args *a, const char *args_error);
int roce_remote_user_init(spank_t sp);
int roce_remote_task_init(spank_t sp);
void roce_remote_exit(void);
/* job_prolog/job_epilog exist only when lib/jobreport.h does: with them,
 * slurmd starts a `slurmstepd spank prolog` for every job. */
#if defined(__has_include)
#if __has_include("jobreport.h")
#define ROCE_HAVE_JOBREPORT 1
#include "jobreport.h"
#endif
#endif
#ifndef ROCE_HAVE_JOBREPORT
#define ROCE_HAVE_JOBREPORT 0
#endif
int roce_job_script(spank_t sp, int ac, char **av, bool prolog);

#endif
