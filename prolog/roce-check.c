/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce-check - check this node's RoCE v2 fabric against the site policy.
 *
 *   roce-check [--config FILE] [--sysfs-root DIR] [--mode warn|strict]
 *              [--format text|json|env|prometheus] [--set Key=Value]... [--gids] [--verbs]
 *              [--topology FILE] [--gpus LIST] [--matrix] [--drain [--node NAME]] [--health]
 *   roce-check --check-config [FILE] [--plugstack FILE] [--node NAME]
 *
 * Exit: 0 nothing fails (after the mode), 1 something fails, 2 usage or
 * configuration error.  Usable as Slurm's HealthCheckProgram with --drain.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "checkconfig.h"
#include "base/hostname.h"
#include "check/json.h"
#include "healthlive.h"
#include "pipeline/healthtrend.h"
#include "pipeline/pipeline.h"
#include "base/printable.h"
#include "proc/slurmver.h"
#include "proc/worker.h"
#include "read/passcount.h"
#include "nodectl.h"
#include "read/policycache.h"
#include "report/health_prometheus.h"

#define EXIT_OK 0
#define EXIT_FAILED 1
#define EXIT_USAGE 2

enum format { FMT_TEXT, FMT_JSON, FMT_ENV, FMT_PROMETHEUS };

struct args {
	const char *config;
	bool config_given;
	const char *sysfs_root;
	const char *mode;
	enum format format;
	const char *sets[64];
	size_t n_sets;
	bool full_gids, verbs, drain, health, matrix;
	const char *node;
	const char *topology, *gpus, *proc_root;
	bool check_config;     /* --check-config: judge the configuration, check nothing */
	const char *plugstack; /* --plugstack FILE */
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: roce-check [OPTION]...\n"
	           "Check this node's RoCE v2 fabric (ports, GID index, MTU, PFC) against the site policy\n"
	           "and print the NCCL environment a job should get.\n\n"
	           "  -c, --config FILE      policy file (default " ROCE_DEFAULT_CONFIG "; missing = defaults)\n"
	           "  -r, --sysfs-root DIR   read sysfs from DIR instead of /sys\n"
	           "  -m, --mode MODE        warn (fail only when no port can do RoCE) or strict (any failure)\n"
	           "  -f, --format FMT       text (default), json, env (only NAME=value lines of the plan), or\n"
	           "                         prometheus (the node's health for node_exporter's textfile collector)\n"
	           "  -s, --set KEY=VALUE    override one roce.conf key (repeatable)\n"
	           "  -g, --gids             read whole GID tables (default: only what the check needs)\n"
	           "      --verbs            cross-check active MTUs with libibverbs\n"
	           "  -t, --topology FILE    hwloc XML topology (default TopologyFile=, else the live machine)\n"
	           "      --gpus LIST        the job's GPUs: Slurm indexes (\"0,1\", \"2-3\") or GPU UUIDs;\n"
	           "                         NCCL_IB_HCA then lists only each GPU's nearest HCAs (every healthy\n"
	           "                         HCA when no GPU has one within GdrLevel)\n"
	           "      --matrix           show the GPU-by-HCA path matrix (as nvidia-smi topo -m)\n"
	           "      --proc-root DIR    read /proc from DIR (GPU UUID mapping; tests)\n"
	           "      --drain            on a hardware failure, drain this node with a reason naming the HCA\n"
	           "                         (for HealthCheckProgram; runs scontrol)\n"
	           "      --node NAME        Slurm node name for --drain (default $SLURMD_NODENAME, then hostname)\n"
	           "      --health           exit 1 exactly when --drain would drain, whatever the mode (NHC)\n"
	           "      --check-config [FILE]\n"
	           "                         check roce.conf (FILE, --config, else the plugstack line's config=)\n"
	           "                         and the plugin's plugstack words as the plugin reads them; every\n"
	           "                         problem as file:line; exit 2 on any (run it before deploying)\n"
	           "      --plugstack FILE   the plugstack file to read (default: slurm.conf's PlugStackConfig)\n"
	           "  -h, --help             this help\n"
	           "  -V, --version          version\n\n"
	           "Exit status: 0 nothing fails, 1 a check fails, 2 usage or configuration error.\n");
}

/*
 * --sysfs-root may be relative, as node_exporter's --path.sysfs: resolve it
 * here (the policy takes only absolute paths, and roce.conf's SysfsRoot
 * stays so).  A static buffer: one root per run, nothing to free.
 */
static int resolve_sysfs_root(const char *arg, const char **out)
{
	static char resolved[PATH_MAX];
	if (arg[0] == '/') {
		*out = arg;
		return 0;
	}
	if (!realpath(arg, resolved)) {
		fprintf(stderr, "roce-check: --sysfs-root: cannot resolve \"%s\": %s\n", arg, strerror(errno));
		return -1;
	}
	*out = resolved;
	return 0;
}

/* After a Slurm upgrade the plugin no longer loads (slurmver.h): say so on
 * every run, and in --version.  Decided before the check runs (the
 * installed version is the record of it beside the topology cache unless
 * slurmd changed: then slurmd -V runs, in a forked worker), printed after. */
/* "24.11.5" -> 5 ("24.11") */
static int release_len(const char *version)
{
	const char *dot = strchr(version, '.');
	return dot ? (int)(dot - version) + 1 + (int)strcspn(dot + 1, ".") : (int)strlen(version);
}
static void slurm_release_warning(const struct roce_policy *p, char *buf, size_t len)
{
	char installed[64], dir[sizeof(p->topology_cache)];
	const char *slash = strrchr(p->topology_cache, '/');
	buf[0] = '\0';
	snprintf(dir, sizeof(dir), "%.*s", slash && slash > p->topology_cache ? (int)(slash - p->topology_cache) : 1,
	         p->topology_cache);
	if (roce_slurmver_cached(dir, installed, sizeof(installed), ROCE_SLURMVER_TIMEOUT_MS) < 0 ||
	    roce_slurmver_same_release(roce_slurmver_built(), installed))
		return;
	snprintf(buf, len,
	         "roce-check: warning: slurm-roce was built for Slurm %s but this node runs Slurm %s: "
	         "Slurm does not load spank_roce.so from another release (srun: unrecognized option "
	         "'--roce'; slurmd does not start with a 'required' plugstack line): rebuild and "
	         "reinstall slurm-roce for %.*s\n",
	         roce_slurmver_built(), installed, release_len(installed), installed);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	enum {
		OPT_VERBS = 256,
		OPT_DRAIN,
		OPT_HEALTH,
		OPT_NODE,
		OPT_GPUS,
		OPT_MATRIX,
		OPT_PROC,
		OPT_CHECK_CONFIG,
		OPT_PLUGSTACK
	};
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "set", required_argument, NULL, 's' },
		{ "gids", no_argument, NULL, 'g' },
		{ "verbs", no_argument, NULL, OPT_VERBS },
		{ "drain", no_argument, NULL, OPT_DRAIN },
		{ "health", no_argument, NULL, OPT_HEALTH },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "topology", required_argument, NULL, 't' },
		{ "gpus", required_argument, NULL, OPT_GPUS },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		{ "proc-root", required_argument, NULL, OPT_PROC },
		{ "check-config", optional_argument, NULL, OPT_CHECK_CONFIG },
		{ "plugstack", required_argument, NULL, OPT_PLUGSTACK },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	a->config = ROCE_DEFAULT_CONFIG;
	while ((c = getopt_long(argc, argv, "c:r:m:f:s:t:ghV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			a->config = optarg;
			a->config_given = true;
			break;
		case 'r':
			if (resolve_sysfs_root(optarg, &a->sysfs_root) < 0)
				return -1;
			break;
		case 'm': a->mode = optarg; break;
		case 'f':
			if (!strcmp(optarg, "text"))
				a->format = FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				a->format = FMT_JSON;
			else if (!strcmp(optarg, "env"))
				a->format = FMT_ENV;
			else if (!strcmp(optarg, "prometheus"))
				a->format = FMT_PROMETHEUS;
			else {
				fprintf(stderr, "roce-check: --format: \"%s\" is not text, json, env or prometheus\n",
				        optarg);
				return -1;
			}
			break;
		case 's':
			if (a->n_sets >= sizeof(a->sets) / sizeof(a->sets[0])) {
				fprintf(stderr, "roce-check: too many --set options\n");
				return -1;
			}
			a->sets[a->n_sets++] = optarg;
			break;
		case 'g': a->full_gids = true; break;
		case OPT_VERBS: a->verbs = true; break;
		case OPT_DRAIN: a->drain = true; break;
		case OPT_HEALTH: a->health = true; break;
		case OPT_NODE: a->node = optarg; break;
		case 't': a->topology = optarg; break;
		case OPT_GPUS: a->gpus = optarg; break;
		case OPT_MATRIX: a->matrix = true; break;
		case OPT_PROC: a->proc_root = optarg; break;
		case OPT_CHECK_CONFIG:
			a->check_config = true;
			if (optarg) {
				a->config = optarg;
				a->config_given = true;
			}
			break;
		case OPT_PLUGSTACK: a->plugstack = optarg; break;
		case 'h': usage(stdout); exit(EXIT_OK);
		case 'V': roce_slurmver_print_version("roce-check"); exit(EXIT_OK);
		default: usage(stderr); return -1;
		}
	}
	/* --check-config FILE, as nginx -t takes one */
	if (a->check_config && !a->config_given && optind == argc - 1) {
		a->config = argv[optind++];
		a->config_given = true;
	}
	if (optind < argc) {
		fprintf(stderr, "roce-check: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* The policy: roce.conf for this node (--node's) or, when it does not
 * parse, its last good copy, as the plugin would use (cached says so); then
 * the options. */
static int load_policy(const struct args *a, struct roce_policy *p, struct roce_policycache_outcome *cached)
{
	struct roce_error err = { "" };
	roce_policy_defaults(p);
	/* The default file may be absent (defaults stand); a named one must exist. */
	if (roce_policycache_load(p, a->config, !a->config_given, a->node, false, NULL, cached, &err) < 0)
		goto fail;
	for (size_t i = 0; i < a->n_sets; i++)
		if (roce_policy_set_kv(p, a->sets[i], "--set", &err) < 0)
			goto fail;
	if (a->mode && roce_policy_set(p, "Mode", a->mode, "--mode", &err) < 0)
		goto fail;
	if (p->mode == ROCE_MODE_OFF) {
		roce_error_set(&err, "--mode: off is for the plugin; roce-check checks in warn or strict mode");
		goto fail;
	}
	if (a->sysfs_root && roce_policy_set(p, "SysfsRoot", a->sysfs_root, "--sysfs-root", &err) < 0)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "roce-check: %s\n", err.msg);
	return -1;
}

static const char *status_tag(enum roce_verdict v)
{
	switch (v) {
	case ROCE_PASS: return "PASS";
	case ROCE_WARN: return "WARN";
	case ROCE_UNKNOWN: return "UNKNOWN";
	case ROCE_FAIL: return "FAIL";
	}
	return "?";
}

/* ---------------------------------------------------------------- the report (in the worker) */

static void print_text(FILE *f, const struct roce_check_result *r, const struct roce_plan *plan)
{
	size_t roce = 0, healthy = 0;
	for (size_t i = 0; i < r->n_findings; i++) {
		const struct roce_finding *x = &r->findings[i];
		fprintf(f, "%-7s %-11s %-12s %s\n", status_tag(x->status), x->check, x->subject, x->message);
	}
	for (size_t i = 0; i < r->n_ports; i++) {
		roce += r->ports[i].roce;
		healthy += r->ports[i].healthy;
	}
	fprintf(f, "roce-check: %zu RoCE port%s, %zu healthy; %zu pass, %zu warn, %zu fail, %zu unknown; mode %s: %s\n",
	        roce, roce == 1 ? "" : "s", healthy, r->n_pass, r->n_warn, r->n_fail, r->n_unknown,
	        roce_mode_name(r->mode), r->failed ? "FAILED" : "OK");
	if (plan->valid)
		for (size_t i = 0; i < plan->n_vars; i++)
			fprintf(f, "  %s=%s\n", plan->vars[i].name, plan->vars[i].value);
	else
		fprintf(f, "  no NCCL environment: %s\n", plan->why);
}

static void print_json(FILE *f, const struct roce_pipeline *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "node", roce_json_node(&p->node));
	json_object_object_add(o, "check", roce_json_check(&p->check));
	if (p->loc)
		json_object_object_add(o, "locality", roce_locality_json(p->loc));
	if (p->choice)
		json_object_object_add(o, "choice", roce_choice_json(p->choice, p->loc));
	json_object_object_add(o, "plan", roce_json_plan(&p->plan));
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The node's health for node_exporter's textfile collector (roce-healthcheck). */
static void print_prometheus(FILE *f, const struct args *a, const struct roce_pipeline *run,
                             const struct roce_healthtrend *trend, const struct roce_policy *policy)
{
	char host[256], reason[256];
	const char *node = roce_hostname_node(a->node ? a->node : getenv("SLURMD_NODENAME"), host, sizeof(host));
	struct roce_health_prometheus h = {
		.node = node ? node : "",
		.now_s = (int64_t)time(NULL),
		.run = &run->check,
		.drain_reason = roce_check_drain_reason(&run->check, reason, sizeof(reason)) == 1 ? reason : NULL,
		.trend = trend && trend->kept ? &trend->state : NULL,
		.threshold = policy->trend_threshold,
	};
	roce_health_prometheus_print(f, &h);
}

static void print_report(FILE *f, const struct args *a, const struct roce_pipeline *run,
                         const struct roce_healthtrend *trend, const struct roce_policy *policy)
{
	switch (a->format) {
	case FMT_TEXT:
		if (run->loc)
			roce_locality_print(run->loc, f);
		if (run->loc && run->choice)
			roce_choice_print(run->choice, run->loc, f);
		print_text(f, &run->check, &run->plan);
		break;
	case FMT_JSON: print_json(f, run); break;
	case FMT_ENV:
		for (size_t i = 0; run->plan.valid && i < run->plan.n_vars; i++)
			fprintf(f, "%s=%s\n", run->plan.vars[i].name, run->plan.vars[i].value);
		break;
	case FMT_PROMETHEUS: print_prometheus(f, a, run, trend, policy); break;
	}
}

/* ---------------------------------------------------------------- run: the check in a worker */

/*
 * A read of a wedged sysfs attribute (a stuck firmware command) sleeps in
 * the kernel where no signal ends it, so the pipeline runs in a worker
 * (lib/proc/worker.c) that roce-check waits for at most TimeoutMs + 500 ms:
 * as a HealthCheckProgram, a node that cannot answer in time fails.  No
 * thread of roce-check's could do that: one asleep in a read keeps the
 * process from ending, and the caller waits for the process.  The worker
 * is a task that shares roce-check's memory (nothing is copied: it fills
 * the pipeline's result in place and roce-check prints it); where a worker
 * has been late before, or where no such task can be made (valgrind, ASan),
 * a forked worker that prints its report into a memory file (memfd).  The
 * diagnostics of either (hwloc's, libibverbs') go to a memory file too:
 * nobody who reads roce-check's output waits for a worker stuck in the
 * kernel.  A worker abandoned in the kernel is recorded in StateDir
 * (lib/proc/stuck.h): later runs answer at once while it lives.  A shared
 * task that did not finish may have died inside malloc or stdio: then
 * roce-check only writes what it has to say and leaves with _exit.
 */
#define WORKER_MARGIN_MS 500

/* The outcome: plain data (a forked worker sends it; its report is in its memory file). */
struct outcome {
	int rc;                       /* the exit status */
	struct roce_error error;      /* "" or why there is no report (after "roce-check: ") */
	struct roce_error unrecorded; /* "" or why a stuck worker is not remembered */
	bool drain;                   /* a hardware fault: drain_reason is set */
	char drain_reason[256];
	char seen[1024]; /* the subjects the check looked at (check.h, roce_check_drain_seen) */
	bool task_left;  /* a shared task ended without finishing: _exit */
};

/* What the shared task fills in place. */
struct shared {
	int rc; /* roce_pipeline_run's */
	struct roce_error err;
	struct roce_pipeline run;
	struct roce_snapshot snap;     /* the health check's counters (measure) */
	struct roce_healthtrend trend; /* and its link-quality trend */
};

struct work {
	const struct args *a;
	const struct roce_policy *policy;
	int report, log;  /* memory files for a forked worker's report and any worker's stderr; -1 none */
	int snapshot;     /* memory file for the health check's counter snapshot (live samples); -1 none */
	bool shared_done; /* the shared task finished: shared is to print and free */
	struct shared shared;
};

static struct roce_pipeline_opts pipeline_opts(const struct args *a)
{
	struct roce_pipeline_opts opts = {
		.collect = { .full_gids = a->full_gids, .netlink = true, .verbs = a->verbs },
		.topology = a->topology,
		.topology_required = a->topology != NULL,
		.gpus = a->gpus,
		.gpus_strict = true,
		.proc_root = a->proc_root,
		.matrix = a->matrix,
	};
	return opts;
}

/* Only the health check keeps the trend and samples running jobs: a manual
 * run must not move their baselines.  One snapshot serves both. */
static bool is_health(const struct work *w) { return w->a->health || w->a->drain; }

static bool wants_counters(const struct work *w)
{
	return is_health(w) && geteuid() == 0 && (w->policy->trend != ROCE_ACTION_IGNORE || w->policy->live);
}

/* After the pipeline, in the worker (its reads bounded with the rest): the
 * health check's counter snapshot and its link-quality trend, whose
 * findings join run's before it is judged. */
static void measure(const struct work *w, int64_t start_ms, struct roce_pipeline *run, struct roce_snapshot *snap,
                    struct roce_healthtrend *trend)
{
	if (wants_counters(w) && roce_snapshot_take_until(snap, w->policy->sysfs_root, &run->node, &run->check,
	                                                  start_ms + w->policy->timeout_ms) < 0)
		fprintf(stderr, "roce-check: no counter snapshot: out of memory\n");
	if (is_health(w) && roce_healthtrend_run(w->policy, snap, &run->check, (int64_t)time(NULL), trend) < 0)
		fprintf(stderr, "roce-check: no link-quality trend: out of memory\n");
	if (trend->why[0])
		fprintf(stderr, "roce-check: %s\n", trend->why);
}

/* The exit status and the drain of a check that ran. */
static void judge(const struct roce_check_result *c, struct outcome *o)
{
	o->rc = c->failed ? EXIT_FAILED : EXIT_OK;
	o->drain = roce_check_drain_reason(c, o->drain_reason, sizeof(o->drain_reason)) == 1;
	roce_check_drain_seen(c, o->seen, sizeof(o->seen));
}

/* The pipeline, its report on f (a forked worker, or no worker at all). */
static void check(const struct work *w, FILE *f, struct outcome *o)
{
	struct roce_pipeline run;
	struct roce_pipeline_opts opts = pipeline_opts(w->a);
	int64_t start_ms = roce_clock_ms();
	struct roce_healthtrend trend = { 0 };
	struct roce_snapshot snap;

	roce_snapshot_init(&snap);
	if (roce_pipeline_run(w->policy, &opts, &run, &o->error) < 0) {
		o->rc = EXIT_USAGE;
	} else {
		measure(w, start_ms, &run, &snap, &trend);
		print_report(f, w->a, &run, &trend, w->policy);
		judge(&run.check, o);
		if (wants_counters(w) && w->policy->live)
			healthlive_keep(w->snapshot, &snap);
	}
	roce_snapshot_free(&snap);
	roce_healthtrend_free(&trend);
	roce_pipeline_free(&run);
}

/* In the shared task, whose file table is its own copy (its stderr the
 * log's memory file).  It prints nothing: roce-check does, from res. */
static void check_in_task(const void *arg, void *res)
{
	const struct work *w = arg;
	struct shared *s = res;
	struct roce_pipeline_opts opts = pipeline_opts(w->a);

	int64_t start_ms = roce_clock_ms();

	if (w->log >= 0)
		dup2(w->log, STDERR_FILENO);
	roce_snapshot_init(&s->snap);
	memset(&s->trend, 0, sizeof(s->trend));
	s->rc = roce_pipeline_run(w->policy, &opts, &s->run, &s->err);
	if (s->rc == 0)
		measure(w, start_ms, &s->run, &s->snap, &s->trend);
}

/* In the forked worker, whose memory files are its own copies: closing them
 * closes nothing of roce-check's. */
static void check_in_worker(const void *arg, void *res)
{
	const struct work *w = arg;
	struct outcome *o = res;
	FILE *f = fdopen(w->report, "w");

	if (w->log >= 0)
		dup2(w->log, STDERR_FILENO);
	if (f)
		check(w, f, o);
	if (!f || fclose(f) == EOF) {
		memset(o, 0, sizeof(*o));
		o->rc = EXIT_USAGE;
		roce_error_set(&o->error, "cannot keep the report: %s", strerror(errno));
	}
}

/* Why the worker did not answer, as roce-check says it. */
static void worker_failed(const struct roce_policy *p, const struct roce_worker_end *end, int err, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	if (err == ETIMEDOUT) {
		o->rc = EXIT_FAILED;
		roce_error_set(&o->error, "timed out: a sysfs or netlink read did not return within TimeoutMs "
		                          "(+500 ms); the node's RDMA driver or firmware may be wedged (check dmesg)");
		/* Later runs fork theirs (stuck.h); only root's StateDir takes the
		 * records: others are not told it failed. */
		if (!end->abandoned)
			roce_worker_record_late(p, NULL);
		else if (roce_worker_abandon(p, NULL, end->abandoned, &o->unrecorded) < 0 && geteuid() != 0)
			o->unrecorded.msg[0] = '\0';
	} else if (end->signal) {
		o->rc = EXIT_USAGE;
		roce_error_set(&o->error, "internal error: killed by signal %d", end->signal);
	} else {
		o->rc = EXIT_USAGE;
		roce_error_set(&o->error, "internal error: the check process failed: %s", strerror(err));
	}
}

/* No worker (no memory file, pipe or fork): check unguarded rather than not at
 * all, printing straight to stdout. */
static void run_unguarded(struct work *w, struct outcome *o)
{
	/* Short of descriptors, maybe: the collectors get back the memory files'. */
	if (w->report >= 0)
		close(w->report);
	if (w->log >= 0)
		close(w->log);
	w->report = STDOUT_FILENO;
	w->log = -1;
	memset(o, 0, sizeof(*o));
	check(w, stdout, o);
}

/* The shared task: 0 done (o set), 1 none could be made (fork one). */
static int run_shared(struct work *w, struct outcome *o)
{
	struct roce_worker_end end;
	struct shared *s = &w->shared;

	if (roce_worker_run_shared(check_in_task, w, s, sizeof(*s), w->policy->timeout_ms + WORKER_MARGIN_MS,
	                           ROCE_WORKER_LATE_KILL, &end) == 0) {
		w->shared_done = true;
		if (s->rc < 0) {
			o->rc = EXIT_USAGE;
			o->error = s->err;
		} else {
			judge(&s->run.check, o);
		}
		return 0;
	}
	if (!end.started)
		return 1;
	worker_failed(w->policy, &end, errno, o);
	o->task_left = true;
	return 0;
}

static void run_forked(struct work *w, struct outcome *o)
{
	struct roce_worker_end end;

	if ((w->report = memfd_create("roce-check report", MFD_CLOEXEC)) < 0) {
		run_unguarded(w, o);
		return;
	}
	if (roce_worker_run(check_in_worker, w, o, sizeof(*o), w->policy->timeout_ms + WORKER_MARGIN_MS, &end) == 0) {
		/* The worker's struct is trusted no further than its bounds. */
		o->error.msg[sizeof(o->error.msg) - 1] = '\0';
		o->drain_reason[sizeof(o->drain_reason) - 1] = '\0';
		o->seen[sizeof(o->seen) - 1] = '\0';
		return;
	}
	if (!end.started)
		run_unguarded(w, o);
	else
		worker_failed(w->policy, &end, errno, o);
}

static void run(struct work *w, struct outcome *o)
{
	bool late;
	memset(o, 0, sizeof(*o));
	if (roce_worker_earlier(w->policy, NULL, &o->error, &late)) {
		o->rc = EXIT_FAILED;
		return;
	}
	if (w->log >= 0 && !late && run_shared(w, o) == 0)
		return;
	run_forked(w, o);
}

/* ---------------------------------------------------------------- print */

/* Copy what the worker left in memory file fd to out. */
static void copy_out(int fd, int out)
{
	char buf[65536];
	ssize_t n;
	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		for (ssize_t off = 0, w; n > 0 && off < n; off += w)
			if ((w = write(out, buf + off, (size_t)(n - off))) <= 0)
				return;
}

/* The worker's diagnostics, the report, then why there is none. */
static void print(const struct work *w, const struct outcome *o)
{
	copy_out(w->log, STDERR_FILENO);
	if (w->shared_done && w->shared.rc == 0)
		print_report(stdout, w->a, &w->shared.run, &w->shared.trend, w->policy);
	else if (w->report != STDOUT_FILENO)
		copy_out(w->report, STDOUT_FILENO);
	if (o->error.msg[0])
		fprintf(stderr, "roce-check: %s\n", o->error.msg);
	if (o->unrecorded.msg[0])
		fprintf(stderr, "roce-check: %s\n", o->unrecorded.msg);
}

/* ---------------------------------------------------------------- drain and resume (in roce-check itself) */

/* What this run found, as a drain judges it (check.h): a run that gave no
 * answer (timed out, an earlier check stuck, a usage error) is no pass. */
static enum roce_check_drain_run run_verdict(const struct outcome *o)
{
	if (o->drain)
		return ROCE_DRAIN_RUN_FAULT;
	if (o->rc == EXIT_USAGE || o->error.msg[0])
		return ROCE_DRAIN_RUN_UNKNOWN;
	return ROCE_DRAIN_RUN_PASS;
}

/* The node as slurmctld has it. */
struct node_view {
	const char *name;
	unsigned bits;
	char word[64], reason[256];
};

static void do_drain(const struct node_view *v, const struct outcome *o)
{
	char why[512];
	if (roce_nodectl_drain(v->name, o->drain_reason, why, sizeof(why)) < 0)
		fprintf(stderr, "roce-check: could not drain %s (%s): %s\n", v->name, o->drain_reason, why);
	else
		fprintf(stderr, "roce-check: drained %s: %s\n", v->name, o->drain_reason);
}

static void do_resume(const struct node_view *v, unsigned resume_after)
{
	char why[512], shown[300];
	roce_printable(v->reason, shown, sizeof(shown));
	if (roce_nodectl_resume(v->name, why, sizeof(why)) < 0)
		fprintf(stderr, "roce-check: could not resume %s (drained for \"%s\"): %s\n", v->name, shown, why);
	else
		fprintf(stderr,
		        "roce-check: resumed %s: the check passed %u run%s in a row (ResumeAfter=%u) since it was "
		        "drained for \"%s\"\n",
		        v->name, resume_after, resume_after == 1 ? "" : "s", resume_after, shown);
}

static void act(const struct node_view *v, const struct outcome *o, const struct roce_check_drain_next *next,
                unsigned resume_after)
{
	char shown[300], state[400];
	roce_printable(v->reason, shown, sizeof(shown));
	switch (next->act) {
	case ROCE_DRAIN_ACT_DRAIN: do_drain(v, o); break;
	case ROCE_DRAIN_ACT_LEAVE:
		snprintf(state, sizeof(state), "%s|%s", v->word, v->reason);
		fprintf(stderr, "roce-check: %s is already %s: left alone (%s)\n", v->name,
		        roce_printable(state, shown, sizeof(shown)), o->drain_reason);
		break;
	case ROCE_DRAIN_ACT_COUNT:
		fprintf(stderr,
		        "roce-check: %s is drained for \"%s\": passed %u of the %u runs in a row that resume it\n",
		        v->name, shown, next->passes, resume_after);
		break;
	case ROCE_DRAIN_ACT_RESUME: do_resume(v, resume_after); break;
	case ROCE_DRAIN_ACT_NOT_SEEN:
		fprintf(stderr,
		        "roce-check: %s is drained for \"%s\", which this check did not look at: not resumed "
		        "(scontrol update NodeName=%s State=RESUME)\n",
		        v->name, shown, v->name);
		break;
	case ROCE_DRAIN_ACT_NONE: break;
	}
}

/* The count of passing runs kept for node; false when none can be kept. */
static bool load_passes(const struct roce_policy *p, const char *node, unsigned *passes)
{
	struct roce_error err;
	*passes = 0;
	if (p->resume_after == 0)
		return false;
	if (roce_passcount_load(p->state_dir, node, passes, &err) == 0)
		return true;
	fprintf(stderr, "roce-check: --drain: not counting passing runs (ResumeAfter=): %s\n", err.msg);
	return false;
}

static void store_passes(const struct roce_policy *p, const char *node, unsigned passes)
{
	struct roce_error err;
	if (roce_passcount_store(p->state_dir, node, passes, &err) < 0)
		fprintf(stderr, "roce-check: --drain: cannot keep the count of passing runs: %s\n", err.msg);
}

/*
 * --drain: a hardware fault drains the node (unless someone else holds it);
 * a drain of ours is resumed once ResumeAfter= runs in a row passed
 * (check.h, roce_check_drain_next).  Each sinfo and scontrol has a
 * deadline (nodectl.h).  A pass with ResumeAfter=0 asks slurmctld nothing.
 */
static void drain_or_resume(const struct args *a, const struct roce_policy *p, const struct outcome *o)
{
	char host[256], why[512];
	struct node_view v = { 0 };
	unsigned passes = 0;
	if (!a->drain)
		return;
	if (!(v.name = roce_hostname_node(a->node ? a->node : getenv("SLURMD_NODENAME"), host, sizeof(host))))
		return;
	if (!roce_token_ok(v.name, 200)) {
		fprintf(stderr, "roce-check: --drain: \"%s\" is not a node name\n", v.name);
		return;
	}
	enum roce_check_drain_run run = run_verdict(o);
	bool counting = load_passes(p, v.name, &passes);
	if (run == ROCE_DRAIN_RUN_UNKNOWN || (run == ROCE_DRAIN_RUN_PASS && !counting)) {
		if (counting && passes)
			store_passes(p, v.name, 0); /* no answer: the row is broken */
		return;
	}
	if (roce_nodectl_state(v.name, &v.bits, v.word, sizeof(v.word), v.reason, sizeof(v.reason), why, sizeof(why)) <
	    0) {
		if (run == ROCE_DRAIN_RUN_FAULT)
			fprintf(stderr,
			        "roce-check: cannot read the state of %s from slurmctld: not draining it (%s): %s\n",
			        v.name, o->drain_reason, why);
		else
			fprintf(stderr,
			        "roce-check: cannot read the state of %s from slurmctld: not counted as a pass: %s\n",
			        v.name, why);
		if (counting && passes)
			store_passes(p, v.name, 0); /* no answer: the row is broken */
		return;
	}
	struct roce_check_drain_next next =
	        roce_check_drain_next(run, v.bits, v.reason, o->seen, passes, p->resume_after);
	if (counting && next.passes != passes)
		store_passes(p, v.name, next.passes);
	act(&v, o, &next, p->resume_after);
}

/* What the configuration itself shows, before the node's findings: a
 * roce.conf that did not parse (checked with its last good copy), and, for
 * a health check, a plugstack that does not load the plugin and the
 * directories the prolog and epilog would refuse.  None drains. */
static void config_findings(const struct args *a, const struct roce_policy *p,
                            const struct roce_policycache_outcome *cached)
{
	if (cached->cached && a->format == FMT_TEXT)
		checkconfig_cached_finding(cached->bad.msg, cached->saved, stdout);
	else if (cached->cached)
		fprintf(stderr, "roce-check: %s: checked with its last good copy (saved %s)\n", cached->bad.msg,
		        cached->saved);
	if ((a->drain || a->health) && a->format == FMT_TEXT)
		checkconfig_plugstack_finding(a->plugstack, stdout);
	if ((a->drain || a->health) && a->format == FMT_TEXT)
		checkconfig_dirs_finding(p, stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct roce_policy policy;
	struct roce_policycache_outcome cached;
	struct outcome o;
	char release[1024];

	if (parse_args(argc, argv, &a) < 0)
		return EXIT_USAGE;
	if (a.check_config) {
		struct checkconfig_args c = { a.config_given ? a.config : NULL, a.plugstack, a.node };
		return checkconfig_run(&c, stdout, stderr);
	}
	if (load_policy(&a, &policy, &cached) < 0)
		return EXIT_USAGE;
	config_findings(&a, &policy, &cached);
	slurm_release_warning(&policy, release, sizeof(release));
	struct work w = { .a = &a,
		          .policy = &policy,
		          .report = -1,
		          .log = memfd_create("roce-check log", MFD_CLOEXEC),
		          .snapshot = memfd_create("roce-check snapshot", MFD_CLOEXEC) };
	run(&w, &o);
	print(&w, &o);
	drain_or_resume(&a, &policy, &o);
	if (w.shared_done && w.shared.rc == 0 && wants_counters(&w) && policy.live)
		healthlive_keep(w.snapshot, &w.shared.snap);
	if (!o.task_left)
		healthlive_run(&policy, a.node, w.snapshot);
	fputs(release, stderr);
	/* A health check (NHC) judges the hardware as --drain does, whatever the
	 * mode: warn mode passes a node with one of two ports down. */
	int rc;
	if (a.health && o.rc != EXIT_USAGE)
		rc = o.drain ? EXIT_FAILED : EXIT_OK;
	else /* A roce.conf that does not parse fails the check, but drains nothing. */
		rc = cached.cached && o.rc == EXIT_OK ? EXIT_FAILED : o.rc;
	if (o.task_left) {
		fflush(stdout);
		_exit(rc);
	}
	if (w.shared_done) {
		roce_pipeline_free(&w.shared.run);
		roce_snapshot_free(&w.shared.snap);
		roce_healthtrend_free(&w.shared.trend);
	}
	return rc;
}
