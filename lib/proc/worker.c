/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.c - run a function in another task, with a deadline (worker.h).
 *
 * A child stuck in the kernel stays a zombie until its parent exits, which is
 * harmless; waiting for it would not be.
 */
#include "config.h"
#include "proc/worker.h"
#include "base/clock.h"
#include "base/kread.h"
#include "proc/stuck.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#if HAVE_VALGRIND_VALGRIND_H
#include <valgrind/valgrind.h>
#endif

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes before the deadline; -1 with errno ETIMEDOUT or EPIPE otherwise. */
static int read_all(int fd, void *buf, size_t len, int64_t deadline)
{
	char *p = buf;
	while (len) {
		int64_t left = deadline - roce_clock_ms();
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n == 0 ? EPIPE : errno;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reap the child, its wait status in *status; one stuck in the kernel
 * (SIGKILL pending) is left alone: false then. */
static bool reap(pid_t child, bool killed, int *status)
{
	for (int i = 0; i < (killed ? 20 : 1); i++) {
		pid_t r = waitpid(child, status, killed ? WNOHANG : 0);
		if (r == child || (r < 0 && errno != EINTR))
			return true;
		if (killed)
			usleep(1000);
	}
	return false;
}

/* Whoever reads the caller's output (a Prolog= script's caller, a shell's
 * $(...)) must not wait for a worker stuck in the kernel: its own table's
 * stdin, stdout and stderr become /dev/null (fn may point stderr elsewhere). */
static void null_stdio(void)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
}

/* The child: fn, its result through the pipe, and nothing else. */
static __attribute__((noreturn)) void child_main(int fd, roce_worker_fn fn, const void *arg, size_t len, pid_t parent)
{
	/* A killed caller (slurmd's timeout, an admin's kill -9) takes its child
	 * along, unless the child is asleep in a kernel read: then SIGKILL waits
	 * for the read, as it would anyway.  (The signal follows the forking
	 * thread, which waits here until the child answers or is abandoned.) */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(3);
	null_stdio();
	/* Results can be large: build them on the heap, not the caller's stack copy. */
	void *res = calloc(1, len);
	if (!res)
		_exit(2);
	fn(arg, res);
	int rc = write_all(fd, res, len) == 0 ? 0 : 1;
	free(res); /* valgrind checks the child too */
	_exit(rc);
}

int roce_worker_run(roce_worker_fn fn, const void *arg, void *out, size_t len, int timeout_ms,
                    struct roce_worker_end *end)
{
	struct roce_worker_end none;
	int fds[2], status = 0;
	int64_t deadline = roce_clock_ms() + timeout_ms;

	end = end ? end : &none;
	memset(end, 0, sizeof(*end));
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0) {
		close(fds[0]);
		child_main(fds[1], fn, arg, len, parent);
	}
	int saved = errno;
	close(fds[1]);
	if (child < 0) {
		close(fds[0]);
		errno = saved;
		return -1;
	}
	end->started = true;
	int rc = read_all(fds[0], out, len, deadline);
	saved = errno;
	close(fds[0]);
	if (rc < 0)
		kill(child, SIGKILL);
	if (!reap(child, rc < 0, &status))
		end->abandoned = child;
	else if (rc < 0 && saved != ETIMEDOUT && WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		end->signal = WTERMSIG(status); /* it died before our SIGKILL: a crash */
	errno = saved;
	return rc;
}


/* ---------------------------------------------------------------- the shared task */

/*
 * clone(CLONE_VM) without CLONE_THREAD: a process of its own (the caller
 * may exit or set*id() while it sleeps in the kernel) in the caller's
 * memory, with a copy of its file table (its stdio goes to /dev/null
 * without touching the caller's) and of its signal handlers.  glibc does
 * not know it: it runs with the calling thread's thread-local state
 * (errno, malloc's cache, stdio's lock owner), which is sound while that
 * thread only waits in the kernel with every signal blocked, and while the
 * task runs no user code after we leave it.  Hence:
 *  - done: the write end of a pipe, only in the task's table, closes when
 *    its file table goes at exit, after its memory: by then it runs nothing.
 *  - late: SIGSTOP first, so that it runs no further user code; then, from
 *    its state and the kread mark, SIGKILL where that is safe (marked call;
 *    LATE_KILL: anywhere) or SIGCONT and give it more time.
 *  - abandoned (outlived SIGKILL: asleep in a read): its stack stays mapped
 *    for good, as the read returning still writes into its buffers; it
 *    never returns to user space.
 */
#define TASK_STACK (8u << 20) /* as a main thread's; reserved, not committed */
#define SETTLE_MS 200         /* for SIGSTOP to take: it needs a CPU under load */

struct task {
	roce_worker_fn fn;
	const void *arg;
	void *res;
	pid_t parent;
	volatile sig_atomic_t finished;
};

static int task_main(void *p)
{
	struct task *t = p;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != t->parent)
		return 3;
	null_stdio();
	t->fn(t->arg, t->res);
	t->finished = 1;
	return 0; /* glibc's clone() ends the task: no atexit, no stdio flush */
}

/* Neither valgrind nor the sanitizers' run time can follow a task that
 * shares memory without being a thread. */
static bool shared_possible(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return false;
#else
#if HAVE_VALGRIND_VALGRIND_H
	if (RUNNING_ON_VALGRIND)
		return false;
#endif
	/* without its header at build time: valgrind preloads its vgpreload_*.so */
	const char *pre = getenv("LD_PRELOAD");
	return !(pre && strstr(pre, "/vgpreload_"));
#endif
}

/* Until the pipe's write end closed (1) or deadline passed (0). */
static int wait_closed(int fd, int64_t deadline)
{
	char c;
	for (;;) {
		int64_t left = deadline - roce_clock_ms();
		if (left <= 0)
			return 0;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return 0;
		if (r > 0 && read(fd, &c, 1) <= 0)
			return 1; /* EOF: nothing is ever written */
	}
}

/* The task's state letter (/proc/<pid>/stat), 0 when it is gone.  Read
 * with plain system calls: the task shares our marks. */
static char task_state(pid_t pid)
{
	char path[48], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* SIGSTOP taken (T), or asleep where it cannot take it yet (D), or gone. */
static char stopped_state(pid_t pid)
{
	int64_t until = roce_clock_ms() + SETTLE_MS;
	char st;
	while ((st = task_state(pid)) == 'R' || st == 'S') {
		if (roce_clock_ms() >= until)
			break;
		sched_yield();
	}
	return st;
}

/*
 * A shared task late at its deadline: 1 when it ended meanwhile (reap it),
 * 0 when it is to be killed now.  Stopped, it runs no user code, so the
 * mark says where it is: inside a marked call it holds no lock of libc's.
 * Elsewhere (computing on a loaded machine, in malloc, in an unmarked
 * call) it is let go on until `until`, checked every 100 ms.
 */
static int let_late_task_finish(int fd, pid_t pid, int64_t until)
{
	for (;;) {
		kill(pid, SIGSTOP);
		char st = stopped_state(pid);
		if (st == 0 || st == 'Z' || st == 'X')
			return 1;
		if ((st == 'T' || st == 't' || st == 'D') && roce_kread_depth > 0)
			return 0;
		kill(pid, SIGCONT);
		int64_t now = roce_clock_ms();
		if (now >= until)
			return 0;
		if (wait_closed(fd, now + 100 < until ? now + 100 : until))
			return 1;
	}
}

/* The task ended (its file table is gone): reaped, and did fn return? */
static int task_ended(pid_t pid, const struct task *t, struct roce_worker_end *end)
{
	int status = 0;
	while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
		;
	if (t->finished)
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		end->signal = WTERMSIG(status);
	errno = EPIPE;
	return -1;
}

/* Kill the late task; reaped unless asleep in the kernel (then abandoned). */
static void kill_task(pid_t pid, struct roce_worker_end *end)
{
	int status;
	kill(pid, SIGKILL);
	for (int i = 0; i < 20; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG | __WALL);
		if (r == pid || (r < 0 && errno != EINTR))
			return;
		usleep(1000);
	}
	end->abandoned = pid;
}

static int wait_task(int fd, pid_t pid, struct task *t, int timeout_ms, enum roce_worker_late late,
                     struct roce_worker_end *end)
{
	int64_t deadline = roce_clock_ms() + timeout_ms;
	if (wait_closed(fd, deadline))
		return task_ended(pid, t, end);
	end->late = true;
	if (late == ROCE_WORKER_LATE_SAFE && let_late_task_finish(fd, pid, deadline + timeout_ms))
		return task_ended(pid, t, end);
	kill_task(pid, end);
	errno = ETIMEDOUT;
	return -1;
}

int roce_worker_run_shared(roce_worker_fn fn, const void *arg, void *res, size_t len, int timeout_ms,
                           enum roce_worker_late late, struct roce_worker_end *end)
{
	struct roce_worker_end none;
	int fds[2], rc = -1, saved;
	sigset_t all, old;

	end = end ? end : &none;
	memset(end, 0, sizeof(*end));
	memset(res, 0, len);
	if (!shared_possible()) {
		errno = ENOSYS;
		return -1;
	}
	long page = sysconf(_SC_PAGESIZE);
	size_t guard = page > 0 ? (size_t)page : 4096;
	char *stack = mmap(NULL, guard + TASK_STACK, PROT_READ | PROT_WRITE,
	                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	if (mprotect(stack, guard, PROT_NONE) < 0 || pipe2(fds, O_CLOEXEC) < 0)
		goto fail;
	struct task t = { .fn = fn, .arg = arg, .res = res, .parent = getpid() };
	/* Blocked in the task from its first instruction, and here while it
	 * runs: no handler of the caller's runs on the thread whose state the
	 * task is using. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid_t pid = clone(task_main, stack + guard + TASK_STACK, CLONE_VM, &t);
	saved = errno;
	close(fds[1]);
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fds[0]);
		errno = saved == EINVAL || saved == EPERM ? ENOSYS : saved;
		goto fail;
	}
	end->started = true;
	rc = wait_task(fds[0], pid, &t, timeout_ms, late, end);
	saved = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[0]);
	if (!end->abandoned) /* else its stack stays: see above */
		munmap(stack, guard + TASK_STACK);
	errno = saved;
	return rc;
fail:
	saved = errno;
	munmap(stack, guard + TASK_STACK);
	errno = saved;
	return -1;
}

/* ---------------------------------------------------------------- guarded */

int roce_worker_stuck_earlier(const struct roce_policy *p, const char *sysfs_root, struct roce_error *why)
{
	struct roce_stuck stuck;
	if (roce_stuck_find(p->state_dir, sysfs_root ? sysfs_root : p->sysfs_root, &stuck) != 1)
		return 0;
	roce_stuck_describe(&stuck, why->msg, sizeof(why->msg));
	return 1;
}

int roce_worker_abandon(const struct roce_policy *p, const char *sysfs_root, pid_t abandoned, struct roce_error *why)
{
	roce_worker_record_late(p, sysfs_root);
	return roce_stuck_mark(p->state_dir, sysfs_root ? sysfs_root : p->sysfs_root, abandoned, why);
}

int roce_worker_earlier(const struct roce_policy *p, const char *sysfs_root, struct roce_error *why, bool *late)
{
	struct roce_stuck stuck;
	if (roce_stuck_find_late(p->state_dir, sysfs_root ? sysfs_root : p->sysfs_root, &stuck, late) != 1)
		return 0;
	roce_stuck_describe(&stuck, why->msg, sizeof(why->msg));
	return 1;
}

bool roce_worker_late_earlier(const struct roce_policy *p, const char *sysfs_root)
{
	return roce_stuck_late_seen(p->state_dir, sysfs_root ? sysfs_root : p->sysfs_root);
}

void roce_worker_record_late(const struct roce_policy *p, const char *sysfs_root)
{
	struct roce_error err;
	roce_stuck_mark_late(p->state_dir, sysfs_root ? sysfs_root : p->sysfs_root, &err);
}

/* The shared task, unless none can be made: 1 not run (fork), else
 * roce_worker_run_shared's answer. */
static int try_shared(const struct roce_policy *p, const char *sysfs_root, roce_worker_fn fn, const void *arg,
                      void *out, size_t len, int timeout_ms, struct roce_worker_end *end)
{
	int rc = roce_worker_run_shared(fn, arg, out, len, timeout_ms, ROCE_WORKER_LATE_SAFE, end);
	int saved = errno;
	if (end->late && !end->abandoned) /* abandoned: roce_worker_abandon records it */
		roce_worker_record_late(p, sysfs_root);
	errno = saved;
	return rc < 0 && !end->started ? 1 : rc;
}

int roce_worker_run_guarded(const struct roce_policy *p, const char *sysfs_root, const char *what,
                            enum roce_worker_how how, roce_worker_fn fn, const void *arg, void *out, size_t len,
                            int timeout_ms, struct roce_error *why)
{
	struct roce_error merr = { "" };
	struct roce_worker_end end;

	/* An earlier child still asleep in a read: this one would hang there too.
	 * One late before: a forked worker, which can be killed anywhere. */
	bool late;
	if (roce_worker_earlier(p, sysfs_root, why, &late)) {
		errno = EBUSY;
		return -1;
	}
	int rc =
	        how == ROCE_WORKER_SHARED && !late ? try_shared(p, sysfs_root, fn, arg, out, len, timeout_ms, &end) : 1;
	if (rc == 1)
		rc = roce_worker_run(fn, arg, out, len, timeout_ms, &end);
	if (rc == 0)
		return 0;
	int saved = errno;
	if (saved != ETIMEDOUT) {
		roce_error_set(why, "%s process failed: %s", what, strerror(saved));
	} else if (end.abandoned && roce_worker_abandon(p, sysfs_root, end.abandoned, &merr) < 0) {
		roce_error_set(why,
		               "%s did not finish within %d ms (TimeoutMs=%d): a sysfs or netlink read hangs "
		               "(and it cannot be recorded: %s)",
		               what, timeout_ms, p->timeout_ms, merr.msg);
	} else {
		roce_error_set(why, "%s did not finish within %d ms (TimeoutMs=%d): a sysfs or netlink read hangs",
		               what, timeout_ms, p->timeout_ms);
	}
	errno = saved;
	return -1;
}
