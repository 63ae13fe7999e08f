/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.c - run a function in a child process, with a deadline (worker.h).
 *
 * A child stuck in the kernel stays a zombie until its parent exits, which is
 * harmless; waiting for it would not be.
 */
#include "config.h"
#include "proc/worker.h"
#include "base/clock.h"
#include "proc/stuck.h"

#include <errno.h>
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

/* The child: fn, its result through the pipe, and nothing else. */
static __attribute__((noreturn)) void child_main(int fd, roce_worker_fn fn, const void *arg, size_t len, pid_t parent)
{
	/* A killed caller (slurmd's timeout, an admin's kill -9) takes its child
	 * along, unless the child is asleep in a kernel read: then SIGKILL waits
	 * for the read, as it would anyway.  (The signal follows the forking
	 * thread, which waits here until the child answers or is abandoned.) */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(3);
	/* Whoever reads the caller's output (a Prolog= script's caller, a
	 * shell's $(...)) must not wait for a child stuck in the kernel. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
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
	return roce_stuck_mark(p->state_dir, sysfs_root ? sysfs_root : p->sysfs_root, abandoned, why);
}

int roce_worker_run_guarded(const struct roce_policy *p, const char *sysfs_root, const char *what, roce_worker_fn fn,
                            const void *arg, void *out, size_t len, int timeout_ms, struct roce_error *why)
{
	struct roce_error merr = { "" };
	struct roce_worker_end end;

	/* An earlier child still asleep in a read: this one would hang there too. */
	if (roce_worker_stuck_earlier(p, sysfs_root, why)) {
		errno = EBUSY;
		return -1;
	}
	if (roce_worker_run(fn, arg, out, len, timeout_ms, &end) == 0)
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
