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
 */
#ifndef ROCE_WORKER_H
#define ROCE_WORKER_H

#include <stddef.h>
#include <sys/types.h>
#include "policy.h"

/* fn fills res (len bytes, zeroed) in the child. */
typedef void (*roce_worker_fn)(const void *arg, void *res);

/* Run fn in a child; its result lands in out.  -1 with errno ETIMEDOUT when
 * it did not answer within timeout_ms: it is killed and not waited for, and
 * *abandoned holds its pid when it is still alive (asleep in the kernel),
 * else 0.  Other errors: -1 with errno (fork, pipe, the child died). */
int roce_worker_run(roce_worker_fn fn, const void *arg, void *out, size_t len, int timeout_ms, pid_t *abandoned);

/* For a caller that runs its own child (roce-check relays its output):
 * roce_worker_stuck_earlier() is 1 with why set while an earlier child is
 * stuck reading sysfs_root (NULL = the policy's SysfsRoot), else 0;
 * roce_worker_abandon() reaps a child just killed at its deadline if it
 * dies at once, else records it as stuck (-1 with why set when StateDir
 * cannot take the record). */
int roce_worker_stuck_earlier(const struct roce_policy *p, const char *sysfs_root, struct roce_error *why);
int roce_worker_abandon(const struct roce_policy *p, const char *sysfs_root, pid_t killed, struct roce_error *why);

/* The same, with the memory of stuck children (stuck.h) in the policy's
 * StateDir, keyed by sysfs_root (NULL = the policy's SysfsRoot): while an
 * earlier child is stuck, fails at once with errno EBUSY and why saying so;
 * a child abandoned now is recorded.  On any failure why says what happened,
 * as a clause ("the fabric check did not finish within 2500 ms ...").
 * what names the job in that clause ("the fabric check"). */
int roce_worker_run_guarded(const struct roce_policy *p, const char *sysfs_root, const char *what,
                            roce_worker_fn fn, const void *arg, void *out, size_t len, int timeout_ms,
                            struct roce_error *why);

#endif
