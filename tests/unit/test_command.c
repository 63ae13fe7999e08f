/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_command.c - a program run with a deadline (lib/proc/command.c): real
 * processes through /bin/sh, their output, their exit, and the deadline
 * that kills them and whatever they started (mej/nhc issue 159: a health
 * check that hung on scontrol). */
#include "config.h"
#include "unit.h"
#include "proc/command.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long ms_since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

static char out[4096];

static int sh(const char *script, int timeout_ms, struct roce_command *c)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	return roce_command_run(argv, timeout_ms, out, sizeof(out), c);
}

static void describe(const char *script, const struct roce_command *c, int timeout_ms, char *buf, size_t len)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	roce_command_describe(argv, c, timeout_ms, buf, len);
}

static void exits_zero(void **s)
{
	(void)s;
	struct roce_command c;
	assert_int_equal(sh("echo 'drained|roce: mlx5_1 port 1 DOWN'; echo second", 5000, &c), 0);
	assert_int_equal(c.status, 0);
	assert_false(c.timed_out);
	assert_string_equal(out, "drained|roce: mlx5_1 port 1 DOWN\nsecond\n");
	assert_string_equal(c.err, "");
}

static void exits_nonzero(void **s)
{
	(void)s;
	struct roce_command c;
	char why[256];
	const char *script = "echo 'slurm_load_node error: Unable to contact slurm controller' >&2; echo more >&2; exit 1";
	assert_int_equal(sh(script, 5000, &c), -1);
	assert_int_equal(c.status, 1);
	assert_false(c.timed_out);
	assert_string_equal(c.err, "slurm_load_node error: Unable to contact slurm controller");
	describe(script, &c, 5000, why, sizeof(why));
	assert_string_equal(why, "sh exited with status 1: slurm_load_node error: Unable to contact slurm controller");
	/* hostile bytes on stderr come out printable */
	assert_int_equal(sh("printf 'bad\\033[2Jtext\\n' >&2; exit 2", 5000, &c), -1);
	assert_string_equal(c.err, "bad\\x1b[2Jtext");
}

static void not_found(void **s)
{
	(void)s;
	const char *argv[] = { "roce-no-such-program", "-V", NULL };
	struct roce_command c;
	char why[256];
	assert_int_equal(roce_command_run(argv, 5000, NULL, 0, &c), -1);
	assert_int_equal(c.status, 127);
	assert_string_equal(c.err, "cannot run roce-no-such-program: No such file or directory");
	roce_command_describe(argv, &c, 5000, why, sizeof(why));
	assert_string_equal(why, "roce-no-such-program exited with status 127: cannot run roce-no-such-program: "
	                         "No such file or directory");
}

/* A program that never answers is killed at the deadline, with what it started. */
static void deadline(void **s)
{
	(void)s;
	struct roce_command c;
	struct timespec t0;
	char why[256];
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* the grandchild's pid first, then both wait */
	assert_int_equal(sh("sleep 30 & echo $!; wait", 300, &c), -1);
	long took = ms_since(&t0);
	assert_true(c.timed_out);
	assert_int_equal(c.status, -1);
	/* killed, not waited for: well before the 30 s sleep ends (a loaded CI
	 * machine can take seconds to schedule us, so no tighter bound) */
	assert_true(took >= 300 && took < 20000);
	describe("x", &c, 300, why, sizeof(why));
	assert_string_equal(why, "sh did not answer within 300 ms (killed)");
	/* the grandchild is gone too (or a zombie of init's, about to be) */
	pid_t g = (pid_t)atoi(out);
	assert_true(g > 0);
	for (int i = 0; i < 100 && kill(g, 0) == 0; i++) {
		char p[64], st[512] = "";
		snprintf(p, sizeof(p), "/proc/%d/stat", (int)g);
		FILE *f = fopen(p, "r");
		if (f) {
			if (!fgets(st, sizeof(st), f))
				st[0] = '\0';
			fclose(f);
		}
		char *rp = strrchr(st, ')');
		if (rp && rp[1] == ' ' && rp[2] == 'Z')
			break;
		usleep(10000);
		assert_true(i < 99);
	}
}

/* Closing its output does not end the wait: the process is what counts. */
static void closes_output(void **s)
{
	(void)s;
	struct roce_command c;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(sh("exec >&- 2>&-; sleep 30", 300, &c), -1);
	assert_true(c.timed_out);
	assert_true(ms_since(&t0) < 20000); /* not the 30 s sleep: a loaded machine may take seconds */
}

/* It answers and exits; something it left holding the pipe does not hold us. */
static void leaves_a_child(void **s)
{
	(void)s;
	struct roce_command c;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(sh("sleep 30 & echo answer", 5000, &c), 0);
	assert_string_equal(out, "answer\n");
	assert_true(ms_since(&t0) < 20000); /* not the 30 s sleep: a loaded machine may take seconds */
}

/* More output than the buffer: cut, and no deadlock on a full pipe. */
static void large_output(void **s)
{
	(void)s;
	struct roce_command c;
	assert_int_equal(sh("head -c 200000 /dev/zero | tr '\\000' a", 5000, &c), 0);
	assert_int_equal(strlen(out), sizeof(out) - 1);
	assert_int_equal(out[0], 'a');
	/* no buffer: dropped, the status still read */
	const char *argv[] = { "sh", "-c", "echo dropped; exit 4", NULL };
	assert_int_equal(roce_command_run(argv, 5000, NULL, 0, &c), -1);
	assert_int_equal(c.status, 4);
}

static void killed_by_signal(void **s)
{
	(void)s;
	struct roce_command c;
	char why[128];
	assert_int_equal(sh("kill -TERM $$", 5000, &c), -1);
	assert_int_equal(c.signal, SIGTERM);
	assert_false(c.timed_out);
	describe("x", &c, 5000, why, sizeof(why));
	assert_string_equal(why, "sh was killed by signal 15");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exits_zero),    cmocka_unit_test(exits_nonzero),  cmocka_unit_test(not_found),
		cmocka_unit_test(deadline),      cmocka_unit_test(closes_output),  cmocka_unit_test(leaves_a_child),
		cmocka_unit_test(large_output),  cmocka_unit_test(killed_by_signal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
