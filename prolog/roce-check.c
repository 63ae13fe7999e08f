/*
 * roce-check - check this node's RoCE v2 fabric against the site policy.
 *
 *   roce-check [--config FILE] [--sysfs-root DIR] [--mode warn|strict]
 *              [--format text|json|env] [--set Key=Value]... [--gids] [--verbs]
 *              [--topology FILE] [--gpus LIST] [--matrix] [--drain [--node NAME]]
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
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "hostname.h"
#include "json.h"
#include "pipeline.h"
#include "slurmver.h"
#include "worker.h"

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
	bool full_gids, verbs, drain, matrix;
	const char *node;
	const char *topology, *gpus, *proc_root;
};

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: roce-check [OPTION]...\n"
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
#define SLURMVER_TIMEOUT_MS 2000
/* "24.11.5" -> 5 ("24.11") */
static int release_len(const char *version)
{
	const char *dot = strchr(version, '.');
	return dot ? (int)(dot - version) + 1 + (int)strcspn(dot + 1, ".") : (int)strlen(version);
}
static void warn_slurm_release(void)
{
	char installed[64];
	if (roce_slurmver_installed(installed, sizeof(installed), SLURMVER_TIMEOUT_MS) < 0 ||
	    roce_slurmver_same_release(roce_slurmver_built(), installed))
		return;
	fprintf(stderr,
	        "roce-check: warning: slurm-roce was built for Slurm %s but this node runs Slurm %s: "
	        "Slurm does not load spank_roce.so from another release (srun: unrecognized option "
	        "'--roce'; slurmd does not start with a 'required' plugstack line): rebuild and "
	        "reinstall slurm-roce for %.*s\n",
	        roce_slurmver_built(), installed, release_len(installed), installed);
}

static void print_version(void)
{
	char installed[64];
	printf("roce-check (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	printf("built for Slurm %s\n", roce_slurmver_built());
	if (roce_slurmver_installed(installed, sizeof(installed), SLURMVER_TIMEOUT_MS) < 0)
		printf("installed Slurm: unknown (neither slurmd -V nor sinfo -V answered)\n");
	else
		printf("installed Slurm %s%s\n", installed,
		       roce_slurmver_same_release(roce_slurmver_built(), installed)
		               ? ""
		               : ": another release, rebuild slurm-roce for it (spank_roce.so will not load)");
}

static int parse_args(int argc, char **argv, struct args *a)
{
	enum { OPT_VERBS = 256, OPT_DRAIN, OPT_NODE, OPT_GPUS, OPT_MATRIX, OPT_PROC };
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "format", required_argument, NULL, 'f' },
		{ "set", required_argument, NULL, 's' },
		{ "gids", no_argument, NULL, 'g' },
		{ "verbs", no_argument, NULL, OPT_VERBS },
		{ "drain", no_argument, NULL, OPT_DRAIN },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "topology", required_argument, NULL, 't' },
		{ "gpus", required_argument, NULL, OPT_GPUS },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		{ "proc-root", required_argument, NULL, OPT_PROC },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	a->config = ROCE_DEFAULT_CONFIG;
	while ((c = getopt_long(argc, argv, "c:r:m:f:s:t:ghV", opts, NULL)) != -1) {
		switch (c) {
		case 'c': a->config = optarg; a->config_given = true; break;
		case 'r':
			if (resolve_sysfs_root(optarg, &a->sysfs_root) < 0)
				return -1;
			break;
		case 'm': a->mode = optarg; break;
		case 'f':
			if (!strcmp(optarg, "text")) a->format = FMT_TEXT;
			else if (!strcmp(optarg, "json")) a->format = FMT_JSON;
			else if (!strcmp(optarg, "env")) a->format = FMT_ENV;
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
		case OPT_NODE: a->node = optarg; break;
		case 't': a->topology = optarg; break;
		case OPT_GPUS: a->gpus = optarg; break;
		case OPT_MATRIX: a->matrix = true; break;
		case OPT_PROC: a->proc_root = optarg; break;
		case 'h': usage(stdout); exit(EXIT_OK);
		case 'V': print_version(); exit(EXIT_OK);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "roce-check: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	return 0;
}

static int load_policy(const struct args *a, struct roce_policy *p)
{
	struct roce_error err = { "" };
	roce_policy_defaults(p);
	/* The default file may be absent (defaults stand); a named one must exist. */
	if (roce_policy_load(p, a->config, !a->config_given, &err) < 0)
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

static void print_text(const struct roce_check_result *r, const struct roce_plan *plan)
{
	size_t roce = 0, healthy = 0;
	for (size_t i = 0; i < r->n_findings; i++) {
		const struct roce_finding *f = &r->findings[i];
		printf("%-7s %-11s %-12s %s\n", status_tag(f->status), f->check, f->subject, f->message);
	}
	for (size_t i = 0; i < r->n_ports; i++) {
		roce += r->ports[i].roce;
		healthy += r->ports[i].healthy;
	}
	printf("roce-check: %zu RoCE port%s, %zu healthy; %zu pass, %zu warn, %zu fail, %zu unknown; mode %s: %s\n",
	       roce, roce == 1 ? "" : "s", healthy, r->n_pass, r->n_warn, r->n_fail, r->n_unknown,
	       roce_mode_name(r->mode), r->failed ? "FAILED" : "OK");
	if (plan->valid)
		for (size_t i = 0; i < plan->n_vars; i++)
			printf("  %s=%s\n", plan->vars[i].name, plan->vars[i].value);
	else
		printf("  no NCCL environment: %s\n", plan->why);
}

static void print_json(const struct roce_pipeline *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "node", roce_json_node(&p->node));
	json_object_object_add(o, "check", roce_json_check(&p->check));
	if (p->loc)
		json_object_object_add(o, "locality", roce_locality_json(p->loc));
	if (p->choice)
		json_object_object_add(o, "choice", roce_choice_json(p->choice));
	json_object_object_add(o, "plan", roce_json_plan(&p->plan));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

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

static void maybe_drain(const struct args *a, const struct roce_check_result *r)
{
	char reason[256], host[256];
	if (!a->drain || !roce_check_drain_reason(r, reason, sizeof(reason)))
		return;
	const char *node = roce_hostname_node(a->node ? a->node : getenv("SLURMD_NODENAME"), host, sizeof(host));
	if (!node)
		return;
	if (!roce_token_ok(node, 200)) {
		fprintf(stderr, "roce-check: --drain: \"%s\" is not a node name\n", node);
		return;
	}
	if (drain_node(node, reason) < 0)
		fprintf(stderr, "roce-check: could not drain %s (%s)\n", node, reason);
	else
		fprintf(stderr, "roce-check: drained %s: %s\n", node, reason);
}

/*
 * A read of a wedged sysfs attribute (a stuck firmware command) sleeps in the
 * kernel where no signal ends it, so the collectors run in a child and the
 * parent waits at most TimeoutMs + 500 ms for it to say "collected".  Past
 * that the child is killed (it dies once the read returns) and roce-check
 * fails: as a HealthCheckProgram, a node that cannot answer in time fails.
 * The child's stdout and stderr come through the parent, so that nobody
 * waiting for our output waits for the stuck child too.
 * Returns in the child with the fd to signal on; the parent never returns.
 */
static void relay(int *fd, int to)
{
	char buf[8192];
	ssize_t n = read(*fd, buf, sizeof(buf));
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	for (ssize_t off = 0; off < n;) {
		ssize_t w = write(to, buf + off, (size_t)(n - off));
		if (w <= 0)
			return;
		off += w;
	}
}

/* The stuck child is remembered (lib/stuck.h): the next run answers at once. */
static void mark_stuck(const struct roce_policy *p, pid_t pid)
{
	struct roce_error err = { "" };
	if (roce_worker_abandon(p, NULL, pid, &err) < 0 && geteuid() == 0)
		fprintf(stderr, "roce-check: %s\n", err.msg);
}

static __attribute__((noreturn)) void watchdog_parent(pid_t pid, int done, int out, int err,
                                                      const struct roce_policy *policy)
{
	int timeout_ms = policy->timeout_ms;
	static const char msg[] = "roce-check: timed out: a sysfs or netlink read did not return within TimeoutMs "
	                          "(+500 ms); the node's RDMA driver or firmware may be wedged (check dmesg)\n";
	int64_t t0 = roce_clock_ms();
	while (out >= 0 || err >= 0 || done >= 0) {
		struct pollfd p[3] = { { out, POLLIN, 0 }, { err, POLLIN, 0 }, { done, POLLIN, 0 } };
		int64_t left = done >= 0 ? timeout_ms + 500 - (roce_clock_ms() - t0) : -1;
		if (done >= 0 && left <= 0)
			break;
		if (poll(p, 3, (int)left) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			relay(&out, STDOUT_FILENO);
		if (p[1].revents)
			relay(&err, STDERR_FILENO);
		if (p[2].revents) {   /* "collected", or the child is gone */
			close(done);
			done = -1;
		}
	}
	if (done >= 0) {
		kill(pid, SIGKILL);
		ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)n;
		mark_stuck(policy, pid);
		_exit(EXIT_FAILED);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	fprintf(stderr, "roce-check: internal error: killed by signal %d\n", WTERMSIG(status));
	_exit(EXIT_USAGE);
}

static int watchdog_fork(const struct roce_policy *policy)
{
	int done[2], out[2], err[2];
	struct roce_error why = { "" };
	if (roce_worker_stuck_earlier(policy, NULL, &why)) {
		fprintf(stderr, "roce-check: %s\n", why.msg);
		exit(EXIT_FAILED);
	}
	if (pipe2(done, O_CLOEXEC) < 0)
		return -1;   /* no watchdog: run unguarded rather than not at all */
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		close(done[0]);
		close(done[1]);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(done[0]);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]); close(out[1]); close(err[0]); close(err[1]);
		return done[1];
	}
	close(done[1]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(done[0]); close(out[0]); close(err[0]);
		return -1;
	}
	watchdog_parent(pid, done[0], out[0], err[0], policy);
}

static void watchdog_done(int fd)
{
	if (fd < 0)
		return;
	ssize_t n = write(fd, "c", 1);
	(void)n;
	close(fd);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct roce_policy policy;
	struct roce_pipeline run;
	struct roce_error err = { "" };

	if (parse_args(argc, argv, &a) < 0 || load_policy(&a, &policy) < 0)
		return EXIT_USAGE;

	struct roce_pipeline_opts opts = {
		.collect = { .full_gids = a.full_gids, .netlink = true, .verbs = a.verbs },
		.topology = a.topology,
		.topology_required = a.topology != NULL,
		.gpus = a.gpus,
		.gpus_strict = true,
		.proc_root = a.proc_root,
		.matrix = a.matrix,
	};
	int watchdog = watchdog_fork(&policy);
	int prc = roce_pipeline_run(&policy, &opts, &run, &err);
	watchdog_done(watchdog);
	if (prc < 0) {
		fprintf(stderr, "roce-check: %s\n", err.msg);
		roce_pipeline_free(&run);
		return EXIT_USAGE;
	}
	switch (a.format) {
	case FMT_TEXT:
		if (run.loc)
			roce_locality_print(run.loc, stdout);
		print_text(&run.check, &run.plan);
		break;
	case FMT_JSON: print_json(&run); break;
	case FMT_ENV:
		for (size_t i = 0; run.plan.valid && i < run.plan.n_vars; i++)
			printf("%s=%s\n", run.plan.vars[i].name, run.plan.vars[i].value);
		break;
	}
	maybe_drain(&a, &run.check);
	warn_slurm_release();
	int rc = run.check.failed ? EXIT_FAILED : EXIT_OK;
	roce_pipeline_free(&run);
	return rc;
}
