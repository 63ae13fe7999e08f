/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobnodes.h - a job's nodes as its prolog knows them, for the path probe
 * (lib/job/jobprobe.h): filled by the caller, which has libslurm's
 * hostlist (slurmnodes.h).  Plain data.
 */
#ifndef ROCE_JOBNODES_H
#define ROCE_JOBNODES_H

#include <stddef.h>
#include <time.h>

struct roce_job_nodes {
	const char *const *names; /* in the job's order */
	size_t n;
	time_t start; /* the job's start (0 unknown): older probe files are an earlier job's */
};

#endif
