/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysfs.c - rooted, bounded, fallible reads of sysfs attributes. */
#include "config.h"
#include "read/sysfs.h"
#include "read/readfile.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int roce_sysfs_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

static int fail_errno(struct roce_reading *r, int err, const char *what, const char *path)
{
	roce_reading_set(r, roce_status_for_errno(err), err, "%s %s: %s", what, path, strerror(err));
	return -1;
}

/* Text check: sysfs values are printable ASCII lines. */
static bool is_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\t' || c == '\n')
			continue;
		if (c < 0x20 || c >= 0x7f)
			return false;
	}
	return true;
}

/* Messages name a value's file as "dir/name" (or name, when dir is NULL):
 * formatted only when a message is written. */
#define FILE_FMT "%s%s%s"
#define FILE_ARGS(dir, name) (dir) ? (dir) : "", (dir) ? "/" : "", (name)

/* One value: dfd/name (dfd AT_FDCWD and dir NULL: name is a path). */
static int read_value(int dfd, const char *dir, const char *name, int flags, char *buf, size_t len,
                      struct roce_reading *r)
{
	/* One page: more than that is not a sysfs value. */
	char tmp[ROCE_SYSFS_VALUE_MAX + 1];
	buf[0] = '\0';
	ssize_t n = roce_readfile_buf(dfd, dir, name, tmp, sizeof(tmp), flags, r);
	if (n < 0) {
		if (errno == EFBIG)
			roce_reading_set(r, ROCE_MALFORMED, 0, FILE_FMT ": value longer than %d bytes",
			                 FILE_ARGS(dir, name), ROCE_SYSFS_VALUE_MAX);
		return -1;
	}
	size_t got = (size_t)n;
	if (!is_text(tmp, got)) {
		roce_reading_set(r, ROCE_MALFORMED, 0, FILE_FMT ": value is not text", FILE_ARGS(dir, name));
		return -1;
	}
	while (got > 0 && (tmp[got - 1] == '\n' || tmp[got - 1] == ' '))
		got--;
	if (got >= len) {
		roce_reading_set(r, ROCE_MALFORMED, 0, FILE_FMT ": value longer than %zu bytes", FILE_ARGS(dir, name),
		                 len - 1);
		return -1;
	}
	memcpy(buf, tmp, got);
	buf[got] = '\0';
	return 0;
}

int roce_sysfs_read(const char *root, const char *rel, char *buf, size_t len, struct roce_reading *r)
{
	char path[PATH_MAX];
	buf[0] = '\0';
	if (roce_sysfs_path(path, sizeof(path), "%s/%s", root, rel) < 0) {
		roce_reading_set(r, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/%s", root, rel);
		return -1;
	}
	return read_value(AT_FDCWD, NULL, path, 0, buf, len, r);
}

/* A counter value read from dir/name. */
static int parse_u64(const char *buf, const char *dir, const char *name, uint64_t *out, struct roce_reading *r)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (buf[0] < '0' || buf[0] > '9' || *end != '\0' || errno == ERANGE) {
		roce_reading_set(r, ROCE_MALFORMED, 0, FILE_FMT ": \"%.40s\" is not a counter value",
		                 FILE_ARGS(dir, name), buf);
		return -1;
	}
	*out = v;
	return 0;
}

int roce_sysfs_read_u64(const char *root, const char *rel, uint64_t *out, struct roce_reading *r)
{
	char buf[64];
	if (roce_sysfs_read(root, rel, buf, sizeof(buf), r) < 0)
		return -1;
	return parse_u64(buf, root, rel, out, r);
}

int roce_sysfs_read_u64_at(int dfd, const char *dir, const char *name, uint64_t *out, struct roce_reading *r)
{
	char buf[64];
	if (read_value(dfd, dir, name, 0, buf, sizeof(buf), r) < 0)
		return -1;
	return parse_u64(buf, dir, name, out, r);
}

int roce_sysfs_link_basename(const char *root, const char *rel, char *buf, size_t len, struct roce_reading *r)
{
	char path[PATH_MAX], real[PATH_MAX];
	buf[0] = '\0';
	if (roce_sysfs_path(path, sizeof(path), "%s/%s", root, rel) < 0) {
		roce_reading_set(r, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/%s", root, rel);
		return -1;
	}
	if (!realpath(path, real))
		return fail_errno(r, errno, "cannot resolve", path);
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strlen(base) >= len || !is_text(base, strlen(base))) {
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s resolves to an unexpected name", path);
		return -1;
	}
	snprintf(buf, len, "%s", base);
	roce_reading_set(r, ROCE_OK, 0, NULL);
	return 0;
}

int roce_sysfs_natural_cmp(const char *x, const char *y)
{
	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			while (*x == '0' && isdigit((unsigned char)x[1]))
				x++;
			while (*y == '0' && isdigit((unsigned char)y[1]))
				y++;
			size_t lx = strspn(x, "0123456789"), ly = strspn(y, "0123456789");
			if (lx != ly)
				return lx < ly ? -1 : 1;
			int c = strncmp(x, y, lx);
			if (c)
				return c;
			x += lx;
			y += ly;
		} else {
			if (*x != *y)
				return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
			x++;
			y++;
		}
	}
	return (unsigned char)*x - (unsigned char)*y;
}

static int natural_cmp(const void *a, const void *b)
{
	return roce_sysfs_natural_cmp(*(char *const *)a, *(char *const *)b);
}

void roce_sysfs_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* getdents64's records (no DIR: opendir and fdopendir cost three more
 * system calls per listing, for nothing used here). */
struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Append name to names (n used of *cap); -1 out of memory. */
static int keep_name(char ***names, size_t *n, size_t *cap, const char *name)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		char **grown = realloc(*names, c * sizeof(**names));
		if (!grown)
			return -1;
		*names = grown;
		*cap = c;
	}
	if (!((*names)[*n] = strdup(name)))
		return -1;
	(*n)++;
	return 0;
}

/* The sorted names of directory fd (closed here); 0, or -1 with r set (out
 * of memory).  A failing getdents ends the listing, as readdir's NULL does. */
static int list_names(int fd, const char *path, char ***names_out, size_t *n_out, struct roce_reading *r)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	char buf[16384] __attribute__((aligned(8)));
	long got;
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			const struct dirent64_raw *e = (const struct dirent64_raw *)(buf + off);
			off += e->reclen;
			if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0)
				continue;
			if (keep_name(&names, &n, &cap, e->name) < 0)
				goto nomem;
		}
	}
	close(fd);
	if (n > 1)
		qsort(names, n, sizeof(*names), natural_cmp);
	*names_out = names;
	*n_out = n;
	roce_reading_set(r, ROCE_OK, 0, NULL);
	return 0;
nomem:
	close(fd);
	roce_sysfs_names_free(names, n);
	roce_reading_set(r, ROCE_UNREADABLE, ENOMEM, "out of memory listing %s", path);
	return -1;
}

/* As opendir() opens a directory. */
#define LIST_FLAGS (O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC)

int roce_sysfs_list(const char *root, const char *rel, char ***names_out, size_t *n_out, struct roce_reading *r)
{
	char path[PATH_MAX];

	*names_out = NULL;
	*n_out = 0;
	if (roce_sysfs_path(path, sizeof(path), "%s/%s", root, rel) < 0) {
		roce_reading_set(r, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/%s", root, rel);
		return -1;
	}
	int fd = open(path, LIST_FLAGS);
	if (fd < 0)
		return fail_errno(r, errno, "cannot list", path);
	return list_names(fd, path, names_out, n_out, r);
}

/* ------------------------------------------------------------ directories */

/* dir/name into buf, as roce_sysfs_path names it; -1 (r set, as the whole
 * path's reader says it) when it does not fit. */
static int join(char *buf, size_t len, const char *dir, const char *name, struct roce_reading *r)
{
	if (roce_sysfs_path(buf, len, "%s/%s", dir, name) < 0) {
		roce_reading_set(r, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/%s", dir, name);
		return -1;
	}
	return 0;
}

#define SYSFS_SUPER_MAGIC 0x62656572

/* Is the file system of device dev sysfs?  Asked once per device. */
static bool on_sysfs(int fd, dev_t dev)
{
	static __thread struct {
		dev_t dev;
		bool known, sysfs;
	} last;
	struct statfs sf;
	if (!last.known || last.dev != dev) {
		if (fstatfs(fd, &sf) < 0)
			return false;
		last.dev = dev;
		last.sysfs = sf.f_type == SYSFS_SUPER_MAGIC;
		last.known = true;
	}
	return last.sysfs;
}

static void dir_open_at(struct roce_sysfs_dir *d, int at, const char *rel)
{
	struct stat st;
	d->flags = 0;
	d->fd = openat(at, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	d->err = d->fd < 0 ? errno : 0;
	if (d->fd < 0 || fstat(d->fd, &st) < 0)
		return;
	if (on_sysfs(d->fd, st.st_dev))
		d->flags = ROCE_READFILE_DIR_KERNFS;
	else if ((st.st_uid == 0 || st.st_uid == geteuid()) && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		d->flags = ROCE_READFILE_DIR_PRIVATE;
}

/* The flags a read of d/name may use: PRIVATE speaks of d's own entries. */
static int read_flags(const struct roce_sysfs_dir *d, const char *name)
{
	return strchr(name, '/') ? d->flags & ~ROCE_READFILE_DIR_PRIVATE : d->flags;
}

void roce_sysfs_dir_open(struct roce_sysfs_dir *d, const char *root, const char *rel)
{
	struct roce_reading r;
	d->flags = 0;
	d->fd = -1;
	d->err = ENAMETOOLONG;
	if (join(d->path, sizeof(d->path), root, rel, &r) == 0)
		dir_open_at(d, AT_FDCWD, d->path);
}

void roce_sysfs_dir_open_in(struct roce_sysfs_dir *d, const struct roce_sysfs_dir *parent, const char *rel)
{
	struct roce_reading r;
	d->flags = 0;
	d->fd = -1;
	d->err = ENAMETOOLONG;
	if (join(d->path, sizeof(d->path), parent->path, rel, &r) < 0)
		return;
	if (parent->fd >= 0)
		dir_open_at(d, parent->fd, rel);
	else
		d->err = parent->err; /* the lookup fails where the parent's did */
}

void roce_sysfs_dir_close(struct roce_sysfs_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* d/name fits a path; and when d could not be opened, r says why as the
 * whole path's reader would (-1, errno set). */
static int in_dir(const struct roce_sysfs_dir *d, const char *name, struct roce_reading *r)
{
	/* join()'s test, by length: "%s/%s" is one byte more than both (no
	 * path formatted for each of the values read by the thousand). */
	if (strlen(d->path) + 1 + strlen(name) >= PATH_MAX) {
		roce_reading_set(r, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/%s", d->path, name);
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int roce_sysfs_read_in(const struct roce_sysfs_dir *d, const char *name, char *buf, size_t len, struct roce_reading *r)
{
	buf[0] = '\0';
	if (in_dir(d, name, r) < 0)
		return -1;
	if (d->fd < 0)
		return roce_readfile_open_failed(d->path, name, d->err, r);
	return read_value(d->fd, d->path, name, read_flags(d, name), buf, len, r);
}

int roce_sysfs_list_in(const struct roce_sysfs_dir *d, const char *name, char ***names_out, size_t *n_out,
                       struct roce_reading *r)
{
	char path[PATH_MAX];
	*names_out = NULL;
	*n_out = 0;
	if (join(path, sizeof(path), d->path, name, r) < 0)
		return -1;
	if (d->fd < 0)
		return fail_errno(r, d->err, "cannot list", path);
	int fd = openat(d->fd, name, LIST_FLAGS);
	if (fd < 0)
		return fail_errno(r, errno, "cannot list", path);
	return list_names(fd, path, names_out, n_out, r);
}

/* The basename of what d/name resolves to, as realpath() gives it, from
 * the link's text when that suffices: the link exists, leads somewhere,
 * and its last component is a name that is not itself a link (then it is
 * the resolved path's last component).  Two system calls where realpath
 * reads every component of the path.  0, 1 when only realpath can tell,
 * -1 when the link cannot be read as one (realpath says why). */
static int link_text_basename(const struct roce_sysfs_dir *d, const char *name, char *base, size_t len)
{
	char target[PATH_MAX];
	struct stat st;
	if (d->fd < 0)
		return 1;
	ssize_t n = readlinkat(d->fd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return 1;
	target[n] = '\0';
	const char *b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strchr(name, '/') || !*b || !strcmp(b, ".") || !strcmp(b, "..") || strlen(b) >= len)
		return 1;
	/* relative to the link's directory, d */
	if (fstatat(d->fd, target, &st, AT_SYMLINK_NOFOLLOW) < 0 || S_ISLNK(st.st_mode))
		return 1;
	memcpy(base, b, strlen(b) + 1);
	return 0;
}

int roce_sysfs_link_basename_in(const struct roce_sysfs_dir *d, const char *name, char *buf, size_t len,
                                struct roce_reading *r)
{
	char path[PATH_MAX], real[PATH_MAX], base[NAME_MAX + 1];
	buf[0] = '\0';
	if (join(path, sizeof(path), d->path, name, r) < 0)
		return -1;
	const char *b = base;
	if (link_text_basename(d, name, base, sizeof(base)) != 0) {
		if (!realpath(path, real))
			return fail_errno(r, errno, "cannot resolve", path);
		b = strrchr(real, '/');
		b = b ? b + 1 : real;
	}
	if (strlen(b) >= len || !is_text(b, strlen(b))) {
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s resolves to an unexpected name", path);
		return -1;
	}
	snprintf(buf, len, "%s", b);
	roce_reading_set(r, ROCE_OK, 0, NULL);
	return 0;
}
