/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strcopy.h - a string copied into a buffer and cut to fit, as
 * snprintf(dst, len, "%s", src) would, without printf: the epilog makes a
 * hundred verdicts and the merge a value per port, node and row, and the
 * format machinery was a fifth of their cost.  Pure.
 */
#ifndef ROCE_STRCOPY_H
#define ROCE_STRCOPY_H

#include <stddef.h>

/* src into dst (len >= 1 bytes), cut to len - 1 bytes, NUL-terminated;
 * the bytes copied (without the NUL). */
size_t roce_strcopy(char *dst, size_t len, const char *src);

#endif
