/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checkrun.c - roce-check's check in a worker, and its report (checkrun.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hostname.h"
#include "check/json.h"
#include "healthlive.h"
#include "pipeline/healthtrend.h"
#include "pipeline/pipeline.h"
#include "proc/worker.h"
#include "report/health_prometheus.h"
#include "checkrun.h"

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

bool checkrun_wants_counters(const struct work *w)
{
	return is_health(w) && geteuid() == 0 && (w->policy->trend != ROCE_ACTION_IGNORE || w->policy->live);
}

/* After the pipeline, in the worker (its reads bounded with the rest): the
 * health check's counter snapshot and its link-quality trend, whose
 * findings join run's before it is judged. */
static void measure(const struct work *w, int64_t start_ms, struct roce_pipeline *run, struct roce_snapshot *snap,
                    struct roce_healthtrend *trend)
{
	if (checkrun_wants_counters(w) && roce_snapshot_take_until(snap, w->policy->sysfs_root, &run->node, &run->check,
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
		if (checkrun_wants_counters(w) && w->policy->live)
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

void checkrun_run(struct work *w, struct outcome *o)
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

void checkrun_print(const struct work *w, const struct outcome *o)
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

