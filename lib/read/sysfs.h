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

/* Path join helper: snprintf into buf, -1 when it would not fit. */
int roce_sysfs_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
