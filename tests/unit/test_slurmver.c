/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_slurmver.c - the Slurm release built for against the installed one:
 * version lines as slurmd -V and sinfo -V print them, and the installed
 * version read through scripts standing in for those programs in PATH. */
#include "config.h"
#include "unit.h"
#include "proc/slurmver.h"
#include "scratch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <slurm/slurm_version.h>

static void parse_lines(void **s)
{
	(void)s;
	char v[64];
	assert_int_equal(roce_slurmver_parse("slurm-wlm 24.11.5\n", v, sizeof(v)), 0);
	assert_string_equal(v, "24.11.5");
	assert_int_equal(roce_slurmver_parse("slurm 22.05.8", v, sizeof(v)), 0);
	assert_string_equal(v, "22.05.8");
	assert_int_equal(roce_slurmver_parse("slurm 26.05.0-0rc1\n", v, sizeof(v)), 0);
	assert_string_equal(v, "26.05.0-0rc1");
	assert_int_equal(roce_slurmver_parse("slurm 25.11", v, sizeof(v)), 0);
	assert_string_equal(v, "25.11");
	/* no version, or not one that starts with MAJOR.MINOR */
	assert_int_equal(roce_slurmver_parse("", v, sizeof(v)), -1);
	assert_int_equal(roce_slurmver_parse("slurmd: error: no config\n", v, sizeof(v)), -1);
	assert_int_equal(roce_slurmver_parse("slurm 24", v, sizeof(v)), -1);
	assert_int_equal(roce_slurmver_parse("slurm v24.11.5", v, sizeof(v)), -1);
	assert_int_equal(roce_slurmver_parse("slurm 24.11.5;reboot", v, sizeof(v)), -1);
	assert_int_equal(roce_slurmver_parse("slurm 24.x", v, sizeof(v)), -1);
	/* too long for the caller's buffer */
	assert_int_equal(roce_slurmver_parse("slurm 24.11.5", v, 7), -1);
}

static void same_release(void **s)
{
	(void)s;
	assert_true(roce_slurmver_same_release("22.05", "22.05.8"));
	assert_true(roce_slurmver_same_release("24.11.1", "24.11.5"));
	assert_true(roce_slurmver_same_release("26.05", "26.05.0-0rc1"));
	assert_false(roce_slurmver_same_release("22.05", "24.11.5"));
	assert_false(roce_slurmver_same_release("24.11", "24.05.3"));
	assert_false(roce_slurmver_same_release("24.11", "25.11.0"));
	assert_true(roce_slurmver_same_release("22.05", "22.5"));   /* numbers, not strings */
	assert_false(roce_slurmver_same_release("22.05", ""));
	assert_false(roce_slurmver_same_release("", ""));
}

/* The built release is the header's SLURM_VERSION_NUMBER's major.minor. */
static void built_is_header(void **s)
{
	(void)s;
	char want[16];
	snprintf(want, sizeof(want), "%d.%02d", (int)SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
	         (int)SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER));
	assert_string_equal(roce_slurmver_built(), want);
}

static char dir[PATH_MAX];
static char *saved_path;

static int setup(void **s)
{
	(void)s;
	if (fx_tmpdir(dir, sizeof(dir), "slurmver") < 0)
		return -1;
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	/* only our stand-ins (they use shell builtins and absolute paths) */
	return setenv("PATH", dir, 1);
}

static int teardown(void **s)
{
	(void)s;
	int rc = fx_rmtree(dir);
	setenv("PATH", saved_path, 1);
	free(saved_path);
	return rc;
}

static void program(const char *name, const char *body)
{
	char file[PATH_MAX + 16];
	snprintf(file, sizeof(file), "%s/%s", dir, name);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(file, 0755), 0);
}

static void installed_slurmd(void **s)
{
	(void)s;
	char v[64];
	program("slurmd", "echo 'slurm-wlm 24.11.5'");
	program("sinfo", "echo 'slurm 22.05.8'");
	assert_int_equal(roce_slurmver_installed(v, sizeof(v), 2000), 0);
	assert_string_equal(v, "24.11.5");
}

/* A login node: slurmd -V says nothing usable, sinfo -V answers. */
static void installed_sinfo(void **s)
{
	(void)s;
	char v[64];
	program("slurmd", "echo 'slurmd: error: something' >&2; exit 1");
	program("sinfo", "echo 'slurm 26.05.5'");
	assert_int_equal(roce_slurmver_installed(v, sizeof(v), 2000), 0);
	assert_string_equal(v, "26.05.5");
}

/* A slurmd that hangs is given up after the deadline; sinfo answers. */
static void installed_hung(void **s)
{
	(void)s;
	char v[64];
	struct timespec t0, t1;
	program("slurmd", "exec /bin/sleep 30");
	program("sinfo", "echo 'slurm 24.11.5'");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(roce_slurmver_installed(v, sizeof(v), 300), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_string_equal(v, "24.11.5");
	assert_true(t1.tv_sec - t0.tv_sec < 10);
}

static void installed_none(void **s)
{
	(void)s;
	char v[64] = "untouched";
	program("slurmd", "echo garbage");
	assert_int_equal(roce_slurmver_installed(v, sizeof(v), 2000), -1);
	assert_string_equal(v, "untouched");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_lines),
		cmocka_unit_test(same_release),
		cmocka_unit_test(built_is_header),
		cmocka_unit_test_setup_teardown(installed_slurmd, setup, teardown),
		cmocka_unit_test_setup_teardown(installed_sinfo, setup, teardown),
		cmocka_unit_test_setup_teardown(installed_hung, setup, teardown),
		cmocka_unit_test_setup_teardown(installed_none, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
