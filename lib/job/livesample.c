/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * livesample.c - the health check's live samples of running jobs (livesample.h).
 *
 * A sample racing the job's epilog: the epilog removes the job's StateDir
 * file, then its live file; a sample writes the live file, then looks for
 * the StateDir file and removes what it wrote when that is gone.  Whatever
 * the interleaving, no live file outlives the epilog of a job that ended.
 */
#include "config.h"
#include "job/livesample.h"
#include "fragment/live.h"
#include "job/jobstate.h"
#include "proc/stuck.h"
#include "proc/worker.h"
#include "read/jsonin.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLE_SCHEMA "slurm-roce/sample/1"
#define SAMPLE_SUFFIX ".sample.json"
#define SAMPLE_MAX (16u << 20)
#define LIVE_SUFFIX ".live"

/* "<jobid>.<node>.sample.json": the node's name, as the job's other files
 * in StateDir (statename.h). */
#define SAMPLE_NAME_MAX (ROCE_JOBSTATE_NAME_MAX + 8)
static void sample_name(char *buf, size_t len, const char *job_id, const char *node)
{
	snprintf(buf, len, "%s.%s" SAMPLE_SUFFIX, job_id, node);
}

static void live_name(char *buf, size_t len, const char *node) { snprintf(buf, len, "%s" LIVE_SUFFIX, node); }

/* ---------------------------------------------------------------- the sample before */

struct before {
	struct roce_snapshot snap;
	struct roce_live_event *events;
	size_t n_events;
	unsigned samples;
	bool have; /* false: a first sample (or the last one is unusable) */
};

static void before_free(struct before *b)
{
	roce_snapshot_free(&b->snap);
	free(b->events);
	memset(b, 0, sizeof(*b));
}

static int before_parse(json_object *o, const char *job_id, const char *node, struct before *b)
{
	struct roce_error err;
	const char *s;
	int64_t samples;
	json_object *m;
	if (roce_jin_schema(o, "sample", SAMPLE_SCHEMA, 64, &err) < 0 ||
	    roce_jin_str(o, "job_id", ROCE_JOBID_MAX - 1, &s, &err) < 0 || strcmp(s, job_id) != 0 ||
	    roce_jin_str(o, "node", 63, &s, &err) < 0 || strcmp(s, node) != 0 ||
	    roce_jin_int(o, "samples", 1, UINT32_MAX - 1, &samples, &err) < 0 ||
	    roce_jin_member(o, "snapshot", json_type_object, &m, &err) < 0 ||
	    roce_snapshot_json_parse(&b->snap, m, &err) < 0 ||
	    roce_jin_member(o, "events", json_type_array, &m, &err) < 0 ||
	    roce_live_json_events_parse(m, &b->events, &b->n_events, &err) < 0)
		return -1;
	b->samples = (unsigned)samples;
	return 0;
}

/* The sample before, kept in StateDir; none when there is none, or it is not
 * this job's and node's, or older than the job's start (an earlier job with
 * this id whose epilog never ran): then this sample is a first one. */
static void before_load(int sfd, const char *job_id, const char *node, int64_t start_ns, struct before *b)
{
	char name[SAMPLE_NAME_MAX];
	struct roce_reading r;
	struct roce_error err;
	size_t len;
	memset(b, 0, sizeof(*b));
	roce_snapshot_init(&b->snap);
	sample_name(name, sizeof(name), job_id, node);
	char *text =
	        roce_readfile(sfd, NULL, name, SAMPLE_MAX, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &len, &r);
	if (!text)
		return;
	json_object *o = roce_jin_parse(text, len, &err);
	b->have = o && before_parse(o, job_id, node, b) == 0 && b->snap.time_ns >= start_ns;
	if (!b->have)
		before_free(b);
	json_object_put(o);
	free(text);
}

static int sample_save(int sfd, const struct roce_live *l, const struct roce_snapshot *now, struct roce_error *err)
{
	char name[SAMPLE_NAME_MAX];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "schema", json_object_new_string(SAMPLE_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(l->job_id));
	json_object_object_add(o, "node", json_object_new_string(l->node));
	json_object_object_add(o, "samples", json_object_new_int64(l->samples));
	json_object_object_add(o, "snapshot", roce_snapshot_json_build(now));
	json_object_object_add(o, "events", roce_live_json_events_build(l->events, l->n_events));
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	int rc = -1;
	sample_name(name, sizeof(name), l->job_id, l->node);
	if (!text)
		roce_error_set(err, "out of memory");
	else
		rc = roce_safefile_write(sfd, name, text, strlen(text), geteuid(), getegid(), 0600, -1, 0, err);
	json_object_put(o);
	return rc;
}

/* ---------------------------------------------------------------- the live file */

static int live_write(const struct roce_policy *p, int sfd, const struct roce_live *l, struct roce_error *err)
{
	char name[80];
	gid_t admin_gid = 0;
	json_object *o = roce_live_json_build(l);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	int rc = -1, jfd = -1;
	if (!text) {
		roce_error_set(err, "out of memory");
		goto out;
	}
	jfd = roce_safefile_report_dir(p->report_dir, l->job_id, (uid_t)l->job_uid, (time_t)(l->start_ns / 1000000000),
	                               &admin_gid, err);
	if (jfd < 0)
		goto out;
	live_name(name, sizeof(name), l->node);
	roce_safefile_remove_temps(jfd, name);
	/* Not fsync'd: the next sample replaces it, and the epilog removes it. */
	rc = roce_safefile_write(jfd, name, text, strlen(text), geteuid(), admin_gid, 0440, l->job_uid, 0, err);
	/* The epilog ran meanwhile (see above): nothing of the job may stay. */
	if (rc == 0 && !roce_jobstate_present(sfd, l->job_id, l->node))
		unlinkat(jfd, name, 0);
out:
	if (jfd >= 0)
		close(jfd);
	json_object_put(o);
	return rc;
}

/* ---------------------------------------------------------------- a job */

static int sample_job(const struct roce_policy *p, int sfd, const char *job_id, const char *node,
                      const struct roce_snapshot *now, struct roce_error *why)
{
	struct roce_jobstate st;
	struct before b;
	struct roce_live l;
	int rc = -1;

	roce_live_init(&l);
	if (roce_jobstate_read(sfd, p->state_dir, job_id, node, &st, why) < 0)
		return -1;
	before_load(sfd, job_id, node, st.start.time_ns, &b);
	struct roce_live_meta m = { job_id, node, st.job_uid, b.have ? b.samples + 1 : 1 };
	if (st.job_uid < 0)
		roce_error_set(why, "prolog snapshot of job %s names no job_uid (an older release)", job_id);
	else if (roce_live_build(&l, &m, &st.start, b.have ? &b.snap : &st.start, now, b.events, b.n_events) < 0)
		roce_error_set(why, "out of memory");
	else if (live_write(p, sfd, &l, why) == 0 && sample_save(sfd, &l, now, why) == 0)
		rc = 0;
	roce_live_free(&l);
	before_free(&b);
	roce_jobstate_free(&st);
	return rc;
}

/* ---------------------------------------------------------------- every job */

/* The running jobs (prolog snapshots) in StateDir, at most
 * ROCE_LIVESAMPLE_JOBS_MAX, not those that died with an earlier boot (the
 * next prolog removes them); samples of jobs that ended are removed (an
 * epilog that did not run, or a sample that raced it). */
/* A sample of node's: true with its job in job (ROCE_JOBID_MAX bytes). */
static bool sample_of(const char *name, const char *node, char *job)
{
	size_t len = strlen(name), sl = strlen(SAMPLE_SUFFIX), nl = strlen(node);
	const char *dot = strchr(name, '.');
	if (!dot || len <= sl + nl + 1 || strcmp(name + len - sl, SAMPLE_SUFFIX) != 0 ||
	    (size_t)(dot - name) >= ROCE_JOBID_MAX)
		return false;
	/* "<job>." then the node's name, exactly, then the suffix */
	if ((size_t)(dot - name) + 1 + nl + sl != len || strncmp(dot + 1, node, nl) != 0)
		return false;
	snprintf(job, ROCE_JOBID_MAX, "%.*s", (int)(dot - name), name);
	return roce_slurmid_job_ok(job);
}

static size_t running_jobs(int sfd, const char *node, char (*jobs)[ROCE_JOBID_MAX], size_t max, size_t *more)
{
	int fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	size_t n = 0;
	char job[ROCE_JOBID_MAX];
	time_t booted = roce_jobstate_boot_time();
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		if (sample_of(e->d_name, node, job)) {
			if (!roce_jobstate_present(sfd, job, node))
				unlinkat(sfd, e->d_name, 0);
		} else if (roce_jobstate_name_job(e->d_name, node, job, sizeof(job)) &&
		           !roce_jobstate_before_boot(sfd, e->d_name, booted)) {
			if (n < max)
				snprintf(jobs[n++], ROCE_JOBID_MAX, "%s", job);
			else
				(*more)++;
		}
	}
	closedir(d);
	return n;
}

int roce_livesample_run(const struct roce_policy *p, const char *node, const struct roce_snapshot *now,
                        struct roce_livesample_result *out)
{
	struct roce_error err = { "" };
	char(*jobs)[ROCE_JOBID_MAX] = NULL;
	size_t more = 0;
	int sfd;

	memset(out, 0, sizeof(*out));
	if (!node || !roce_slurmid_node_ok(node)) {
		snprintf(out->why, sizeof(out->why), "no node name usable as a file name (--node, SLURMD_NODENAME)");
		return -1;
	}
	if ((sfd = roce_safefile_state_dir(p->state_dir, &err)) < 0) {
		snprintf(out->why, sizeof(out->why), "%s", err.msg);
		return -1;
	}
	if (!(jobs = calloc(ROCE_LIVESAMPLE_JOBS_MAX, sizeof(*jobs)))) {
		snprintf(out->why, sizeof(out->why), "out of memory");
		close(sfd);
		return -1;
	}
	size_t n = running_jobs(sfd, node, jobs, ROCE_LIVESAMPLE_JOBS_MAX, &more);
	out->jobs = (unsigned)(n + more);
	for (size_t i = 0; i < n; i++) {
		if (sample_job(p, sfd, jobs[i], node, now, &err) == 0)
			out->written++;
		else if (!out->why[0])
			snprintf(out->why, sizeof(out->why), "job %s: %s", jobs[i], err.msg);
	}
	if (more && !out->why[0])
		snprintf(out->why, sizeof(out->why), "%zu running job(s) beyond the first %d not sampled", more,
		         ROCE_LIVESAMPLE_JOBS_MAX);
	free(jobs);
	close(sfd);
	return 0;
}

/* ---------------------------------------------------------------- with a deadline */

/* Room for writing to a shared file system, as the epilog's (job.c). */
#define LIVE_MARGIN_MS 3000

struct call {
	const struct roce_policy *policy;
	const char *node;
	const struct roce_snapshot *now;
};

static void in_worker(const void *arg, void *res)
{
	const struct call *c = arg;
	roce_livesample_run(c->policy, c->node, c->now, res);
}

int roce_livesample_run_guarded(const struct roce_policy *p, const char *node, const struct roce_snapshot *now,
                                struct roce_livesample_result *out)
{
	struct call c = { p, node, now };
	struct roce_worker_end end;
	struct roce_stuck stuck;
	struct roce_error err = { "" };
	int timeout = p->timeout_ms + LIVE_MARGIN_MS;

	memset(out, 0, sizeof(*out));
	if (roce_stuck_find(p->state_dir, p->report_dir, &stuck) == 1) {
		snprintf(out->why, sizeof(out->why),
		         "an earlier sample (pid %d, started %ld s ago) is still stuck writing to ReportDir %s",
		         (int)stuck.pid, stuck.age_s, p->report_dir);
		return -1;
	}
	if (roce_worker_run(in_worker, &c, out, sizeof(*out), timeout, &end) == 0) {
		out->why[sizeof(out->why) - 1] = '\0'; /* the child's text is trusted no further than its bounds */
		return 0;
	}
	memset(out, 0, sizeof(*out));
	if (errno == ETIMEDOUT)
		snprintf(out->why, sizeof(out->why),
		         "not done within %d ms (TimeoutMs + %d ms): ReportDir %s slow or hung?", timeout,
		         LIVE_MARGIN_MS, p->report_dir);
	else
		snprintf(out->why, sizeof(out->why), "the sampling process failed: %s", strerror(errno));
	if (end.abandoned && roce_stuck_mark(p->state_dir, p->report_dir, end.abandoned, &err) < 0)
		snprintf(out->why + strlen(out->why), sizeof(out->why) - strlen(out->why), " (%s)", err.msg);
	return -1;
}

void roce_livesample_remove(const struct roce_policy *p, int sfd, const char *job_id, const char *node)
{
	char name[PATH_MAX];
	sample_name(name, sizeof(name), job_id, node);
	unlinkat(sfd, name, 0);
	if (snprintf(name, sizeof(name), "%s/%s", p->report_dir, job_id) >= (int)sizeof(name))
		return;
	struct roce_error err;
	int jfd = roce_safefile_open_dir("ReportDir", name, ROCE_SAFEFILE_TRUSTED, 0, &err);
	if (jfd < 0)
		return; /* no job directory: no live file */
	live_name(name, sizeof(name), node);
	unlinkat(jfd, name, 0);
	close(jfd);
}
