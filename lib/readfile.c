/* SPDX-License-Identifier: GPL-2.0-or-later */
/* readfile.c - bounded, fallible reads of whole regular files (readfile.h). */
#include "config.h"
#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "dir/path" for messages. */
static const char *shown(const char *dir, const char *path, char *buf, size_t len)
{
	if (!dir)
		return path;
	snprintf(buf, len, "%s/%s", dir, path);
	return buf;
}

/* A failed open or read: -1 with errno = err. */
static int fail_errno(struct roce_reading *r, int err, const char *what, const char *file)
{
	roce_reading_set(r, roce_status_for_errno(err), err, "cannot %s %s: %s", what, file, strerror(err));
	errno = err;
	return -1;
}

/* Open dfd/path for reading: a regular file (trusted when asked) or -1. */
static int open_regular(int dfd, const char *file, const char *path, int flags, struct stat *st,
                        struct roce_reading *r)
{
	int fd = openat(dfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	                               (flags & ROCE_READFILE_NOFOLLOW ? O_NOFOLLOW : 0));
	if (fd < 0)
		return fail_errno(r, errno, "open", file);
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s is not a regular file", file);
		errno = EINVAL;
		return -1;
	}
	if ((flags & ROCE_READFILE_TRUSTED) &&
	    ((st->st_uid != 0 && st->st_uid != geteuid()) || (st->st_mode & (S_IWGRP | S_IWOTH)))) {
		close(fd);
		roce_reading_set(r, ROCE_UNREADABLE, EPERM, "%s: not trusted (owner %u, mode %o)", file,
		                 (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777));
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Fill buf[*got..size) until EOF: 0 at EOF, 1 when buf is full and (probed
 * with a one-byte read when probe is set) more is left, -1 on a read error. */
static int read_upto(int fd, char *buf, size_t size, size_t *got, bool probe)
{
	for (;;) {
		char extra;
		bool full = *got == size;
		if (full && !probe)
			return 1;
		ssize_t n = read(fd, full ? &extra : buf + *got, full ? 1 : size - *got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		if (full)
			return 1;
		*got += (size_t)n;
	}
}

static void too_long(struct roce_reading *r, const char *file, size_t max)
{
	roce_reading_set(r, ROCE_MALFORMED, 0, "%s: longer than %zu bytes", file, max);
	errno = EFBIG;
}

ssize_t roce_readfile_buf(int dfd, const char *dir, const char *path, char *buf, size_t size, int flags,
                          struct roce_reading *r)
{
	char name[PATH_MAX];
	const char *file = shown(dir, path, name, sizeof(name));
	struct stat st;
	size_t got = 0;

	buf[0] = '\0';
	int fd = open_regular(dfd, file, path, flags, &st, r);
	if (fd < 0)
		return -1;
	int more = read_upto(fd, buf, size - 1, &got, true);
	int e = errno;
	close(fd);
	if (more) {
		buf[0] = '\0';
		if (more < 0)
			return fail_errno(r, e, "read", file);
		too_long(r, file, size - 1);
		return -1;
	}
	buf[got] = '\0';
	roce_reading_set(r, ROCE_OK, 0, NULL);
	return (ssize_t)got;
}

/* Read the open fd to its end into a growing buffer of at most max bytes. */
static char *read_grow(int fd, size_t hint, size_t max, size_t *got, int *more)
{
	/* One byte over the hint: a file of that size ends without a realloc. */
	size_t cap = hint > 0 && hint < max ? hint + 1 : (max < 4096 ? max : 4096);
	char *buf = malloc(cap + 1);
	*got = 0;
	while (buf) {
		*more = read_upto(fd, buf, cap, got, cap == max);
		if (*more <= 0 || cap == max)
			return buf;
		cap = cap > max / 2 ? max : 2 * cap;
		char *grown = realloc(buf, cap + 1);
		if (!grown)
			free(buf);
		buf = grown;
	}
	errno = ENOMEM;
	*more = -1;
	return NULL;
}

char *roce_readfile(int dfd, const char *dir, const char *path, size_t max, int flags, size_t *len,
                    struct roce_reading *r)
{
	char name[PATH_MAX];
	const char *file = shown(dir, path, name, sizeof(name));
	struct stat st;
	size_t got;
	int more;

	int fd = open_regular(dfd, file, path, flags, &st, r);
	if (fd < 0)
		return NULL;
	/* st_size is only a hint (0 for /proc files): read to the end, up to max. */
	char *buf = read_grow(fd, (size_t)st.st_size, max, &got, &more);
	int e = errno;
	close(fd);
	if (more < 0) {
		fail_errno(r, e, "read", file);
	} else if (more > 0) {
		too_long(r, file, max);
	} else if (st.st_size > 0 && got > (size_t)st.st_size) {
		/* Being written in place: not a finished file. */
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s: grew while being read", file);
		errno = EAGAIN;
	} else {
		buf[got] = '\0';
		if (len)
			*len = got;
		roce_reading_set(r, ROCE_OK, 0, NULL);
		return buf;
	}
	free(buf);
	return NULL;
}
