/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_slurmver.c - the Slurm release built for against the installed one:
 * version lines as slurmd -V and sinfo -V print them, the installed
 * version read through scripts standing in for those programs in PATH, and
 * StateDir's record of it: asked once, again whenever the program's file
 * changes (another file, an edit), never kept when not ours or garbled. */
#include "config.h"
#include "unit.h"
#include "proc/slurmver.h"
#include "scratch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
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


/* ------------------------------------------------------------ the record in StateDir */

static char state[PATH_MAX + 16];

/* A stand-in that counts its runs in DIR/NAME.runs and says body. */
static void counted(const char *name, const char *body)
{
	char text[PATH_MAX + 256];
	snprintf(text, sizeof(text), "echo run >> '%s/%s.runs'\n%s", dir, name, body);
	program(name, text);
	snprintf(state, sizeof(state), "%s/state", dir);
}

static int runs(const char *name)
{
	char file[PATH_MAX + 16], line[16];
	int n = 0;
	snprintf(file, sizeof(file), "%s/%s.runs", dir, name);
	FILE *f = fopen(file, "r");
	while (f && fgets(line, sizeof(line), f))
		n++;
	if (f)
		fclose(f);
	return n;
}

/* The one record file of state (its name), or "" when there is none. */
static void the_record(char *name, size_t len)
{
	DIR *d = opendir(state);
	struct dirent *e;
	name[0] = '\0';
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "slurmver-", 9))
			if (snprintf(name, len, "%s", e->d_name) >= (int)len)
				name[0] = '\0'; /* cut: no such record */
	if (d)
		closedir(d);
}

/* A copy of file with its mode and times, renamed over it: another inode. */
static void copy_over(const char *file)
{
	char tmp[PATH_MAX + 16], buf[4096];
	struct stat st;
	int w = snprintf(tmp, sizeof(tmp), "%s.new", file);
	assert_true(w > 0 && (size_t)w < sizeof(tmp));
	int in = open(file, O_RDONLY), out = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0755);
	assert_true(in >= 0 && out >= 0);
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(fstat(in, &st), 0);
	struct timespec times[2] = { st.st_atim, st.st_mtim };
	assert_int_equal(futimens(out, times), 0);
	close(in);
	close(out);
	assert_int_equal(rename(tmp, file), 0);
}

static void cached_asks_once(void **s)
{
	(void)s;
	char v[64], name[64], file[PATH_MAX + 80];
	struct stat st;
	counted("slurmd", "echo 'slurm 24.11.5'");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "24.11.5");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "24.11.5");
	assert_int_equal(runs("slurmd"), 1);
	the_record(name, sizeof(name));
	snprintf(file, sizeof(file), "%s/%s", state, name);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	/* --version asks whatever the record says */
	assert_int_equal(roce_slurmver_installed(v, sizeof(v), 2000), 0);
	assert_int_equal(runs("slurmd"), 2);
}

/* The record is stale when the binary changes: an upgrade, a copy over it
 * with the same size and mtime (another inode), an edit in place that puts
 * the mtime back (its ctime moves). */
static void cached_stale_when_binary_changes(void **s)
{
	(void)s;
	char v[64], file[PATH_MAX + 16];
	counted("slurmd", "echo 'slurm 24.11.5'");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "24.11.5");

	counted("slurmd", "echo 'slurm 25.05.1'"); /* upgraded in place */
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "25.05.1");
	assert_int_equal(runs("slurmd"), 2);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_int_equal(runs("slurmd"), 2);

	snprintf(file, sizeof(file), "%s/slurmd", dir);
	copy_over(file);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_int_equal(runs("slurmd"), 3);

	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	struct timespec times[2] = { st.st_atim, st.st_mtim };
	sleep(1); /* a ctime of another second, on any file system */
	int fd = open(file, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "#", 1, 0), 1); /* "#!" stays "#!": the same script */
	close(fd);
	assert_int_equal(utimensat(AT_FDCWD, file, times, 0), 0);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_int_equal(runs("slurmd"), 4);
}

/* A slurmd without a version is remembered as such (not run again), and
 * sinfo's answer is kept; a slurmd that hangs is not remembered. */
static void cached_no_version_and_hung(void **s)
{
	(void)s;
	char v[64];
	counted("slurmd", "echo garbage");
	counted("sinfo", "echo 'slurm 26.05.5'");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "26.05.5");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "26.05.5");
	assert_int_equal(runs("slurmd"), 1);
	assert_int_equal(runs("sinfo"), 1);

	counted("slurmd", "exec /bin/sleep 30");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 300), 0);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 300), 0);
	assert_string_equal(v, "26.05.5");
	assert_int_equal(runs("slurmd"), 3); /* 1 garbage + 2 hung: each asked */
}

/* Without a StateDir of ours: asked every time, nothing written. */
static void cached_without_statedir(void **s)
{
	(void)s;
	char v[64], name[64];
	counted("slurmd", "echo 'slurm 24.11.5'");
	assert_int_equal(mkdir(state, 0777), 0);
	assert_int_equal(chmod(state, 0777), 0); /* writable by others: not trusted */
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "24.11.5");
	assert_int_equal(runs("slurmd"), 2);
	the_record(name, sizeof(name));
	assert_string_equal(name, "");
	assert_int_equal(roce_slurmver_cached(NULL, v, sizeof(v), 2000), 0);
	assert_int_equal(runs("slurmd"), 3);
}

/* A garbled record, or one for another file, is not believed. */
static void cached_garbled_record(void **s)
{
	(void)s;
	char v[64], name[64], file[PATH_MAX + 80];
	counted("slurmd", "echo 'slurm 24.11.5'");
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	the_record(name, sizeof(name));
	snprintf(file, sizeof(file), "%s/%s", state, name);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fputs("v1 1 2 3 4.000000000 5.000000000 /usr/sbin/slurmd\n99.99.9\n", f);
	fclose(f);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_string_equal(v, "24.11.5");
	assert_int_equal(runs("slurmd"), 2);
	assert_int_equal(roce_slurmver_cached(state, v, sizeof(v), 2000), 0);
	assert_int_equal(runs("slurmd"), 2); /* rewritten */
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
		cmocka_unit_test_setup_teardown(cached_asks_once, setup, teardown),
		cmocka_unit_test_setup_teardown(cached_stale_when_binary_changes, setup, teardown),
		cmocka_unit_test_setup_teardown(cached_no_version_and_hung, setup, teardown),
		cmocka_unit_test_setup_teardown(cached_without_statedir, setup, teardown),
		cmocka_unit_test_setup_teardown(cached_garbled_record, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
