/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stuck.h - remember a collector that is stuck in the kernel.
 *
 * A read of a wedged sysfs attribute (a stuck firmware command) sleeps where
 * no signal ends it.  Collectors therefore run in a child that the caller
 * abandons at its deadline (SIGKILL, not waited for); the child lives on
 * until the read returns, possibly for minutes.  Without a memory of it,
 * every later step, prolog or health check would start one more such
 * process and wait its whole deadline.  So the caller that gives up records
 * the child in StateDir, and later callers ask first and answer at once
 * while that process lives.
 *
 * A marker is keyed by the sysfs root (a test tree that hangs says nothing
 * about /sys) and names the process by pid and start time, so a reused pid
 * is not mistaken for it.  Markers are root's: one in a StateDir or file
 * not owned by this euid is ignored.  Not pure: reads /proc, writes StateDir.
 */
#ifndef ROCE_STUCK_H
#define ROCE_STUCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "base/error.h"

struct roce_stuck {
	pid_t pid;
	long age_s; /* since the stuck process started */
};

/* Record pid (a collector just abandoned) as stuck reading sysfs_root (NULL
 * = "/sys").  0 also when pid is already gone; -1 with err set when StateDir
 * cannot take the marker. */
int roce_stuck_mark(const char *state_dir, const char *sysfs_root, pid_t pid, struct roce_error *err);

/* 1 with out filled: a recorded collector still lives; 0: none (a stale or
 * unreadable marker of ours is removed).  When there is none: an open, an
 * fstat of StateDir and one failed openat.  Two checks abandoned at once
 * share one marker: the later pid is kept. */
int roce_stuck_find(const char *state_dir, const char *sysfs_root, struct roce_stuck *out);

/*
 * A collector that ran past its deadline (stuck, or only slow) is also
 * remembered for good (until StateDir is emptied: a reboot, as it is a
 * tmpfs): a caller that would run its collector in a task sharing its
 * memory (worker.h) forks one instead on such a node, where a process can
 * be killed at any point.  Keyed by the sysfs root as the marker is.
 */
int roce_stuck_mark_late(const char *state_dir, const char *sysfs_root, struct roce_error *err);
bool roce_stuck_late_seen(const char *state_dir, const char *sysfs_root);
/* roce_stuck_find and roce_stuck_late_seen with one look at StateDir. */
int roce_stuck_find_late(const char *state_dir, const char *sysfs_root, struct roce_stuck *out, bool *late);

/* "an earlier fabric check (pid N, started M s ago) is still stuck ..." */
void roce_stuck_describe(const struct roce_stuck *s, char *buf, size_t len);

#endif
