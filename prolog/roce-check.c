/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce-check - check this node's RoCE v2 fabric against the site policy.
 *
 *   roce-check [--config FILE] [--sysfs-root DIR] [--mode warn|strict]
 *              [--format text|json|env] [--set Key=Value]... [--gids] [--verbs]
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
#include <unistd.h>

#include "checkconfig.h"
#include "base/hostname.h"
#include "check/json.h"
#include "pipeline/pipeline.h"
#include "base/printable.h"
#include "proc/slurmver.h"
#include "proc/worker.h"
#include "read/policycache.h"

#define EXIT_OK 0
#define EXIT_FAILED 1
#define EXIT_USAGE 2

enum format { FMT_TEXT, FMT_JSON, FMT_ENV };

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
	           "  -f, --format FMT       text (default), json, or env (only NAME=value lines of the plan)\n"
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
 * every run, and in --version. */
/* "24.11.5" -> 5 ("24.11") */
static int release_len(const char *version)
{
	const char *dot = strchr(version, '.');
	return dot ? (int)(dot - version) + 1 + (int)strcspn(dot + 1, ".") : (int)strlen(version);
}
static void warn_slurm_release(void)
{
	char installed[64];
	if (roce_slurmver_installed(installed, sizeof(installed), ROCE_SLURMVER_TIMEOUT_MS) < 0 ||
	    roce_slurmver_same_release(roce_slurmver_built(), installed))
		return;
	fprintf(stderr,
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
			else {
				fprintf(stderr, "roce-check: --format: \"%s\" is not text, json or env\n", optarg);
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

static void print_report(FILE *f, enum format format, const struct roce_pipeline *run)
{
	switch (format) {
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
	}
}

/* ---------------------------------------------------------------- run: the check in a worker */

/*
 * A read of a wedged sysfs attribute (a stuck firmware command) sleeps in
 * the kernel where no signal ends it, so the pipeline runs in a worker
 * (lib/proc/worker.c) that roce-check waits for at most TimeoutMs + 500 ms: as a
 * HealthCheckProgram, a node that cannot answer in time fails.  The worker
 * prints its report and its diagnostics (hwloc's, libibverbs') into memory
 * files it shares with roce-check (memfd): output of any size, and nobody
 * who reads roce-check's output waits for a worker stuck in the kernel.  A
 * worker abandoned in the kernel is recorded in StateDir (lib/proc/stuck.h):
 * later runs answer at once while it lives.
 */
#define WORKER_MARGIN_MS 500

/* What the worker sends back: plain data (the report is in its memory file). */
struct outcome {
	int rc;                       /* the exit status */
	struct roce_error error;      /* "" or why there is no report (after "roce-check: ") */
	struct roce_error unrecorded; /* "" or why a stuck worker is not remembered */
	bool drain;                   /* a hardware fault: drain_reason is set */
	char drain_reason[256];
};

struct work {
	const struct args *a;
	const struct roce_policy *policy;
	int report, log; /* memory files for the report and the worker's stderr; -1 none */
};

/* The pipeline, its report on f. */
static void check(const struct work *w, FILE *f, struct outcome *o)
{
	const struct args *a = w->a;
	struct roce_pipeline run;
	struct roce_pipeline_opts opts = {
		.collect = { .full_gids = a->full_gids, .netlink = true, .verbs = a->verbs },
		.topology = a->topology,
		.topology_required = a->topology != NULL,
		.gpus = a->gpus,
		.gpus_strict = true,
		.proc_root = a->proc_root,
		.matrix = a->matrix,
	};

	if (roce_pipeline_run(w->policy, &opts, &run, &o->error) < 0) {
		o->rc = EXIT_USAGE;
	} else {
		print_report(f, a->format, &run);
		o->rc = run.check.failed ? EXIT_FAILED : EXIT_OK;
		o->drain = roce_check_drain_reason(&run.check, o->drain_reason, sizeof(o->drain_reason)) == 1;
	}
	roce_pipeline_free(&run);
}

/* In the worker, whose memory files are its own copies: closing them
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
		/* Only root's StateDir takes the record: others are not told it failed. */
		if (end->abandoned && roce_worker_abandon(p, NULL, end->abandoned, &o->unrecorded) < 0 &&
		    geteuid() != 0)
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

static void run(struct work *w, struct outcome *o)
{
	struct roce_worker_end end;

	memset(o, 0, sizeof(*o));
	if (roce_worker_stuck_earlier(w->policy, NULL, &o->error)) {
		o->rc = EXIT_FAILED;
		return;
	}
	if (w->report < 0) {
		run_unguarded(w, o);
		return;
	}
	if (roce_worker_run(check_in_worker, w, o, sizeof(*o), w->policy->timeout_ms + WORKER_MARGIN_MS, &end) == 0) {
		/* The worker's struct is trusted no further than its bounds. */
		o->error.msg[sizeof(o->error.msg) - 1] = '\0';
		o->drain_reason[sizeof(o->drain_reason) - 1] = '\0';
		return;
	}
	if (!end.started)
		run_unguarded(w, o);
	else
		worker_failed(w->policy, &end, errno, o);
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

/* The worker's diagnostics, its report, then why there is none. */
static void print(const struct work *w, const struct outcome *o)
{
	copy_out(w->log, STDERR_FILENO);
	if (w->report != STDOUT_FILENO)
		copy_out(w->report, STDOUT_FILENO);
	if (o->error.msg[0])
		fprintf(stderr, "roce-check: %s\n", o->error.msg);
	if (o->unrecorded.msg[0])
		fprintf(stderr, "roce-check: %s\n", o->unrecorded.msg);
}

/* ---------------------------------------------------------------- drain (in roce-check itself) */

/* scontrol update NodeName=... State=DRAIN Reason=...: no shell, argv only. */
static int drain_node(const char *node, const char *reason)
{
	char n[300], rsn[300];
	snprintf(n, sizeof(n), "NodeName=%s", node);
	snprintf(rsn, sizeof(rsn), "Reason=%s", reason);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("scontrol", "scontrol", "update", n, "State=DRAIN", rsn, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The node's state and reason as slurmctld has them ("drained|admin: firmware
 * update [root@...]"); -1 when they cannot be read. */
static int node_state(const char *node, char *buf, size_t len)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execlp("sinfo", "sinfo", "--noheader", "--Node", "--nodes", node, "--format", "%T|%E", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	size_t used = 0;
	ssize_t n;
	while (used + 1 < len && ((n = read(fds[0], buf + used, len - 1 - used)) > 0 || (n < 0 && errno == EINTR)))
		used += n > 0 ? (size_t)n : 0;
	close(fds[0]);
	buf[used] = '\0';
	buf[strcspn(buf, "\n")] = '\0'; /* one line per partition: the first */
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && strchr(buf, '|') ? 0 : -1;
}

static void maybe_drain(const struct args *a, const struct outcome *o)
{
	char host[256];
	if (!a->drain || !o->drain)
		return;
	const char *node = roce_hostname_node(a->node ? a->node : getenv("SLURMD_NODENAME"), host, sizeof(host));
	if (!node)
		return;
	if (!roce_token_ok(node, 200)) {
		fprintf(stderr, "roce-check: --drain: \"%s\" is not a node name\n", node);
		return;
	}
	char state[512], shown[300];
	if (node_state(node, state, sizeof(state)) < 0) {
		fprintf(stderr,
		        "roce-check: cannot read the state of %s from slurmctld (sinfo): not draining it (%s)\n", node,
		        o->drain_reason);
		return;
	}
	/* sinfo's %T word (drained, draining, down*, failing...) as the state
	 * bits check_drain.c decides on: by substring, so any word naming
	 * drain, down or fail counts (powered_down too, where the plugin reads
	 * Slurm's bits and does not). */
	char *bar = strchr(state, '|');
	*bar = '\0';
	unsigned bits = (strstr(state, "drain") ? ROCE_DRAIN_STATE_DRAIN : 0) |
	                (strstr(state, "down") ? ROCE_DRAIN_STATE_DOWN : 0) |
	                (strstr(state, "fail") ? ROCE_DRAIN_STATE_FAIL : 0);
	*bar = '|';
	if (roce_check_drain_leave_alone(bits, bar + 1)) {
		fprintf(stderr, "roce-check: %s is already %s: left alone (%s)\n", node,
		        roce_printable(state, shown, sizeof(shown)), o->drain_reason);
		return;
	}
	if (drain_node(node, o->drain_reason) < 0)
		fprintf(stderr, "roce-check: could not drain %s (%s)\n", node, o->drain_reason);
	else
		fprintf(stderr, "roce-check: drained %s: %s\n", node, o->drain_reason);
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

	if (parse_args(argc, argv, &a) < 0)
		return EXIT_USAGE;
	if (a.check_config) {
		struct checkconfig_args c = { a.config_given ? a.config : NULL, a.plugstack, a.node };
		return checkconfig_run(&c, stdout, stderr);
	}
	if (load_policy(&a, &policy, &cached) < 0)
		return EXIT_USAGE;
	config_findings(&a, &policy, &cached);
	struct work w = { .a = &a,
		          .policy = &policy,
		          .report = memfd_create("roce-check report", MFD_CLOEXEC),
		          .log = memfd_create("roce-check log", MFD_CLOEXEC) };
	run(&w, &o);
	print(&w, &o);
	maybe_drain(&a, &o);
	warn_slurm_release();
	/* A health check (NHC) judges the hardware as --drain does, whatever the
	 * mode: warn mode passes a node with one of two ports down. */
	if (a.health && o.rc != EXIT_USAGE)
		return o.drain ? EXIT_FAILED : EXIT_OK;
	/* A roce.conf that does not parse fails the check, but drains nothing. */
	return cached.cached && o.rc == EXIT_OK ? EXIT_FAILED : o.rc;
}
