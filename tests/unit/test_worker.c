/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_worker.c - a function in another task with a deadline (worker.c):
 * real forks; the result crosses the pipe, a late child is killed at the
 * deadline, one that dies without answering is told apart from a crash, and
 * a recorded stuck child stops the next run at once.  The shared task: the
 * result written in place, killed late only inside a marked read (or
 * anywhere when the caller exits after), given time while it computes, a
 * crash kills only it, and a late one makes the next guarded runs fork.
 * (A task asleep in the kernel, the one that outlives SIGKILL, needs a
 * hanging file system: tests/e2e/fault-fuse.sh, spank-timeout.sh.) */
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
#include "base/kread.h"

#include <time.h>

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
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", ROCE_WORKER_FORKED, child, &b, a, sizeof(*a), 5000, &why), -1);
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(why.msg, "is still stuck"));
	assert_int_equal(a->n, 0);   /* no child ran */
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/other", "the test", ROCE_WORKER_FORKED, child, &b, a, sizeof(*a), 5000, &why), 0);
	assert_int_equal(a->n, 42);

	kill(stuck, SIGKILL);
	waitpid(stuck, NULL, 0);
	memset(a, 0, sizeof(*a));
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", ROCE_WORKER_FORKED, child, &b, a, sizeof(*a), 5000, &why), 0);
	assert_int_equal(a->n, 42);

	/* a late child: the clause names the job and the deadline */
	b = SLEEP;
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", ROCE_WORKER_FORKED, child, &b, a, sizeof(*a), 100, &why), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_string_equal(why.msg, "the test did not finish within 100 ms (TimeoutMs=2000): a sysfs or netlink read hangs");

	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(a);
}


/* ------------------------------------------------------------ the shared task */

enum task_job { T_ANSWER, T_MARKED_READ, T_UNMARKED_SLEEP, T_COMPUTE, T_CRASH };

struct task_arg {
	enum task_job job;
	int fd;  /* T_MARKED_READ: a pipe nobody writes */
	int ms;  /* T_UNMARKED_SLEEP, T_COMPUTE */
};

struct task_res {
	pid_t pid;
	char *heap; /* malloc'd in the task, freed by the test */
	int n;
};

static int touched; /* written by a task that shares our memory */

static void task(const void *arg, void *res)
{
	const struct task_arg *a = arg;
	struct task_res *r = res;
	r->pid = getpid();
	touched = 1;
	switch (a->job) {
	case T_ANSWER: break;
	case T_MARKED_READ: {
		char c;
		(void)roce_kread_read(a->fd, &c, 1);
		break;
	}
	case T_UNMARKED_SLEEP: {
		struct timespec ts = { a->ms / 1000, (long)(a->ms % 1000) * 1000000L };
		while (nanosleep(&ts, &ts) < 0)
			;
		break;
	}
	case T_COMPUTE: {
		int64_t until = roce_clock_ms() + a->ms;
		while (roce_clock_ms() < until)
			;
		break;
	}
	case T_CRASH: {
		volatile int *nowhere = NULL;
		*nowhere = 1;
		break;
	}
	}
	r->heap = strdup("from the task");
	r->n = 42;
}

/* The task, or skip where there is none (valgrind, ASan). */
static int run_task(struct task_arg *a, struct task_res *r, int timeout_ms, enum roce_worker_late late,
                    struct roce_worker_end *end)
{
	int rc = roce_worker_run_shared(task, a, r, sizeof(*r), timeout_ms, late, end);
	if (rc < 0 && errno == ENOSYS && !end->started)
		skip();
	return rc;
}

static void shared_writes_in_place(void **s)
{
	(void)s;
	struct task_arg a = { .job = T_ANSWER };
	struct task_res r = { 0 };
	struct roce_worker_end end;
	touched = 0;
	assert_int_equal(run_task(&a, &r, 5000, ROCE_WORKER_LATE_SAFE, &end), 0);
	assert_true(end.started);
	assert_false(end.late);
	assert_int_equal(r.n, 42);
	assert_int_not_equal(r.pid, getpid()); /* another process... */
	assert_int_equal(touched, 1);          /* ...in our memory */
	assert_string_equal(r.heap, "from the task");
	free(r.heap);
	assert_int_equal(waitpid(-1, NULL, WNOHANG | __WALL), -1); /* reaped */
}

/* Asleep inside a marked read at its deadline: stopped, then killed there
 * (no lock of libc's is held in one), and our malloc still works. */
static void shared_late_in_marked_read_killed(void **s)
{
	(void)s;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	struct task_arg a = { .job = T_MARKED_READ, .fd = fds[0] };
	struct task_res r;
	struct roce_worker_end end;
	int64_t t0 = roce_clock_ms();
	assert_int_equal(run_task(&a, &r, 200, ROCE_WORKER_LATE_SAFE, &end), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_true(end.late);
	assert_int_equal(end.abandoned, 0); /* an interruptible sleep: SIGKILL ended it */
	assert_true(roce_clock_ms() - t0 < 2000);
	assert_int_equal(r.n, 0);
	assert_int_equal(roce_kread_depth, 1); /* the task's mark, left as it was killed */
	roce_kread_depth = 0;
	free(malloc(100000));
	close(fds[0]);
	close(fds[1]);
}

/* Computing past its deadline (a loaded machine): not killed in user code,
 * where it might hold malloc's lock; it finishes in the grace. */
static void shared_late_computing_given_time(void **s)
{
	(void)s;
	struct task_arg a = { .job = T_COMPUTE, .ms = 450 };
	struct task_res r;
	struct roce_worker_end end;
	assert_int_equal(run_task(&a, &r, 300, ROCE_WORKER_LATE_SAFE, &end), 0);
	assert_true(end.late);
	assert_int_equal(r.n, 42);
	free(r.heap);
}

/* Asleep outside a marked call: given time too, up to a second deadline;
 * past that, killed wherever it is. */
static void shared_late_unmarked(void **s)
{
	(void)s;
	struct task_arg a = { .job = T_UNMARKED_SLEEP, .ms = 400 };
	struct task_res r;
	struct roce_worker_end end;
	assert_int_equal(run_task(&a, &r, 300, ROCE_WORKER_LATE_SAFE, &end), 0);
	assert_true(end.late);
	assert_int_equal(r.n, 42);
	free(r.heap);
	a.ms = 5000;
	int64_t t0 = roce_clock_ms();
	assert_int_equal(run_task(&a, &r, 300, ROCE_WORKER_LATE_SAFE, &end), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_true(roce_clock_ms() - t0 < 3000);
}

/* The caller exits after (roce-check): killed at its deadline wherever it is. */
static void shared_late_kill(void **s)
{
	(void)s;
	struct task_arg a = { .job = T_UNMARKED_SLEEP, .ms = 5000 };
	struct task_res r;
	struct roce_worker_end end;
	int64_t t0 = roce_clock_ms();
	assert_int_equal(run_task(&a, &r, 200, ROCE_WORKER_LATE_KILL, &end), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_true(end.late);
	assert_int_equal(end.abandoned, 0);
	assert_true(roce_clock_ms() - t0 < 1500);
}

/* A fault kills the task alone (its signals are blocked: the kernel applies
 * the default action, no handler of ours runs on its stack). */
static void shared_crash(void **s)
{
	(void)s;
	struct task_arg a = { .job = T_CRASH };
	struct task_res r;
	struct roce_worker_end end;
	assert_int_equal(run_task(&a, &r, 5000, ROCE_WORKER_LATE_SAFE, &end), -1);
	assert_int_equal(errno, EPIPE);
	assert_int_equal(end.signal, SIGSEGV);
	assert_false(end.late);
}

static void guarded_task(const void *arg, void *res)
{
	task(arg, res);
	free(((struct task_res *)res)->heap);
	((struct task_res *)res)->heap = NULL;
}

/* A guarded run in a shared task; once one was late, the next ones fork
 * (the task's write to our memory then stays in the child). */
static void shared_late_then_forked(void **s)
{
	(void)s;
	char dir[] = "/tmp/test_worker.XXXXXX";
	struct roce_policy p;
	struct roce_error why = { "" };
	struct task_arg a = { .job = T_ANSWER };
	struct task_res r;
	struct roce_worker_end end;
	if (roce_worker_run_shared(guarded_task, &a, &r, sizeof(r), 5000, ROCE_WORKER_LATE_SAFE, &end) < 0 &&
	    !end.started)
		skip();
	assert_non_null(mkdtemp(dir));
	roce_policy_defaults(&p);
	assert_true(snprintf(p.state_dir, sizeof(p.state_dir), "%s/state", dir) < (int)sizeof(p.state_dir));

	touched = 0;
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", ROCE_WORKER_SHARED, guarded_task, &a, &r,
	                                         sizeof(r), 5000, &why),
	                 0);
	assert_int_equal(r.n, 42);
	assert_int_equal(touched, 1);
	assert_false(roce_worker_late_earlier(&p, "/srv/tree"));

	/* late: computing past the deadline, it finishes in the grace and is recorded */
	a.job = T_COMPUTE;
	a.ms = 450;
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", ROCE_WORKER_SHARED, guarded_task, &a, &r,
	                                         sizeof(r), 300, &why),
	                 0);
	assert_true(roce_worker_late_earlier(&p, "/srv/tree"));
	assert_false(roce_worker_late_earlier(&p, "/srv/other"));

	a.job = T_ANSWER;
	touched = 0;
	assert_int_equal(roce_worker_run_guarded(&p, "/srv/tree", "the test", ROCE_WORKER_SHARED, guarded_task, &a, &r,
	                                         sizeof(r), 5000, &why),
	                 0);
	assert_int_equal(r.n, 42);
	assert_int_equal(touched, 0); /* forked */

	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(answers),
		cmocka_unit_test(late_child_killed_at_deadline),
		cmocka_unit_test(ended_without_answer),
		cmocka_unit_test(stuck_earlier_stops_the_next),
		cmocka_unit_test(shared_writes_in_place),
		cmocka_unit_test(shared_late_in_marked_read_killed),
		cmocka_unit_test(shared_late_computing_given_time),
		cmocka_unit_test(shared_late_unmarked),
		cmocka_unit_test(shared_late_kill),
		cmocka_unit_test(shared_crash),
		cmocka_unit_test(shared_late_then_forked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
