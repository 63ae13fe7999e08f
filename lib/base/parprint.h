/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parprint.h - a long list printed on several threads, in order: the
 * per-node part of a 16,384-node job report is formatted a chunk of nodes
 * per thread, each chunk into memory, and the chunks are written to the
 * stream in item order.  The output is byte for byte what one call of fn
 * over all items writes; only the time differs.
 *
 * fn prints items [begin, end) to out and returns 0, or -1 on failure.
 * It runs on other threads than the caller's: it may read what the caller
 * shares (the report) but must change nothing shared.
 */
#ifndef ROCE_PARPRINT_H
#define ROCE_PARPRINT_H

#include <stddef.h>
#include <stdio.h>

typedef int (*roce_parprint_fn)(FILE *out, size_t begin, size_t end, const void *arg);

/* Items [0, n) through fn, chunk items to a call: on the calling thread
 * alone when n fits one chunk or one CPU is usable (cpus.h), else on up to
 * 8 threads, holding at most one chunk's text per thread in memory.  0, or
 * -1 when fn failed, memory ran out or a write to out failed (errno). */
int roce_parprint(FILE *out, size_t n, size_t chunk, roce_parprint_fn fn, const void *arg);

#endif
