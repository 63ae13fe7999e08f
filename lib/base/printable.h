/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * printable.h - a printable copy of hostile text: the one escaping rule for
 * log lines, JSON strings, text reports and Slurm drain reasons.
 *
 * Printable ASCII is copied as it is, except the backslash, which becomes
 * "\\"; newline, tab and carriage return become "\n", "\t", "\r"; every
 * other byte (control bytes, DEL, anything >= 0x80) becomes "\xNN".  So the
 * copy is one line of printable ASCII that shows exactly which bytes were
 * there, and ordinary text (names, numbers, our own messages, quotes
 * included) comes out unchanged.  A copy that does not fit is cut at a
 * whole escape and ends in "...".  Pure.
 */
#ifndef ROCE_PRINTABLE_H
#define ROCE_PRINTABLE_H

#include <stddef.h>
#include <stdio.h>
#include "base/arena.h"

/* Escape s (NULL = "") into out (len bytes, always terminated when len > 0).
 * Returns out, for use as a printf argument. */
const char *roce_printable(const char *s, char *out, size_t len);
/* The same for the first n bytes of s (stops early at a NUL). */
const char *roce_printable_n(const char *s, size_t n, char *out, size_t len);
/* The whole escaped copy in malloc'd memory (NULL on ENOMEM). */
char *roce_printable_dup(const char *s);
/* The same in arena a. */
char *roce_printable_dup_in(struct roce_arena *a, const char *s);
/* The escaped copy written to out as HTML text or a double-quoted attribute
 * value: the same rule, and & < > " ' as character references. */
void roce_printable_html(FILE *out, const char *s);

#endif
