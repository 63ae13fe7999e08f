/* SPDX-License-Identifier: GPL-2.0-or-later */
/* readfile.c - bounded, fallible reads of whole regular files (readfile.h). */
#include "config.h"
#include "read/readfile.h"
#include "base/kread.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file as messages name it: "dir/path", or path.  Only on failure: a
 * read that works costs no formatting. */
struct name {
	const char *dir, *path;
	char buf[PATH_MAX];
};

static const char *shown(struct name *n)
{
	if (!n->dir)
		return n->path;
	snprintf(n->buf, sizeof(n->buf), "%s/%s", n->dir, n->path);
	return n->buf;
}

/* A failed open or read: -1 with errno = err. */
static int fail_errno(struct roce_reading *r, int err, const char *what, struct name *file)
{
	roce_reading_set(r, roce_status_for_errno(err), err, "cannot %s %s: %s", what, shown(file), strerror(err));
	errno = err;
	return -1;
}

static const char *file_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFDIR: return "a directory";
	case S_IFLNK: return "a symbolic link";
	}
	return "of no known type";
}

/* dfd/path opened for reading, if it is still the file st describes. */
static int open_same(int dfd, const struct name *file, int flags, const struct stat *st)
{
	struct stat now;
	int fd = openat(dfd, file->path,
	                O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	                        (flags & ROCE_READFILE_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd >= 0 && !(flags & ROCE_READFILE_DIR_PRIVATE) &&
	    (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/* The file pfd (O_PATH) stands for, opened for reading through
 * /proc/self/fd: the very inode examined, whatever became of its name.
 * Without /proc (a chroot): the name again, if still the same file. */
static int reopen(int pfd, int dfd, const struct name *file, int flags, const struct stat *st)
{
	char proc[40];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	int fd = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	return fd >= 0 || errno != ENOENT ? fd : open_same(dfd, file, flags, st);
}

/* What dfd/path is, before anything opens it: *pfd an O_PATH descriptor of
 * it for a file where others may plant one (NOFOLLOW), else -1 and fstatat
 * only.  -1 with errno when it cannot be looked at. */
static int look(int dfd, const struct name *file, int flags, struct stat *st, int *pfd)
{
	*pfd = -1;
	if (!(flags & ROCE_READFILE_NOFOLLOW))
		return fstatat(dfd, file->path, st, 0);
	if ((*pfd = openat(dfd, file->path, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(*pfd, st) == 0 && !S_ISLNK(st->st_mode))
		return 0;
	/* A symlink here was not to be followed: what open(O_NOFOLLOW) says. */
	int e = S_ISLNK(st->st_mode) ? ELOOP : errno;
	close(*pfd);
	errno = e;
	return -1;
}

/*
 * Open dfd/path for reading: a regular file (trusted when asked) or -1.
 * What it is comes first, and nothing else is ever opened: a FIFO's blocked
 * writer is not released, no device driver is called (/dev/watchdog armed,
 * /dev/kmsg read).  Where others may plant files (NOFOLLOW: fragments,
 * state, markers, the cache) the file opened is the very one examined,
 * through its O_PATH descriptor.  Elsewhere (sysfs values by the thousand,
 * /proc, the admin's files; only the kernel or root names files there) a
 * cheaper fstatat, and the file opened must be the one examined.
 */
static int open_regular(int dfd, struct name *file, int flags, struct stat *st, struct roce_reading *r)
{
	int pfd, e;
	if (flags & ROCE_READFILE_DIR_KERNFS) {
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFREG;
		int fd = openat(dfd, file->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		return fd >= 0 ? fd : fail_errno(r, errno, "open", file);
	}
	if (look(dfd, file, flags, st, &pfd) < 0)
		return fail_errno(r, errno, "open", file);
	if (!S_ISREG(st->st_mode)) {
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s is not a regular file (%s)", shown(file),
		                 file_type(st->st_mode));
		errno = EINVAL;
		goto refused;
	}
	if ((flags & ROCE_READFILE_TRUSTED) &&
	    ((st->st_uid != 0 && st->st_uid != geteuid()) || (st->st_mode & (S_IWGRP | S_IWOTH)))) {
		roce_reading_set(r, ROCE_UNREADABLE, EPERM, "%s: not trusted (owner %u, mode %o)", shown(file),
		                 (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
		errno = EPERM;
		goto refused;
	}
	int fd = pfd >= 0 ? reopen(pfd, dfd, file, flags, st) : open_same(dfd, file, flags, st);
	e = errno;
	if (pfd >= 0)
		close(pfd);
	return fd >= 0 ? fd : fail_errno(r, e, "open", file);
refused:
	e = errno;
	if (pfd >= 0)
		close(pfd);
	errno = e;
	return -1;
}

/* Fill buf[*got..size) until EOF: 0 at EOF, 1 when buf is full and (probed
 * with a one-byte read when probe is set) more is left, -1 on a read error.
 * short_is_eof: a read that returns less than asked is the end (see
 * roce_readfile_buf), which saves the read that would return 0. */
static int read_upto(int fd, char *buf, size_t size, size_t *got, bool probe, bool short_is_eof)
{
	for (;;) {
		char extra;
		bool full = *got == size;
		if (full && !probe)
			return 1;
		size_t want = full ? 1 : size - *got;
		ssize_t n = roce_kread_read(fd, full ? &extra : buf + *got, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (full)
			return 1;
		*got += (size_t)n;
		if (short_is_eof && (size_t)n < want)
			return 0;
	}
}

static void too_long(struct roce_reading *r, struct name *file, size_t max)
{
	roce_reading_set(r, ROCE_MALFORMED, 0, "%s: longer than %zu bytes", shown(file), max);
	errno = EFBIG;
}

ssize_t roce_readfile_buf(int dfd, const char *dir, const char *path, char *buf, size_t size, int flags,
                          struct roce_reading *r)
{
	struct name file; /* no initializer: buf is written only when a message needs it */
	file.dir = dir;
	file.path = path;
	struct stat st;
	size_t got = 0;

	buf[0] = '\0';
	int fd = open_regular(dfd, &file, flags, &st, r);
	if (fd < 0)
		return -1;
	/* A short read of a regular file is its end: sysfs hands a value over in
	 * one read, and local, FUSE and NFS files read short only at EOF.  Values
	 * are read by the thousand (counters at every job start and end). */
	int more = read_upto(fd, buf, size - 1, &got, true, true);
	int e = errno;
	close(fd);
	if (more) {
		buf[0] = '\0';
		if (more < 0 && e == EISDIR && (flags & ROCE_READFILE_DIR_KERNFS)) {
			/* opened without a look: refused as the look refuses it */
			roce_reading_set(r, ROCE_MALFORMED, 0, "%s is not a regular file (%s)", shown(&file),
			                 file_type(S_IFDIR));
			errno = EINVAL;
			return -1;
		}
		if (more < 0)
			return fail_errno(r, e, "read", &file);
		too_long(r, &file, size - 1);
		return -1;
	}
	buf[got] = '\0';
	roce_reading_set(r, ROCE_OK, 0, NULL);
	return (ssize_t)got;
}

int roce_readfile_open_failed(const char *dir, const char *path, int err, struct roce_reading *r)
{
	struct name file;
	file.dir = dir;
	file.path = path;
	return fail_errno(r, err, "open", &file);
}

int roce_readfile_open(int dfd, const char *dir, const char *path, int flags, struct roce_reading *r)
{
	struct name file;
	file.dir = dir;
	file.path = path;
	struct stat st;
	int fd = open_regular(dfd, &file, flags, &st, r);
	if (fd >= 0)
		roce_reading_set(r, ROCE_OK, 0, NULL);
	return fd;
}

/* Read the open fd to its end into *buf (*cap bytes, grown by realloc; at
 * least hint + 2 to start with), at most max bytes. */
static int read_grow(int fd, char **buf, size_t *cap, size_t hint, size_t max, size_t *got)
{
	/* One byte over the hint: a file of that size ends without a realloc. */
	size_t want = hint > 0 && hint < max ? hint + 1 : (max < 4096 ? max : 4096);
	*got = 0;
	for (;;) {
		if (*cap < want + 1) {
			char *grown = realloc(*buf, want + 1);
			if (!grown) {
				errno = ENOMEM;
				return -1;
			}
			*buf = grown;
			*cap = want + 1;
		}
		size_t limit = *cap - 1 < max ? *cap - 1 : max;
		int more = read_upto(fd, *buf, limit, got, limit == max, false);
		if (more <= 0 || limit == max)
			return more;
		want = limit > max / 2 ? max : 2 * limit;
	}
}

char *roce_readfile(int dfd, const char *dir, const char *path, size_t max, int flags, size_t *len,
                    struct roce_reading *r)
{
	struct stat st;
	char *buf = NULL;
	size_t cap = 0;
	if (roce_readfile_reuse(dfd, dir, path, max, flags, &buf, &cap, len, &st, r))
		return buf;
	free(buf);
	return NULL;
}

char *roce_readfile_reuse(int dfd, const char *dir, const char *path, size_t max, int flags, char **buf, size_t *cap,
                          size_t *len, struct stat *st, struct roce_reading *r)
{
	struct name file; /* no initializer: buf is written only when a message needs it */
	file.dir = dir;
	file.path = path;
	size_t got;

	int fd = open_regular(dfd, &file, flags, st, r);
	if (fd < 0)
		return NULL;
	/* st_size is only a hint (0 for /proc files): read to the end, up to max. */
	int more = read_grow(fd, buf, cap, (size_t)st->st_size, max, &got);
	int e = errno;
	close(fd);
	if (more < 0) {
		fail_errno(r, e, "read", &file);
	} else if (more > 0) {
		too_long(r, &file, max);
	} else if (st->st_size > 0 && got > (size_t)st->st_size) {
		/* Being written in place: not a finished file. */
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s: grew while being read", shown(&file));
		errno = EAGAIN;
	} else {
		(*buf)[got] = '\0';
		if (len)
			*len = got;
		roce_reading_set(r, ROCE_OK, 0, NULL);
		return *buf;
	}
	return NULL;
}
