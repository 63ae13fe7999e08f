/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_safefile.c - configured directories (lib/read/safefile.h) resolved one
 * component at a time in a scratch directory: links, owners, modes, kernel
 * file systems, creation, and one job directory per instance. */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "read/safefile.h"
#include "scratch.h"

static char top[PATH_MAX - 64];

static int setup(void **s)
{
	(void)s;
	if (fx_tmpdir(top, sizeof(top), "test_safefile") < 0 || chmod(top, 0755) < 0)
		return -1;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	return fx_rmtree(top);
}

/* The scratch directory must itself pass the walk (a TMPDIR in a group-
 * writable build directory does not): else there is nothing to test here. */
static void need_trusted_top(void)
{
	struct roce_error err;
	int fd = roce_safefile_open_dir(NULL, top, ROCE_SAFEFILE_TRUSTED, 0, &err);
	if (fd < 0) {
		print_message("# skipped: %s\n", err.msg);
		skip();
	}
	close(fd);
}

static const char *at(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", top, rel);
	return buf[i];
}

static unsigned mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return (unsigned)(st.st_mode & 07777);
}

#define TRUSTED (ROCE_SAFEFILE_CREATE | ROCE_SAFEFILE_TRUSTED)

/* Refused, with a message holding both texts. */
#define REFUSED(path, flags, what, why)                                                  \
	do {                                                                              \
		struct roce_error e_ = { "" };                                            \
		assert_int_equal(roce_safefile_open_dir("StateDir", (path), (flags), 0700, &e_), -1); \
		if (!strstr(e_.msg, (what)) || !strstr(e_.msg, (why)))                    \
			fail_msg("\"%s\" does not say \"%s\" ... \"%s\"", e_.msg, (what), (why)); \
	} while (0)

static void creates_with_exact_modes(void **state)
{
	(void)state;
	need_trusted_top();
	struct roce_error err;
	mode_t old = umask(077);
	int fd = roce_safefile_open_dir("StateDir", at("a/b/state"), TRUSTED, 0700, &err);
	umask(old);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(at("a")), 0755);   /* parents readable whatever the umask */
	assert_int_equal(mode_of(at("a/b")), 0755);
	assert_int_equal(mode_of(at("a/b/state")), 0700);
	/* "." and repeated slashes are nothing; ".." is refused */
	fd = roce_safefile_open_dir("StateDir", at("a//./b/state/"), TRUSTED, 0700, &err);
	assert_true(fd >= 0);
	close(fd);
	REFUSED(at("a/../a/b"), TRUSTED, "a/..", "goes up a level");
	REFUSED("relative/dir", TRUSTED, "relative/dir", "not an absolute path");
}

static void never_through_a_link(void **state)
{
	(void)state;
	need_trusted_top();
	assert_int_equal(mkdir(at("real"), 0755), 0);
	assert_int_equal(symlink(at("real"), at("link")), 0);
	REFUSED(at("link"), TRUSTED, at("link"), "is a symbolic link");
	REFUSED(at("link/sub"), TRUSTED, at("link"), "is a symbolic link");
	REFUSED(at("link/sub"), 0, at("link"), "is a symbolic link");   /* readers too */
	struct stat st;
	assert_int_equal(lstat(at("real/sub"), &st), -1);   /* nothing created through it */
	assert_int_equal(mode_of(at("real")), 0755);
	int fd = open(at("file"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	close(fd);
	REFUSED(at("file/sub"), TRUSTED, at("file"), "is not a directory");
}

static void owners_and_modes(void **state)
{
	(void)state;
	need_trusted_top();
	struct roce_error err;
	/* writable by others: refused as it is, never chmod'ed */
	assert_int_equal(mkdir(at("open"), 0755), 0);
	assert_int_equal(chmod(at("open"), 0777), 0);
	REFUSED(at("open"), TRUSTED, at("open"), "is writable by group or others (mode 777)");
	REFUSED(at("open/state"), TRUSTED, at("open"), "is writable by group or others (mode 777)");
	assert_int_equal(mode_of(at("open")), 0777);
	assert_int_equal(mkdir(at("group"), 0755), 0);
	assert_int_equal(chmod(at("group"), 02775), 0);
	REFUSED(at("group/state"), TRUSTED, at("group"), "(mode 2775)");
	/* sticky: crossed (as /tmp is) to an existing directory of root's, not
	 * used, and nothing made in it: anyone could have made the name first */
	assert_int_equal(mkdir(at("sticky"), 0755), 0);
	assert_int_equal(chmod(at("sticky"), 01777), 0);
	char install[PATH_MAX + 64];
	snprintf(install, sizeof(install), "install -d -m 0700 -o root %s", at("sticky/state/x"));
	REFUSED(at("sticky/state/x"), TRUSTED, at("sticky/state"), install);
	REFUSED(at("sticky/state"), TRUSTED, at("sticky/state"),
	        "is missing, and root makes no directory in");
	struct stat st;
	assert_int_equal(lstat(at("sticky/state"), &st), -1);
	assert_int_equal(mkdir(at("sticky/state"), 0700), 0);
	int fd = roce_safefile_open_dir("StateDir", at("sticky/state"), TRUSTED, 0700, &err);
	assert_true(fd >= 0);
	close(fd);
	REFUSED(at("sticky"), TRUSTED, at("sticky"), "(mode 1777)");
	/* SharedDir, ReportDir: others may search, not list */
	assert_int_equal(mkdir(at("listed"), 0755), 0);
	REFUSED(at("listed"), TRUSTED | ROCE_SAFEFILE_UNLISTED, at("listed"),
	        "is listable by every user (mode 755)");
	assert_int_equal(chmod(at("listed"), 0751), 0);
	fd = roce_safefile_open_dir("SharedDir", at("listed"), TRUSTED | ROCE_SAFEFILE_UNLISTED, 0711, &err);
	assert_true(fd >= 0);
	close(fd);
	fd = roce_safefile_shared_dir(at("shared"), &err);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(at("shared")), 0711);
	/* a reader's O_PATH look needs only search */
	fd = roce_safefile_open_dir(NULL, at("shared"), ROCE_SAFEFILE_SEARCH, 0, &err);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_PATH, O_PATH);
	close(fd);
	/* an existing 0755 StateDir is used as it is */
	assert_int_equal(mkdir(at("plain"), 0755), 0);
	fd = roce_safefile_open_dir("StateDir", at("plain"), TRUSTED, 0700, &err);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mode_of(at("plain")), 0755);
	/* owned by someone else, the directory or a parent */
	if (geteuid() != 0)
		return;
	assert_int_equal(mkdir(at("svc"), 0755), 0);
	assert_int_equal(chown(at("svc"), 5000, 5000), 0);
	REFUSED(at("svc"), TRUSTED, at("svc"), "is owned by uid 5000, not root");
	REFUSED(at("svc/state"), TRUSTED, at("svc"), "is owned by uid 5000, not root");
	assert_int_equal(lstat(at("svc/state"), &st), -1);   /* nothing created in it */
	/* a reader (roce-report) does not care who owns what */
	assert_int_equal(mkdir(at("svc/copy"), 0755), 0);
	fd = roce_safefile_open_dir(NULL, at("svc/copy"), 0, 0, &err);
	assert_true(fd >= 0);
	close(fd);
}

static void no_kernel_file_systems(void **state)
{
	(void)state;
	REFUSED("/proc/sys", 0, "/proc/sys", "is on proc, a kernel file system");
	REFUSED("/proc/roce-never-made", TRUSTED, "/proc/roce-never-made", "its parent is on proc");
	struct stat st;
	if (stat("/sys/kernel", &st) == 0)
		REFUSED("/sys/kernel", TRUSTED, "/sys/kernel", "is on sysfs");
}

/* A fragment file name in dir, owned by uid, dated age seconds ago. */
static void fragment(const char *dir, const char *name, uid_t uid, time_t age)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0440);
	assert_true(fd >= 0);
	struct timespec t[2] = { { time(NULL) - age, 0 }, { time(NULL) - age, 0 } };
	assert_int_equal(futimens(fd, t), 0);
	assert_int_equal(fchown(fd, uid, (gid_t)-1), 0);
	close(fd);
}

static int count_aside(const char *job)
{
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof(cmd), "exit $(ls -d '%s'/%s.earlier-* 2>/dev/null | wc -l)", at("reports"), job);
	return WEXITSTATUS(system(cmd));
}

/* report_dir/77 for uid 4001's job whose prolog ran at since: opened, and
 * how many earlier instances are aside afterwards. */
static int job_dir_77(time_t since)
{
	struct roce_error err;
	gid_t gid;
	int jfd = roce_safefile_report_dir(at("reports"), "77", 4001, since, &gid, &err);
	if (jfd < 0)
		fail_msg("%s", err.msg);
	close(jfd);
	return count_aside("77");
}

static void one_instance_per_job_dir(void **state)
{
	(void)state;
	need_trusted_top();
	struct roce_error err;
	struct stat st;
	gid_t gid;
	time_t now = time(NULL);
	if (geteuid() != 0)
		skip();
	assert_int_equal(job_dir_77(now), 0);
	assert_int_equal(mode_of(at("reports")), 0751);   /* its group (the admins) lists it, no one else */
	/* the job's directory: its user (an ACL entry) and the admins list it;
	 * 0755 only where the file system has no ACLs */
	if (getxattr(at("reports/77"), "system.posix_acl_access", NULL, 0) > 0)
		assert_int_equal(mode_of(at("reports/77")), 0750);
	else
		assert_int_equal(mode_of(at("reports/77")), 0755);
	/* this instance's fragments, root's or the job user's: kept */
	fragment(at("reports/77"), "n1.json", 0, 0);
	fragment(at("reports/77"), "n2.json", 4001, 30);
	assert_int_equal(job_dir_77(now), 0);
	/* another user's fragment: the directory moves aside whole */
	fragment(at("reports/77"), "n3.json", 5001, 0);
	assert_int_equal(job_dir_77(now), 1);
	assert_int_equal(lstat(at("reports/77/n1.json"), &st), -1);
	/* root's fragment from two hours before this node's prolog: the same */
	fragment(at("reports/77"), "n1.json", 0, 7200);
	assert_int_equal(job_dir_77(now), 2);
	/* without a prolog time only the owners tell */
	fragment(at("reports/77"), "n1.json", 0, 7200);
	assert_int_equal(job_dir_77(0), 2);
	/* an existing job directory others can write: refused, left as it is */
	assert_int_equal(mkdir(at("reports/78"), 0755), 0);
	assert_int_equal(chmod(at("reports/78"), 0775), 0);
	assert_int_equal(roce_safefile_report_dir(at("reports"), "78", 4001, now, &gid, &err), -1);
	assert_non_null(strstr(err.msg, "78 is writable by group or others (mode 775)"));
	assert_int_equal(mode_of(at("reports/78")), 0775);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(creates_with_exact_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(never_through_a_link, setup, teardown),
		cmocka_unit_test_setup_teardown(owners_and_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(no_kernel_file_systems, setup, teardown),
		cmocka_unit_test_setup_teardown(one_instance_per_job_dir, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
