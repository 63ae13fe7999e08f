/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscript.c - job_prolog and job_epilog (S_CTX_JOB_SCRIPT).
 *
 * slurmd runs `slurmstepd spank prolog|epilog` as root for every job on every
 * node; slurm_spank_init is not called first (seen), so the plugstack words
 * are parsed here.  The request comes from the option (registered in this
 * context, so spank_option_getopt works) or from SPANK_ROCE_MODE, which
 * client.c set with spank_job_control_setenv.  The prolog snapshots the
 * counters and the epilog writes the node's fragment (lib/job/job.h); the
 * prolog of a strict job (or of every job, Gate=yes) gates the node: a
 * hardware fault drains it and fails the prolog.
 */
#include "config.h"
#include "roce.h"
#include "job/job.h"
#include "base/hostname.h"
#include "base/slurmnodes.h"

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

/*
 * The node failed the prolog gate (job.h): without PrologFlags=Alloc the
 * prolog runs at a node's first step, where the step's own check judges
 * the node: nothing more to do.  Else drain with our reason first, so that
 * Slurm keeps it instead of writing "Prolog error", then fail the prolog
 * (-1), and Slurm requeues the job.  Drain=no: nothing drains, so nothing
 * fails.
 */
static int gate_failed(const struct roce_policy *policy, const char *node, const char *job, const char *reason)
{
	char shown[300];
	roce_printable(reason, shown, sizeof(shown));
	if (!policy->drain) {
		slurm_error(ROCE_LOG "%s: job %s: prolog gate: %s: not failing the prolog (Drain=no)", node, job,
		            shown);
		return 0;
	}
	/* From 24.11 on, the first libslurm RPC of `slurmstepd spank prolog`
	 * ends the process (exit 1, nothing logged; seen on 24.11 and 26.05)
	 * unless slurm_init has loaded libslurm's plugins first (what 22.05 has
	 * loaded already, it leaves as it is). */
	slurm_init(NULL);
	/* unknown counts as at allocation: a strict job must not start on a
	 * faulty node because slurmctld was slow to answer */
	if (roce_prologflags_alloc() == 0) {
		slurm_info(ROCE_LOG "%s: job %s: prolog gate: %s: not failing the prolog without PrologFlags=Alloc "
		                    "(the job's steps judge the node)",
		           node, job, shown);
		return 0;
	}
	roce_drain_node(node, reason);
	slurm_error(ROCE_LOG "%s: job %s: prolog gate: %s: the job prolog fails, so that Slurm requeues the job on "
	                     "other nodes",
	            node, job, shown);
	return -1;
}

/* The prolog and epilog read sysfs too: lib's worker bounds them like a step
 * (roce_job_run).  Reporting never fails a job or drains a node: log and
 * carry on.  The gate does both (gate_failed). */
static int run_job(const struct roce_policy *policy, bool prolog, unsigned parts, const char *job, uid_t uid)
{
	struct roce_error err = { "" };
	char host[64];
	const char *node = roce_hostname_node(getenv("SLURMD_NODENAME"), host, sizeof(host));
	const char *what = prolog ? "prolog" : "epilog";

	node = node ? node : "";
	struct roce_job_nodes nodes = { 0 };
	if (prolog && policy->probe == ROCE_PROBE_IP)
		roce_slurm_job_nodes(&nodes);
	int rc = roce_job_run(policy, prolog, parts, NULL, job, node, uid, &nodes, &err);
	if (rc == ROCE_JOB_GATE_FAILED) {
		if (gate_failed(policy, node, job, err.msg) < 0)
			return -1;
		/* The job runs here after all (Drain=no, no PrologFlags=Alloc): it
		 * gets its report, and srun this node's fingerprint, as any job. */
		if (!(parts & ROCE_JOB_REPORT)) {
			roce_slurm_job_nodes_free(&nodes);
			return 0;
		}
		rc = roce_job_run(policy, prolog, ROCE_JOB_REPORT, NULL, job, node, uid, &nodes, &err);
	}
	roce_slurm_job_nodes_free(&nodes);
	if (rc == ROCE_JOB_NONFATAL)
		slurm_error(ROCE_LOG "job %s: %s: no fabric report: %s", job, what, err.msg);
	else if (rc != 0)
		slurm_error(ROCE_LOG "job %s: %s: %s", job, what, err.msg);
	return 0;
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
	unsigned parts = (policy.mode != ROCE_MODE_OFF ? ROCE_JOB_REPORT : 0) |
	                 (prolog && roce_job_gates(policy.mode, &policy) ? ROCE_JOB_GATE : 0);
	if (!parts)
		return 0;
	spank_get_item(sp, S_JOB_ID, &job_id);
	spank_get_item(sp, S_JOB_UID, &uid);
	snprintf(job, sizeof(job), "%" PRIu32, job_id);
	int rc = run_job(&policy, prolog, parts, job, uid);
	if (!prolog && policy.shared_dir[0]) {
		/* The sweep asks slurmctld about jobs.  From 24.11 on, the first
		 * libslurm RPC of `slurmstepd spank epilog` ends the process
		 * (the sweep's worker died, its claim stayed for an hour: seen on
		 * 24.11 in spank-cephfs.sh) unless slurm_init has loaded
		 * libslurm's plugins first; 22.05 keeps what it loaded. */
		slurm_init(NULL);
		roce_jobwide_sweep(&policy);
	}
	return rc;
}
