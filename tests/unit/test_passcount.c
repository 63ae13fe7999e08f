/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_passcount.c - the health check's count of passing runs in StateDir
 * (lib/read/passcount.c): a real StateDir in a temporary directory, the
 * files as the count writes them and as someone else might leave them. */
#include "config.h"
#include "unit.h"
#include "read/passcount.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[PATH_MAX - 32], state[PATH_MAX];

static int setup(void **s)
{
	(void)s;
	snprintf(base, sizeof(base), "%s/test_passcount.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(base))
		return -1;
	snprintf(state, sizeof(state), "%s/state", base);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_of(const char *name, char *buf, size_t len) { snprintf(buf, len, "%s/%s", state, name); }

static void write_file(const char *name, const char *text, mode_t mode)
{
	char p[PATH_MAX + 64];
	mkdir(state, 0700);
	path_of(name, p, sizeof(p));
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}

static unsigned load(const char *node)
{
	struct roce_error err;
	unsigned n = 12345;
	assert_int_equal(roce_passcount_load(state, node, &n, &err), 0);
	return n;
}

/* No StateDir yet: no count, and nothing is created by looking. */
static void none(void **s)
{
	(void)s;
	struct stat st;
	assert_int_equal(load("node3"), 0);
	assert_int_equal(stat(state, &st), -1);
}

static void store_and_load(void **s)
{
	(void)s;
	struct roce_error err;
	struct stat st;
	char p[PATH_MAX + 64], text[16] = "";
	assert_int_equal(roce_passcount_store(state, "node3", 2, &err), 0);
	assert_int_equal(load("node3"), 2);
	path_of("node3.passes", p, sizeof(p));
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_uid, geteuid());
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "2\n");
	/* another node of the same host keeps its own */
	assert_int_equal(roce_passcount_store(state, "node4", 7, &err), 0);
	assert_int_equal(load("node4"), 7);
	assert_int_equal(load("node3"), 2);
	/* 0: the file goes */
	assert_int_equal(roce_passcount_store(state, "node3", 0, &err), 0);
	assert_int_equal(stat(p, &st), -1);
	assert_int_equal(load("node3"), 0);
	assert_int_equal(roce_passcount_store(state, "node3", 0, &err), 0); /* none to remove */
}

/* What is not a count of ours counts as none. */
static void not_a_count(void **s)
{
	(void)s;
	static const char *const bad[] = { "", "2", "2x\n", "-1\n", "+2\n", "01\n", " 2\n", "2\n\n", "99999999999\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file("node3.passes", bad[i], 0600);
		assert_int_equal(load("node3"), 0);
	}
	write_file("node3.passes", "0\n", 0600);
	assert_int_equal(load("node3"), 0);
	write_file("node3.passes", "4294967295\n", 0600);
	assert_int_equal(load("node3"), 4294967295u);
	/* writable by others: not trusted */
	write_file("node3.passes", "2\n", 0666);
	assert_int_equal(load("node3"), 0);
	/* a symbolic link in its place is not followed */
	char p[PATH_MAX + 64], target[PATH_MAX + 64];
	write_file("elsewhere", "2\n", 0600);
	path_of("node3.passes", p, sizeof(p));
	path_of("elsewhere", target, sizeof(target));
	unlink(p);
	assert_int_equal(symlink(target, p), 0);
	assert_int_equal(load("node3"), 0);
}

/* A node name is part of a file name: anything else is refused. */
static void bad_node(void **s)
{
	(void)s;
	struct roce_error err = { "" };
	unsigned n = 9;
	assert_int_equal(roce_passcount_load(state, "../node3", &n, &err), -1);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err.msg, "not usable as a file name"));
	assert_int_equal(roce_passcount_store(state, "a/b", 1, &err), -1);
	assert_int_equal(roce_passcount_store(state, NULL, 1, &err), -1);
}

/* A StateDir others can write takes nothing, and says why. */
static void unsafe_state_dir(void **s)
{
	(void)s;
	struct roce_error err = { "" };
	assert_int_equal(mkdir(state, 0700), 0);
	assert_int_equal(chmod(state, 0777), 0);
	assert_int_equal(roce_passcount_store(state, "node3", 1, &err), -1);
	assert_non_null(strstr(err.msg, "writable by"));
	assert_int_equal(load("node3"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(none, setup, teardown),
		cmocka_unit_test_setup_teardown(store_and_load, setup, teardown),
		cmocka_unit_test_setup_teardown(not_a_count, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_node, setup, teardown),
		cmocka_unit_test_setup_teardown(unsafe_state_dir, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
