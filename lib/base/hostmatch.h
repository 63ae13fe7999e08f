/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostmatch.h - does a node name match a Slurm hostlist pattern?  Pure.
 *
 * The patterns of roce.conf's NodeName= sections, without libslurm (lib/
 * links no Slurm): comma-separated elements, each of literal characters
 * (letters, digits, '.', '_', '-'), the globs '*' (any run, also empty) and
 * '?' (one character), and bracket ranges as Slurm writes them,
 * "node[01-64,100]": a name matches when it is in the pattern's expansion,
 * so [01-64] takes node01 but not node1, and [1-64] node1 but not node01.
 * "ALL" alone matches every node.  Matching is case-sensitive, as Slurm's
 * node names are, and costs at most pattern length x name length steps
 * whatever the pattern (no backtracking).
 */
#ifndef ROCE_HOSTMATCH_H
#define ROCE_HOSTMATCH_H

#include <stdbool.h>
#include "base/error.h"

#define ROCE_HOSTMATCH_PATTERN_MAX 1024 /* bytes of a pattern */
#define ROCE_HOSTMATCH_NAME_MAX 255     /* a longer name matches nothing */

/* 0 when pattern is well formed; -1 with err saying where it is not. */
int roce_hostmatch_check(const char *pattern, struct roce_error *err);

/* Does name match an element of pattern?  False for a malformed pattern. */
bool roce_hostmatch(const char *pattern, const char *name);

#endif
