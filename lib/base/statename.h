/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * statename.h - the names of a job's files in StateDir.  Each carries the
 * node's name, so that nodes whose StateDir is one directory on a shared
 * file system (by mistake: StateDir is node-local, and the health check and
 * the prolog's log say when it is not) never take each other's files:
 *
 *   <job>.<node>.snapshot.json   the job prolog's counter snapshot (job.c)
 *   <job>.<node>.ranwith.json    what the job's steps ran with (ranwith.c)
 *   <job>.<node>.with.<other>    job <other> shared the node with <job> (job.c)
 *   <job>.<node>.shared          the node's entry in SharedDir (job.c)
 *
 * Before 0.2.0's per-node names: <job>.json, <job>.ranwith.json and
 * <job>.with.<other> (no node), still parsed and read, so that a job whose
 * prolog ran before an upgrade and its epilog after still gets its report.
 * A node name may hold dots: names are told apart by the job id that starts
 * them and the fixed word that ends them.  Pure.
 */
#ifndef ROCE_STATENAME_H
#define ROCE_STATENAME_H

#include <stdbool.h>
#include <stddef.h>
#include "base/slurmid.h"

#define ROCE_STATENAME_NODE_MAX 64 /* roce_slurmid_node_ok: 1-63 bytes */
#define ROCE_STATENAME_MAX (2 * ROCE_JOBID_MAX + ROCE_STATENAME_NODE_MAX + 16)

enum roce_statename_kind {
	ROCE_STATENAME_OTHER = 0, /* none of ours (policy-*.conf, collector.stuck, a temporary) */
	ROCE_STATENAME_SNAPSHOT,
	ROCE_STATENAME_RANWITH,
	ROCE_STATENAME_MARKER,
	ROCE_STATENAME_SHARED,
};

struct roce_statename {
	enum roce_statename_kind kind;
	char job[ROCE_JOBID_MAX];
	char node[ROCE_STATENAME_NODE_MAX]; /* "": a name from before per-node names */
	char other[ROCE_JOBID_MAX];         /* MARKER: the job that shared the node */
};

/* The name of job's file of kind (not OTHER) for node (NULL: the name from
 * before per-node names; never for SHARED) into buf (ROCE_STATENAME_MAX
 * bytes); other: a MARKER's other job.  job and node as slurmid.h checks
 * them (the caller's). */
void roce_statename_format(char *buf, enum roce_statename_kind kind, const char *job, const char *node,
                           const char *other);

/* What name is; kind OTHER (and false) for a name that is none of ours. */
bool roce_statename_parse(const char *name, struct roce_statename *out);

#endif
