/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobmain.c - argument and environment handling of roce-prolog / roce-epilog (jobmain.h). */
#include "config.h"
#include "jobmain.h"
#include "base/hostname.h"
#include "base/slurmnodes.h"
#include "job/job.h"
#include "read/policy.h"
#include "read/policycache.h"
#include "proc/slurmver.h"
#include "base/printable.h"
#include "check/check.h"
#include "nodectl.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#define EXIT_USAGE 2

static const char *prog;

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: %s [--config FILE] [--sysfs-root DIR]\n"
	        "  -c, --config FILE      roce.conf (default %s; missing = defaults)\n"
	        "  -r, --sysfs-root DIR   read sysfs from DIR instead of /sys (tests)\n"
	        "  -h, --help             this text\n"
	        "  -V, --version          version\n"
	        "Environment (set by slurmd for Prolog=/Epilog=): SLURM_JOB_ID, SLURM_JOB_UID,\n"
	        "SLURMD_NODENAME (else the host name), SPANK_ROCE_MODE (the prolog gate).\n"
	        "Reporting failures are logged and exit 0; a node that fails the prolog gate\n"
	        "(a strict job or Gate=yes, and a hardware fault) is drained and exits 1;\n"
	        "usage errors exit 2.\n",
	        prog, ROCE_DEFAULT_CONFIG);
}

/* Everything goes to stderr (slurmd's log for Prolog= scripts) and syslog. */
static void logmsg(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logmsg(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
	syslog(prio, "%s", msg);
}

static int parse_uid(const char *s, uid_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = s ? strtoul(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || v >= (uid_t)-1 || s[0] == '-')
		return -1;
	*out = (uid_t)v;
	return 0;
}

/* The options; -1 (usage printed) when they are wrong, 1 after --help. */
static int parse_options(int argc, char **argv, const char **config, const char **sysfs_root)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "c:r:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c': *config = optarg; break;
		case 'r': *sysfs_root = optarg; break;
		case 'h': usage(stdout); return 1;
		case 'V': roce_slurmver_print_version(prog); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

struct job_env {
	const char *job_id, *node;
	uid_t uid;
	char host[256]; /* the node name when SLURMD_NODENAME is not set */
};

/* What slurmd sets for a Prolog=/Epilog= script; -1 (logged) when it is not usable. */
static int read_env(struct job_env *e)
{
	e->job_id = getenv("SLURM_JOB_ID");
	if (!e->job_id) {
		logmsg(LOG_ERR, "SLURM_JOB_ID is not set: run me as a Slurm Prolog/Epilog");
		return -1;
	}
	if (parse_uid(getenv("SLURM_JOB_UID"), &e->uid) < 0) {
		logmsg(LOG_ERR, "SLURM_JOB_UID is missing or not a uid");
		return -1;
	}
	if (!(e->node = roce_hostname_node(getenv("SLURMD_NODENAME"), e->host, sizeof(e->host)))) {
		logmsg(LOG_ERR, "SLURMD_NODENAME is not set and gethostname failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* The job's mode at allocation, as the plugin's client passed it to
 * Prolog= programs: SPANK_ROCE_MODE is off, warn, strict, or "site" (--roce
 * alone: the policy's Mode=).  Off when the job did not ask (or no plugin
 * runs on the submit host): only Gate=yes gates such a job. */
static enum roce_mode job_mode(const struct roce_policy *p)
{
	const char *v = getenv("SPANK_ROCE_MODE");
	enum roce_mode m;
	if (v && strcmp(v, "site") == 0)
		return p->mode;
	return v && roce_mode_parse(v, &m) == 0 ? m : ROCE_MODE_OFF;
}

/* The gate failed (job.h).  Without PrologFlags=Alloc the prolog runs at
 * a node's first step, where the step's own check judges the node: nothing
 * more to do.  Else drain the node with the reason, so that Slurm keeps ours
 * instead of "Prolog error", and fail the prolog (exit 1), which makes
 * Slurm requeue the job.  Drain=no: nothing drains, nothing fails. */
static int gate_failed(const struct roce_policy *p, const struct job_env *e, const char *reason)
{
	char state[64], current[256], why[512], shown[300];
	unsigned bits;
	roce_printable(reason, shown, sizeof(shown));
	if (!p->drain) {
		logmsg(LOG_ERR, "job %s on %s: prolog gate: %s: not failing the prolog (Drain=no)", e->job_id, e->node,
		       shown);
		return 0;
	}
	/* unknown counts as Alloc: a strict job must not start on a faulty node because slurmctld was slow */
	if (roce_nodectl_prolog_alloc(why, sizeof(why)) == 0) {
		logmsg(LOG_INFO,
		       "job %s on %s: prolog gate: %s: not failing the prolog without PrologFlags=Alloc (the job's "
		       "steps judge the node)",
		       e->job_id, e->node, shown);
		return 0;
	}
	if (roce_nodectl_state(e->node, &bits, state, sizeof(state), current, sizeof(current), why, sizeof(why)) < 0)
		logmsg(LOG_ERR, "job %s on %s: cannot read the node's state from slurmctld: not draining it: %s",
		       e->job_id, e->node, why);
	else if (roce_check_drain_leave_alone(bits, current))
		logmsg(LOG_INFO, "job %s on %s: already %s for \"%s\": left alone (%s)", e->job_id, e->node, state,
		       roce_printable(current, why, sizeof(why)), shown);
	else if (roce_nodectl_drain(e->node, reason, why, sizeof(why)) < 0)
		logmsg(LOG_ERR, "job %s on %s: cannot drain the node (%s): %s", e->job_id, e->node, shown, why);
	logmsg(LOG_ERR,
	       "job %s on %s: prolog gate: %s: the prolog fails, so that Slurm requeues the job on other nodes",
	       e->job_id, e->node, shown);
	return 1;
}

int roce_jobmain(int argc, char **argv, enum roce_jobmain_kind kind)
{
	const char *config = NULL, *sysfs_root = NULL;
	struct roce_policy policy;
	struct roce_policycache_outcome cached;
	struct roce_error err = { "" };
	struct job_env e;
	bool prolog = kind == ROCE_JOBMAIN_PROLOG;

	prog = prolog ? "roce-prolog" : "roce-epilog";
	int opt = parse_options(argc, argv, &config, &sysfs_root);
	if (opt != 0)
		return opt < 0 ? EXIT_USAGE : 0;
	openlog(prog, LOG_PID, LOG_DAEMON);
	if (read_env(&e) < 0)
		return EXIT_USAGE;
	roce_policy_defaults(&policy);
	if (roce_policycache_load(&policy, config ? config : ROCE_DEFAULT_CONFIG, config == NULL, e.node, true, NULL,
	                          &cached, &err) < 0) {
		/* A broken roce.conf is the admin's problem, not a reason to drain the node. */
		logmsg(LOG_ERR, "job %s: no fabric report: %s", e.job_id, err.msg);
		return 0;
	}
	/* Its last good copy stands in: said once per change of the file, not per job. */
	if (cached.cached && cached.first)
		logmsg(LOG_ERR,
		       "%s: using its last good copy (saved %s) until the file is fixed "
		       "(roce-check --check-config lists every problem)",
		       cached.bad.msg, cached.saved);
	unsigned parts = ROCE_JOB_REPORT | (prolog && roce_job_gates(job_mode(&policy), &policy) ? ROCE_JOB_GATE : 0);
	/* In a worker with a deadline: a wedged driver must not hold the job's start or end. */
	struct roce_job_nodes nodes = { 0 };
	if (prolog && policy.probe == ROCE_PROBE_IP)
		roce_slurm_job_nodes(&nodes);
	int rc = roce_job_run(&policy, prolog, parts, sysfs_root, e.job_id, e.node, e.uid, &nodes, &err);
	if (rc == ROCE_JOB_GATE_FAILED) {
		if (gate_failed(&policy, &e, err.msg) != 0) {
			roce_slurm_job_nodes_free(&nodes);
			return 1;
		}
		/* The job runs here after all (Drain=no, no PrologFlags=Alloc): its
		 * report, and this node's fingerprint, as for any job. */
		rc = roce_job_run(&policy, prolog, ROCE_JOB_REPORT, sysfs_root, e.job_id, e.node, e.uid, &nodes, &err);
	}
	roce_slurm_job_nodes_free(&nodes);
	if (rc < 0) {
		logmsg(LOG_ERR, "job %.24s: %s", e.job_id, err.msg);
		return EXIT_USAGE;
	}
	if (rc > 0)
		logmsg(LOG_WARNING, "job %s on %s: %s%s", e.job_id, e.node,
		       rc == ROCE_JOB_NONFATAL ? "no fabric report: " : "", err.msg);
	closelog();
	return 0;
}
