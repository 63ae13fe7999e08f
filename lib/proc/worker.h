/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.h - run a function in a child process, with a deadline.
 *
 * sysfs reads cannot be interrupted and a wedged driver can block them for
 * minutes (asleep in the kernel: SIGKILL waits until the read returns).
 * Neither slurmstepd, the job prolog nor a health check may hang with them,
 * so the reads happen in a child that sends its result, a flat struct
 * without pointers, through a pipe.  The parent waits until the deadline,
 * then kills the child and goes on without waiting for it.
 *
 * The child runs in a copy of the caller, possibly a multi-threaded
 * slurmstepd: it must not take locks another thread may have held at fork
 * time (Slurm's logging, for one).  It reports only through its result.
 * Not pure: forks, and records stuck children in StateDir.
 */
#ifndef ROCE_WORKER_H
#define ROCE_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "read/policy.h"

/* fn fills res (len bytes, zeroed) in the child. */
typedef void (*roce_worker_fn)(const void *arg, void *res);

/* How a worker that did not answer ended. */
struct roce_worker_end {
	bool started;    /* false: no pipe or no fork, fn never ran */
	pid_t abandoned; /* timed out and still alive after SIGKILL (asleep in the kernel), else 0 */
	int signal;      /* died of this signal before it answered, else 0 */
};

/* Run fn in a child; its result lands in out.  -1 with errno ETIMEDOUT when
 * it did not answer within timeout_ms: it is killed and not waited for.
 * Other errors: -1 with errno (pipe, fork; EPIPE: the child ended without
 * answering).  end (may be NULL) says more on failure. */
int roce_worker_run(roce_worker_fn fn, const void *arg, void *out, size_t len, int timeout_ms,
                    struct roce_worker_end *end);

/* The memory of stuck workers (stuck.h) in the policy's StateDir, keyed by
 * sysfs_root (NULL = the policy's SysfsRoot), for a caller with messages of
 * its own (roce-check): roce_worker_stuck_earlier() is 1 with why set while
 * an earlier worker is stuck reading sysfs_root, else 0;
 * roce_worker_abandon() records the worker roce_worker_run abandoned (0 also
 * when it has died since; -1 with why set when StateDir cannot take the
 * record). */
int roce_worker_stuck_earlier(const struct roce_policy *p, const char *sysfs_root, struct roce_error *why);
int roce_worker_abandon(const struct roce_policy *p, const char *sysfs_root, pid_t abandoned, struct roce_error *why);

/* roce_worker_run with that memory, saying what happened: while an earlier
 * child is stuck, fails at once with errno EBUSY and why saying so; a child
 * abandoned now is recorded.  On any failure why says what happened, as a
 * clause ("the fabric check did not finish within 2500 ms ...").  what
 * names the job in that clause ("the fabric check"). */
int roce_worker_run_guarded(const struct roce_policy *p, const char *sysfs_root, const char *what, roce_worker_fn fn,
                            const void *arg, void *out, size_t len, int timeout_ms, struct roce_error *why);

#endif
