/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscript.c - job_prolog and job_epilog (S_CTX_JOB_SCRIPT).
 *
 * slurmd runs `slurmstepd spank prolog|epilog` as root for every job on every
 * node; slurm_spank_init is not called first (seen), so the plugstack words
 * are parsed here.  The request comes from the option (registered in this
 * context, so spank_option_getopt works) or from SPANK_ROCE_MODE, which
 * client.c set with spank_job_control_setenv.  The prolog snapshots the
 * counters and the epilog writes the node's fragment (lib/job/job.h).
 */
#include "config.h"
#include "roce.h"
#include "job/job.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <slurm/slurm.h>

int roce_jobscript_init(spank_t sp) { return roce_option_register(sp); }

/* The option, else the client's SPANK_ROCE_MODE; NULL when neither. */
static const struct roce_request *find_request(spank_t sp, struct roce_request *r)
{
	char *optarg = NULL;
	const char *v;

	if (roce_option_getopt(sp, &optarg) == 0 && optarg)
		roce_request_parse(r, optarg, "--roce");
	else if ((v = getenv("SPANK_ROCE_MODE")) && *v)
		roce_request_parse(r, strcmp(v, ROCE_REQUEST_SITE) == 0 ? NULL : v, "SPANK_ROCE_MODE");
	else
		return NULL;
	return r;
}

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

int roce_jobscript_run(spank_t sp, int ac, char **av, bool prolog)
{
	struct roce_plugargs config;
	struct roce_policy policy;
	struct roce_request request;
	struct roce_error err = { "" };
	uint32_t job_id = 0;
	uid_t uid = (uid_t)-1;
	char job[16];

	if (roce_plugargs_parse(ac, av, &config, &err) < 0 || roce_config_policy(&config, &policy, &err) < 0) {
		/* A site configuration error must not fail (and drain) every node's prolog. */
		slurm_error(ROCE_LOG "%s: %s", prolog ? "job_prolog" : "job_epilog", err.msg);
		return 0;
	}
	policy.mode = roce_request_mode(find_request(sp, &request), config.default_mode, policy.mode);
	if (policy.mode == ROCE_MODE_OFF)
		return 0;
	spank_get_item(sp, S_JOB_ID, &job_id);
	spank_get_item(sp, S_JOB_UID, &uid);
	snprintf(job, sizeof(job), "%" PRIu32, job_id);
	run_job_report(&policy, prolog, job, uid);
	if (!prolog && policy.shared_dir[0]) {
		/* The sweep asks slurmctld about jobs.  From 24.11 on, the first
		 * libslurm RPC of `slurmstepd spank epilog` ends the process
		 * (the sweep's worker died, its claim stayed for an hour: seen on
		 * 24.11 in spank-cephfs.sh) unless slurm_init has loaded
		 * libslurm's plugins first; 22.05 keeps what it loaded. */
		slurm_init(NULL);
		roce_jobwide_sweep(&policy);
	}
	return 0;
}
