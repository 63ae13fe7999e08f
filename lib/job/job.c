/* SPDX-License-Identifier: GPL-2.0-or-later */
/* job.c - the job prolog (counter snapshot) and epilog (delta, verdicts, fragment) of the fabric report (job.h). */
#include "config.h"
#include "job/job.h"
#include "check/check.h"
#include "collect/collect.h"
#include "base/clock.h"
#include "pipeline/delta.h"
#include "agree/fingerprint.h"
#include "fragment/fragment.h"
#include "fragment/ranwith.h"
#include "job/jobshare.h"
#include "job/jobstate.h"
#include "job/livesample.h"
#include "pipeline/healthtrend.h"
#include "pipeline/snapshot.h"
#include "base/hostname.h"
#include "base/slurmid.h"
#include "base/statename.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "read/fstype.h"
#include "agree/shareddir.h"
#include "job/jobprobe.h"
#include "proc/worker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- state files */

/* The names of the job's files are statename.h's: each carries the node's
 * name, so that nodes that share a StateDir by mistake never take each
 * other's (the prolog says when StateDir is on a shared file system). */

/* Whatever else happened: a stale snapshot would flag later jobs as sharing
 * the node.  No fsync: one that reappears after a crash is stale and removed.
 * (The name from before per-node names too: a job whose prolog ran before
 * an upgrade.) */
static void remove_state(int sfd, const char *job_id, const char *node)
{
	char name[ROCE_JOBSTATE_NAME_MAX];
	roce_jobstate_name(name, job_id, node);
	unlinkat(sfd, name, 0);
	roce_jobstate_name(name, job_id, NULL);
	unlinkat(sfd, name, 0);
}

/* ---------------------------------------------------------------- shared steps */

struct job_ctx {
	struct roce_policy pol;
	const char *job_id, *node;
	uid_t uid;
	char host[64];                      /* node name fallback: the short host name */
	const struct roce_job_nodes *nodes; /* the prolog's, for the path probe; NULL unknown */
};

static int job_ctx_init(struct job_ctx *c, const struct roce_policy *p, const char *sysfs_root, const char *job_id,
                        const char *node, uid_t uid, struct roce_error *err)
{
	if (!roce_slurmid_job_ok(job_id)) {
		roce_error_set(err, "job id \"%.24s\" is not 1-10 digits", job_id ? job_id : "(null)");
		return -1;
	}
	if (!(node = roce_hostname_node(node, c->host, sizeof(c->host)))) {
		roce_error_set(err, "no node name and gethostname failed: %s", strerror(errno));
		return -1;
	}
	if (!roce_slurmid_node_ok(node)) {
		roce_error_set(err, "node name \"%.64s\" is not usable as a file name", node ? node : "(null)");
		return -1;
	}
	c->pol = *p;
	if (sysfs_root && snprintf(c->pol.sysfs_root, sizeof(c->pol.sysfs_root), "%s", sysfs_root) >=
	                          (int)sizeof(c->pol.sysfs_root)) {
		roce_error_set(err, "sysfs root too long");
		return -1;
	}
	c->job_id = job_id;
	c->node = node;
	c->uid = uid;
	c->nodes = NULL;
	return 0;
}

/* Collect the model and check it: false when the check could not run
 * (out of memory; result is then empty). */
static bool check_node(const struct job_ctx *c, struct roce_node *node, struct roce_check_result *result)
{
	struct roce_collect_opts opts = { .sysfs_root = c->pol.sysfs_root, .netlink = true };
	roce_node_init(node);
	roce_collect(node, &c->pol, &opts);
	return roce_check(node, &c->pol, result) == 0;
}

/* Snapshot the counters of a collected node (result NULL: not checked). */
static int snapshot_node(const struct job_ctx *c, const struct roce_node *node, const struct roce_check_result *result,
                         struct roce_snapshot *s, struct roce_error *err)
{
	/* The counters get the policy's collector budget again, after the collector. */
	int64_t deadline = roce_clock_ms() + c->pol.timeout_ms;
	if (roce_snapshot_take_until(s, c->pol.sysfs_root, node, result, deadline) < 0) {
		roce_error_set(err, "out of memory taking the counter snapshot");
		return -1;
	}
	return 0;
}

/* Collect, check and snapshot (the epilog's end of the report). */
static int take_snapshot(const struct job_ctx *c, struct roce_snapshot *s, struct roce_error *err)
{
	struct roce_node node;
	struct roce_check_result result;
	bool checked = check_node(c, &node, &result);
	int rc = snapshot_node(c, &node, checked ? &result : NULL, s, err);
	if (checked)
		roce_check_result_free(&result);
	roce_node_free(&node);
	return rc;
}

/* The health check's link-quality trend in StateDir (healthtrend.h), for
 * the job's report: none under Trend=ignore, or when there is none to use
 * (not the job's business: the health check says why). */
static void load_trend(int sfd, const struct job_ctx *c, struct roce_trend *t)
{
	char why[256];
	roce_trend_init(t);
	if (c->pol.trend != ROCE_ACTION_IGNORE)
		roce_healthtrend_load(sfd, t, why, sizeof(why));
}

/* ---------------------------------------------------------------- prolog */

/* StateDir/<jobid>.<node>.shared: the name of this node's entry in
 * SharedDir (shareddir.h: it carries the fingerprint's digest and the
 * prolog's time), so that the epilog removes it without listing SharedDir,
 * and on a second line the SharedDir it went into: roce.conf's SharedDir=
 * may be edited while the job runs, and the entry is removed from where it
 * was written.  (A mark of 0.2.0's first builds has the entry alone: the
 * epilog's SharedDir then.) */
#define SHARED_MARK_TEXT_MAX (ROCE_SHAREDDIR_ENTRY_MAX + sizeof(((struct roce_policy *)0)->shared_dir) + 2)
static void shared_mark(char *buf, const char *job_id, const char *node)
{
	roce_statename_format(buf, ROCE_STATENAME_SHARED, job_id, node, NULL);
}

/* A mark's text cut into its entry (text itself) and the SharedDir of its
 * second line (NULL: a mark without one). */
static const char *mark_dir(char *text)
{
	char *dir = strchr(text, '\n'), *end;
	if (!dir)
		return NULL;
	*dir++ = '\0';
	if (dir[0] != '/' || !(end = strchr(dir, '\n')))
		return NULL;
	*end = '\0';
	return dir;
}

/* The epilog's half (also when the epilog itself was abandoned: no sysfs
 * read; probe NULL), the probe's verdicts into probe first. */
static void drop_fingerprint(int sfd, const struct roce_policy *p, const char *job_id, const char *node,
                             struct roce_verdict_list *probe)
{
	char mark[ROCE_STATENAME_MAX], text[SHARED_MARK_TEXT_MAX];
	struct roce_reading r;
	if (!node || !roce_slurmid_node_ok(node))
		return;
	shared_mark(mark, job_id, node);
	if (roce_readfile_buf(sfd, NULL, mark, text, sizeof(text), ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &r) >
	    0) {
		const char *dir = mark_dir(text);
		/* the policy as it is, but the SharedDir the prolog wrote into */
		struct roce_policy *where = dir && strlen(dir) < sizeof(p->shared_dir) ? malloc(sizeof(*where)) : NULL;
		if (where) {
			*where = *p;
			snprintf(where->shared_dir, sizeof(where->shared_dir), "%s", dir);
		}
		if (probe && p->probe == ROCE_PROBE_IP)
			roce_jobprobe_own(where ? where : p, job_id, text, probe);
		roce_jobprobe_remove(where ? where : p, job_id, node); /* first: the job's directory goes once empty */
		roce_shareddir_remove(where ? where : p, job_id, text);
		free(where);
	}
	unlinkat(sfd, mark, 0);
}

/* For the job-wide agreement (agree.h), when SharedDir is set.  A node
 * without one is "unknown" to srun (warn: each node on its own; strict:
 * the step fails): say why in slurmd's log, and carry on with the report. */
static int write_fingerprint(const struct job_ctx *c, int sfd, const struct roce_fingerprint *fp,
                             struct roce_error *err)
{
	char entry[ROCE_SHAREDDIR_ENTRY_MAX], mark[ROCE_STATENAME_MAX], text[SHARED_MARK_TEXT_MAX];
	struct roce_fingerprint unchecked;
	struct roce_error e;
	bool checked = fp->node[0] != '\0';
	if (!c->pol.shared_dir[0])
		return 0;
	if (!checked) { /* srun says so: unknown, never a pass */
		roce_fingerprint_unchecked(&c->pol, c->job_id, c->node, &unchecked);
		fp = &unchecked;
	}
	if (roce_shareddir_write(&c->pol, fp, c->uid, time(NULL), entry, sizeof(entry), &e) < 0) {
		roce_error_set(err, "no fingerprint in SharedDir: %.*s", ROCE_ERR_MAX - 40, e.msg);
		return -1;
	}
	shared_mark(mark, c->job_id, c->node);
	/* shared_dir fits (policy.c bounds it): the mark is never cut */
	int n = snprintf(text, sizeof(text), "%s\n%s\n", entry, c->pol.shared_dir);
	if (roce_safefile_write(sfd, mark, text, (size_t)n, geteuid(), getegid(), 0600, -1, 0, &e) < 0) {
		/* the entry stays until the sweep (shareddir.h): srun may still use it */
		roce_error_set(err, "SharedDir: the epilog will not find this node's fingerprint: %.*s",
		               ROCE_ERR_MAX - 80, e.msg);
		return -1;
	}
	if (!checked) {
		roce_error_set(err, "the check did not run: the fingerprint in SharedDir says so (unchecked)");
		return -1;
	}
	return 0;
}

bool roce_job_gates(enum roce_mode mode, const struct roce_policy *p) { return p->gate || mode == ROCE_MODE_STRICT; }

/* A StateDir on a file system other nodes share (by mistake: it is node
 * state, tmpfs by default): every file of ours carries the node's name, so
 * nothing is taken from another node, but say it in the log. */
static bool shared_state_dir(int sfd, const struct job_ctx *c, struct roce_error *note)
{
	const char *fs;
	if (!roce_fstype_shared(sfd, &fs))
		return false;
	roce_error_set(note,
	               "StateDir %.200s is on a shared file system (%s): it is node-local state (tmpfs "
	               "/run/slurm-roce by default); each node's files carry its name (%s), but give every "
	               "node its own (roce.conf(5), StateDir)",
	               c->pol.state_dir, fs, c->node);
	return true;
}

/* What the prolog says: its failure, else the missing fingerprint (fp_err),
 * else the note; a shared StateDir (note) is named whatever else went
 * wrong: it may be the cause (a read-only or full shared file system). */
static int prolog_result(int rc, const struct roce_error *fp_err, const struct roce_error *note, struct roce_error *err)
{
	if (rc == 0 && fp_err) {
		*err = *fp_err;
		rc = ROCE_JOB_NO_FINGERPRINT;
	} else if (rc == 0 && note) {
		*err = *note;
		return ROCE_JOB_NOTE;
	}
	if (rc != 0 && note) {
		struct roce_error first = *err;
		roce_error_set(err, "%.200s; %.300s", first.msg, note->msg);
	}
	return rc;
}

/* The report's half of the prolog, from the checked node: the snapshot in
 * StateDir, the fingerprint in SharedDir. */
static int prolog_report(const struct job_ctx *c, const struct roce_node *node, const struct roce_check_result *result,
                         struct roce_error *err)
{
	struct roce_snapshot s;
	struct roce_trend trend;
	struct roce_fingerprint fp;
	struct roce_error fp_err, note;
	int rc = ROCE_JOB_NONFATAL, sfd, fp_rc = 0;

	if ((sfd = roce_safefile_state_dir(c->pol.state_dir, err)) < 0)
		return ROCE_JOB_NONFATAL;
	bool shared = shared_state_dir(sfd, c, &note);
	roce_snapshot_init(&s);
	roce_trend_init(&trend);
	fp.node[0] = '\0';
	if (result) {
		roce_fingerprint_from_check(&c->pol, node, result, c->job_id, c->node, &fp);
		shared |= roce_jobprobe_prolog(&c->pol, node, result, c->nodes, c->uid, &fp, &note, shared);
	}
	if (snapshot_node(c, node, result, &s, err) < 0)
		goto out;
	fp_rc = write_fingerprint(c, sfd, &fp, &fp_err);
	load_trend(sfd, c, &trend);
	/* Atomic but not fsync'd: if the node crashes the job is gone too, and
	 * the epilog copes with a missing snapshot. */
	if (roce_jobstate_write(sfd, c->job_id, c->node, (long)c->uid, &s, &trend, err) == 0) {
		rc = 0;
		roce_jobshare_mark(sfd, c->job_id, c->node);
	}
out:
	roce_trend_free(&trend);
	roce_snapshot_free(&s);
	close(sfd);
	return prolog_result(rc, fp_rc < 0 ? &fp_err : NULL, shared ? &note : NULL, err);
}

int roce_job_prolog(const struct roce_policy *p, const char *sysfs_root, const char *job_id, const char *node_name,
                    uid_t job_uid, unsigned parts, const struct roce_job_nodes *nodes, struct roce_error *err)
{
	struct job_ctx c;
	struct roce_node node;
	struct roce_check_result result;
	char reason[256];
	int rc = 0;

	if (job_ctx_init(&c, p, sysfs_root, job_id, node_name, job_uid, err) < 0)
		return -1;
	c.nodes = nodes;
	if (!(parts & (ROCE_JOB_REPORT | ROCE_JOB_GATE)))
		return 0;
	bool checked = check_node(&c, &node, &result);
	/* The gate: a hardware fault (the drain rule, check.h), nothing else.
	 * The job does not run here, so no snapshot, no fingerprint. */
	if ((parts & ROCE_JOB_GATE) && checked && roce_check_drain_reason(&result, reason, sizeof(reason)) == 1) {
		roce_error_set(err, "%s", reason);
		rc = ROCE_JOB_GATE_FAILED;
	} else if (parts & ROCE_JOB_REPORT) {
		rc = prolog_report(&c, &node, checked ? &result : NULL, err);
	}
	if (checked)
		roce_check_result_free(&result);
	roce_node_free(&node);
	return rc;
}

/* ---------------------------------------------------------------- epilog */

/* Without a usable start: every counter of the end snapshot becomes unread. */
static int start_from_end(struct roce_snapshot *start, const struct roce_snapshot *end, const char *why)
{
	roce_snapshot_free(start);
	*start = *end;
	start->ports = NULL;
	if (end->n_ports && !(start->ports = malloc(end->n_ports * sizeof(*start->ports))))
		return -1;
	memcpy(start->ports, end->ports, end->n_ports * sizeof(*start->ports));
	/* Nothing was seen at the start: no state, no check either. */
	start->check = -1;
	start->check_why[0] = '\0';
	for (size_t i = 0; i < end->n_ports; i++) {
		for (int k = 0; k < ROCE_N_COUNTERS; k++)
			roce_reading_set(&start->ports[i].c[k].read, ROCE_MISSING, 0, "%s", why);
		roce_reading_set(&start->ports[i].pfc.read, ROCE_MISSING, 0, "%s", why);
		start->ports[i].state[0] = '\0';
		start->ports[i].check = -1;
		start->ports[i].check_why[0] = '\0';
	}
	return 0;
}

/* What the fragment is made of: what the prolog left in StateDir and what
 * the epilog took. */
struct epilog_in {
	struct roce_jobstate st;     /* the prolog's start snapshot and the trend then */
	bool have_start;             /* false: st.start is the end's, every counter unread (note says why) */
	struct roce_snapshot end;    /* the counters now */
	struct roce_trend trend_end; /* the health check's trend now */
	struct roce_jobshare_ids shared; /* the jobs that shared the node */
	struct roce_ranwith rw;      /* what the steps ran with */
	struct roce_verdict_list probe; /* the path probe's, from the node's fingerprint */
	char note[ROCE_WHY_MAX + 64];
};

static int write_fragment(const struct job_ctx *c, const struct epilog_in *in, struct roce_error *err)
{
	const struct roce_snapshot *start = &in->st.start, *end = &in->end;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment f = { 0 };
	/* plain: read by programs (roce-report, jq); a third smaller and faster to merge */
	struct roce_fragment_text text = { 0 };
	const char *ids[4096];
	char name[80];
	gid_t admin_gid = 0;
	int rc = -1, jfd = -1;

	for (size_t i = 0; i < in->shared.n; i++)
		ids[i] = in->shared.id[i];
	struct roce_fragment_meta m = {
		.job_id = c->job_id,
		.node = c->node,
		.job_uid = c->uid,
		.start_ns = start->time_ns,
		.end_ns = end->time_ns,
		.shared_with = ids,
		.n_shared = in->shared.n,
		.pfc_priority = c->pol.pfc_priority,
		.note = in->note[0] ? in->note : NULL,
		.no_start = !in->have_start,
		.trend_start = in->have_start ? &in->st.trend : NULL,
		.trend_end = &in->trend_end,
		.trend_threshold = c->pol.trend == ROCE_ACTION_IGNORE ? NULL : c->pol.trend_threshold,
		.trend_window_s = c->pol.trend_window_s,
	};
	if (roce_delta_compute(start, end, &d) < 0 || roce_verdicts_from_delta(&d, &m, &v) < 0 ||
	    roce_ranwith_verdicts(&in->rw, &v) < 0 || roce_verdict_list_add_all(&v, &in->probe) < 0 ||
	    roce_fragment_build(&f, &m, &d, &v, &in->rw) < 0) {
		roce_error_set(err, "out of memory building the report");
		goto out;
	}
	if (roce_fragment_write(&text, &f, c->job_id, true) < 0) {
		roce_error_set(err, "out of memory serialising the report");
		goto out;
	}
	time_t since = in->have_start ? (time_t)(start->time_ns / 1000000000) : 0;
	if ((jfd = roce_safefile_report_dir(c->pol.report_dir, c->job_id, c->uid, since, &admin_gid, err)) < 0)
		goto out;
	snprintf(name, sizeof(name), "%s.json", c->node);
	roce_safefile_remove_temps(jfd, name);
	if (roce_safefile_write(jfd, name, text.s, text.len, geteuid(), admin_gid, 0440, (long)c->uid,
	                        ROCE_SAFEFILE_DURABLE, err) == 0)
		rc = 0;
out:
	if (jfd >= 0)
		close(jfd);
	roce_fragment_write_free(&text);
	roce_fragment_free(&f);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
	return rc;
}

/* What the prolog left in StateDir: its snapshot and the trend then (none,
 * with note saying why, when there is none to use) and the jobs that
 * shared the node. */
static void prolog_left(int sfd, const struct job_ctx *c, struct epilog_in *in)
{
	struct roce_error why;
	in->have_start = roce_jobstate_read(sfd, c->pol.state_dir, c->job_id, c->node, &in->st, &why) == 0;
	if (!in->have_start)
		snprintf(in->note, sizeof(in->note), "%.*s", (int)sizeof(in->note) - 1, why.msg);
	roce_jobshare_collect(sfd, c->job_id, c->node, &in->shared);
}

int roce_job_epilog(const struct roce_policy *p, const char *sysfs_root, const char *job_id, const char *node_name,
                    uid_t job_uid, struct roce_error *err)
{
	struct job_ctx c;
	struct epilog_in in = { .note = "" };
	struct roce_error serr;
	int rc = ROCE_JOB_NONFATAL;

	if (job_ctx_init(&c, p, sysfs_root, job_id, node_name, job_uid, err) < 0)
		return -1;
	roce_jobstate_init(&in.st);
	roce_snapshot_init(&in.end);
	roce_trend_init(&in.trend_end);
	int sfd = roce_safefile_state_dir(c.pol.state_dir, &serr);
	if (sfd < 0)
		snprintf(in.note, sizeof(in.note), "no prolog snapshot: %.200s", serr.msg);
	else
		prolog_left(sfd, &c, &in);
	/* what the steps ran with (none: no step was checked here, or an older plugin) */
	if (sfd < 0 || roce_ranwith_take(sfd, job_id, c.node, &in.rw, &serr) < 0)
		memset(&in.rw, 0, sizeof(in.rw));
	if (sfd >= 0)
		drop_fingerprint(sfd, &c.pol, job_id, c.node, &in.probe);
	if (take_snapshot(&c, &in.end, err) < 0)
		goto out;
	if (sfd >= 0)
		load_trend(sfd, &c, &in.trend_end);
	if (!in.have_start && start_from_end(&in.st.start, &in.end, in.note) < 0) {
		roce_error_set(err, "out of memory");
		goto out;
	}
	if (write_fragment(&c, &in, err) == 0)
		rc = 0;
out:
	if (sfd >= 0) {
		remove_state(sfd, job_id, c.node);
		/* after the state: livesample.c */
		roce_livesample_remove(&c.pol, sfd, job_id, c.node);
		close(sfd);
	}
	roce_jobshare_free(&in.shared);
	roce_verdict_list_free(&in.probe);
	roce_jobstate_free(&in.st);
	roce_snapshot_free(&in.end);
	roce_trend_free(&in.trend_end);
	return rc;
}

/* ---------------------------------------------------------------- with a deadline */

/* The prolog delays the job's start, so it gets less room for writing than
 * the epilog, which may write to a shared file system (the prolog's:
 * job.h, srun waits for it). */
#define EPILOG_MARGIN_MS 3000

struct job_call {
	const struct roce_policy *policy;
	bool prolog;
	unsigned parts;
	const char *sysfs_root, *job_id, *node;
	uid_t uid;
	const struct roce_job_nodes *nodes;
};

struct job_result {
	int rc;
	struct roce_error err;
};

static void job_worker(const void *arg, void *res)
{
	const struct job_call *c = arg;
	struct job_result *r = res;
	r->rc = c->prolog ? roce_job_prolog(c->policy, c->sysfs_root, c->job_id, c->node, c->uid, c->parts, c->nodes,
	                                    &r->err)
	                  : roce_job_epilog(c->policy, c->sysfs_root, c->job_id, c->node, c->uid, &r->err);
}

/* An epilog that did not run (an earlier check stuck) or was abandoned at its
 * deadline still owes the job's snapshot its removal (a stale one would flag
 * every later job on the node as sharing it), and its fingerprint (srun must
 * not find this job's after the job).  No sysfs read needed. */
static void drop_snapshot(const struct roce_policy *p, const char *job_id, const char *node_name)
{
	struct roce_error e = { "" };
	char host[64];
	/* the node's name as the prolog had it (job_ctx_init) */
	const char *node = roce_hostname_node(node_name, host, sizeof(host));
	if (!roce_slurmid_job_ok(job_id) || !node || !roce_slurmid_node_ok(node))
		return;
	int sfd = roce_safefile_state_dir(p->state_dir, &e);
	if (sfd < 0)
		return;
	remove_state(sfd, job_id, node);
	drop_fingerprint(sfd, p, job_id, node, NULL);
	close(sfd);
}

int roce_job_run(const struct roce_policy *p, bool prolog, unsigned parts, const char *sysfs_root, const char *job_id,
                 const char *node_name, uid_t job_uid, const struct roce_job_nodes *nodes, struct roce_error *err)
{
	struct job_call call = { p, prolog, parts, sysfs_root, job_id, node_name, job_uid, nodes };
	struct job_result res;
	struct roce_error why = { "" };
	int margin = prolog ? ROCE_JOB_PROLOG_MARGIN_MS : EPILOG_MARGIN_MS;
	if (prolog && p->probe == ROCE_PROBE_IP)
		margin += roce_jobprobe_budget_ms(p); /* the probe's whole budget, a healthy job's well within */

	memset(&res, 0, sizeof(res));
	/* Forked: once per job, and the prolog's and epilog's processes live on
	 * (slurmd's) after a timeout. */
	if (roce_worker_run_guarded(p, sysfs_root, "the counter snapshot", ROCE_WORKER_FORKED, job_worker, &call, &res,
	                            sizeof(res), p->timeout_ms + margin, &why) < 0) {
		roce_error_set(err, "%s", why.msg);
		if (!prolog)
			drop_snapshot(p, job_id, node_name);
		return ROCE_JOB_NONFATAL;
	}
	res.err.msg[sizeof(res.err.msg) - 1] = '\0'; /* the child's text is trusted no further than its bounds */
	if (res.rc != 0)
		roce_error_set(err, "%s", res.err.msg);
	if (res.rc == ROCE_JOB_NO_FINGERPRINT || res.rc == ROCE_JOB_NOTE || res.rc == ROCE_JOB_GATE_FAILED)
		return res.rc;
	return res.rc < 0 ? -1 : res.rc > 0 ? ROCE_JOB_NONFATAL : 0;
}
