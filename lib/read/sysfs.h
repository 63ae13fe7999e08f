/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.h - rooted, bounded, fallible reads of sysfs attributes.
 *
 * Every path is relative to a root ("/sys" in production, a fixture tree in
 * tests).  Values are read whole but bounded (readfile.h: regular files only,
 * at most one page), a trailing newline is stripped, and anything that is not
 * printable text is reported MALFORMED rather than passed on.
 */
#ifndef ROCE_SYSFS_H
#define ROCE_SYSFS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include "base/model.h"

#define ROCE_SYSFS_VALUE_MAX 4096 /* a sysfs attribute is at most one page */

/* Read root/rel into buf (NUL-terminated, newline stripped).  0 on success,
 * -1 with r set (MISSING, UNREADABLE, MALFORMED for binary or oversized). */
int roce_sysfs_read(const char *root, const char *rel, char *buf, size_t len, struct roce_reading *r);

/* Read an unsigned decimal (counters).  "N/A (no PMA)" and garbage -> MALFORMED. */
int roce_sysfs_read_u64(const char *root, const char *rel, uint64_t *out, struct roce_reading *r);
int roce_sysfs_read_u64_at(int dfd, const char *dir, const char *name, uint64_t *out, struct roce_reading *r);

/* Basename of the resolved link root/rel (e.g. the PCI address behind device). */
int roce_sysfs_link_basename(const char *root, const char *rel, char *buf, size_t len, struct roce_reading *r);

/* Sorted entry names of directory root/rel ("." and ".." left out).
 * Natural order: "mlx5_2" before "mlx5_10", "9" before "10".  Free with roce_sysfs_names_free. */
int roce_sysfs_list(const char *root, const char *rel, char ***names, size_t *n, struct roce_reading *r);
void roce_sysfs_names_free(char **names, size_t n);
/* Natural order: digit runs compare as numbers, so mlx5_2 < mlx5_10 and node9 < node10. */
int roce_sysfs_natural_cmp(const char *x, const char *y);

/*
 * A directory whose attributes are read one after another (a port's, a PCI
 * function's, a netdev's): opened once (O_PATH), each value is then looked
 * up from it, one component instead of the whole path from the root.  A
 * path walk is most of what a sysfs read costs the kernel.  Files are
 * named in messages exactly as through the whole path (path/name).  A
 * directory that cannot be opened fails each read below it as the whole
 * path would have, without trying (the same errno, the same message).
 * What the directory is, looked at once, spares each read a check
 * (readfile.h's ROCE_READFILE_DIR_*): on sysfs nothing but the kernel
 * names files and none is a FIFO or a device; a directory only root (or
 * this euid) can write holds no file swapped behind our back.
 */
struct roce_sysfs_dir {
	int fd;              /* -1: not opened */
	int err;             /* why not (an errno), 0 when open */
	int flags;           /* readfile.h's ROCE_READFILE_DIR_*: what is known of it */
	char path[PATH_MAX]; /* "root/rel" */
};
/* root/rel, or rel below parent (root NULL).  Never fails as such: d says. */
void roce_sysfs_dir_open(struct roce_sysfs_dir *d, const char *root, const char *rel);
void roce_sysfs_dir_open_in(struct roce_sysfs_dir *d, const struct roce_sysfs_dir *parent, const char *rel);
void roce_sysfs_dir_close(struct roce_sysfs_dir *d);
/* roce_sysfs_read, _list and _link_basename of d/name (name may hold a '/'). */
int roce_sysfs_read_in(const struct roce_sysfs_dir *d, const char *name, char *buf, size_t len, struct roce_reading *r);
int roce_sysfs_list_in(const struct roce_sysfs_dir *d, const char *name, char ***names, size_t *n,
                       struct roce_reading *r);
int roce_sysfs_link_basename_in(const struct roce_sysfs_dir *d, const char *name, char *buf, size_t len,
                                struct roce_reading *r);

/* Path join helper: snprintf into buf, -1 when it would not fit. */
int roce_sysfs_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
