/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.h - files root writes into directories that others may share:
 * StateDir (counter snapshots, ran-with records, stuck markers: root's
 * alone), ReportDir (report fragments, read by admins and the job's user),
 * SharedDir (fingerprints, read by the job's srun), the topology cache: the
 * one home of "the directories root writes into", how each is made and
 * what an existing one must be.  roce-report also writes its --output file
 * with roce_safefile_write (as the user running it, into a directory it
 * opens itself).
 *
 *  - Every file is written under a directory fd, never through a symlink:
 *    temporaries are O_TMPFILE (or O_EXCL random dot-names ".<name>.<hex>"
 *    where the file system lacks O_TMPFILE), linked and renamed into place,
 *    so a reader sees the old file or the whole new one, never part.
 *  - Owner, group, mode and a reader's ACL are set before the file is
 *    visible.  A POSIX ACL entry grants reader_uid read access; on a file
 *    system without ACLs the file is chowned to reader_uid instead.
 *  - Configured directories are resolved from "/" one component at a time,
 *    never through a symlink (O_NOFOLLOW at every step: a link planted by
 *    whoever can write a parent is refused, not followed; ".." is refused
 *    too), and for writing (ROCE_SAFEFILE_TRUSTED) each component owned by
 *    root (or this euid) and writable by nobody else; a sticky directory
 *    (/tmp) may be crossed but not used.  What is missing is created in its
 *    verified parent (parents 0755), but never in a parent that anyone else
 *    may write, sticky or not (in /tmp or /scratch anyone could make the
 *    name first and own it): that is an error naming the path and the
 *    "install -d -m MODE -o root PATH" that makes it.  An existing directory
 *    is never chmod'ed: refused, the error naming the component and why.  A
 *    directory on a kernel file system (proc, sysfs, cgroup, tracefs,
 *    configfs...) is refused, and nothing is created there.
 *  - StateDir is 0700 when created.  SharedDir (0711) and ReportDir (0751:
 *    its group, the admins, may list it) are searched by users for the
 *    names they were told, never listed: an existing one that others can
 *    read is refused like one they can write.  ReportDir/<jobid>/ is root's,
 *    ReportDir's group's, 0750 with an ACL entry giving the job's user r-x
 *    (0755 on a file system without ACLs: its user must list it), and holds
 *    one instance of the job id: a directory left by an earlier job with the
 *    same id (fragments owned by another user, or written well before this
 *    node's prolog) is renamed "<jobid>.earlier-<inode>" first.
 *    roce_safefile_open_dir() is the one place that resolves configured
 *    directory paths (ReportDir as roce-report reads it included).
 * Errors name the file or directory and the reason.
 */
#ifndef ROCE_SAFEFILE_H
#define ROCE_SAFEFILE_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>
#include "base/error.h"

/* fsync the file before the rename and the directory after it. */
#define ROCE_SAFEFILE_DURABLE 0x1

/* Replace dir_fd/name with data atomically, as owner:group with mode;
 * reader_uid >= 0 may read it too (ACL, see above).  0, or -1 with err set;
 * never leaves the final name partial. */
int roce_safefile_write(int dir_fd, const char *name, const void *data, size_t len, uid_t owner, gid_t group,
                        mode_t mode, long reader_uid, int flags, struct roce_error *err);

/* The directory dfd (root's, just made or checked) listable and enterable
 * by reader and root alone: an ACL entry for reader on a 0700 directory;
 * where the file system has no ACLs (ceph-fuse by default), reader owns it,
 * 0500 (then reader can change what is in it: only for data that is the
 * reader's own business).  Idempotent and cheap when nothing is to change.
 * 0, or -1 with err saying why. */
int roce_safefile_share_dir(int dfd, uid_t reader, struct roce_error *err);

/* Remove ".<name>.*" temporaries of an earlier writer of name that was
 * killed; only for names that no other process writes at the same time. */
void roce_safefile_remove_temps(int dir_fd, const char *name);

/* roce_safefile_open_dir flags: create what is missing (the last component
 * with mode); every component root's and writable by nobody else; the last
 * one not listable by others either (TRUSTED only); the directory only as
 * an O_PATH fd, for a reader who may search it but not list it (openat and
 * roce_readfile take it as the directory of a name). */
#define ROCE_SAFEFILE_CREATE 0x2
#define ROCE_SAFEFILE_TRUSTED 0x4
#define ROCE_SAFEFILE_SEARCH 0x8
#define ROCE_SAFEFILE_UNLISTED 0x10

/* path, resolved as described above, as an O_DIRECTORY fd; -1 with err set
 * ("<what> <path>: <component> is a symbolic link ...") and errno the
 * failed call's (EACCES: not this user's to open).  Without
 * ROCE_SAFEFILE_TRUSTED only the links and kernel file systems are refused
 * (a reader such as roce-report; err may be NULL). */
int roce_safefile_open_dir(const char *what, const char *path, int flags, mode_t mode, struct roce_error *err);

/* O_DIRECTORY fds of the configured directories (created when missing,
 * trusted as above), or -1 with err set (then nothing of ours goes there).
 * SharedDir's reader (srun, as the user) opens it itself, with
 * ROCE_SAFEFILE_SEARCH. */
int roce_safefile_state_dir(const char *path, struct roce_error *err);
/* An existing StateDir of ours, as it is (nothing created: a cheap lookup);
 * -1 when there is none or it is not ours. */
int roce_safefile_state_dir_existing(const char *path);
/* report_dir/job_id/ for this instance of the job (created; an earlier
 * instance's moved aside): job_uid is the job's user, since when this
 * node's prolog ran (0 unknown).  *admin_gid = the group of report_dir. */
int roce_safefile_report_dir(const char *report_dir, const char *job_id, uid_t job_uid, time_t since, gid_t *admin_gid,
                             struct roce_error *err);
/* The directory that holds a cache file. */
int roce_safefile_cache_dir(const char *path, struct roce_error *err);
/* SharedDir for the prolog (created 0711 when missing, refused when others
 * may list it); an existing one (nothing created, listable or not: the
 * epilog removing its own entry, the sweep), or -1 when there is none or it
 * is not ours. */
int roce_safefile_shared_dir(const char *path, struct roce_error *err);
int roce_safefile_shared_dir_existing(const char *path);

#endif
