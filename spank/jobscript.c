/*
 * jobscript.c - job_prolog and job_epilog (S_CTX_JOB_SCRIPT).
 *
 * slurmd runs `slurmstepd spank prolog|epilog` as root for every job on every
 * node; slurm_spank_init is not called first, so the plugstack arguments are
 * parsed here.  The mode comes from the option (registered in this context,
 * so spank_option_getopt works) or from SPANK_ROCE_MODE, which
 * client.c set with spank_job_control_setenv.
 */
#include "config.h"
#include "roce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <inttypes.h>

static enum roce_mode job_mode(spank_t sp, const struct roce_args *a, const struct roce_policy *p)
{
	struct roce_request r;
	char *optarg = NULL;
	const char *v;

	if (roce_option_getopt(sp, &optarg) == 0 && optarg)
		roce_request_parse(&r, optarg, "--roce");
	else if ((v = getenv("SPANK_ROCE_MODE")) && *v)
		roce_request_parse(&r, strcmp(v, "site") == 0 ? NULL : v, "SPANK_ROCE_MODE");
	else
		return a->default_mode;
	if (!r.valid)
		return a->default_mode;
	return r.site_mode ? p->mode : r.mode;
}

#if ROCE_HAVE_JOBREPORT
/* The prolog and epilog read sysfs too: lib's worker bounds them like a step
 * (roce_job_run).  Reporting never fails a job or drains a node: log and
 * carry on. */
static void run_job_report(const struct roce_policy *policy, bool prolog, const char *job, uid_t uid)
{
	struct roce_error err = { "" };
	const char *node = getenv("SLURMD_NODENAME");
	const char *what = prolog ? "prolog" : "epilog";

	int rc = roce_job_run(policy, prolog, NULL, job, node ? node : "", uid, &err);
	if (rc == ROCE_JOB_NONFATAL)
		slurm_error(ROCE_LOG "job %s: %s: no fabric report: %s", job, what, err.msg);
	else if (rc != 0)
		slurm_error(ROCE_LOG "job %s: %s: %s", job, what, err.msg);
}
#endif

int roce_job_script(spank_t sp, int ac, char **av, bool prolog)
{
	struct roce_args args;
	struct roce_policy policy;
	struct roce_error err = { "" };
	uint32_t job_id = 0;
	uid_t uid = (uid_t)-1;
	char job[16];

	if (roce_args_parse(ac, av, &args, &err) < 0 || roce_args_policy(&args, &policy, &err) < 0) {
		/* A site configuration error must not fail (and drain) every node's prolog. */
		slurm_error(ROCE_LOG "%s: %s", prolog ? "job_prolog" : "job_epilog", err.msg);
		return 0;
	}
	policy.mode = job_mode(sp, &args, &policy);
	if (policy.mode == ROCE_MODE_OFF)
		return 0;
	spank_get_item(sp, S_JOB_ID, &job_id);
	spank_get_item(sp, S_JOB_UID, &uid);
	snprintf(job, sizeof(job), "%" PRIu32, job_id);
#if ROCE_HAVE_JOBREPORT
	run_job_report(&policy, prolog, job, uid);
#else
	/* TODO(jobreport): per-job counter snapshots arrive with lib/jobreport.h. */
	(void)uid;
	slurm_debug(ROCE_LOG "job %s: %s: no job report support built in", job, prolog ? "prolog" : "epilog");
#endif
	return 0;
}
