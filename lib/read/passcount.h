/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * passcount.h - the health check's memory between runs: how many runs in a
 * row have passed since a drain of ours (check.h, roce_check_drain_next),
 * one number per node in StateDir/<node>.passes.
 *
 * StateDir is root's (safefile.h): the file is written atomically, 0600,
 * and read only when it is root's and writable by nobody else.  StateDir is
 * a tmpfs by default, so a reboot starts the count again: a node that comes
 * back from a reboot must pass again before it is resumed.  Not pure.
 */
#ifndef ROCE_PASSCOUNT_H
#define ROCE_PASSCOUNT_H

#include "base/error.h"

/* The count kept for node (a name roce_slurmid_node_ok accepts): 0 when
 * there is none.  A file that is not a count of ours (garbled, someone
 * else's) is 0 too, and is replaced by the next store.  -1 with err set
 * only when the node name is unusable. */
int roce_passcount_load(const char *state_dir, const char *node, unsigned *passes, struct roce_error *err);

/* Keep passes for node (0: the file is removed).  -1 with err set when
 * StateDir cannot take it (then the count starts again next run). */
int roce_passcount_store(const char *state_dir, const char *node, unsigned passes, struct roce_error *err);

#endif
