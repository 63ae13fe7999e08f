/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobmain.c - argument and environment handling of roce-prolog / roce-epilog (jobmain.h). */
#include "config.h"
#include "jobmain.h"
#include "base/hostname.h"
#include "job/job.h"
#include "read/policy.h"
#include "read/policycache.h"
#include "proc/slurmver.h"

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
	        "SLURMD_NODENAME (else the host name).  Reporting failures are logged and\n"
	        "exit 0; only usage errors exit 2.\n",
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

int roce_jobmain(int argc, char **argv, enum roce_jobmain_kind kind)
{
	const char *config = NULL, *sysfs_root = NULL;
	struct roce_policy policy;
	struct roce_policycache_outcome cached;
	struct roce_error err = { "" };
	struct job_env e;

	prog = kind == ROCE_JOBMAIN_PROLOG ? "roce-prolog" : "roce-epilog";
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
	/* In a worker with a deadline: a wedged driver must not hold the job's start or end. */
	int rc = roce_job_run(&policy, kind == ROCE_JOBMAIN_PROLOG, sysfs_root, e.job_id, e.node, e.uid, &err);
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
