/*
 * checks.c - collect, check and plan in a child process with a deadline.
 *
 * sysfs reads cannot be interrupted and a wedged driver can block them for
 * minutes; slurmstepd must not hang with them.  The child does all the I/O
 * and sends back a flat struct; the parent waits at most the policy's
 * timeout plus a margin and kills the child if it is late (a child stuck
 * in an uninterruptible read stays a zombie until slurmstepd exits, which
 * is harmless; waiting for it would not be).  The child never
 * calls Slurm's logging (another slurmstepd thread may hold its lock at
 * fork time): it only reports through the pipe.
 */
#include "config.h"
#include "roce.h"
#include "collect.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROCE_CHILD_MARGIN_MS 500

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000L;
}

static void summarize(const struct roce_check_result *c, struct roce_step_result *out)
{
	out->failed = c->failed;
	out->n_pass = c->n_pass;
	out->n_warn = c->n_warn;
	out->n_fail = c->n_fail;
	out->n_unknown = c->n_unknown;
	out->n_ports = c->n_ports;
	for (size_t i = 0; i < c->n_ports; i++)
		out->n_healthy += c->ports[i].healthy;
	for (size_t i = 0; i < c->n_findings && out->n_findings < ROCE_MAX_FINDINGS; i++)
		if (c->findings[i].status != ROCE_PASS)
			out->findings[out->n_findings++] = c->findings[i];
	out->drain = roce_check_drain_reason(c, out->drain_reason, sizeof(out->drain_reason)) == 1;
}

/* The child's whole job.  Fills out; never fails silently. */
static void run_in_child(const struct roce_policy *p, struct roce_step_result *out)
{
	struct roce_node node;
	struct roce_check_result check;
	/* No libibverbs: ibv_get_device_list() loads every provider plugin (ms per step)
	 * and the MTU it would cross-check is already derived from the netdev. */
	struct roce_collect_opts opts = { .sysfs_root = NULL, .netlink = true, .verbs = false };

	long t0 = now_us();
	roce_node_init(&node);
	memset(&check, 0, sizeof(check));
	/* A collector error is recorded per field in the model; check() judges it. */
	(void)roce_collect(&node, p, &opts);
	out->collect_us = now_us() - t0;
	if (roce_check(&node, p, &check) < 0) {
		out->rc = -1;
		snprintf(out->error, sizeof(out->error), "out of memory while checking");
		goto done;
	}
	summarize(&check, out);
	if (roce_plan_build(&node, p, &check, NULL, &out->plan) < 0) {
		out->rc = -1;
		snprintf(out->error, sizeof(out->error), "%s", out->plan.why);
	}
	out->check_us = now_us() - t0 - out->collect_us;
done:
	{
		struct timespec cpu;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		out->worker_cpu_us = cpu.tv_sec * 1000000L + cpu.tv_nsec / 1000L;
	}
	roce_check_result_free(&check);
	roce_node_free(&node);
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

/* Read exactly len bytes before the deadline; -1 (errno ETIMEDOUT/EPIPE) otherwise. */
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

/* Parent side: the worker's result before the deadline, else kill it. */
static int collect_result(int fd, pid_t worker, long deadline, const struct roce_policy *p,
                          struct roce_step_result *out)
{
	if (read_all(fd, out, sizeof(*out), deadline) == 0)
		return 0;
	int saved = errno;
	kill(worker, SIGKILL);
	memset(out, 0, sizeof(*out));
	if (saved == ETIMEDOUT)
		snprintf(out->error, sizeof(out->error),
		         "the fabric check did not finish within %d ms (TimeoutMs=%d): a sysfs or netlink read hangs",
		         p->timeout_ms + ROCE_CHILD_MARGIN_MS, p->timeout_ms);
	else
		snprintf(out->error, sizeof(out->error), "the fabric check process failed: %s", strerror(saved));
	return out->rc = -1;
}

/* Reap the worker; one stuck in an uninterruptible read (SIGKILL pending) is
 * left as a zombie rather than waited for: slurmstepd must go on. */
static void reap(pid_t worker, bool killed)
{
	int status;
	for (int i = 0; i < (killed ? 20 : 1); i++) {
		pid_t r = waitpid(worker, &status, killed ? WNOHANG : 0);
		if (r == worker || (r < 0 && errno != EINTR))
			return;
		if (killed)
			usleep(1000);
	}
}

int roce_run_checks(const struct roce_policy *p, struct roce_step_result *out)
{
	int fds[2];
	long deadline = now_ms() + p->timeout_ms + ROCE_CHILD_MARGIN_MS;

	memset(out, 0, sizeof(*out));
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(out->error, sizeof(out->error), "pipe: %s", strerror(errno));
		return out->rc = -1;
	}
	pid_t worker = fork();
	if (worker < 0) {
		snprintf(out->error, sizeof(out->error), "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return out->rc = -1;
	}
	if (worker == 0) {
		close(fds[0]);
		/* The result is large; build it on the heap. */
		struct roce_step_result *res = calloc(1, sizeof(*res));
		if (!res)
			_exit(2);
		run_in_child(p, res);
		_exit(write_all(fds[1], res, sizeof(*res)) == 0 ? 0 : 1);
	}
	close(fds[1]);
	int rc = collect_result(fds[0], worker, deadline, p, out);
	close(fds[0]);
	reap(worker, rc < 0);
	out->error[sizeof(out->error) - 1] = '\0';
	out->drain_reason[sizeof(out->drain_reason) - 1] = '\0';
	if (out->n_findings > ROCE_MAX_FINDINGS)
		out->n_findings = ROCE_MAX_FINDINGS;
	if (out->plan.n_vars > ROCE_PLAN_VARS) {
		out->plan.n_vars = 0;
		out->plan.valid = false;
	}
	return out->rc;
}
