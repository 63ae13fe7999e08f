/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_worker.c - a function in a child process with a deadline (worker.c):
 * real forks; the result crosses the pipe, a late child is killed at the
 * deadline, one that dies without answering is told apart from a crash, and
 * a recorded stuck child stops the next run at once.  (A child asleep in
 * the kernel, the one that outlives SIGKILL, needs a hanging file system:
 * tests/e2e/fault-fuse.sh.) */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "proc/stuck.h"
#include "proc/worker.h"

struct answer {
	int n;
	char text[64];
	char big[200000];   /* more than a pipe holds: read while the child writes */
};

enum behaviour { ANSWER, SLEEP, EXIT, SIGNAL };

static void child(const void *arg, void *res)
{
	struct answer *a = res;
	switch (*(const enum behaviour *)arg) {
	case ANSWER:
		a->n = 42;
		snprintf(a->text, sizeof(a->text), "from pid %d", (int)getpid());
		a->big[sizeof(a->big) - 1] = 'z';
		return;
	case SLEEP:
		sleep(30);
		return;
	case EXIT:
		_exit(3);
	case SIGNAL:
		raise(SIGTERM);
		return;
	}
}

static void answers(void **s)
{
	(void)s;
	enum behaviour b = ANSWER;
	struct roce_worker_end end;
	struct answer *a = calloc(1, sizeof(*a));
	assert_non_null(a);
	assert_int_equal(roce_worker_run(child, &b, a, sizeof(*a), 5000, &end), 0);
	assert_int_equal(a->n, 42);
	assert_string_not_equal(a->text, "");
	assert_int_equal(a->big[sizeof(a->big) - 1], 'z');
	free(a);
}

static void late_child_killed_at_deadline(void **s)
{
	(void)s;
	enum behaviour b = SLEEP;
	struct roce_worker_end end;
	struct answer *a = calloc(1, sizeof(*a));
	assert_non_null(a);
	int64_t t0 = roce_clock_ms();
	assert_int_equal(roce_worker_run(child, &b, a, sizeof(*a), 200, &end), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_true(roce_clock_ms() - t0 < 5000);
	assert_true(end.started);
	assert_int_equal(end.abandoned, 0);   /* asleep in user space: SIGKILL ended it, and it was reaped */
	assert_int_equal(end.signal, 0);      /* our SIGKILL is no crash */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);   /* no child left behind */
	free(a);
}

static void ended_without_answer(void **s)
{
	(void)s;
	enum behaviour b = EXIT;
	struct roce_worker_end end;
	struct answer *a = calloc(1, sizeof(*a));
	assert_non_null(a);
	assert_int_equal(roce_worker_run(child, &b, a, sizeof(*a), 5000, &end), -1);
	assert_int_equal(errno, EPIPE);
	assert_int_equal(end.signal, 0);
	b = SIGNAL;
	assert_int_equal(roce_worker_run(child, &b, a, sizeof(*a), 5000, &end), -1);
	assert_int_equal(errno, EPIPE);
	assert_int_equal(end.signal, SIGTERM);
	assert_int_equal(end.abandoned, 0);
	free(a);
}

/* A child recorded as stuck (a live process stands for it) stops the next
 * guarded run before it forks, saying why; once it is gone, runs go on. */
static void stuck_earlier_stops_the_next(void **s)
{
	(void)s;
	char dir[] = "/tmp/test_worker.XXXXXX";
	struct roce_policy p;
	struct roce_error why = { "" };
	enum behaviour b = ANSWER;
	struct answer *a = calloc(1, sizeof(*a));
	assert_non_null(a);
	assert_non_null(mkdtemp(dir));
	roce_policy_defaults(&p);
	assert_true(snprintf(p.state_dir, sizeof(p.state_dir), "%s/state", dir) < (int)sizeof(p.state_dir));

	pid_t stuck = fork();
	if (stuck == 0) {
		pause();
		_exit(0);
	}
	assert_true(stuck > 0);
	assert_int_equal(roce_worker_abandon(&p, "/srv/tree", stuck, &why), 0);
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", child, &b, a, sizeof(*a), 5000, &why), -1);
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(why.msg, "is still stuck"));
	assert_int_equal(a->n, 0);   /* no child ran */
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/other", "the test", child, &b, a, sizeof(*a), 5000, &why), 0);
	assert_int_equal(a->n, 42);

	kill(stuck, SIGKILL);
	waitpid(stuck, NULL, 0);
	memset(a, 0, sizeof(*a));
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", child, &b, a, sizeof(*a), 5000, &why), 0);
	assert_int_equal(a->n, 42);

	/* a late child: the clause names the job and the deadline */
	b = SLEEP;
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", child, &b, a, sizeof(*a), 100, &why), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_string_equal(why.msg, "the test did not finish within 100 ms (TimeoutMs=2000): a sysfs or netlink read hangs");

	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(answers),
		cmocka_unit_test(late_child_killed_at_deadline),
		cmocka_unit_test(ended_without_answer),
		cmocka_unit_test(stuck_earlier_stops_the_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
