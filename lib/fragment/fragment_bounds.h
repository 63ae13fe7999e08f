/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragment_bounds.h - what an epilog can write into a fragment, for the
 * reader (fragment_read.h) to refuse the rest, naming the key: a fragment
 * on a shared file system is written by root of any node, or by the job's
 * user where there are no ACLs, and every number in it reaches a printer.
 *  - "seconds": -1 (the node's clock went back), 0 (no prolog snapshot), or
 *    1 ms to ten years; every rate divides by it ("seconds": 5e-324 made
 *    the rates infinite and the HTML heat map index out of its bounds);
 *  - each counter of a port: at most what a port at twice the fastest link
 *    rate we know (800 Gb/s) moves in bytes in that time and a minute more;
 *  - verdicts: at most what verdicts.c's rules give a node of that many
 *    ports, a user_override per NCCL variable recorded, and the path
 *    probe's: one per port and two for the node (jobprobe.h).
 * Pure.
 */
#ifndef ROCE_FRAGMENT_BOUNDS_H
#define ROCE_FRAGMENT_BOUNDS_H

#include "base/error.h"
#include "fragment/fragment.h"

/* 0, or -1 with err naming "seconds" and its value. */
int roce_fragment_bounds_seconds(double seconds, struct roce_error *err);
/* A whole fragment read: 0, or -1 with err naming the first value out of bounds. */
int roce_fragment_bounds_check(const struct roce_fragment *f, struct roce_error *err);

#endif
