/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobshare.h - the jobs that shared a node with a job, for its report: each
 * job prolog looks for other running jobs' state files on the node
 * (jobstate.h) and leaves a marker "<jobid>.<node>.with.<other>" both ways
 * in StateDir; the epilog takes its markers and looks once more.  Not pure:
 * reads and writes StateDir (sfd).
 */
#ifndef ROCE_JOBSHARE_H
#define ROCE_JOBSHARE_H

#include <stddef.h>
#include "base/slurmid.h"

/* Job ids, each once, at most 4096 (a missed one only misses a "shared" mark). */
struct roce_jobshare_ids {
	char (*id)[ROCE_JOBID_MAX];
	size_t n;
};

/* The prolog, once job_id's state file is in place. */
void roce_jobshare_mark(int sfd, const char *job_id, const char *node);
/* The epilog: the jobs that shared node with job_id, into ids (taking its
 * markers); a state file from before this boot is removed on the way. */
void roce_jobshare_collect(int sfd, const char *job_id, const char *node, struct roce_jobshare_ids *ids);
void roce_jobshare_free(struct roce_jobshare_ids *ids);

#endif
