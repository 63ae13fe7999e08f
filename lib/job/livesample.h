/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * livesample.h - the health check's live samples of the jobs running on its
 * node (roce-report --live).  No daemon of its own: the health check
 * (roce-check --health or --drain as root, every HealthCheckInterval) has
 * just read every port's counters; for each job whose prolog snapshot is in
 * StateDir (jobstate.h) it compares them with the job's start and with the
 * sample before (live.h), and files the result as
 *
 *   ReportDir/<jobid>/<node>.live   as a fragment is filed (safefile.h: root's,
 *                                   group ReportDir's, 0440, an ACL for the
 *                                   job's user; atomic, not fsync'd: the next
 *                                   sample replaces it)
 *   StateDir/<jobid>.<node>.sample.json  this sample's snapshot and events,
 *                                   for the next one (root's alone, 0600)
 *
 * The epilog removes both when the job ends (roce_livesample_remove, after
 * the job's StateDir file, so that a sample racing it removes what it
 * wrote: see livesample.c).  Not pure: reads StateDir, writes StateDir and
 * ReportDir.
 */
#ifndef ROCE_LIVESAMPLE_H
#define ROCE_LIVESAMPLE_H

#include "pipeline/snapshot.h"
#include "read/policy.h"

/* Running jobs a node samples at most (a node runs a few). */
#define ROCE_LIVESAMPLE_JOBS_MAX 256

struct roce_livesample_result {
	unsigned jobs;    /* running jobs found: prolog snapshots in StateDir */
	unsigned written; /* of those, live files written */
	char why[512];    /* "" or why the first job without one got none */
};

/* A sample of every running job of node at now (this run's snapshot).  0,
 * or -1 when StateDir cannot be used (out->why says why). */
int roce_livesample_run(const struct roce_policy *p, const char *node, const struct roce_snapshot *now,
                        struct roce_livesample_result *out);

/* roce_livesample_run in a worker child (worker.h) with a deadline of
 * TimeoutMs + 3 s: a ReportDir on a slow or hung shared file system holds
 * the health check no longer.  A worker abandoned there (asleep in the
 * file system) is remembered in StateDir (stuck.h, keyed by ReportDir), and
 * later runs take no sample while it lives.  node NULL: none could be
 * found.  0, or -1 with out->why set. */
int roce_livesample_run_guarded(const struct roce_policy *p, const char *node, const struct roce_snapshot *now,
                                struct roce_livesample_result *out);

/* The job's sample in StateDir (sfd) and its live file in ReportDir gone
 * (ReportDir's job directory is not created for it). */
void roce_livesample_remove(const struct roce_policy *p, int sfd, const char *job_id, const char *node);

#endif
