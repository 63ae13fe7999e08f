/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shareddir.h - node fingerprints in SharedDir (roce.conf), a directory
 * every compute node and every host running srun can read.
 *
 * The job prolog (root) writes SharedDir/<jobid>.<node>.json atomically
 * (safefile.h: root-owned 0440, readable by the job's user through an ACL,
 * SharedDir root's, writable by nobody else and listable by nobody else,
 * 0711); the job epilog removes it.  srun (the user) reads the step's
 * nodes' files by name, waiting a bounded time for missing ones: it never
 * lists SharedDir.  The file name is built from the validated job id and the
 * Slurm node name, never from a file's content; what a file says is parsed
 * strictly (fingerprint.h) and must name the same job and node.
 */
#ifndef ROCE_SHAREDDIR_H
#define ROCE_SHAREDDIR_H

#include <stddef.h>
#include <sys/types.h>
#include "base/error.h"
#include "agree/fingerprint.h"
#include "read/policy.h"

/* The prolog's half: 0, or -1 with err naming SharedDir or the file. */
int roce_shareddir_write(const struct roce_policy *p, const struct roce_fingerprint *f, uid_t job_uid,
                         struct roce_error *err);
/* The epilog's half (nothing to say when there is nothing to remove). */
void roce_shareddir_remove(const struct roce_policy *p, const char *job_id, const char *node);

/* What srun found for one node. */
enum roce_fp_state { ROCE_FP_MISSING = 0, ROCE_FP_READ, ROCE_FP_REFUSED };

struct roce_fp_gather {
	/* n of them, NULL where state is not ROCE_FP_READ.  Each is allocated
	 * to its own ports (ports[0..n_ports) exist, nothing after them): 16384
	 * nodes of 8 rails take 15 MiB instead of 54, and are read 3 times faster
	 * (bench/agree.sh).  Read them, never copy them whole. */
	struct roce_fingerprint **fp;
	enum roce_fp_state *state;
	size_t n, n_read, n_refused;
	char refused_why[ROCE_ERR_MAX]; /* the first refusal: "node2: \"job_id\" is ..." (raw: escape to show) */
	double waited_ms;
};

/* Read job_id's fingerprints of nodes[0..n) from shared_dir, again every
 * few ms for those still missing until timeout_ms has passed (a refused
 * file is not read again).  -1 with err when SharedDir cannot be opened or
 * on ENOMEM; else 0 and g filled (free with roce_shareddir_gather_free). */
int roce_shareddir_gather(const char *shared_dir, const char *job_id, const char *const *nodes, size_t n,
                          int timeout_ms, struct roce_fp_gather *g, struct roce_error *err);
void roce_shareddir_gather_free(struct roce_fp_gather *g);

#endif
