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
#include <unistd.h>

#include "checkconfig.h"
#include "base/hostname.h"
#include "healthlive.h"
#include "base/printable.h"
#include "proc/slurmver.h"
#include "read/passcount.h"
#include "nodectl.h"
#include "read/policycache.h"
#include "checkargs.h"
#include "checkrun.h"

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
	checkrun_run(&w, &o);
	checkrun_print(&w, &o);
	drain_or_resume(&a, &policy, &o);
	if (w.shared_done && w.shared.rc == 0 && checkrun_wants_counters(&w) && policy.live)
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

