/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstype.h - whether a directory is on a file system other hosts share
 * (statfs's f_type): NFS, CephFS, Lustre, GPFS, a FUSE file system
 * (ceph-fuse, sshfs...), SMB, GFS2, OCFS2, BeeGFS, AFS.  StateDir must not
 * be (node-local state: job.c names it in the prolog's log, the health
 * check as a finding); ReportDir and SharedDir usually are.
 */
#ifndef ROCE_FSTYPE_H
#define ROCE_FSTYPE_H

#include <stdbool.h>

/* True when the directory fd is on a shared file system, its name
 * ("nfs", "ceph", "fuse", ...) in *name; false also when fstatfs fails. */
bool roce_fstype_shared(int fd, const char **name);

#endif
