/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * job.h - the job prolog/epilog halves of the fabric report, shared by
 * the SPANK plugin (slurm_spank_job_prolog / slurm_spank_job_epilog, which
 * run as root in `slurmstepd spank prolog|epilog`) and the standalone
 * roce-prolog / roce-epilog programs.  Not pure: reads sysfs and netlink,
 * writes StateDir and ReportDir.
 *
 * Prolog: collect the node model, run the check, snapshot every RoCE port's
 * counters into StateDir/<jobid>.<node>.snapshot.json (statename.h;
 * StateDir root-only 0700, file 0600).
 * Epilog: snapshot again, compute deltas and verdicts, write ONE fragment
 * ReportDir/<jobid>/<node>.json atomically, remove the snapshot.
 *
 * Files are created safely (safefile.h: root writes into directories that
 * may be shared):
 *  - written atomically; fragments are fsync'd before the rename and the
 *    directory after it; snapshots are not (a crash ends the job anyway, and
 *    the epilog copes with a missing snapshot).
 *  - StateDir must be owned by root and not writable by group or others.
 *  - ReportDir/<jobid>/ is root-owned 0755 (node names of a job are public
 *    through squeue anyway); a fragment is owned by root, group = the group
 *    that owns ReportDir (the admins: `chgrp slurmadm ReportDir`), mode 0440,
 *    plus a POSIX ACL entry granting the job's user read access.  On a file
 *    system without ACLs the fragment is chowned to the job user instead
 *    (still 0440; the user could then chmod their own file).  Nobody else can
 *    read it.
 *  - Sharing: the prolog records the other jobs whose snapshots are in
 *    StateDir for this node and leaves a marker <other>.<node>.with.<jobid>
 *    for each, so both
 *    jobs' reports are flagged "shared node" (counters are per port).
 *    Snapshots older than the current boot (mtime) are removed by the next
 *    prolog or epilog that scans StateDir.
 *
 * With SharedDir set, the prolog also writes the node's fingerprint there
 * (shareddir.h) and the epilog removes it.
 *
 * The gate (the prolog only, when asked: roce_job_gates): a node whose
 * check finds a hardware fault (the drain rule of check.h: a port down, a
 * missing HCA; never a configuration finding) fails the gate, and the job
 * must not start there.  The caller drains the node with the reason (so
 * that Slurm keeps ours, not "Prolog error") and fails the prolog, which
 * makes Slurm requeue the job on other nodes; it does so only when the
 * prolog runs at allocation (PrologFlags=Alloc), else the job's steps
 * judge the node.  A check that does not
 * answer in time does not fail the gate: unknown is no hardware fault (the
 * job's steps judge again, strict ones fail).
 *
 * Return values: 0 done; ROCE_JOB_NONFATAL (1) the report could not be made
 * (err says why: full disk, unwritable directory, ...); -1 bad arguments
 * (job id not 1-10 digits, node name not usable as a file name).  Callers
 * log a nonzero result and carry on: reporting never fails a job or drains
 * a node.  ROCE_JOB_GATE_FAILED (3): the node failed the gate, err holds
 * the drain reason ("roce: mlx5_1 port 1 DOWN"); nothing was written (a
 * caller that lets the job run there after all asks for ROCE_JOB_REPORT
 * alone).
 */
#ifndef ROCE_JOB_H
#define ROCE_JOB_H

#include <stdbool.h>
#include <sys/types.h>
#include "job/jobprobe.h"
#include "read/policy.h"

#define ROCE_JOB_NONFATAL 1
/* The prolog's report half worked, but its fingerprint is not in SharedDir
 * (err says why): srun will find this node "unknown". */
#define ROCE_JOB_NO_FINGERPRINT 2
/* The prolog's report half worked; err says what the admin should know
 * (StateDir on a shared file system: fstype.h). */
#define ROCE_JOB_NOTE 4

#define ROCE_JOB_GATE_FAILED 3

/* What the prolog does: the report's half (the snapshot, the fingerprint),
 * the gate, or both (one check serves both). */
#define ROCE_JOB_REPORT 0x1u
#define ROCE_JOB_GATE 0x2u

/* Does the prolog of a job of this mode (the mode at allocation: --roce,
 * SLURM_ROCE, default=) gate the node?  A strict job, or every job of a
 * site with Gate=yes (also those whose mode is off).  Pure. */
bool roce_job_gates(enum roce_mode mode, const struct roce_policy *p);

/* sysfs_root NULL = the policy's SysfsRoot ("/sys"); node_name NULL or ""
 * = the short host name (prefer SLURMD_NODENAME: several slurmd may share a host).
 * parts: ROCE_JOB_REPORT and/or ROCE_JOB_GATE.  nodes (NULL unknown): the
 * job's, for the path probe (Probe=ip: jobprobe.h) before the fingerprint;
 * a rail it could not probe is a ROCE_JOB_NOTE. */
int roce_job_prolog(const struct roce_policy *p, const char *sysfs_root, const char *job_id, const char *node_name,
                    uid_t job_uid, unsigned parts, const struct roce_job_nodes *nodes, struct roce_error *err);
int roce_job_epilog(const struct roce_policy *p, const char *sysfs_root, const char *job_id, const char *node_name,
                    uid_t job_uid, struct roce_error *err);

/* The job prolog's deadline past TimeoutMs (srun waits that long for a new
 * allocation's fingerprints: spank/jobwide.c). */
#define ROCE_JOB_PROLOG_MARGIN_MS 1000

/* roce_job_prolog or roce_job_epilog in a worker child (worker.h) with a
 * deadline of TimeoutMs plus room for writing: what the plugin's job
 * prolog/epilog and roce-prolog/roce-epilog run, so that a wedged driver
 * delays no job start or end by more than that.  parts: the prolog's
 * (the epilog ignores it).  Same return values; a check that did not
 * finish, or an earlier one still stuck in the kernel, is ROCE_JOB_NONFATAL
 * with err saying so (and the gate does not fail). */
int roce_job_run(const struct roce_policy *p, bool prolog, unsigned parts, const char *sysfs_root, const char *job_id,
                 const char *node_name, uid_t job_uid, const struct roce_job_nodes *nodes, struct roce_error *err);

#endif
