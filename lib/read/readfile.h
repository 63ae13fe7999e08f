/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readfile.h - bounded, fallible reads of whole regular files.
 *
 * The one way the project reads a file it did not just create (sysfs
 * values, topology XML and its cache, report fragments, state files, stuck
 * markers): looked at first, so that anything but a regular file is
 * refused without being opened (a FIFO's writer is not released, no device
 * driver is called); then opened O_NONBLOCK|O_NOCTTY, the file examined and
 * no other, and read to its end but never past the caller's bound.  Failures fill a struct
 * roce_reading (model.h) naming the file and set errno:
 *   MISSING / UNREADABLE / UNSUPPORTED  open or read failed (r->err = errno)
 *   MALFORMED  not a regular file (EINVAL: "... (a FIFO)"), longer than the bound (EFBIG),
 *              grew while being read (EAGAIN)
 *   UNREADABLE with ROCE_READFILE_TRUSTED: not trusted (EPERM)
 * Files are named in messages as "dir/path" (dir NULL: as path).
 */
#ifndef ROCE_READFILE_H
#define ROCE_READFILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "base/model.h"

/* A file in a directory others may write: a symlink as the last component
 * is refused (ELOOP), and the file is opened through the O_PATH descriptor
 * it was examined with (no window for a swap, even with NFS attribute
 * caching).  Without it (sysfs, /proc, the admin's files) an fstatat is
 * the look, and the file opened must be the same. */
#define ROCE_READFILE_NOFOLLOW 0x1
#define ROCE_READFILE_TRUSTED 0x2 /* owned by root or this euid, writable by nobody else */
/* For reads of dfd/path with a directory fd whose caller knows more (sysfs.c
 * checks each directory once): PRIVATE, nobody but root or this euid can
 * name or rename its entries (owned so, writable by nobody else: path has
 * no '/'), so the file opened is not checked again against the one
 * examined; KERNFS, a kernel file system that holds no FIFO or device
 * (sysfs: only regular files, directories and links, named by the
 * kernel), so the file is opened without looking first (a directory opened
 * so is refused as the look would have refused it). */
#define ROCE_READFILE_DIR_PRIVATE 0x4
#define ROCE_READFILE_DIR_KERNFS 0x8

/* Read dfd/path (dfd AT_FDCWD: path as it is) into buf (size >= 1 bytes): at
 * most size - 1 bytes, NUL-terminated.  The byte count, or -1 (r set, buf ""). */
ssize_t roce_readfile_buf(int dfd, const char *dir, const char *path, char *buf, size_t size, int flags,
                          struct roce_reading *r);

/* What roce_readfile_buf() says of dir/path when opening it fails with err,
 * for a reader that knows so without trying (its directory cannot be
 * opened: the lookup fails at the same component).  -1, errno err. */
int roce_readfile_open_failed(const char *dir, const char *path, int err, struct roce_reading *r);

/* The file examined and opened as roce_readfile_buf() does, for a reader
 * that wants only parts of it (pread: a config space's capability
 * headers, not its 4 KiB).  The descriptor (the caller closes it), or -1
 * (r set, errno). */
int roce_readfile_open(int dfd, const char *dir, const char *path, int flags, struct roce_reading *r);
/* The whole file (at most max bytes) in malloc'd memory, NUL-terminated;
 * *len (may be NULL) gets its length.  NULL on failure (r set). */
char *roce_readfile(int dfd, const char *dir, const char *path, size_t max, int flags, size_t *len,
                    struct roce_reading *r);
/* The same into *buf (*cap bytes, NULL and 0 at first), grown with realloc
 * and kept for the next file: one buffer for the many files of a
 * directory.  *buf on success; NULL on failure (r set; *buf, still the
 * caller's to free, may have grown). */
char *roce_readfile_reuse(int dfd, const char *dir, const char *path, size_t max, int flags, char **buf, size_t *cap,
                          size_t *len, struct stat *st, struct roce_reading *r);

#endif
