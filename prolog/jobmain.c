/* jobmain.c - argument and environment handling of roce-prolog / roce-epilog. */
#include "config.h"
#include "jobmain.h"
#include "hostname.h"
#include "job.h"
#include "policy.h"

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

int roce_job_main(int argc, char **argv, enum roce_job_main_kind kind)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *config = NULL, *sysfs_root = NULL;
	struct roce_policy policy;
	struct roce_error err = { "" };
	char host[256];
	uid_t uid;
	int c;

	prog = kind == ROCE_JOB_MAIN_PROLOG ? "roce-prolog" : "roce-epilog";
	while ((c = getopt_long(argc, argv, "c:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'r': sysfs_root = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	openlog(prog, LOG_PID, LOG_DAEMON);
	const char *job_id = getenv("SLURM_JOB_ID"), *node = getenv("SLURMD_NODENAME");
	if (!job_id) {
		logmsg(LOG_ERR, "SLURM_JOB_ID is not set: run me as a Slurm Prolog/Epilog");
		return EXIT_USAGE;
	}
	if (parse_uid(getenv("SLURM_JOB_UID"), &uid) < 0) {
		logmsg(LOG_ERR, "SLURM_JOB_UID is missing or not a uid");
		return EXIT_USAGE;
	}
	if (!(node = roce_hostname_node(node, host, sizeof(host)))) {
		logmsg(LOG_ERR, "SLURMD_NODENAME is not set and gethostname failed: %s", strerror(errno));
		return EXIT_USAGE;
	}
	roce_policy_defaults(&policy);
	if (roce_policy_load(&policy, config ? config : ROCE_DEFAULT_CONFIG, config == NULL, &err) < 0) {
		/* A broken roce.conf is the admin's problem, not a reason to drain the node. */
		logmsg(LOG_ERR, "job %s: no fabric report: %s", job_id, err.msg);
		return 0;
	}
	/* In a child with a deadline: a wedged driver must not hold the job's start or end. */
	int rc = roce_job_run(&policy, kind == ROCE_JOB_MAIN_PROLOG, sysfs_root, job_id, node, uid, &err);
	if (rc < 0) {
		logmsg(LOG_ERR, "job %.24s: %s", job_id, err.msg);
		return EXIT_USAGE;
	}
	if (rc > 0)
		logmsg(LOG_WARNING, "job %s on %s: no fabric report: %s", job_id, node, err.msg);
	closelog();
	return 0;
}
