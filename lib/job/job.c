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
#include "pipeline/snapshot.h"
#include "base/hostname.h"
#include "base/slurmid.h"
#include "base/statename.h"
#include "read/jsonin.h"
#include "base/printable.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "read/fstype.h"
#include "agree/shareddir.h"
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

#define STATE_SCHEMA "slurm-roce/state/1"
#define STATE_MAX (16u << 20)

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
	char name[ROCE_STATENAME_MAX];
	roce_statename_format(name, ROCE_STATENAME_SNAPSHOT, job_id, node, NULL);
	unlinkat(sfd, name, 0);
	roce_statename_format(name, ROCE_STATENAME_SNAPSHOT, job_id, NULL, NULL);
	unlinkat(sfd, name, 0);
}

struct idlist {
	char (*id)[ROCE_JOBID_MAX];
	size_t n;
};

static void idlist_add(struct idlist *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->id[i], id) == 0)
			return;
	if (l->n >= 4096)
		return;
	void *grown = realloc(l->id, (l->n + 1) * sizeof(*l->id));
	if (!grown)
		return; /* a missed "shared" mark is not worth failing the report */
	l->id = grown;
	snprintf(l->id[l->n++], ROCE_JOBID_MAX, "%s", id);
}

/* A state file of ours as JSON; NULL with why (a clause) when absent or unusable. */
static json_object *read_state_file(int dfd, const char *name, struct roce_error *why)
{
	struct roce_reading r;
	size_t len;
	char *text =
	        roce_readfile(dfd, NULL, name, STATE_MAX, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &len, &r);
	if (!text) {
		if (r.status == ROCE_MALFORMED || r.err == EPERM)
			roce_error_set(why, "not a regular file of ours below %u bytes", STATE_MAX);
		else
			roce_error_set(why, "%s", strerror(r.err));
		return NULL;
	}
	json_object *o = roce_jin_parse(text, len, why);
	free(text);
	return o;
}

/* When this boot began, in CLOCK_REALTIME seconds (0 unknown). */
static time_t boot_time(void)
{
	struct timespec now, up;
	if (clock_gettime(CLOCK_REALTIME, &now) < 0 || clock_gettime(CLOCK_BOOTTIME, &up) < 0)
		return 0;
	return now.tv_sec - up.tv_sec;
}

/* This node's, or from before per-node names (no node: then this node's
 * as well, StateDir being node-local). */
static bool this_node(const struct roce_statename *n, const char *node)
{
	return !n->node[0] || strcmp(n->node, node) == 0;
}

static bool absent(int sfd, const char *name)
{
	return faccessat(sfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
}

/* A marker whose job has no snapshot on this node any more (under either
 * name: its prolog may have run before an upgrade): its epilog took its
 * markers before a late prolog added this one. */
static bool orphan_marker(int sfd, const struct roce_statename *n)
{
	char snap[ROCE_STATENAME_MAX];
	roce_statename_format(snap, ROCE_STATENAME_SNAPSHOT, n->job, NULL, NULL);
	if (!absent(sfd, snap))
		return false;
	roce_statename_format(snap, ROCE_STATENAME_SNAPSHOT, n->job, n->node[0] ? n->node : NULL, NULL);
	return absent(sfd, snap);
}

/* Other jobs' snapshots on this node.  One written before this boot began
 * belongs to a job that died with the node: removed, so it cannot flag
 * later jobs as sharing.  (mtime, not content: no need to read every other
 * snapshot.)  Other nodes' files are theirs: never looked at. */
static void scan_state_dir(int sfd, const char *job_id, const char *node, struct idlist *others)
{
	int dup_fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	struct stat st;
	struct roce_statename n;
	time_t booted = boot_time();
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!roce_statename_parse(e->d_name, &n) || !this_node(&n, node) || strcmp(n.job, job_id) == 0)
			continue;
		if (n.kind == ROCE_STATENAME_MARKER && orphan_marker(sfd, &n))
			unlinkat(sfd, e->d_name, 0);
		if (n.kind != ROCE_STATENAME_SNAPSHOT)
			continue;
		if (booted > 0 && fstatat(sfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mtime + 2 < booted) {
			unlinkat(sfd, e->d_name, 0);
			continue;
		}
		idlist_add(others, n.job);
	}
	closedir(d);
}

/* Markers "<jobid>.<node>.with.<other>" left for us by later jobs' prologs
 * on this node (and "<jobid>.with.<other>" from before per-node names). */
static void take_markers(int sfd, const char *job_id, const char *node, struct idlist *shared)
{
	/* A fresh open, not dup(): a dup shares the directory offset with sfd. */
	int dup_fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	struct roce_statename n;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!roce_statename_parse(e->d_name, &n) || n.kind != ROCE_STATENAME_MARKER || !this_node(&n, node) ||
		    strcmp(n.job, job_id) != 0)
			continue;
		idlist_add(shared, n.other);
		unlinkat(sfd, e->d_name, 0);
	}
	closedir(d);
}

/* ---------------------------------------------------------------- shared steps */

struct job_ctx {
	struct roce_policy pol;
	const char *job_id, *node;
	uid_t uid;
	char host[64]; /* node name fallback: the short host name */
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
	return 0;
}

/* Collect the model, check it, snapshot the counters; fp (may be NULL)
 * gets the node's fingerprint when the check ran (else fp->node stays ""). */
static int take_snapshot(const struct job_ctx *c, struct roce_snapshot *s, struct roce_fingerprint *fp,
                         struct roce_error *err)
{
	struct roce_node node;
	struct roce_check_result result;
	struct roce_collect_opts opts = { .sysfs_root = c->pol.sysfs_root, .netlink = true };
	int rc = 0;

	roce_node_init(&node);
	roce_collect(&node, &c->pol, &opts);
	bool checked = roce_check(&node, &c->pol, &result) == 0;
	if (checked && fp)
		roce_fingerprint_from_check(&c->pol, &node, &result, c->job_id, c->node, fp);
	/* The counters get the policy's collector budget again, after the collector. */
	int64_t deadline = roce_clock_ms() + c->pol.timeout_ms;
	if (roce_snapshot_take_until(s, c->pol.sysfs_root, &node, checked ? &result : NULL, deadline) < 0) {
		roce_error_set(err, "out of memory taking the counter snapshot");
		rc = -1;
	}
	if (checked)
		roce_check_result_free(&result);
	roce_node_free(&node);
	return rc;
}

/* ---------------------------------------------------------------- prolog */

static json_object *state_json(const struct job_ctx *c, const struct roce_snapshot *s)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "schema", json_object_new_string(STATE_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(c->job_id));
	json_object_object_add(o, "node", json_object_new_string(c->node));
	json_object_object_add(o, "job_uid", json_object_new_int64(c->uid));
	json_object_object_add(o, "snapshot", roce_snapshot_json_build(s));
	return o;
}

static void touch_marker(int sfd, const char *job, const char *node, const char *other)
{
	char marker[ROCE_STATENAME_MAX];
	roce_statename_format(marker, ROCE_STATENAME_MARKER, job, node, other);
	int fd = openat(sfd, marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

/*
 * Sharing is detected AFTER our snapshot is in place, and marked both ways
 * (<other>.<node>.with.<us> and <us>.<node>.with.<other>): of two prologs
 * running at the same time, the one that scans last sees the other's
 * snapshot, so both epilogs find a marker whatever the interleaving.
 */
static void mark_sharing(int sfd, const char *job_id, const char *node)
{
	struct idlist others = { 0 };
	scan_state_dir(sfd, job_id, node, &others);
	for (size_t i = 0; i < others.n; i++) {
		touch_marker(sfd, others.id[i], node, job_id);
		touch_marker(sfd, job_id, node, others.id[i]);
	}
	free(others.id);
}

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

/* The epilog's half (also when the epilog itself was abandoned: no sysfs read). */
static void drop_fingerprint(int sfd, const struct roce_policy *p, const char *job_id, const char *node)
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
	struct roce_error e;
	if (!c->pol.shared_dir[0])
		return 0;
	if (!fp->node[0]) {
		roce_error_set(err, "no fingerprint in SharedDir: the check did not run");
		return -1;
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
	return 0;
}

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

int roce_job_prolog(const struct roce_policy *p, const char *sysfs_root, const char *job_id, const char *node_name,
                    uid_t job_uid, struct roce_error *err)
{
	struct job_ctx c;
	struct roce_snapshot s;
	struct roce_fingerprint fp;
	char name[ROCE_STATENAME_MAX];
	struct roce_error fp_err, note;
	int rc = ROCE_JOB_NONFATAL, sfd, fp_rc = 0;

	if (job_ctx_init(&c, p, sysfs_root, job_id, node_name, job_uid, err) < 0)
		return -1;
	if ((sfd = roce_safefile_state_dir(c.pol.state_dir, err)) < 0)
		return ROCE_JOB_NONFATAL;
	bool shared = shared_state_dir(sfd, &c, &note);
	roce_snapshot_init(&s);
	fp.node[0] = '\0';
	if (take_snapshot(&c, &s, &fp, err) < 0)
		goto out;
	fp_rc = write_fingerprint(&c, sfd, &fp, &fp_err);
	json_object *o = state_json(&c, &s);
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
	roce_statename_format(name, ROCE_STATENAME_SNAPSHOT, job_id, c.node, NULL);
	if (!text)
		roce_error_set(err, "out of memory serialising the snapshot");
	/* Atomic but not fsync'd: if the node crashes the job is gone too, and
	 * the epilog copes with a missing snapshot. */
	else if (roce_safefile_write(sfd, name, text, strlen(text), geteuid(), getegid(), 0600, -1, 0, err) == 0) {
		rc = 0;
		mark_sharing(sfd, job_id, c.node);
	}
	json_object_put(o);
out:
	roce_snapshot_free(&s);
	close(sfd);
	return prolog_result(rc, fp_rc < 0 ? &fp_err : NULL, shared ? &note : NULL, err);
}

/* ---------------------------------------------------------------- epilog */

/* The prolog's snapshot (this node's name, else the name from before
 * per-node names: a prolog that ran before an upgrade).  -1 with why when
 * absent or unusable. */
static int load_state(int sfd, const struct job_ctx *c, struct roce_snapshot *start, struct roce_error *why)
{
	char name[ROCE_STATENAME_MAX];
	struct roce_error sub;
	const char *job;
	json_object *m, *o;
	roce_statename_format(name, ROCE_STATENAME_SNAPSHOT, c->job_id, c->node, NULL);
	if (!(o = read_state_file(sfd, name, &sub)) && absent(sfd, name)) {
		roce_statename_format(name, ROCE_STATENAME_SNAPSHOT, c->job_id, NULL, NULL);
		o = read_state_file(sfd, name, &sub);
	}
	if (!o) {
		roce_error_set(why, "no prolog snapshot (%.120s/%s: %.60s)", c->pol.state_dir, name, sub.msg);
		return -1;
	}
	int rc = -1;
	const char *node = NULL;
	char shown[80];
	if (roce_jin_str(o, "job_id", ROCE_JOBID_MAX - 1, &job, &sub) < 0 || strcmp(job, c->job_id) != 0)
		roce_error_set(why, "prolog snapshot %s is for another job", name);
	/* A StateDir shared between nodes by mistake: another node's counters
	 * would give false resets and losses. */
	else if (roce_jin_str(o, "node", 255, &node, &sub) < 0 || strcmp(node, c->node) != 0)
		roce_error_set(why,
		               "prolog snapshot %s was written by node %s, not %s: StateDir must be node-local "
		               "(roce.conf(5))",
		               name, node ? roce_printable(node, shown, sizeof(shown)) : "(none)", c->node);
	else if (roce_jin_member(o, "snapshot", json_type_object, &m, &sub) < 0 ||
	         roce_snapshot_json_parse(start, m, &sub) < 0)
		roce_error_set(why, "prolog snapshot %s unusable: %.*s", name, ROCE_WHY_MAX - 1, sub.msg);
	else
		rc = 0;
	json_object_put(o);
	return rc;
}

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

static int write_fragment(const struct job_ctx *c, const struct roce_snapshot *start, const struct roce_snapshot *end,
                          const struct idlist *shared, const char *note, bool no_start, const struct roce_ranwith *rw,
                          struct roce_error *err)
{
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment f = { 0 };
	/* plain: read by programs (roce-report, jq); a third smaller and faster to merge */
	struct roce_fragment_text text = { 0 };
	const char *ids[4096];
	char name[80];
	gid_t admin_gid = 0;
	int rc = -1, jfd = -1;

	for (size_t i = 0; i < shared->n; i++)
		ids[i] = shared->id[i];
	struct roce_fragment_meta m = {
		.job_id = c->job_id,
		.node = c->node,
		.job_uid = c->uid,
		.start_ns = start->time_ns,
		.end_ns = end->time_ns,
		.shared_with = ids,
		.n_shared = shared->n,
		.pfc_priority = c->pol.pfc_priority,
		.note = note,
		.no_start = no_start,
	};
	if (roce_delta_compute(start, end, &d) < 0 || roce_verdicts_from_delta(&d, &m, &v) < 0 ||
	    roce_ranwith_verdicts(rw, &v) < 0 || roce_fragment_build(&f, &m, &d, &v, rw) < 0) {
		roce_error_set(err, "out of memory building the report");
		goto out;
	}
	if (roce_fragment_write(&text, &f, c->job_id, true) < 0) {
		roce_error_set(err, "out of memory serialising the report");
		goto out;
	}
	time_t since = no_start ? 0 : (time_t)(start->time_ns / 1000000000);
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

/* What the prolog left in StateDir: its snapshot (false, with note saying
 * why, when there is none to use) and the jobs that shared the node. */
static bool prolog_left(int sfd, const struct job_ctx *c, struct roce_snapshot *start, struct idlist *shared,
                        char *note, size_t len)
{
	struct roce_error why;
	bool have_start = load_state(sfd, c, start, &why) == 0;
	if (!have_start)
		snprintf(note, len, "%.*s", (int)len - 1, why.msg);
	take_markers(sfd, c->job_id, c->node, shared);
	scan_state_dir(sfd, c->job_id, c->node, shared);
	return have_start;
}

int roce_job_epilog(const struct roce_policy *p, const char *sysfs_root, const char *job_id, const char *node_name,
                    uid_t job_uid, struct roce_error *err)
{
	struct job_ctx c;
	struct roce_snapshot start, end;
	struct roce_ranwith rw;
	struct idlist shared = { 0 };
	char note[ROCE_WHY_MAX + 64] = "";
	struct roce_error serr;
	int rc = ROCE_JOB_NONFATAL;
	bool have_start = false;

	if (job_ctx_init(&c, p, sysfs_root, job_id, node_name, job_uid, err) < 0)
		return -1;
	roce_snapshot_init(&start);
	roce_snapshot_init(&end);
	int sfd = roce_safefile_state_dir(c.pol.state_dir, &serr);
	if (sfd < 0)
		snprintf(note, sizeof(note), "no prolog snapshot: %.200s", serr.msg);
	else
		have_start = prolog_left(sfd, &c, &start, &shared, note, sizeof(note));
	/* what the steps ran with (none: no step was checked here, or an older plugin) */
	if (sfd < 0 || roce_ranwith_take(sfd, job_id, c.node, &rw, &serr) < 0)
		memset(&rw, 0, sizeof(rw));
	if (sfd >= 0)
		drop_fingerprint(sfd, &c.pol, job_id, c.node);
	if (take_snapshot(&c, &end, NULL, err) < 0)
		goto out;
	if (!have_start && start_from_end(&start, &end, note) < 0) {
		roce_error_set(err, "out of memory");
		goto out;
	}
	if (write_fragment(&c, &start, &end, &shared, note[0] ? note : NULL, !have_start, &rw, err) == 0)
		rc = 0;
out:
	if (sfd >= 0) {
		remove_state(sfd, job_id, c.node);
		close(sfd);
	}
	free(shared.id);
	roce_snapshot_free(&start);
	roce_snapshot_free(&end);
	return rc;
}

/* ---------------------------------------------------------------- with a deadline */

/* The prolog delays the job's start, so it gets less room for writing than
 * the epilog, which may write to a shared file system. */
#define PROLOG_MARGIN_MS 1000
#define EPILOG_MARGIN_MS 3000

struct job_call {
	const struct roce_policy *policy;
	bool prolog;
	const char *sysfs_root, *job_id, *node;
	uid_t uid;
};

struct job_result {
	int rc;
	struct roce_error err;
};

static void job_worker(const void *arg, void *res)
{
	const struct job_call *c = arg;
	struct job_result *r = res;
	r->rc = c->prolog ? roce_job_prolog(c->policy, c->sysfs_root, c->job_id, c->node, c->uid, &r->err)
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
	drop_fingerprint(sfd, p, job_id, node);
	close(sfd);
}

int roce_job_run(const struct roce_policy *p, bool prolog, const char *sysfs_root, const char *job_id,
                 const char *node_name, uid_t job_uid, struct roce_error *err)
{
	struct job_call call = { p, prolog, sysfs_root, job_id, node_name, job_uid };
	struct job_result res;
	struct roce_error why = { "" };
	int margin = prolog ? PROLOG_MARGIN_MS : EPILOG_MARGIN_MS;

	memset(&res, 0, sizeof(res));
	if (roce_worker_run_guarded(p, sysfs_root, "the counter snapshot", job_worker, &call, &res, sizeof(res),
	                            p->timeout_ms + margin, &why) < 0) {
		roce_error_set(err, "%s", why.msg);
		if (!prolog)
			drop_snapshot(p, job_id, node_name);
		return ROCE_JOB_NONFATAL;
	}
	res.err.msg[sizeof(res.err.msg) - 1] = '\0'; /* the child's text is trusted no further than its bounds */
	if (res.rc != 0)
		roce_error_set(err, "%s", res.err.msg);
	if (res.rc == ROCE_JOB_NO_FINGERPRINT || res.rc == ROCE_JOB_NOTE)
		return res.rc;
	return res.rc < 0 ? -1 : res.rc > 0 ? ROCE_JOB_NONFATAL : 0;
}
