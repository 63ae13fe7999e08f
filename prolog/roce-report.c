/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce-report - print a job's RoCE fabric report: every node's fragment
 * (ReportDir/<jobid>/<node>.json, written by the epilog) merged.
 *
 *   roce-report JOBID [--report-dir DIR] [--config FILE] [--format text|json|prometheus|html]
 *               [--output FILE]
 *   roce-report --nodes [--since TIME] [the same options]: node ports ranked
 *               by the jobs that saw a problem there (lib/report/nodehealth.h)
 *   roce-report --live JOBID [the same options]: a running job as its nodes'
 *               health checks last sampled it (lib/report/livereport.h)
 *
 * Exit 0 report printed, 1 no fragment for the job (or none readable),
 * 2 usage error, 3 refused (another user's job).
 */
#include "config.h"
#include "report/nodehealth.h"
#include "report/nodehealth_html.h"
#include "report/nodehealth_json.h"
#include "report/nodehealth_prometheus.h"
#include "report/nodehealth_text.h"
#include "report/livereport.h"
#include "report/livereport_json.h"
#include "report/livereport_prometheus.h"
#include "report/livereport_text.h"
#include "read/policy.h"
#include "read/policyfile.h"
#include "report/report.h"
#include "report/report_html.h"
#include "report/report_json.h"
#include "report/report_prometheus.h"
#include "report/report_text.h"
#include "report/report_verdicts.h"
#include "report/reportdir.h"
#include "read/safefile.h"
#include "base/slurmid.h"
#include "base/slurmnodes.h"
#include "proc/slurmver.h"
#include "base/timearg.h"
#include "proc/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <slurm/slurm.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_OK = 0, EXIT_NONE = 1, EXIT_USAGE = 2, EXIT_REFUSED = 3 };

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: roce-report JOBID [--report-dir DIR] [--config FILE] [--format text|json|prometheus|html]\n"
	        "                   [--output FILE]\n"
	        "       roce-report --nodes [--since TIME] [--report-dir DIR] [--config FILE] [--format FMT]\n"
	        "                   [--output FILE]\n"
	        "       roce-report --live JOBID [--report-dir DIR] [--config FILE] [--format text|json|prometheus]\n"
	        "                   [--output FILE]\n"
	        "  JOBID                  the job's numeric id (for array tasks: squeue -o %%A)\n"
	        "  -n, --nodes            node health across every job in ReportDir: node ports ranked by the\n"
	        "                         jobs that saw loss, RDMA timeouts, pause storms, link downs or a slow link\n"
	        "  -l, --live             a running job: each node port's rates and loss since the job started\n"
	        "                         and since the sample before, GID and link changes, as the nodes'\n"
	        "                         health checks (roce-healthcheck) last sampled it\n"
	        "  -s, --since TIME       with --nodes: only jobs that ended since TIME (2026-11-30,\n"
	        "                         2026-11-30T12:00[:00][Z], now-7days, -7d, -36h)\n"
	        "  -d, --report-dir DIR   fragments are in DIR/JOBID/ (default: ReportDir of roce.conf)\n"
	        "  -c, --config FILE      roce.conf (default %s)\n"
	        "  -f, --format FMT       text (default), json, prometheus (node_exporter textfile),\n"
	        "                         or html (one self-contained page)\n"
	        "  -o, --output FILE      write FILE (replaced whole, never left partial) instead of stdout\n"
	        "  -h, --help             this text\n"
	        "  -V, --version          version\n"
	        "\n"
	        "Who may read a report: the job's user, root, and members of the group that\n"
	        "owns ReportDir (the admins: chgrp it to your Slurm admin group).  The epilog\n"
	        "makes each fragment readable by exactly these (mode 0440, group = ReportDir's\n"
	        "group, plus an ACL entry for the job's user); roce-report refuses other users\n"
	        "with a clear message instead of a permission error.  --nodes lists ReportDir,\n"
	        "which only root and that group may do (users search it for their own job's\n"
	        "directory, never list it); root and that group count every job, a user\n"
	        "the site lets list it (an ACL) counts their own jobs only.\n"
	        "For node_exporter's textfile collector write to a temporary file in its\n"
	        "directory and rename it to <name>.prom (the collector reads *.prom only).\n"
	        "Exit: 0 printed, 1 no fragments, 2 usage, 3 refused.\n",
	        ROCE_DEFAULT_CONFIG);
}

static bool in_group(gid_t g)
{
	if (getegid() == g || getgid() == g)
		return true;
	int n = getgroups(0, NULL);
	if (n <= 0)
		return false;
	gid_t *groups = calloc((size_t)n, sizeof(*groups));
	bool found = false;
	if (groups && (n = getgroups(n, groups)) > 0)
		for (int i = 0; i < n; i++)
			found |= groups[i] == g;
	free(groups);
	return found;
}

/* Root, or a member of the group that owns ReportDir (resolved as the
 * report is: a link in its path makes nobody an admin). */
static bool is_admin(const char *report_dir, char *group_name, size_t len)
{
	struct stat st;
	snprintf(group_name, len, "?");
	if (getuid() == 0)
		return true;
	/* a user may search ReportDir, not list it (safefile.h): an O_PATH look */
	int fd = roce_safefile_open_dir(NULL, report_dir, ROCE_SAFEFILE_SEARCH, 0, NULL);
	bool known = fd >= 0 && fstat(fd, &st) == 0;
	if (fd >= 0)
		close(fd);
	if (!known)
		return false;
	struct group *gr = getgrgid(st.st_gid);
	snprintf(group_name, len, "%s", gr ? gr->gr_name : "?");
	return in_group(st.st_gid);
}

static int print_text(FILE *out, const struct roce_job_report *r)
{
	return roce_report_text_print(out, r, roce_slurm_nodelist);
}

static int print_json(FILE *out, const struct roce_job_report *r)
{
	return roce_report_json_print(out, r, roce_slurm_nodelist);
}

static int print_prometheus(FILE *out, const struct roce_job_report *r) { return roce_report_prometheus_print(out, r); }

static int print_html(FILE *out, const struct roce_job_report *r)
{
	return roce_report_html_print(out, r, roce_slurm_nodelist);
}

/* --format: the first is the default. */
static const struct format {
	const char *name;
	int (*print)(FILE *out, const struct roce_job_report *r);
	int (*print_nodes)(FILE *out, const struct roce_nodehealth *h); /* --nodes */
	int (*print_live)(FILE *out, const struct roce_livereport *r);  /* --live; NULL: not for --live */
	bool errors_to_stderr; /* also list unusable fragments on stderr: a program reads the output */
} formats[] = {
	{ "text", print_text, roce_nodehealth_text_print, roce_livereport_text_print, false },
	{ "json", print_json, roce_nodehealth_json_print, roce_livereport_json_print, true },
	{ "prometheus", print_prometheus, roce_nodehealth_prometheus_print, roce_livereport_prometheus_print, true },
	{ "html", print_html, roce_nodehealth_html_print, NULL, true },
};

struct args {
	const char *job_id, *report_dir, *config, *output;
	const struct format *format;
	bool nodes, live;
	bool since_set;
	time_t since;
};

static const struct format *format_named(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "report-dir", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "nodes", no_argument, NULL, 'n' },
		{ "live", no_argument, NULL, 'l' },
		{ "since", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	struct roce_error err = { "" };
	a->format = &formats[0];
	while ((c = getopt_long(argc, argv, "d:c:f:o:nls:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd': a->report_dir = optarg; break;
		case 'c': a->config = optarg; break;
		case 'f':
			if (!(a->format = format_named(optarg))) {
				fprintf(stderr,
				        "roce-report: --format must be text, json, prometheus or html, not \"%s\"\n",
				        optarg);
				return -1;
			}
			break;
		case 'o': a->output = optarg; break;
		case 'n': a->nodes = true; break;
		case 'l': a->live = true; break;
		case 's':
			if (roce_timearg_parse(optarg, time(NULL), &a->since, &err) < 0) {
				fprintf(stderr, "roce-report: --since: %s\n", err.msg);
				return -1;
			}
			a->since_set = true;
			break;
		case 'h': usage(stdout); exit(EXIT_OK);
		case 'V': roce_slurmver_print_version("roce-report"); exit(EXIT_OK);
		default: usage(stderr); return -1;
		}
	}
	if (a->live && (a->nodes || !a->format->print_live)) {
		fprintf(stderr, "roce-report: --live shows one running job as text, json or prometheus%s\n",
		        a->nodes ? " (not with --nodes)" : "");
		return -1;
	}
	if (a->since_set && !a->nodes) {
		fprintf(stderr, "roce-report: --since goes with --nodes (a job report is of one job)\n");
		return -1;
	}
	if (a->nodes && optind != argc) {
		fprintf(stderr, "roce-report: --nodes reads every job: give no JOBID (\"%s\")\n", argv[optind]);
		return -1;
	}
	if (a->nodes)
		return 0;
	if (optind != argc - 1) {
		usage(stderr);
		return -1;
	}
	a->job_id = argv[optind];
	if (!roce_slurmid_job_ok(a->job_id)) {
		fprintf(stderr,
		        "roce-report: \"%s\" is not a job id (digits; for an array task use its job id, "
		        "squeue -o %%A)\n",
		        a->job_id);
		return -1;
	}
	return 0;
}

/* ReportDir from --report-dir or roce.conf, into report_dir. */
static int find_report_dir(const struct args *a, char *report_dir, size_t len)
{
	static const char *const want[] = { "ReportDir", NULL };
	struct roce_policyfile_result res;
	struct roce_policy policy;
	if (a->report_dir) {
		snprintf(report_dir, len, "%s", a->report_dir);
		return 0;
	}
	roce_policy_defaults(&policy);
	/* Only ReportDir matters here: a typo elsewhere in the file is the
	 * nodes' problem, said but not fatal. */
	if (roce_policyfile_read(&policy, a->config ? a->config : ROCE_DEFAULT_CONFIG, a->config == NULL, NULL, &res) <
	    0) {
		const struct roce_policyfile_problem *x = roce_policyfile_touches(&res, want);
		if (x) {
			fprintf(stderr, "roce-report: %s\n", x->err.msg);
			return -1;
		}
		fprintf(stderr, "roce-report: warning: %s (ReportDir is read all the same)\n", res.problems[0].err.msg);
	}
	snprintf(report_dir, len, "%s", policy.report_dir);
	return 0;
}

/* ---------------------------------------------------------------- no report: why */

/* What slurmctld says of the job: asked in a worker, as slurm_init() exits
 * the process without a usable slurm.conf and slurmctld may not answer. */
struct job_state {
	int known;      /* 1 known, 0 unknown to slurmctld, -1 not answered */
	uint32_t state; /* job_state when known */
};
#define ASK_SLURMCTLD_MS 5000

static void ask_slurmctld(const void *arg, void *res)
{
	struct job_state *js = res;
	job_info_msg_t *m = NULL;
	js->known = -1;
	slurm_init(NULL);
#if defined(slurm_load_job_sluid) /* 26.05: the job named by slurm_step_id_t */
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;
	id.job_id = (uint32_t)strtoul(arg, NULL, 10);
	int rc = slurm_load_job(&m, id, SHOW_ALL);
#else
	int rc = slurm_load_job(&m, (uint32_t)strtoul(arg, NULL, 10), SHOW_ALL);
#endif
	if (rc != SLURM_SUCCESS) {
		if (errno == ESLURM_INVALID_JOB_ID)
			js->known = 0;
		return;
	}
	js->known = m->record_count > 0;
	if (js->known)
		js->state = m->job_array[0].job_state;
	slurm_free_job_info_msg(m);
}

static const char *state_name(uint32_t state)
{
	static const char *const names[] = { "PENDING",   "RUNNING",   "SUSPENDED", "COMPLETED",
		                             "CANCELLED", "FAILED",    "TIMEOUT",   "NODE_FAIL",
		                             "PREEMPTED", "BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY" };
	uint32_t base = state & JOB_STATE_BASE;
	return base < sizeof(names) / sizeof(names[0]) ? names[base] : "ended";
}

/* No fragment at all: a job still running, one that asked for no report,
 * and a node whose slurmd never ran the job epilog look alike on disk;
 * slurmctld tells the first apart. */
static void explain_missing(const char *job_id, const char *dir)
{
	struct job_state js = { -1, 0 };
	if (roce_worker_run(ask_slurmctld, job_id, &js, sizeof(js), ASK_SLURMCTLD_MS, NULL) < 0)
		js.known = -1;
	uint32_t base = js.state & JOB_STATE_BASE;
	if (js.known == 1 &&
	    (base == JOB_PENDING || base == JOB_RUNNING || base == JOB_SUSPENDED || (js.state & JOB_COMPLETING))) {
		fprintf(stderr,
		        "roce-report: no report for job %s yet: it is %s; each node writes its part when "
		        "the job ends there (roce-report --live %s: what the nodes' health checks sampled so far)\n",
		        job_id, js.state & JOB_COMPLETING ? "COMPLETING" : state_name(js.state), job_id);
		return;
	}
	if (js.known == 1)
		fprintf(stderr, "roce-report: no report for job %s: it ended (%s) but no node wrote its part to %s.\n",
		        job_id, state_name(js.state), dir);
	else
		fprintf(stderr, "roce-report: no report for job %s in %s (slurmctld %s).\n", job_id, dir,
		        js.known == 0 ? "does not know the job, or no longer (MinJobAge)" : "did not answer");
	fprintf(stderr, "roce-report: either the job asked for none (--roce=off, or no --roce and no SLURM_ROCE "
	                "with the plugstack's default=off), or slurmd was not restarted after the plugin was "
	                "installed (until then it runs no job prolog or epilog), or the epilog failed (slurmd's "
	                "log, lines with \"roce:\")\n");
}

/* Fragments exist but none could be read (by an admin: a user is told the
 * report is not theirs). */
static void explain_unreadable(const struct roce_job_report *r, const char *dir)
{
	bool denied = false;
	fprintf(stderr, "roce-report: no fragment in %s could be read:\n", dir);
	for (size_t i = 0; i < r->n_errors; i++) {
		fprintf(stderr, "roce-report:   %s\n", r->errors[i]);
		denied |= strstr(r->errors[i], strerror(EACCES)) != NULL;
	}
	if (denied)
		fprintf(stderr, "roce-report: fragments keep the group ReportDir had when they were written: after a "
		                "chgrp of ReportDir, chgrp its job directories' fragments too (chgrp -R)\n");
}

/* What of a job this user sees: the files' permissions are the real guard;
 * this also covers fragments a user could read but should not (e.g. copied,
 * or left by an earlier job with the same id): a user sees their fragments
 * only, an admin those of the job's user. */
static void keep_visible(struct roce_job_report *r, bool admin)
{
	roce_report_keep_uid(r, admin ? roce_report_job_uid(r) : (long)getuid());
}

/* what: "report" or "live view" */
static void not_yours(const char *job_id, const char *what, const char *group)
{
	fprintf(stderr,
	        "roce-report: job %s is not yours: its %s is readable by the job's user, root "
	        "and members of group %s only\n",
	        job_id, what, group);
}

/* The job's fragments into r, and whether this user may see them: EXIT_OK,
 * or the exit status after saying why not. */
static int load(const struct args *a, const char *report_dir, struct roce_job_report *r)
{
	struct roce_error err = { "" };
	char dir[PATH_MAX], group[64];
	if (snprintf(dir, sizeof(dir), "%s/%s", report_dir, a->job_id) >= (int)sizeof(dir)) {
		fprintf(stderr, "roce-report: report directory path too long\n");
		return EXIT_USAGE;
	}
	bool admin = is_admin(report_dir, group, sizeof(group));
	if (roce_reportdir_load(r, dir, &err) < 0) {
		struct stat st;
		bool denied = errno == EACCES;
		if (lstat(dir, &st) < 0 && errno == ENOENT) {
			explain_missing(a->job_id, dir);
		} else if (denied && !admin) {
			/* the job directory lists for its user and the admins only */
			not_yours(a->job_id, "report", group);
			return EXIT_REFUSED;
		} else {
			fprintf(stderr, "roce-report: no report for job %s: %s\n", a->job_id, err.msg);
		}
		return EXIT_NONE;
	}
	/* Say it plainly rather than list permission errors. */
	bool any = r->n_nodes > 0 || r->n_errors > 0;
	keep_visible(r, admin);
	if (!admin && any && r->n_nodes == 0) {
		not_yours(a->job_id, "report", group);
		return EXIT_REFUSED;
	}
	if (r->n_nodes == 0) {
		if (r->n_errors)
			explain_unreadable(r, dir);
		else
			explain_missing(a->job_id, dir);
		return EXIT_NONE;
	}
	roce_report_sort(r);
	if (roce_report_verdicts(r) < 0) {
		fprintf(stderr, "roce-report: out of memory merging the report for job %s\n", a->job_id);
		return EXIT_NONE;
	}
	return EXIT_OK;
}

/* The report into a->output, replaced whole (a reader, or a browser reloading
 * it, never sees part of it; a failed run leaves the old file). */
static int write_output(const struct args *a, const char *data, size_t len)
{
	struct roce_error err = { "" };
	char *d = strdup(a->output), *b = strdup(a->output);
	int dfd = d ? open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int rc = -1;
	mode_t mask = umask(0);
	umask(mask);
	if (!d || !b)
		roce_error_set(&err, "out of memory");
	else if (dfd < 0)
		roce_error_set(&err, "%s: %s", dirname(d), strerror(errno));
	else if (strcmp(basename(b), ".") == 0 || strcmp(basename(b), "..") == 0 || strcmp(basename(b), "/") == 0)
		roce_error_set(&err, "not a file name");
	else
		rc = roce_safefile_write(dfd, basename(b), data, len, geteuid(), getegid(), 0666 & ~mask, -1, 0, &err);
	if (rc < 0)
		fprintf(stderr, "roce-report: cannot write %s: %s\n", a->output, err.msg);
	if (dfd >= 0)
		close(dfd);
	free(d);
	free(b);
	return rc;
}

/* The job's report, node health (h) or a live view (lv) in the chosen format. */
static int emit(const struct args *a, FILE *out, const struct roce_job_report *r, const struct roce_nodehealth *h,
                const struct roce_livereport *lv)
{
	return lv ? a->format->print_live(out, lv) : h ? a->format->print_nodes(out, h) : a->format->print(out, r);
}

static int print(const struct args *a, const struct roce_job_report *r, const struct roce_nodehealth *h,
                 const struct roce_livereport *lv)
{
	int rc;
	/* Only this thread writes the report's stream (parprint.h's threads
	 * write into memory), and once the loading threads have run, stdio
	 * would take a lock per call: millions of them, so no locking. */
	if (a->output) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		if (mem)
			__fsetlocking(mem, FSETLOCKING_BYCALLER);
		bool ok = mem && emit(a, mem, r, h, lv) == 0;
		ok = mem && fclose(mem) == 0 && ok;
		rc = ok && write_output(a, buf, len) == 0 ? EXIT_OK : EXIT_USAGE;
		if (!ok)
			fprintf(stderr, "roce-report: cannot build the report: %s\n", strerror(errno));
		free(buf);
	} else {
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		__fsetlocking(stdout, FSETLOCKING_BYCALLER);
		rc = emit(a, stdout, r, h, lv) < 0 || fflush(stdout) != 0 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; r && (a->format->errors_to_stderr || a->output) && i < r->n_errors; i++)
		fprintf(stderr, "roce-report: fragment %s\n", r->errors[i]);
	return rc;
}

/* ---------------------------------------------------------------- --nodes */

struct walk {
	const char *report_dir;
	bool admin;
	int64_t since_ns;
	struct roce_nodehealth *h;
};

/* Unusable fragments of a job on stderr and counted: an admin's all, a
 * user's only in their own jobs (the first n: those of loading, not of
 * other users' nodes). */
static void job_errors(struct walk *w, const struct roce_job_report *r, size_t n)
{
	if (!w->admin && r->n_nodes == 0)
		return;
	if (w->admin)
		n = r->n_errors;
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "roce-report: job %s: fragment %s\n", r->job_id, r->errors[i]);
	w->h->unusable += n;
}

/* One job folded in and dropped: memory holds one job at a time. */
static int walk_job(const char *job_id, int64_t mtime_ns, void *arg)
{
	struct walk *w = arg;
	struct roce_error err = { "" };
	struct roce_job_report r;
	char dir[PATH_MAX];
	int rc = 0;
	/* no fragment in it was written since: none of its nodes ended since */
	if (w->since_ns && mtime_ns < w->since_ns)
		return 0;
	if (snprintf(dir, sizeof(dir), "%s/%s", w->report_dir, job_id) >= (int)sizeof(dir))
		return 0;
	roce_report_init(&r, job_id);
	if (roce_reportdir_load(&r, dir, &err) < 0) {
		if (w->admin)
			fprintf(stderr, "roce-report: job %s: %s\n", job_id, err.msg);
		roce_report_free(&r);
		return 0;
	}
	size_t loading = r.n_errors;
	keep_visible(&r, w->admin);
	roce_report_sort(&r);
	if (r.n_nodes && (!w->since_ns || roce_nodehealth_job_end(&r) >= w->since_ns) &&
	    (roce_report_verdicts(&r) < 0 || roce_nodehealth_add(w->h, &r) < 0)) {
		fprintf(stderr, "roce-report: out of memory adding job %s\n", job_id);
		rc = -1;
	}
	job_errors(w, &r, loading);
	roce_report_free(&r);
	return rc;
}

static int nodes_main(const struct args *a, const char *report_dir)
{
	struct roce_error err = { "" };
	struct roce_nodehealth h;
	char group[64];
	struct walk w = { report_dir, is_admin(report_dir, group, sizeof(group)), 0, &h };
	roce_nodehealth_init(&h);
	if (a->since_set)
		w.since_ns = h.since_ns = (int64_t)a->since * 1000000000;
	if (!w.admin)
		h.uid = (long)getuid();
	int rc = EXIT_OK;
	if (roce_reportdir_jobs(report_dir, walk_job, &w, &err) < 0) {
		if (!w.admin && errno == EACCES && err.msg[0]) {
			/* ReportDir is listed by its group only (roce.conf(5)) */
			fprintf(stderr,
			        "roce-report: --nodes reads every job in %s, which only root and members of "
			        "group %s may list; a report of your own job: roce-report JOBID\n",
			        report_dir, group);
			rc = EXIT_REFUSED;
		} else {
			if (err.msg[0])
				fprintf(stderr, "roce-report: %s\n", err.msg);
			rc = EXIT_NONE;
		}
	} else {
		roce_nodehealth_rank(&h);
		rc = print(a, NULL, &h, NULL);
	}
	roce_nodehealth_free(&h);
	return rc;
}

/* ---------------------------------------------------------------- --live */

/* No live file of the job: not running (yet, or any more), or not sampled. */
static void explain_no_live(const char *job_id, const char *dir, const struct roce_livereport *r)
{
	struct job_state js = { -1, 0 };
	if (r->n_ended) {
		fprintf(stderr, "roce-report: job %s has ended on its nodes: roce-report %s shows its report\n", job_id,
		        job_id);
		return;
	}
	if (roce_worker_run(ask_slurmctld, job_id, &js, sizeof(js), ASK_SLURMCTLD_MS, NULL) < 0)
		js.known = -1;
	uint32_t base = js.state & JOB_STATE_BASE;
	if (js.known == 1 && (base == JOB_RUNNING || base == JOB_SUSPENDED))
		fprintf(stderr,
		        "roce-report: no live sample of job %s yet: it is %s; each node's health check samples the "
		        "jobs running there (HealthCheckProgram=roce-healthcheck, every HealthCheckInterval, with "
		        "HealthCheckNodeState covering ALLOC and MIXED nodes, and Live=yes in roce.conf)\n",
		        job_id, state_name(js.state));
	else if (js.known == 1 && base == JOB_PENDING)
		fprintf(stderr, "roce-report: no live sample of job %s: it is PENDING\n", job_id);
	else if (js.known == 1)
		fprintf(stderr,
		        "roce-report: no live sample of job %s: it ended (%s); roce-report %s shows its report\n",
		        job_id, state_name(js.state), job_id);
	else
		fprintf(stderr, "roce-report: no live sample of job %s in %s (slurmctld %s)\n", job_id, dir,
		        js.known == 0 ? "does not know the job, or no longer (MinJobAge)" : "did not answer");
}

static int live_main(const struct args *a, const char *report_dir)
{
	struct roce_error err = { "" };
	struct roce_livereport r;
	struct stat st;
	char dir[PATH_MAX], group[64];
	int rc = EXIT_NONE;

	if (snprintf(dir, sizeof(dir), "%s/%s", report_dir, a->job_id) >= (int)sizeof(dir)) {
		fprintf(stderr, "roce-report: report directory path too long\n");
		return EXIT_USAGE;
	}
	bool admin = is_admin(report_dir, group, sizeof(group));
	roce_livereport_init(&r, a->job_id);
	if (roce_livereport_load(&r, dir, &err) < 0) {
		bool denied = errno == EACCES;
		if (lstat(dir, &st) < 0 && errno == ENOENT) {
			explain_no_live(a->job_id, dir, &r);
		} else if (denied && !admin) {
			/* the job directory lists for its user and the admins only */
			not_yours(a->job_id, "live view", group);
			rc = EXIT_REFUSED;
		} else {
			fprintf(stderr, "roce-report: no live view of job %s: %s\n", a->job_id, err.msg);
		}
		goto out;
	}
	/* The files' permissions are the guard; a user sees their own job's nodes only. */
	bool any = r.n_nodes > 0 || r.n_errors > 0;
	roce_livereport_keep_uid(&r, admin ? -1 : (long)getuid());
	if (!admin && any && r.n_nodes == 0) {
		not_yours(a->job_id, "live view", group);
		rc = EXIT_REFUSED;
	} else {
		for (size_t i = 0; i < r.n_errors; i++)
			fprintf(stderr, "roce-report: live file %s\n", r.errors[i]);
		if (r.n_nodes == 0)
			explain_no_live(a->job_id, dir, &r);
		else
			rc = print(a, NULL, NULL, &r);
	}
out:
	roce_livereport_free(&r);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct roce_job_report r;
	char report_dir[PATH_MAX];

	if (parse_args(argc, argv, &a) < 0 || find_report_dir(&a, report_dir, sizeof(report_dir)) < 0)
		return EXIT_USAGE;
	if (a.nodes)
		return nodes_main(&a, report_dir);
	if (a.live)
		return live_main(&a, report_dir);
	roce_report_init(&r, a.job_id);
	int rc = load(&a, report_dir, &r);
	if (rc == EXIT_OK)
		rc = print(&a, &r, NULL, NULL);
	roce_report_free(&r);
	return rc;
}
