/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reportdir.h - a job's fragments read from ReportDir/<job id>/ into a
 * report: the one place the report reads files.  Not pure.
 *
 * roce-report may run as root over a directory every node writes: each
 * "<node>.json" is read without following symlinks and at most 16 MiB, and
 * must hold the fragment of that node (a copied file would pose as another
 * node); dir itself is resolved without following a link (safefile.h).
 * What is not a regular file is never opened, and a fragment whose file
 * is owned by neither root nor its job_uid is not used.  A file that fails any of that is recorded in r->errors by name
 * and skipped; nothing else is read (dot files are the epilog's
 * temporaries).  Many files are read on several threads (up to the CPUs
 * the process may use; on a network file system, CephFS, NFS, FUSE..., up
 * to 32 whatever the CPUs: there a file costs round trips, not CPU); the
 * errors are then listed in name order, and the report is the same bytes
 * whatever the number of threads.  From
 * 512 files on, the fragments' memory is in pools (arena.h) that r owns.
 */
#ifndef ROCE_REPORTDIR_H
#define ROCE_REPORTDIR_H

#include "base/error.h"
#include "report/report.h"

/* Add every fragment in dir to r.  -1 only when dir itself cannot be read
 * or memory runs out (err says why). */
int roce_reportdir_load(struct roce_job_report *r, const char *dir, struct roce_error *err);

/* Every job directory of ReportDir (a name that is a job id, a directory,
 * not a link), in directory order: fn gets the job id and the directory's
 * mtime (ns; no fragment in it was written later, so none ended later).
 * fn returns 0 to go on, -1 to stop (then this returns -1 too).  -1 with
 * err when report_dir cannot be read. */
typedef int (*roce_reportdir_job_fn)(const char *job_id, int64_t mtime_ns, void *arg);
int roce_reportdir_jobs(const char *report_dir, roce_reportdir_job_fn fn, void *arg, struct roce_error *err);

#endif
