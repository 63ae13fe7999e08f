/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kread.h - marks the system calls that may sleep in a driver.
 *
 * A read of a sysfs attribute or a netlink request runs driver code (a
 * firmware command) that a wedged adapter can keep asleep for minutes, where
 * no signal ends it.  The collectors therefore run in a worker that the
 * caller gives up on at its deadline (lib/proc/worker.c).  A worker that
 * shares the caller's memory (the shared task) may be killed only where it
 * holds nothing the caller still needs: inside a marked call it is in the
 * kernel on behalf of our own code, with no lock of libc's (malloc's,
 * stdio's) taken.  Mark only direct system calls made outside any lock.
 * Pure: one counter, written by the thread or task that runs the collectors.
 */
#ifndef ROCE_KREAD_H
#define ROCE_KREAD_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* > 0 while inside a marked call.  Volatile: a stopped task's value is read
 * by the task that shares its memory. */
extern volatile sig_atomic_t roce_kread_depth;

static inline void roce_kread_enter(void) { roce_kread_depth = roce_kread_depth + 1; }
static inline void roce_kread_leave(void) { roce_kread_depth = roce_kread_depth - 1; }

/* read() and pread(), marked. */
ssize_t roce_kread_read(int fd, void *buf, size_t len);
ssize_t roce_kread_pread(int fd, void *buf, size_t len, off_t off);

#endif
