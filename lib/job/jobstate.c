/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobstate.c - a running job's file in StateDir (jobstate.h). */
#include "config.h"
#include "job/jobstate.h"
#include "base/printable.h"
#include "read/jsonin.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STATE_SCHEMA "slurm-roce/state/1"
#define STATE_MAX (16u << 20)

void roce_jobstate_init(struct roce_jobstate *s)
{
	memset(s, 0, sizeof(*s));
	s->job_uid = -1;
	roce_snapshot_init(&s->start);
	roce_trend_init(&s->trend);
}

void roce_jobstate_free(struct roce_jobstate *s)
{
	roce_snapshot_free(&s->start);
	roce_trend_free(&s->trend);
	roce_jobstate_init(s);
}

void roce_jobstate_name(char *buf, const char *job_id, const char *node)
{
	roce_statename_format(buf, ROCE_STATENAME_SNAPSHOT, job_id, node, NULL);
}

bool roce_jobstate_name_job(const char *name, const char *node, char *job, size_t len)
{
	struct roce_statename n;
	if (!roce_statename_parse(name, &n) || n.kind != ROCE_STATENAME_SNAPSHOT ||
	    (n.node[0] && strcmp(n.node, node) != 0) || strlen(n.job) >= len)
		return false;
	snprintf(job, len, "%s", n.job);
	return true;
}

static bool absent(int sfd, const char *name)
{
	return faccessat(sfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
}

bool roce_jobstate_present(int sfd, const char *job_id, const char *node)
{
	char name[ROCE_JOBSTATE_NAME_MAX];
	roce_jobstate_name(name, job_id, node);
	if (!absent(sfd, name))
		return true;
	roce_jobstate_name(name, job_id, NULL);
	return !absent(sfd, name);
}

time_t roce_jobstate_boot_time(void)
{
	struct timespec now, up;
	if (clock_gettime(CLOCK_REALTIME, &now) < 0 || clock_gettime(CLOCK_BOOTTIME, &up) < 0)
		return 0;
	return now.tv_sec - up.tv_sec;
}

bool roce_jobstate_before_boot(int sfd, const char *name, time_t booted)
{
	struct stat st;
	/* 2 s: the two clocks are read one after the other */
	return booted > 0 && fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mtime + 2 < booted;
}

/* ---------------------------------------------------------------- write */

int roce_jobstate_write(int sfd, const char *job_id, const char *node, long job_uid, const struct roce_snapshot *start,
                        const struct roce_trend *trend, struct roce_error *err)
{
	char name[ROCE_JOBSTATE_NAME_MAX];
	json_object *o = json_object_new_object();
	int rc = -1;

	json_object_object_add(o, "schema", json_object_new_string(STATE_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(job_id));
	json_object_object_add(o, "node", json_object_new_string(node));
	json_object_object_add(o, "job_uid", json_object_new_int64(job_uid));
	json_object_object_add(o, "snapshot", roce_snapshot_json_build(start));
	if (trend && trend->time_s > 0)
		json_object_object_add(o, "trend", roce_trend_json_build(trend));
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	roce_jobstate_name(name, job_id, node);
	if (!text)
		roce_error_set(err, "out of memory serialising the snapshot");
	else
		rc = roce_safefile_write(sfd, name, text, strlen(text), geteuid(), getegid(), 0600, -1, 0, err);
	json_object_put(o);
	return rc;
}

/* ---------------------------------------------------------------- read */

/* A state file of ours as JSON; NULL with why (a clause) when absent or unusable. */
static json_object *read_file(int dfd, const char *name, struct roce_error *why)
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

/* What is not needed to make the report: left out when unusable. */
static void read_extras(json_object *o, struct roce_jobstate *s)
{
	struct roce_error sub;
	json_object *m;
	int64_t uid;
	if (roce_jin_int(o, "job_uid", 0, UINT32_MAX - 1, &uid, &sub) == 0)
		s->job_uid = (long)uid;
	if ((m = roce_jin_get(o, "trend", json_type_object)) && roce_trend_json_parse(&s->trend, m, &sub) < 0)
		roce_trend_free(&s->trend);
}

int roce_jobstate_read(int sfd, const char *state_dir, const char *job_id, const char *node, struct roce_jobstate *s,
                       struct roce_error *why)
{
	char name[ROCE_JOBSTATE_NAME_MAX], shown[80];
	struct roce_error sub;
	const char *job, *writer = NULL;
	json_object *m, *o;
	int rc = -1;

	roce_jobstate_init(s);
	roce_jobstate_name(name, job_id, node);
	/* a prolog that ran before the upgrade to per-node names */
	if (!(o = read_file(sfd, name, &sub)) && absent(sfd, name)) {
		roce_jobstate_name(name, job_id, NULL);
		o = read_file(sfd, name, &sub);
	}
	if (!o) {
		roce_error_set(why, "no prolog snapshot (%.120s/%s: %.60s)", state_dir, name, sub.msg);
		return -1;
	}
	if (roce_jin_str(o, "job_id", ROCE_JOBID_MAX - 1, &job, &sub) < 0 || strcmp(job, job_id) != 0)
		roce_error_set(why, "prolog snapshot %s is for another job", name);
	/* A StateDir shared between nodes by mistake: another node's counters
	 * would give false resets and losses. */
	else if (roce_jin_str(o, "node", 255, &writer, &sub) < 0 || strcmp(writer, node) != 0)
		roce_error_set(why,
		               "prolog snapshot %s was written by node %s, not %s: StateDir must be node-local "
		               "(roce.conf(5))",
		               name, writer ? roce_printable(writer, shown, sizeof(shown)) : "(none)", node);
	else if (roce_jin_member(o, "snapshot", json_type_object, &m, &sub) < 0 ||
	         roce_snapshot_json_parse(&s->start, m, &sub) < 0)
		roce_error_set(why, "prolog snapshot %s unusable: %.*s", name, ROCE_WHY_MAX - 1, sub.msg);
	else
		rc = 0;
	if (rc == 0) {
		snprintf(s->job_id, sizeof(s->job_id), "%s", job_id);
		snprintf(s->node, sizeof(s->node), "%s", node);
		read_extras(o, s);
	} else {
		roce_jobstate_free(s);
	}
	json_object_put(o);
	return rc;
}
