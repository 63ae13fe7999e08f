/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmid.h - the two names Slurm gives that we file things under: a job id
 * and a node name.  Both reach us from the environment, a command line or a
 * file someone else could write (a fragment, a fingerprint), and become parts
 * of file names in directories root writes into (StateDir, ReportDir,
 * SharedDir): anything else is refused.  Pure.
 */
#ifndef ROCE_SLURMID_H
#define ROCE_SLURMID_H

#include <stdbool.h>

/* Room for a job id and its NUL (10 digits, with room to spare). */
#define ROCE_JOBID_MAX 24

/* A job id as Slurm's prolog gives it: 1-10 digits, no leading zero, <= 4294967295. */
bool roce_slurmid_job_ok(const char *s);
/* A node name usable as a file name: [A-Za-z0-9._-], 1-63 bytes, not starting with '.' or '-'. */
bool roce_slurmid_node_ok(const char *s);

#endif
