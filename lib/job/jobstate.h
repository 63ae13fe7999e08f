/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobstate.h - a running job's file in StateDir, "<jobid>.<node>.snapshot.json"
 * (statename.h: 0.1.0's "<jobid>.json", a prolog that ran before an upgrade,
 * is still read): the job
 * prolog's counter snapshot, and the health check's link-quality trend as
 * it stood then, kept for the epilog (job.h) and for the health check's
 * live samples of the job (livesample.h).  Root's alone (StateDir 0700, the
 * file 0600), written atomically, read back strictly (jsonin.h).  Not pure:
 * reads and writes StateDir.
 *
 *   {"schema": "slurm-roce/state/1", "job_id", "node", "job_uid",
 *    "snapshot": {...} (snapshot.h), "trend": {...} (trend.h; optional)}
 */
#ifndef ROCE_JOBSTATE_H
#define ROCE_JOBSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include "base/slurmid.h"
#include "base/statename.h"
#include "pipeline/snapshot.h"
#include "pipeline/trend.h"

/* A state file's name and its NUL. */
#define ROCE_JOBSTATE_NAME_MAX ROCE_STATENAME_MAX

struct roce_jobstate {
	char job_id[ROCE_JOBID_MAX];
	char node[64];
	long job_uid;               /* -1: not in the file */
	struct roce_snapshot start; /* the counters at job start */
	struct roce_trend trend;    /* the health check's trend then; time_s 0: none */
};

void roce_jobstate_init(struct roce_jobstate *s);
void roce_jobstate_free(struct roce_jobstate *s);

/* The file name of job_id's state on node (NULL: 0.1.0's name, without the node). */
void roce_jobstate_name(char *buf, const char *job_id, const char *node);
/* Whether name is a job's state file on node (its name, or 0.1.0's: StateDir
 * is node-local): true with the job id in job (len bytes).  Other nodes'
 * files (a StateDir shared by mistake) are theirs: false. */
bool roce_jobstate_name_job(const char *name, const char *node, char *job, size_t len);
/* Whether job_id's state file on node is there under either name (or
 * cannot be told absent). */
bool roce_jobstate_present(int sfd, const char *job_id, const char *node);

/* When this boot began, in CLOCK_REALTIME seconds (0 unknown); and whether
 * StateDir's file name was written before then (its job died with the
 * node; booted 0: never).  By mtime: no need to read every other file. */
time_t roce_jobstate_boot_time(void);
bool roce_jobstate_before_boot(int sfd, const char *name, time_t booted);

/* The prolog's file, replaced atomically (not fsync'd: if the node crashes
 * the job is gone too).  trend NULL or without an earlier run: none kept.
 * 0, or -1 with err set. */
int roce_jobstate_write(int sfd, const char *job_id, const char *node, long job_uid, const struct roce_snapshot *start,
                        const struct roce_trend *trend, struct roce_error *err);

/* job_id's file in StateDir (sfd, named state_dir in messages), written on
 * node (under node's name, else 0.1.0's when that is absent): -1 with why when it is absent, another job's or node's (a StateDir
 * shared between nodes by mistake), or unusable.  An unusable "trend" is
 * left out, the rest kept.  s is initialised in every case. */
int roce_jobstate_read(int sfd, const char *state_dir, const char *job_id, const char *node, struct roce_jobstate *s,
                       struct roce_error *why);

#endif
