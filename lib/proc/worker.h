/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.h - run a function in another task, with a deadline.
 *
 * sysfs reads cannot be interrupted and a wedged driver can block them for
 * minutes (asleep in the kernel: SIGKILL waits until the read returns).
 * Neither slurmstepd, the job prolog nor a health check may hang with them,
 * and nothing in one process can end such a read: a thread of ours asleep
 * in one keeps the process from exiting (the health check's caller waits
 * for its pid) and holds up every set*id() of its other threads (glibc
 * signals each thread and waits: slurmstepd drops privileges after the
 * check, so the step would hang).  So the reads happen in another task,
 * which the caller stops waiting for at the deadline, kills and leaves
 * (it dies when the read returns).  Two kinds:
 *
 *  - the shared task (roce_worker_run_shared): clone() without a copy: it
 *    runs on a stack of its own in the caller's memory, as the calling
 *    thread would (its libc state included), while that thread waits with
 *    every signal blocked; its result is written in place.  Nothing is
 *    copied or sent, so it costs what a thread costs (the forked worker
 *    costs a copy of the caller's page tables and a page fault per page
 *    either side writes after).  Killed at its deadline only where it holds
 *    no lock of libc's (kread.h); a caller that exits right after says so
 *    and it is killed wherever it is.  Not under valgrind or ASan (they
 *    cannot follow it), nor where clone() refuses: ENOSYS, fork instead.
 *  - the forked worker (roce_worker_run): a child that sends its result, a
 *    flat struct without pointers, through a pipe, and can be killed at
 *    any point.  It runs in a copy of the caller, possibly a multi-threaded
 *    slurmstepd: it must not take locks another thread may have held at
 *    fork time (Slurm's logging, for one).  Used where a worker has been
 *    late before on this node (stuck.h), and by the job prolog and epilog.
 *
 * Either reports only through its result.  Not pure: clones or forks, and
 * records stuck and late workers in StateDir.
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
	bool started; /* false: no pipe or no fork, fn never ran */
	bool late;    /* still running at its deadline (then abandoned, or it ended in the grace given a shared task) */
	pid_t abandoned; /* timed out and still alive after SIGKILL (asleep in the kernel), else 0 */
	int signal;      /* died of this signal before it answered, else 0 */
};

/* Run fn in a child; its result lands in out.  -1 with errno ETIMEDOUT when
 * it did not answer within timeout_ms: it is killed and not waited for.
 * Other errors: -1 with errno (pipe, fork; EPIPE: the child ended without
 * answering).  end (may be NULL) says more on failure. */
int roce_worker_run(roce_worker_fn fn, const void *arg, void *out, size_t len, int timeout_ms,
                    struct roce_worker_end *end);

/* What to do with a shared task still running at its deadline. */
enum roce_worker_late {
	/* The caller lives on (slurmstepd): killed only inside a marked call
	 * (kread.h); one computing or elsewhere in the kernel is given up to
	 * timeout_ms more, then killed wherever it is. */
	ROCE_WORKER_LATE_SAFE,
	/* The caller only reports and exits (roce-check): killed at once.  After
	 * a timeout the caller must not call malloc(), take a stdio lock of a
	 * stream the task used, or fork: the task may have died holding them. */
	ROCE_WORKER_LATE_KILL,
};

/* fn in a shared task (above): res (len bytes) is zeroed and written in
 * place by fn.  0 when fn returned (end->late: past the deadline, in the
 * grace).  -1 with errno: ENOSYS no shared task here, run the forked worker
 * (end->started false, as for other failures to start); ETIMEDOUT killed at
 * its deadline (end->abandoned when it outlived SIGKILL; res is then
 * whatever fn had written); EPIPE it ended without fn returning (a crash:
 * end->signal). */
int roce_worker_run_shared(roce_worker_fn fn, const void *arg, void *res, size_t len, int timeout_ms,
                           enum roce_worker_late late, struct roce_worker_end *end);

/* The memory of stuck workers (stuck.h) in the policy's StateDir, keyed by
 * sysfs_root (NULL = the policy's SysfsRoot), for a caller with messages of
 * its own (roce-check): roce_worker_stuck_earlier() is 1 with why set while
 * an earlier worker is stuck reading sysfs_root, else 0;
 * roce_worker_abandon() records the worker roce_worker_run abandoned (0 also
 * when it has died since; -1 with why set when StateDir cannot take the
 * record). */
int roce_worker_stuck_earlier(const struct roce_policy *p, const char *sysfs_root, struct roce_error *why);
int roce_worker_abandon(const struct roce_policy *p, const char *sysfs_root, pid_t abandoned, struct roce_error *why);
/* A worker late here before (stuck.h's late record): true, fork one. */
bool roce_worker_late_earlier(const struct roce_policy *p, const char *sysfs_root);
/* Both at once (one look at StateDir): roce_worker_stuck_earlier's answer, *late set. */
int roce_worker_earlier(const struct roce_policy *p, const char *sysfs_root, struct roce_error *why, bool *late);
/* Record a late worker (best effort: a caller without StateDir cannot). */
void roce_worker_record_late(const struct roce_policy *p, const char *sysfs_root);

/* How a guarded run runs fn: always forked, or in a shared task unless a
 * worker has been late on this node (then, or without a shared task, forked). */
enum roce_worker_how { ROCE_WORKER_FORKED, ROCE_WORKER_SHARED };

/* roce_worker_run with that memory, saying what happened: while an earlier
 * child is stuck, fails at once with errno EBUSY and why saying so; a child
 * abandoned now is recorded.  On any failure why says what happened, as a
 * clause ("the fabric check did not finish within 2500 ms ...").  what
 * names the job in that clause ("the fabric check"). */
int roce_worker_run_guarded(const struct roce_policy *p, const char *sysfs_root, const char *what,
                            enum roce_worker_how how, roce_worker_fn fn, const void *arg, void *out, size_t len,
                            int timeout_ms, struct roce_error *why);

#endif
