/*
 * worker.c - run a function in a child process, with a deadline.
 *
 * sysfs reads cannot be interrupted and a wedged driver can block them for
 * minutes (in D state: SIGKILL waits until the read returns).  Neither
 * slurmstepd nor the job prolog may hang with them, so the reads happen in
 * a child that sends its result, a flat struct, through a pipe.  The parent
 * waits until the deadline, then kills the child and goes on without
 * waiting for it: a child stuck in the kernel stays a zombie until its
 * parent exits, which is harmless; waiting for it would not be.  The child
 * must not call Slurm's logging (another slurmstepd thread may have held
 * its lock at fork time): it reports only through the result.
 */
#include "config.h"
#include "roce.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

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
static int read_all(int fd, void *buf, size_t len, long deadline)
{
	char *p = buf;
	while (len) {
		long left = deadline - now_ms();
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

/* Reap the child; one stuck in the kernel (SIGKILL pending) is left alone. */
static void reap(pid_t child, bool killed)
{
	int status;
	for (int i = 0; i < (killed ? 20 : 1); i++) {
		pid_t r = waitpid(child, &status, killed ? WNOHANG : 0);
		if (r == child || (r < 0 && errno != EINTR))
			return;
		if (killed)
			usleep(1000);
	}
}

int roce_worker_run(roce_worker_fn fn, const void *arg, void *out, size_t len, int timeout_ms)
{
	int fds[2];
	long deadline = now_ms() + timeout_ms;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid_t child = fork();
	if (child < 0) {
		int saved = errno;
		close(fds[0]);
		close(fds[1]);
		errno = saved;
		return -1;
	}
	if (child == 0) {
		close(fds[0]);
		/* Results can be large: build them on the heap, not the caller's stack copy. */
		void *res = calloc(1, len);
		if (!res)
			_exit(2);
		fn(arg, res);
		_exit(write_all(fds[1], res, len) == 0 ? 0 : 1);
	}
	close(fds[1]);
	int rc = read_all(fds[0], out, len, deadline);
	int saved = errno;
	close(fds[0]);
	if (rc < 0)
		kill(child, SIGKILL);
	reap(child, rc < 0);
	errno = saved;
	return rc;
}
