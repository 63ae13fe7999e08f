/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragment_read.h - a node's fragment read from its text, strictly, without
 * building a JSON tree (jsonpull.h): the merge reads 16,384 of them.
 *
 * What is refused, and how it is said:
 * not an object, another schema or job, a member missing, of another type or
 * out of range ("ports[2]: \"port\" = 300 out of range 1..255"), a member
 * given twice; a syntax error names the byte ("not valid JSON at byte 812:
 * expected ',' or '}'"); what no epilog writes (fragment_bounds.h: a
 * "seconds" of 5e-324, a counter beyond what a port counts in that time,
 * more verdicts than a node has), naming the key.  Every string kept is
 * escaped (printable.h).
 *
 * Adding a member: an entry in its object's table (name, type, required or
 * not) and a case in that object's member function, in fragment_read.c.
 */
#ifndef ROCE_FRAGMENT_READ_H
#define ROCE_FRAGMENT_READ_H

#include <stddef.h>
#include "base/error.h"
#include "fragment/fragment.h"

/* The fragment of job job_id in text (len bytes, unescaped in place: the
 * text is spoiled for another read) into *f; -1 with err (f then empty).
 * f's memory comes from pool (arena.h), f then to be freed before the pool
 * is; pool NULL: from malloc. */
int roce_fragment_read(struct roce_arena_pool *pool, char *text, size_t len, const char *job_id,
                       struct roce_fragment *f, struct roce_error *err);

#endif
