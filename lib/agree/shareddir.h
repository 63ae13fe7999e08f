/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shareddir.h - node fingerprints in SharedDir (roce.conf), a directory
 * every compute node and every host running srun can read (CephFS, NFS...).
 * docs/agreement.md gives the design; in short:
 *
 *   SharedDir/                      root's, 0711: anyone may enter, only root may list
 *   SharedDir/<job>/                root's 0700 with an ACL entry that lets the job's
 *                                   user list and enter it (no ACLs: the user's, 0500)
 *   SharedDir/<job>/<T>.<D>.<node>  what node offers, 0444 root: T the prolog's
 *                                   clock (seconds), D the first 128 bits of the
 *                                   SHA-256 of the content, in hex
 *
 * The content is the fingerprint without the node name (fingerprint.h), so
 * nodes that offer the same have the same D.  The job prolog (root) makes
 * one entry per node (one create, atomically: safefile.h) and the epilog
 * removes it; a node that crashed leaves its entry, which
 * roce_shareddir_sweep() removes once slurmctld says its job is over.
 *
 * srun (the job's user) lists SharedDir/<job>/ (names only: nothing about
 * any user) and opens one file per distinct D among the step's nodes, not
 * one per node: on CephFS an open costs a round trip to the MDS and one to
 * an OSD, a listing a round trip per few hundred names.  Per node it takes
 * the newest entry written since the job started (an entry older than that,
 * by more than ROCE_SHAREDDIR_SLACK_S, is an earlier job's with the same id:
 * a requeued job, a crashed node), and it checks every file it reads
 * against its D and its job id.  Names and contents are hostile: a name that
 * is not an entry is skipped, a file that is not a regular file, too large,
 * not what its name says or another job's is refused (its node is unknown,
 * never a pass).  No path is built from what a file says.
 */
#ifndef ROCE_SHAREDDIR_H
#define ROCE_SHAREDDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>
#include "base/error.h"
#include "agree/fingerprint.h"
#include "read/policy.h"

/* Clocks (the nodes', slurmctld's) may disagree by this much. */
#define ROCE_SHAREDDIR_SLACK_S 60
#define ROCE_SHAREDDIR_DIGEST_HEX 32
/* "<T>.<D>.<node>" and its NUL */
#define ROCE_SHAREDDIR_ENTRY_MAX (20 + 1 + ROCE_SHAREDDIR_DIGEST_HEX + 1 + ROCE_FP_NODE_MAX + 1)

/* The prolog's half: f as node f->node's entry of job f->job_id, written at
 * now; entry (ROCE_SHAREDDIR_ENTRY_MAX bytes) gets its name, for the
 * epilog.  0, or -1 with err naming SharedDir or the file. */
int roce_shareddir_write(const struct roce_policy *p, const struct roce_fingerprint *f, uid_t job_uid, time_t now,
                         char *entry, size_t entry_len, struct roce_error *err);
/* SharedDir/<job>/ made as roce_shareddir_write() makes it, for what the
 * prolog writes there before its fingerprint (the path probe's file,
 * probeshare.h).  0, or -1 with err. */
int roce_shareddir_prepare(const struct roce_policy *p, const char *job_id, uid_t job_uid, struct roce_error *err);
/* The epilog: the fingerprint this node's prolog wrote (entry, its name),
 * read as srun reads one (root's, no link, parsed strictly; the job's id).
 * 0, or -1 with err. */
int roce_shareddir_read_own(const struct roce_policy *p, const char *job_id, const char *entry,
                            struct roce_fingerprint *f, struct roce_error *err);
/* The epilog's half: remove the entry the prolog wrote, and the job's
 * directory once it is empty (nothing to say when there is nothing). */
void roce_shareddir_remove(const struct roce_policy *p, const char *job_id, const char *entry);

/* What srun found for one node. */
enum roce_fp_state { ROCE_FP_MISSING = 0, ROCE_FP_READ, ROCE_FP_REFUSED };

struct roce_fp_gather {
	/* n of them, NULL where state is not ROCE_FP_READ.  Nodes that offer
	 * the same share one (read once); each is allocated to its own ports
	 * (ports[0..n_ports) exist, nothing after them).  Read them, never
	 * copy them whole; their node member is "". */
	struct roce_fingerprint **fp;
	enum roce_fp_state *state;
	bool *stale; /* an entry of an earlier job with this id was seen (and not taken) */
	size_t n, n_read, n_refused;
	size_t n_files;                 /* fingerprint files opened (one per distinct fingerprint when all is well) */
	size_t n_stale;                 /* entries of an earlier job with this id, not taken */
	size_t n_ignored;               /* names in the job's directory that are no entry */
	char refused_why[ROCE_ERR_MAX]; /* the first refusal: "node2: ..." (raw: escape to show) */
	double waited_ms;
	/* the distinct fingerprints fp[] points to */
	struct roce_fingerprint **distinct;
	size_t n_distinct, cap_distinct;
};

/* Read job_id's fingerprints of nodes[0..n) from shared_dir: entries
 * written from job_start - ROCE_SHAREDDIR_SLACK_S on (0: any), again every
 * few ms for nodes still missing until timeout_ms has passed (a refused
 * node is not read again).  -1 with err when the job's directory cannot be
 * read by then (it does not exist yet is not an error: every node is then
 * missing) or on ENOMEM; else 0 and g filled (free with
 * roce_shareddir_gather_free). */
int roce_shareddir_gather(const char *shared_dir, const char *job_id, time_t job_start, const char *const *nodes,
                          size_t n, int timeout_ms, struct roce_fp_gather *g, struct roce_error *err);
void roce_shareddir_gather_free(struct roce_fp_gather *g);

/* What slurmctld says of a job: 1 it is not over (*start: when it
 * started, 0 not yet), 0 it is over or unknown to slurmctld, -1 no answer. */
typedef int (*roce_shareddir_job_fn)(const char *job_id, time_t *start, void *arg);

struct roce_shareddir_swept {
	bool ran;               /* false: another node swept less than period_s ago, or sweeps now */
	size_t jobs;            /* job directories looked at */
	size_t jobs_removed;    /* of jobs that are over */
	size_t entries_removed; /* theirs, and earlier instances' in jobs still running */
};

/* Remove what nodes that never ran their epilog (crashed, rebooted) left:
 * the directories of jobs that are over, and in the others the entries of
 * an earlier job with the same id; also version 1's SharedDir/<job>.<node>.json
 * of jobs that are over.  At most once per period_s across the cluster (a
 * marker in SharedDir; one node sweeps, the others return at once), at
 * most max_jobs jobs asked about.  0, or -1 with err (SharedDir unusable). */
int roce_shareddir_sweep(const char *shared_dir, time_t now, int period_s, size_t max_jobs, roce_shareddir_job_fn fn,
                         void *arg, struct roce_shareddir_swept *out, struct roce_error *err);

#endif
