/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fstype.c - a directory on a file system other hosts share (fstype.h). */
#include "config.h"
#include "read/fstype.h"

#include <stddef.h>
#include <sys/vfs.h>
#include <linux/magic.h>

/* Not in linux/magic.h: the file systems' own sources. */
#define LUSTRE_SUPER_MAGIC 0x0BD00BD0 /* lustre/include/uapi/linux/lustre/lustre_user.h */
#define GPFS_SUPER_MAGIC 0x47504653   /* "GPFS" */
#define BEEGFS_SUPER_MAGIC 0x19830326 /* BeeGFS's client module */
#define GFS2_MAGIC 0x01161970         /* linux/gfs2_ondisk.h */

bool roce_fstype_shared(int fd, const char **name)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} fs[] = {
		{ NFS_SUPER_MAGIC, "nfs" },       { CEPH_SUPER_MAGIC, "ceph" },
		{ LUSTRE_SUPER_MAGIC, "lustre" }, { GPFS_SUPER_MAGIC, "gpfs" },
		{ FUSE_SUPER_MAGIC, "fuse" },     { CIFS_SUPER_MAGIC, "cifs" },
		{ SMB2_SUPER_MAGIC, "smb2" },     { SMB_SUPER_MAGIC, "smb" },
		{ GFS2_MAGIC, "gfs2" },           { OCFS2_SUPER_MAGIC, "ocfs2" },
		{ BEEGFS_SUPER_MAGIC, "beegfs" }, { AFS_SUPER_MAGIC, "afs" },
		{ AFS_FS_MAGIC, "afs" },          { V9FS_MAGIC, "9p" },
	};
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0)
		return false;
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if ((unsigned long)(unsigned)sfs.f_type == fs[i].magic) {
			*name = fs[i].name;
			return true;
		}
	return false;
}
