/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_stuck.c - the StateDir marker of a collector stuck in the kernel:
 * real processes (a live child stands for the stuck one: after SIGKILL only
 * a process asleep in the kernel is still alive), real /proc, a real
 * StateDir in a temporary directory. */
#include "config.h"
#include "unit.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/stuck.h"
#include "scratch.h"

static char base[PATH_MAX - 16], state[PATH_MAX];   /* room for "/state" */

static int setup(void **s)
{
	(void)s;
	if (fx_tmpdir(base, sizeof(base), "test_stuck") < 0)
		return -1;
	snprintf(state, sizeof(state), "%s/state", base);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	return fx_rmtree(base);
}

static pid_t sleeper(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	assert_true(pid > 0);
	return pid;
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static bool marker_exists(const char *name)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/%s", state, name);
	return access(p, F_OK) == 0;
}

static void write_marker(const char *name, const char *text)
{
	char p[PATH_MAX + 64];
	mkdir(state, 0700);
	snprintf(p, sizeof(p), "%s/%s", state, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(p, 0600);
}

/* No StateDir, no marker: nothing is stuck (and nothing is created). */
static void none(void **s)
{
	(void)s;
	struct roce_stuck st;
	assert_int_equal(roce_stuck_find(state, NULL, &st), 0);
	assert_int_equal(access(state, F_OK), -1);
}

/* A live recorded process is found, by the same root only, with its pid. */
static void live_found(void **s)
{
	(void)s;
	struct roce_stuck st;
	struct roce_error err = { "" };
	char text[512];
	pid_t pid = sleeper();
	assert_int_equal(roce_stuck_mark(state, NULL, pid, &err), 0);
	assert_true(marker_exists("collector.stuck"));
	assert_int_equal(roce_stuck_find(state, "/sys", &st), 1);
	assert_int_equal(st.pid, pid);
	assert_true(st.age_s >= 0 && st.age_s < 60);
	assert_int_equal(roce_stuck_find(state, "/srv/fixture", &st), 0);   /* another tree */
	roce_stuck_describe(&st, text, sizeof(text));
	assert_non_null(strstr(text, "still stuck"));
	end(pid);
}

/* Once the process is gone the marker is stale: not found, and removed. */
static void gone_removed(void **s)
{
	(void)s;
	struct roce_stuck st;
	struct roce_error err = { "" };
	pid_t pid = sleeper();
	assert_int_equal(roce_stuck_mark(state, "/srv/fixture", pid, &err), 0);
	assert_int_equal(roce_stuck_find(state, "/srv/fixture", &st), 1);
	end(pid);
	assert_int_equal(roce_stuck_find(state, "/srv/fixture", &st), 0);
	assert_int_equal(roce_stuck_find(state, "/srv/fixture", &st), 0);
	/* the only file left is none */
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", state);
	assert_int_equal(system(cmd), 0);
}

/* A pid that lives but started at another time (pid reused) is not it. */
static void pid_reused(void **s)
{
	(void)s;
	struct roce_stuck st;
	char text[64];
	snprintf(text, sizeof(text), "%d 1\n", (int)getpid());   /* we did not start at tick 1 */
	write_marker("collector.stuck", text);
	assert_int_equal(roce_stuck_find(state, NULL, &st), 0);
	assert_false(marker_exists("collector.stuck"));
}

/* Garbage is removed; a dead pid is not marked at all; a zombie is not stuck. */
static void garbage_dead_zombie(void **s)
{
	(void)s;
	struct roce_stuck st;
	struct roce_error err = { "" };
	static const char *const bad[] = { "", "x y\n", "-5 10\n", "12\n", "12 34 56\n", "12 34" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_marker("collector.stuck", bad[i]);
		assert_int_equal(roce_stuck_find(state, NULL, &st), 0);
	}
	pid_t pid = sleeper();
	end(pid);
	assert_int_equal(roce_stuck_mark(state, NULL, pid, &err), 0);
	assert_false(marker_exists("collector.stuck"));
	pid = fork();
	if (pid == 0)
		_exit(0);
	siginfo_t si;   /* wait until it is a zombie (dead, not stuck), without reaping it */
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	assert_int_equal(roce_stuck_mark(state, NULL, pid, &err), 0);
	assert_false(marker_exists("collector.stuck"));
	waitpid(pid, NULL, 0);
}

/* A marker that is not root's (or group/other-writable) is ignored, not obeyed, not removed. */
static void foreign_ignored(void **s)
{
	(void)s;
	struct roce_stuck st;
	char text[64], p[PATH_MAX + 64];
	pid_t pid = sleeper();
	unsigned long long start = 0;
	char buf[1024];
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_int_equal(sscanf(strrchr(buf, ')') + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &start), 1);
	snprintf(text, sizeof(text), "%d %llu\n", (int)pid, start);
	write_marker("collector.stuck", text);
	assert_int_equal(roce_stuck_find(state, NULL, &st), 1);   /* well-formed and ours: obeyed */
	snprintf(p, sizeof(p), "%s/collector.stuck", state);
	chmod(p, 0666);
	assert_int_equal(roce_stuck_find(state, NULL, &st), 0);
	assert_true(marker_exists("collector.stuck"));
	if (geteuid() == 0) {
		chmod(p, 0600);
		assert_int_equal(chown(p, 65534, 65534), 0);
		assert_int_equal(roce_stuck_find(state, NULL, &st), 0);
		assert_true(marker_exists("collector.stuck"));
	}
	unlink(p);
	end(pid);
}

/* A StateDir that cannot be made gives an error naming it. */
static void mark_unusable_dir(void **s)
{
	(void)s;
	struct roce_error err = { "" };
	char file[PATH_MAX + 16], bad[PATH_MAX + 32];
	snprintf(file, sizeof(file), "%s/plain", base);
	write_marker("x", "");   /* creates state/ */
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(bad, sizeof(bad), "%s/sub", file);
	pid_t pid = sleeper();
	assert_int_equal(roce_stuck_mark(bad, NULL, pid, &err), -1);
	assert_non_null(strstr(err.msg, file));
	end(pid);
}

/* The late record: kept for good (the stuck process gone or not), by its
 * root; found with the marker in one look; one not ours is no record. */
static void late_kept(void **s)
{
	(void)s;
	struct roce_stuck st;
	struct roce_error err = { "" };
	bool late = true;
	assert_false(roce_stuck_late_seen(state, NULL));
	assert_int_equal(roce_stuck_find_late(state, NULL, &st, &late), 0);
	assert_false(late);
	assert_int_equal(roce_stuck_mark_late(state, "/srv/fixture", &err), 0);
	assert_true(roce_stuck_late_seen(state, "/srv/fixture"));
	assert_false(roce_stuck_late_seen(state, "/sys")); /* another tree */
	pid_t pid = sleeper();
	assert_int_equal(roce_stuck_mark(state, "/srv/fixture", pid, &err), 0);
	assert_int_equal(roce_stuck_find_late(state, "/srv/fixture", &st, &late), 1);
	assert_int_equal(st.pid, pid);
	assert_true(late);
	end(pid);
	assert_int_equal(roce_stuck_find_late(state, "/srv/fixture", &st, &late), 0); /* gone: marker removed */
	assert_true(late);                                                             /* the record stays */
	write_marker("collector.late", "1\n");
	chmod(state, 0700);
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/collector.late", state);
	assert_int_equal(chmod(p, 0666), 0); /* writable by others: not ours */
	assert_false(roce_stuck_late_seen(state, "/sys"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(none, setup, teardown),
		cmocka_unit_test_setup_teardown(live_found, setup, teardown),
		cmocka_unit_test_setup_teardown(gone_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(pid_reused, setup, teardown),
		cmocka_unit_test_setup_teardown(garbage_dead_zombie, setup, teardown),
		cmocka_unit_test_setup_teardown(foreign_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(mark_unusable_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(late_kept, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
