/* SPDX-License-Identifier: GPL-2.0-or-later */
/* command.c - a program run with a deadline, killed after it (command.h). */
#include "config.h"
#include "proc/command.h"
#include "base/clock.h"
#include "base/printable.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a killed program is waited for before it is left (a zombie
 * until we exit): one asleep in the kernel cannot die sooner. */
#define REAP_MS 1000

/* The child: the program with our pipes as its output, in a process group
 * of its own (killed whole), dying with us (a health check killed by
 * slurmd takes its scontrol along). */
static __attribute__((noreturn)) void child_main(const char *const argv[], int out, int err, pid_t parent)
{
	sigset_t none;
	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(126);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(126);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], (char *const *)argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Append what fd has to buf (len bytes, used so far; NULL or 0: none),
 * dropping what does not fit; false at end of file or error. */
static bool drain_fd(int fd, char *buf, size_t len, size_t *used)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (!buf || !len)
		return true;
	size_t room = len - 1 - *used, take = (size_t)n < room ? (size_t)n : room;
	memcpy(buf + *used, tmp, take);
	*used += take;
	buf[*used] = '\0';
	return true;
}

/* Read both pipes and wait for the child until the deadline; true when it
 * exited (status in *status) before. */
static bool collect(pid_t pid, int out, int err, int64_t deadline, char *obuf, size_t olen, char *ebuf, size_t elen,
                    int *status)
{
	struct pollfd p[2] = { { .fd = out, .events = POLLIN }, { .fd = err, .events = POLLIN } };
	size_t oused = 0, eused = 0;
	bool reaped = false;
	for (;;) {
		if (!reaped && waitpid(pid, status, WNOHANG) == pid)
			reaped = true;
		bool open = p[0].fd >= 0 || p[1].fd >= 0;
		if (reaped && !open)
			return true;
		int64_t left = deadline - roce_clock_ms();
		if (left <= 0)
			return reaped;
		if (!open) {
			usleep(left < 10 ? (useconds_t)left * 1000 : 10000);
			continue;
		}
		/* It may exit while a grandchild keeps a pipe open: look again now and then. */
		int n = poll(p, 2, reaped ? 0 : (left < 100 ? (int)left : 100));
		if (n < 0 && errno != EINTR)
			return reaped;
		if (p[0].fd >= 0 && p[0].revents && !drain_fd(out, obuf, olen, &oused))
			p[0].fd = -1;
		if (p[1].fd >= 0 && p[1].revents && !drain_fd(err, ebuf, elen, &eused))
			p[1].fd = -1;
		if (reaped && n == 0)
			return true; /* it exited; what a grandchild writes later is not its answer */
	}
}

/* Kill the program and its group, and wait a moment for them. */
static void kill_and_reap(pid_t pid, int *status)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	for (int i = 0; i < REAP_MS / 10; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return;
		usleep(10000);
	}
}

int roce_command_run(const char *const argv[], int timeout_ms, char *obuf, size_t olen, struct roce_command *c)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, status = 0;
	char ebuf[1024] = "";

	memset(c, 0, sizeof(*c));
	c->status = -1;
	if (obuf && olen)
		obuf[0] = '\0';
	int64_t deadline = roce_clock_ms() + timeout_ms;
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		c->error = errno;
		goto fail;
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		child_main(argv, out[1], err[1], parent);
	if (pid < 0) {
		c->error = errno;
		goto fail;
	}
	setpgid(pid, pid); /* whichever of us gets there first */
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	if (collect(pid, out[0], err[0], deadline, obuf, olen, ebuf, sizeof(ebuf), &status)) {
		if (WIFEXITED(status))
			c->status = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			c->signal = WTERMSIG(status);
		kill(-pid, SIGKILL); /* what it left behind in its group */
	} else {
		c->timed_out = true;
		kill_and_reap(pid, &status);
	}
	ebuf[strcspn(ebuf, "\n")] = '\0';
	roce_printable(ebuf, c->err, sizeof(c->err));
fail:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	return c->status == 0 ? 0 : -1;
}

void roce_command_describe(const char *const argv[], const struct roce_command *c, int timeout_ms, char *buf,
                           size_t len)
{
	const char *name = argv[0];
	if (c->error)
		snprintf(buf, len, "%s could not be started: %s", name, strerror(c->error));
	else if (c->timed_out)
		snprintf(buf, len, "%s did not answer within %d ms (killed)", name, timeout_ms);
	else if (c->signal)
		snprintf(buf, len, "%s was killed by signal %d", name, c->signal);
	else if (c->err[0])
		snprintf(buf, len, "%s exited with status %d: %s", name, c->status, c->err);
	else
		snprintf(buf, len, "%s exited with status %d", name, c->status);
}
