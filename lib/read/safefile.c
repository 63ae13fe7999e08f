/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.c - files root writes into directories others may share
 * (safefile.h): atomic replacement, owner, mode and reader ACL, and the
 * configured directories they go into.
 */
#include "config.h"
#include "read/safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- atomic files */

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ".<name>.<16 hex>": dot names are never read as fragments or snapshots. */
static void temp_name(char *buf, size_t len, const char *name)
{
	uint64_t r = 0;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (uint64_t)getpid() * 2654435761u ^ (uint64_t)(uintptr_t)buf;
	snprintf(buf, len, ".%s.%016llx", name, (unsigned long long)r);
}

#define ACL_XATTR "system.posix_acl_access"
#define ACL_LEN (4 + 5 * 8)

/* POSIX access ACL as the kernel's xattr format (linux/posix_acl_xattr.h):
 * owner own_perm, user:<reader> perm, group group_perm, mask the wider of
 * the two, other none (a fragment: r, r, r; a ReportDir job directory: rwx,
 * r-x, r-x; a SharedDir job directory: rwx, r-x, none). */
static void reader_acl(char buf[ACL_LEN], uid_t reader, uint16_t own_perm, uint16_t perm, uint16_t group_perm)
{
	struct {
		uint16_t tag, perm;
		uint32_t id;
	} __attribute__((packed)) e[5] = {
		{ 0x01, own_perm, UINT32_MAX },                      /* ACL_USER_OBJ */
		{ 0x02, perm, reader },                              /* ACL_USER */
		{ 0x04, group_perm, UINT32_MAX },                    /* ACL_GROUP_OBJ */
		{ 0x10, (uint16_t)(perm | group_perm), UINT32_MAX }, /* ACL_MASK */
		{ 0x20, 0, UINT32_MAX },                             /* ACL_OTHER */
	};
	uint32_t version = 2; /* POSIX_ACL_XATTR_VERSION, little-endian on the hosts Slurm runs on */
	memcpy(buf, &version, 4);
	memcpy(buf + 4, e, sizeof(e));
}

static int set_reader_acl(int fd, uid_t reader)
{
	char buf[ACL_LEN];
	reader_acl(buf, reader, 4, 4, 4);
	return fsetxattr(fd, ACL_XATTR, buf, sizeof(buf), 0);
}

static int set_owner_mode(int fd, uid_t owner, gid_t group, mode_t mode, long reader_uid, struct roce_error *err)
{
	if (fchown(fd, owner, group) < 0 || fchmod(fd, mode) < 0) {
		roce_error_set(err, "cannot set owner/mode: %s", strerror(errno));
		return -1;
	}
	if (reader_uid < 0 || (uid_t)reader_uid == owner)
		return 0;
	if (set_reader_acl(fd, (uid_t)reader_uid) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOTSUP) {
		roce_error_set(err, "cannot set the reader ACL: %s", strerror(errno));
		return -1;
	}
	/* No ACLs on this file system: the reader owns the file instead. */
	if (fchown(fd, (uid_t)reader_uid, group) < 0 || fchmod(fd, mode) < 0) {
		roce_error_set(err, "cannot give the file to uid %ld: %s", reader_uid, strerror(errno));
		return -1;
	}
	return 0;
}

int roce_safefile_share_dir(int dfd, uid_t reader, struct roce_error *err)
{
	char want[ACL_LEN], have[ACL_LEN + 1];
	struct stat st;
	if (fstat(dfd, &st) < 0) {
		roce_error_set(err, "cannot be examined: %s", strerror(errno));
		return -1;
	}
	if (st.st_uid == reader && (st.st_mode & 07777) == 0500)
		return 0; /* shared as below, on a file system without ACLs */
	reader_acl(want, reader, 7, 5, 0);
	/* Every node of a job comes here: read before writing (one MDS update, not thousands). */
	if (st.st_uid == geteuid() && fgetxattr(dfd, ACL_XATTR, have, sizeof(have)) == ACL_LEN &&
	    memcmp(have, want, ACL_LEN) == 0)
		return 0;
	if (st.st_uid == geteuid() && fsetxattr(dfd, ACL_XATTR, want, sizeof(want), 0) == 0)
		return 0;
	if (st.st_uid == geteuid() && errno != EOPNOTSUPP && errno != ENOTSUP) {
		roce_error_set(err, "cannot set the reader ACL: %s", strerror(errno));
		return -1;
	}
	/* No ACLs here (or an earlier job's user owns it): the reader owns it, read-only. */
	if (fchown(dfd, reader, (gid_t)-1) < 0 || fchmod(dfd, 0500) < 0) {
		roce_error_set(err, "cannot give it to uid %u: %s", (unsigned)reader, strerror(errno));
		return -1;
	}
	return 0;
}

/* Give an anonymous O_TMPFILE a temporary name in dir. */
static int link_tmpfile(int fd, int dfd, char *tmp, size_t tmplen, const char *name)
{
	for (int tries = 0; tries < 16; tries++) {
		temp_name(tmp, tmplen, name);
		if (linkat(fd, "", dfd, tmp, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno == ENOENT || errno == EPERM) {
			/* Without CAP_DAC_READ_SEARCH AT_EMPTY_PATH is refused: go through /proc. */
			char proc[64];
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
			if (linkat(AT_FDCWD, proc, dfd, tmp, AT_SYMLINK_FOLLOW) == 0)
				return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static int open_named_temp(int dfd, char *tmp, size_t tmplen, const char *name)
{
	for (int tries = 0; tries < 16; tries++) {
		temp_name(tmp, tmplen, name);
		int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int roce_safefile_write(int dfd, const char *name, const void *data, size_t len, uid_t owner, gid_t group, mode_t mode,
                        long reader_uid, int flags, struct roce_error *err)
{
	bool durable = flags & ROCE_SAFEFILE_DURABLE;
	char tmp[NAME_MAX + 1] = "";
	bool named = false;
	int fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		fd = open_named_temp(dfd, tmp, sizeof(tmp), name);
		named = true;
	}
	if (fd < 0) {
		roce_error_set(err, "cannot create a temporary file for %s: %s", name, strerror(errno));
		return -1;
	}
	if (write_all(fd, data, len) < 0) {
		roce_error_set(err, "cannot write %s: %s", name, strerror(errno));
		goto fail;
	}
	if (set_owner_mode(fd, owner, group, mode, reader_uid, err) < 0)
		goto fail;
	if (durable && fsync(fd) < 0) {
		roce_error_set(err, "cannot sync %s: %s", name, strerror(errno));
		goto fail;
	}
	if (!named) {
		if (link_tmpfile(fd, dfd, tmp, sizeof(tmp), name) < 0) {
			roce_error_set(err, "cannot link %s: %s", name, strerror(errno));
			tmp[0] = '\0';
			goto fail;
		}
		named = true;
	}
	if (renameat(dfd, tmp, dfd, name) < 0) {
		roce_error_set(err, "cannot rename into %s: %s", name, strerror(errno));
		goto fail;
	}
	close(fd);
	if (durable && fsync(dfd) < 0 && errno != EINVAL) {
		/* The file is complete and in place; only its durability is in doubt. */
		roce_error_set(err, "cannot sync the directory of %s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
fail:
	if (named && tmp[0])
		unlinkat(dfd, tmp, 0);
	close(fd);
	return -1;
}

/* ---------------------------------------------------------------- directories */

#define CONFIGFS_MAGIC 0x62656570 /* fs/configfs/mount.c: not in linux/magic.h */

/* Kernel file systems: nothing of ours belongs there, and a mkdir there is
 * an act (a new cgroup, a trace instance), not a directory. */
static const char *kernel_fs(int fd)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} fs[] = {
		{ PROC_SUPER_MAGIC, "proc" },     { SYSFS_MAGIC, "sysfs" },
		{ CGROUP_SUPER_MAGIC, "cgroup" }, { CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ TRACEFS_MAGIC, "tracefs" },     { DEBUGFS_MAGIC, "debugfs" },
		{ CONFIGFS_MAGIC, "configfs" },   { SECURITYFS_MAGIC, "securityfs" },
		{ BPF_FS_MAGIC, "bpf" },          { EFIVARFS_MAGIC, "efivarfs" },
		{ PSTOREFS_MAGIC, "pstore" },     { DEVPTS_SUPER_MAGIC, "devpts" },
	};
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if ((unsigned long)sfs.f_type == fs[i].magic)
			return fs[i].name;
	return NULL;
}

/* One step of a walk: the path so far (for messages) and its fd. */
struct walk {
	const char *what, *path; /* "StateDir", as configured */
	char at[PATH_MAX];       /* the component reached, "/a/b" */
	int flags;
	mode_t mode; /* of the last component, when root makes it */
	struct roce_error *err;
};

/* err set; errno kept as the failed call left it (callers tell EACCES apart). */
__attribute__((format(printf, 2, 3))) static int walk_fail(struct walk *w, const char *fmt, ...)
{
	char why[384];
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	roce_error_set(w->err, "%s%s%s: %s %s", w->what ? w->what : "", w->what ? " " : "", w->path, w->at, why);
	errno = e;
	return -1;
}

/* Root's (or this euid's), and writable by nobody else: a sticky directory
 * (/tmp) may be crossed but is not a place of ours.  With UNLISTED the
 * directory itself may be searched by others, not listed. */
static int walk_trusted(struct walk *w, int fd, bool last)
{
	struct stat st;
	if (!(w->flags & ROCE_SAFEFILE_TRUSTED))
		return 0;
	if (fstat(fd, &st) < 0)
		return walk_fail(w, "cannot be examined: %s", strerror(errno));
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return walk_fail(w, "is owned by uid %u, not root", (unsigned)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX)))
		return walk_fail(w, "is writable by group or others (mode %o)", (unsigned)(st.st_mode & 07777));
	if (last && (w->flags & ROCE_SAFEFILE_UNLISTED) && (st.st_mode & S_IROTH))
		return walk_fail(w,
		                 "is listable by every user (mode %o), and its names say whose jobs ran where: "
		                 "chmod o-r %s (others need only search, o+x)",
		                 (unsigned)(st.st_mode & 07777), w->path);
	return 0;
}

/* Root makes no directory where someone else may write: in a sticky /tmp or
 * /scratch anyone may make the name first (and own it from then on); the
 * admin makes it once, as the error says. */
static int walk_parent_ours(struct walk *w, int parent)
{
	struct stat st;
	if (fstat(parent, &st) < 0)
		return walk_fail(w, "cannot be created: its parent cannot be examined: %s", strerror(errno));
	if (!(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	char up[PATH_MAX];
	snprintf(up, sizeof(up), "%.*s", (int)(strrchr(w->at, '/') - w->at), w->at);
	return walk_fail(w,
	                 "is missing, and root makes no directory in %s, which others can write (mode %o): make "
	                 "it as root once: install -d -m %04o -o root %s",
	                 up[0] ? up : "/", (unsigned)(st.st_mode & 07777), (unsigned)w->mode, w->path);
}

/* Create the missing directory name in the verified parent, with exactly
 * mode (whatever the umask): it is ours, the only directory ever chmod'ed. */
static int walk_create(struct walk *w, int parent, const char *name, mode_t mode)
{
	const char *fs = kernel_fs(parent);
	if (fs)
		return walk_fail(w, "cannot be created: its parent is on %s, a kernel file system", fs);
	if (walk_parent_ours(w, parent) < 0)
		return -1;
	if (mkdirat(parent, name, mode) < 0)
		return errno == EEXIST ? 0 : walk_fail(w, "cannot be created: %s", strerror(errno));
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchmod(fd, mode) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return walk_fail(w, "cannot be set up: %s", strerror(e));
	}
	close(fd);
	return 0;
}

/* The next component as an O_PATH fd, never through a symlink. */
static int walk_step(struct walk *w, int parent, const char *name, bool last, mode_t mode)
{
	struct stat st;
	for (int tries = 0; tries < 2; tries++) {
		int fd = openat(parent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != ENOENT || !(w->flags & ROCE_SAFEFILE_CREATE))
			break;
		if (walk_create(w, parent, name, last ? mode : 0755) < 0)
			return -1;
	}
	int e = errno;
	if ((e == ENOTDIR || e == ELOOP) && fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return walk_fail(w, S_ISLNK(st.st_mode) ? "is a symbolic link (give the path it points to)"
		                                        : "is not a directory");
	return walk_fail(w, "cannot be opened: %s", strerror(e));
}

/* The next component of *p ("." skipped), NUL-terminated in place; NULL at the end. */
static char *next_name(char **p)
{
	for (;;) {
		char *name = *p + strspn(*p, "/");
		if (!*name)
			return NULL;
		char *end = name + strcspn(name, "/");
		*p = *end ? end + 1 : end;
		if (*end)
			*end = '\0';
		if (strcmp(name, ".") != 0)
			return name;
	}
}

/* Whether p holds another component than ".". */
static bool more_names(const char *p)
{
	for (p += strspn(p, "/"); *p; p += strspn(p, "/")) {
		size_t n = strcspn(p, "/");
		if (n != 1 || *p != '.')
			return true;
		p += n;
	}
	return false;
}

int roce_safefile_open_dir(const char *what, const char *path, int flags, mode_t mode, struct roce_error *err)
{
	struct walk w = { .what = what, .path = path, .flags = flags, .mode = mode, .err = err };
	char buf[PATH_MAX];
	snprintf(w.at, sizeof(w.at), "%s", path);
	if (path[0] != '/' || snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return walk_fail(&w, "is not an absolute path of at most %d bytes", PATH_MAX - 1);
	snprintf(w.at, sizeof(w.at), "/");
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return walk_fail(&w, "cannot be opened: %s", strerror(errno));
	for (char *p = buf, *name; (name = next_name(&p));) {
		if (walk_trusted(&w, fd, false) < 0)
			goto fail;
		size_t n = strlen(w.at);
		snprintf(w.at + n, sizeof(w.at) - n, "%s%s", n > 1 ? "/" : "", name);
		if (strcmp(name, "..") == 0) {
			walk_fail(&w, "goes up a level: give the path without \"..\"");
			goto fail;
		}
		int next = walk_step(&w, fd, name, !more_names(p), mode);
		if (next < 0)
			goto fail;
		close(fd);
		fd = next;
	}
	const char *fs = kernel_fs(fd);
	if (fs) {
		walk_fail(&w, "is on %s, a kernel file system", fs);
		goto fail;
	}
	if (walk_trusted(&w, fd, true) < 0)
		goto fail;
	if (flags & ROCE_SAFEFILE_SEARCH)
		return fd; /* O_PATH: enough to open what is in it by name */
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		walk_fail(&w, "cannot be opened: %s", strerror(errno));
	close(fd);
	return dfd;
fail:
	close(fd);
	return -1;
}

int roce_safefile_state_dir(const char *path, struct roce_error *err)
{
	return roce_safefile_open_dir("StateDir", path, ROCE_SAFEFILE_CREATE | ROCE_SAFEFILE_TRUSTED, 0700, err);
}

int roce_safefile_state_dir_existing(const char *path)
{
	return roce_safefile_open_dir("StateDir", path, ROCE_SAFEFILE_TRUSTED, 0, NULL);
}

int roce_safefile_cache_dir(const char *path, struct roce_error *err)
{
	return roce_safefile_open_dir("TopologyCache directory", path, ROCE_SAFEFILE_CREATE | ROCE_SAFEFILE_TRUSTED,
	                              0755, err);
}

/* SharedDir and ReportDir: others search them for names they were told (a
 * job id, a node), never list them (safefile.h). */
#define SHARED_DIR_MODE 0711
#define REPORT_DIR_MODE 0751 /* its group (the admins) lists it */

int roce_safefile_shared_dir(const char *path, struct roce_error *err)
{
	return roce_safefile_open_dir("SharedDir", path,
	                              ROCE_SAFEFILE_CREATE | ROCE_SAFEFILE_TRUSTED | ROCE_SAFEFILE_UNLISTED,
	                              SHARED_DIR_MODE, err);
}

int roce_safefile_shared_dir_existing(const char *path)
{
	/* to remove our own file: however listable it is */
	return roce_safefile_open_dir("SharedDir", path, ROCE_SAFEFILE_TRUSTED, 0, NULL);
}

/* ---------------------------------------------------------------- job directories */

/* A fragment this much older than the node's prolog belongs to an earlier
 * instance of the job id: room for clocks (a file server's, the node's)
 * that disagree by seconds, not minutes. */
#define INSTANCE_SLACK_S 60

/* Whether dir holds a fragment of another instance of the job: one owned
 * by neither us nor the job's user (a file system without ACLs gave it to
 * an earlier job's user), or one written well before since (this node's
 * prolog; 0 unknown).  Only names and owners are looked at, never contents:
 * a fragment its owner can rewrite says nothing the owner did not choose. */
static bool other_instance(int dfd, uid_t job_uid, time_t since)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;
	bool other = false;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!other && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		other = (st.st_uid != geteuid() && st.st_uid != job_uid) ||
		        (since > 0 && st.st_mtime + INSTANCE_SLACK_S < since);
	}
	closedir(d);
	return other;
}

/* Rename report_dir/job_id (the directory jst describes) to
 * "<job_id>.earlier-<inode>".  The name is the directory's own: two epilogs
 * that both found it cannot move each other's new directory aside, since a
 * rename onto a non-empty directory fails.  0 moved (or gone already), -1. */
static int move_aside(int rfd, const char *path, const char *job_id, const struct stat *jst, struct roce_error *err)
{
	char aside[NAME_MAX + 1];
	snprintf(aside, sizeof(aside), "%s.earlier-%llu", job_id, (unsigned long long)jst->st_ino);
	if (renameat(rfd, job_id, rfd, aside) == 0 || errno == ENOENT || errno == EEXIST || errno == ENOTEMPTY)
		return 0;
	roce_error_set(err, "cannot move %s/%s (another instance of job %s) aside: %s", path, job_id, job_id,
	               strerror(errno));
	return -1;
}

/* A job directory we just made: root's, the admins' group, listed by them
 * and by the job's user (an ACL entry) only.  A file system without ACLs
 * gets 0755: the job's user must list it (safefile.h). */
static int job_dir_setup(int jfd, uid_t job_uid, gid_t admin_gid)
{
	if (fchown(jfd, geteuid(), admin_gid) < 0 || fchmod(jfd, 0750) < 0)
		return -1;
	char acl[ACL_LEN];
	reader_acl(acl, job_uid, 7, 5, 5); /* the admins (the group) list it too */
	if (job_uid == geteuid() || fsetxattr(jfd, ACL_XATTR, acl, sizeof(acl), 0) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOTSUP)
		return -1;
	return fchmod(jfd, 0755);
}

/* report_dir/job_id/, created, ours, writable by nobody else. */
static int open_job_dir(int rfd, const char *path, const char *job_id, uid_t job_uid, gid_t admin_gid, struct stat *st,
                        struct roce_error *err)
{
	bool created = mkdirat(rfd, job_id, 0700) == 0;
	if (!created && errno != EEXIST) {
		roce_error_set(err, "cannot create %s/%s: %s", path, job_id, strerror(errno));
		return -1;
	}
	int jfd = openat(rfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (jfd < 0) {
		roce_error_set(err, "cannot open %s/%s: %s", path, job_id, strerror(errno));
		return -1;
	}
	if (fstat(jfd, st) < 0 || st->st_uid != geteuid()) {
		roce_error_set(err, "%s/%s is not owned by uid %u: refusing to write into it", path, job_id,
		               (unsigned)geteuid());
		goto fail;
	}
	if (created && job_dir_setup(jfd, job_uid, admin_gid) < 0) { /* ours: whatever the umask */
		roce_error_set(err, "cannot set up %s/%s: %s", path, job_id, strerror(errno));
		goto fail;
	}
	if (!created && (st->st_mode & (S_IWGRP | S_IWOTH))) {
		roce_error_set(err, "%s/%s is writable by group or others (mode %o): refusing to write into it", path,
		               job_id, (unsigned)(st->st_mode & 07777));
		goto fail;
	}
	if (created)
		fsync(rfd); /* the new job directory entry */
	return jfd;
fail:
	close(jfd);
	return -1;
}

int roce_safefile_report_dir(const char *path, const char *job_id, uid_t job_uid, time_t since, gid_t *admin_gid,
                             struct roce_error *err)
{
	struct stat st;
	int jfd = -1,
	    rfd = roce_safefile_open_dir("ReportDir", path,
	                                 ROCE_SAFEFILE_CREATE | ROCE_SAFEFILE_TRUSTED | ROCE_SAFEFILE_UNLISTED,
	                                 REPORT_DIR_MODE, err);
	if (rfd < 0)
		return -1;
	if (fstat(rfd, &st) < 0) {
		roce_error_set(err, "ReportDir %s: %s", path, strerror(errno));
		goto out;
	}
	*admin_gid = st.st_gid;
	/* A few rounds: other nodes' epilogs may be moving the same earlier instance. */
	for (int round = 0; round < 4; round++) {
		if ((jfd = open_job_dir(rfd, path, job_id, job_uid, *admin_gid, &st, err)) < 0 ||
		    !other_instance(jfd, job_uid, since))
			goto out;
		close(jfd);
		jfd = -1;
		if (move_aside(rfd, path, job_id, &st, err) < 0)
			goto out;
	}
	roce_error_set(err, "%s/%s: another instance of job %s keeps appearing there", path, job_id, job_id);
out:
	close(rfd);
	return jfd;
}

/* ".<name>.<random>" left by an earlier writer of the same file that was
 * killed (only where the file system has no O_TMPFILE).  Only this node
 * writes its name, so they are ours to remove. */
void roce_safefile_remove_temps(int dfd, const char *name)
{
	char prefix[NAME_MAX + 2];
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	snprintf(prefix, sizeof(prefix), ".%s.", name);
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			unlinkat(dfd, e->d_name, 0);
	closedir(d);
}
