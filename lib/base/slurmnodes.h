/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmnodes.h - node lists through libslurm's hostlist.  Not part of
 * libroce (which never links libslurm: the plugin runs inside Slurm's own
 * processes): compiled into what has libslurm's symbols, roce-report
 * (linked) and the plugin (resolved from srun/slurmstepd).
 *
 * `struct hostlist *` and slurm_hostlist_ranged_string() into our own
 * buffer exist in every release we build for (hostlist_t became the
 * struct and the _malloc variant went away in 24.05).
 */
#ifndef ROCE_SLURMNODES_H
#define ROCE_SLURMNODES_H

#include <stddef.h>
#include "base/jobnodes.h"

/* "n1,n2,n3,n7" -> "n[1-3,7]", malloc'd (a roce_nodelist_fn); NULL on failure. */
char *roce_slurm_nodelist(const char *const *names, size_t n);

/* "node[1-3]" -> the names, malloc'd (free each, then the array); NULL
 * when the list is not one or has more than max names. */
char **roce_slurm_expand(const char *list, size_t max, size_t *n);

/* The job's nodes as its prolog's environment has them (SLURM_JOB_NODELIST,
 * at most ROCE_SLURM_JOB_NODES_MAX; n 0 unknown) and its start
 * (SLURM_JOB_START_TIME, 0 unknown), for the path probe (jobprobe.h). */
#define ROCE_SLURM_JOB_NODES_MAX 65536
void roce_slurm_job_nodes(struct roce_job_nodes *out);
void roce_slurm_job_nodes_free(struct roce_job_nodes *out);

#endif
