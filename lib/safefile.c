/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile.c - files root writes into directories others may share
 * (safefile.h): atomic replacement, owner, mode and reader ACL, and the
 * configured directories they go into.
 */
#include "config.h"
#include "safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
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

/* POSIX access ACL as the kernel's xattr format (linux/posix_acl_xattr.h):
 * owner r, user:<reader> r, group r, mask r, other none. */
static int set_reader_acl(int fd, uid_t reader)
{
	struct { uint16_t tag, perm; uint32_t id; } __attribute__((packed)) e[5] = {
		{ 0x01, 4, UINT32_MAX },   /* ACL_USER_OBJ */
		{ 0x02, 4, reader },       /* ACL_USER */
		{ 0x04, 4, UINT32_MAX },   /* ACL_GROUP_OBJ */
		{ 0x10, 4, UINT32_MAX },   /* ACL_MASK */
		{ 0x20, 0, UINT32_MAX },   /* ACL_OTHER */
	};
	char buf[4 + sizeof(e)];
	uint32_t version = 2;   /* POSIX_ACL_XATTR_VERSION, little-endian on the hosts Slurm runs on */
	memcpy(buf, &version, 4);
	memcpy(buf + 4, e, sizeof(e));
	return fsetxattr(fd, "system.posix_acl_access", buf, sizeof(buf), 0);
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

int roce_safefile_write(int dfd, const char *name, const void *data, size_t len, uid_t owner, gid_t group,
                        mode_t mode, long reader_uid, int flags, struct roce_error *err)
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

int roce_safefile_open_dir(const char *path)
{
	/* The admin's path: symlinks in it are the admin's choice and followed. */
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* mkdir -p for a configured directory.  Returns an O_DIRECTORY fd; the owner
 * checks follow in the callers. */
static int open_config_dir(const char *path, mode_t mode, struct roce_error *err)
{
	char buf[PATH_MAX];
	if (path[0] != '/' || snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		roce_error_set(err, "%s: not an absolute path", path);
		return -1;
	}
	int fd = roce_safefile_open_dir(buf);
	if (fd >= 0 || errno != ENOENT)
		goto done;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
			roce_error_set(err, "cannot create %s: %s", buf, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST) {
		roce_error_set(err, "cannot create %s: %s", buf, strerror(errno));
		return -1;
	}
	fd = roce_safefile_open_dir(buf);
done:
	if (fd < 0)
		roce_error_set(err, "cannot open %s: %s", path, strerror(errno));
	return fd;
}

/* StateDir: ours alone.  Root-owned, nobody else can even look. */
int roce_safefile_state_dir(const char *path, struct roce_error *err)
{
	struct stat st;
	int fd = open_config_dir(path, 0700, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		roce_error_set(err, "StateDir %s is not owned by uid %u: refusing to use it", path, (unsigned)geteuid());
		goto fail;
	}
	if ((st.st_mode & 077) && fchmod(fd, 0700) < 0) {
		roce_error_set(err, "StateDir %s: cannot make it 0700: %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

int roce_safefile_state_dir_existing(const char *path)
{
	struct stat st;
	int fd = roce_safefile_open_dir(path);
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid())) {
		close(fd);
		return -1;
	}
	return fd;
}

int roce_safefile_cache_dir(const char *path, struct roce_error *err)
{
	struct stat st;
	int fd = open_config_dir(path, 0755, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (st.st_mode & (S_IWGRP | S_IWOTH)) || (st.st_uid != 0 && st.st_uid != geteuid())) {
		roce_error_set(err, "%s: cache directory writable by others, not used", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* ReportDir/<jobid>/: root-owned 0755 under a root-owned ReportDir that
 * others cannot write to (else a user could plant the job directory). */
int roce_safefile_report_dir(const char *path, const char *job_id, gid_t *admin_gid, struct roce_error *err)
{
	struct stat st;
	int jfd = -1, rfd = open_config_dir(path, 0755, err);
	if (rfd < 0)
		return -1;
	if (fstat(rfd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & S_IWOTH)) {
		roce_error_set(err, "ReportDir %s must be owned by uid %u and not writable by others",
		               path, (unsigned)geteuid());
		goto out;
	}
	*admin_gid = st.st_gid;
	if (mkdirat(rfd, job_id, 0755) < 0 && errno != EEXIST) {
		roce_error_set(err, "cannot create %s/%s: %s", path, job_id, strerror(errno));
		goto out;
	}
	jfd = openat(rfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (jfd < 0) {
		roce_error_set(err, "cannot open %s/%s: %s", path, job_id, strerror(errno));
		goto out;
	}
	if (fstat(jfd, &st) < 0 || st.st_uid != geteuid()) {
		roce_error_set(err, "%s/%s is not owned by uid %u: refusing to write into it", path, job_id,
		               (unsigned)geteuid());
		close(jfd);
		jfd = -1;
		goto out;
	}
	if ((st.st_mode & 07777) != 0755)
		fchmod(jfd, 0755);
	fsync(rfd);   /* the new job directory entry */
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
