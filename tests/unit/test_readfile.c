/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_readfile.c - bounded whole-file reads (lib/read/readfile.h) on real files,
 * a FIFO, a device node, a directory and symlinks in a temporary directory. */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "read/readfile.h"
#include "scratch.h"

static char dir[PATH_MAX - 32];
static int dfd = -1;

static void put(const char *name, const char *text, mode_t mode)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int setup(void **s)
{
	(void)s;
	if (fx_tmpdir(dir, sizeof(dir), "test_readfile") < 0 ||
	    (dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	close(dfd);
	return fx_rmtree(dir);
}

static void reads_whole_files(void **state)
{
	(void)state;
	struct roce_reading r;
	char buf[16], path[PATH_MAX];
	size_t len = 0;
	put("a", "hello\n", 0600);
	assert_int_equal(roce_readfile_buf(dfd, dir, "a", buf, sizeof(buf), 0, &r), 6);
	assert_string_equal(buf, "hello\n");
	assert_int_equal(r.status, ROCE_OK);
	char *text = roce_readfile(dfd, NULL, "a", 100, ROCE_READFILE_NOFOLLOW, &len, &r);
	assert_non_null(text);
	assert_int_equal(len, 6);
	assert_string_equal(text, "hello\n");
	free(text);
	/* a plain path (AT_FDCWD), and a file exactly at the bound */
	snprintf(path, sizeof(path), "%s/a", dir);
	assert_int_equal(roce_readfile_buf(AT_FDCWD, NULL, path, buf, 7, 0, &r), 6);
	text = roce_readfile(AT_FDCWD, NULL, path, 6, 0, &len, &r);
	assert_non_null(text);
	free(text);
	/* /proc files say st_size 0: read to their end all the same */
	text = roce_readfile(AT_FDCWD, NULL, "/proc/self/stat", 4096, 0, &len, &r);
	assert_non_null(text);
	assert_true(len > 10 && strlen(text) == len);
	free(text);
}

static void refuses_what_is_not_a_small_regular_file(void **state)
{
	(void)state;
	struct roce_reading r;
	char buf[8];
	size_t len;
	/* a FIFO without a writer: refused at once, never waited on */
	assert_int_equal(mkfifoat(dfd, "fifo", 0600), 0);
	assert_int_equal(roce_readfile_buf(dfd, dir, "fifo", buf, sizeof(buf), 0, &r), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(r.status, ROCE_MALFORMED);
	assert_non_null(strstr(r.why, "/fifo is not a regular file"));
	assert_string_equal(buf, "");
	/* a directory */
	assert_int_equal(mkdirat(dfd, "sub", 0700), 0);
	assert_null(roce_readfile(dfd, dir, "sub", 100, 0, &len, &r));
	assert_int_equal(r.status, ROCE_MALFORMED);
	/* a symlink: followed unless NOFOLLOW */
	put("target", "x", 0600);
	assert_int_equal(symlinkat("target", dfd, "link"), 0);
	assert_int_equal(roce_readfile_buf(dfd, dir, "link", buf, sizeof(buf), 0, &r), 1);
	assert_int_equal(roce_readfile_buf(dfd, dir, "link", buf, sizeof(buf), ROCE_READFILE_NOFOLLOW, &r), -1);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(r.status, ROCE_UNREADABLE);
	assert_non_null(strstr(r.why, "cannot open "));
	assert_non_null(strstr(r.why, "/link: "));
	/* missing */
	assert_null(roce_readfile(dfd, dir, "none", 100, 0, &len, &r));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(r.status, ROCE_MISSING);
	assert_int_equal(r.err, ENOENT);
}

/* Whether name was opened since the watch was set: the kernel queues IN_OPEN
 * inside open() itself, so the answer is complete when the call returned. */
static bool opened_since(int ino, int wd)
{
	char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool opened = false;
	ssize_t n;
	while ((n = read(ino, ev, sizeof(ev))) > 0)
		for (char *p = ev; p < ev + n; p += sizeof(struct inotify_event) + ((struct inotify_event *)p)->len) {
			const struct inotify_event *e = (const struct inotify_event *)p;
			opened |= e->wd == wd && (e->mask & IN_OPEN);
		}
	return opened;
}

/* Wait (10 s at most) until pid sits in open(): /proc/PID/syscall starts with
 * the number of the call it is blocked in. */
static bool blocked_in_open(pid_t pid)
{
	char path[64], buf[64], want[16];
	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	snprintf(want, sizeof(want), "%ld ", (long)SYS_openat);
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");
		bool in_open = f && fgets(buf, sizeof(buf), f) && strncmp(buf, want, strlen(want)) == 0;
		if (f)
			fclose(f);
		if (in_open)
			return true;
		usleep(10000);
	}
	return false;
}

/* A FIFO with a writer blocked in open() and a character device: refused by
 * what they are, never opened (an open releases the writer; a device's open
 * is the driver's: /dev/watchdog would arm the watchdog). */
static void never_opens_fifos_or_devices(void **state)
{
	(void)state;
	struct roce_reading r;
	char buf[8], path[PATH_MAX];
	size_t len;
	int ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(ino >= 0);
	assert_int_equal(mkfifoat(dfd, "fifo.json", 0600), 0);
	snprintf(path, sizeof(path), "%s/fifo.json", dir);
	pid_t writer = fork();
	assert_true(writer >= 0);
	if (writer == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);   /* never outlives a failed test */
		int fd = open(path, O_WRONLY);     /* blocks until a reader opens */
		_exit(fd >= 0 ? 0 : 1);
	}
	assert_true(blocked_in_open(writer));
	int wd = inotify_add_watch(ino, path, IN_OPEN);
	assert_true(wd >= 0);
	assert_null(roce_readfile(dfd, dir, "fifo.json", 100, ROCE_READFILE_NOFOLLOW, &len, &r));
	assert_int_equal(roce_readfile_buf(dfd, dir, "fifo.json", buf, sizeof(buf), 0, &r), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(r.status, ROCE_MALFORMED);
	assert_non_null(strstr(r.why, "/fifo.json is not a regular file (a FIFO)"));
	assert_false(opened_since(ino, wd));
	assert_int_equal(waitpid(writer, NULL, WNOHANG), 0);   /* still blocked */
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);

	/* /dev/null's numbers: harmless had it been opened, and seen if it was */
	if (mknodat(dfd, "dev.json", S_IFCHR | 0600, makedev(1, 3)) < 0) {
		assert_true(errno == EPERM);   /* not root: no device node to plant */
		close(ino);
		return;
	}
	snprintf(path, sizeof(path), "%s/dev.json", dir);
	wd = inotify_add_watch(ino, path, IN_OPEN);
	assert_true(wd >= 0);
	assert_null(roce_readfile(dfd, dir, "dev.json", 100, ROCE_READFILE_NOFOLLOW, &len, &r));
	assert_int_equal(r.status, ROCE_MALFORMED);
	assert_non_null(strstr(r.why, "/dev.json is not a regular file (a character device)"));
	assert_int_equal(roce_readfile_buf(dfd, dir, "dev.json", buf, sizeof(buf), 0, &r), -1);
	assert_false(opened_since(ino, wd));
	/* through a symlink that is followed: the same */
	assert_int_equal(symlinkat("dev.json", dfd, "devlink"), 0);
	assert_int_equal(roce_readfile_buf(dfd, dir, "devlink", buf, sizeof(buf), 0, &r), -1);
	assert_non_null(strstr(r.why, "/devlink is not a regular file (a character device)"));
	assert_false(opened_since(ino, wd));
	/* a regular file is opened, and the watch sees it: the check can fail */
	put("plain", "x", 0600);
	snprintf(path, sizeof(path), "%s/plain", dir);
	wd = inotify_add_watch(ino, path, IN_OPEN);
	assert_int_equal(roce_readfile_buf(dfd, dir, "plain", buf, sizeof(buf), 0, &r), 1);
	assert_true(opened_since(ino, wd));
	close(ino);
}

static void refuses_oversize(void **state)
{
	(void)state;
	struct roce_reading r;
	char buf[8];
	size_t len;
	put("big", "0123456789", 0600);
	assert_int_equal(roce_readfile_buf(dfd, dir, "big", buf, sizeof(buf), 0, &r), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(r.status, ROCE_MALFORMED);
	assert_non_null(strstr(r.why, "big: longer than 7 bytes"));
	assert_string_equal(buf, "");
	assert_null(roce_readfile(dfd, dir, "big", 9, 0, &len, &r));
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(r.why, "big: longer than 9 bytes"));
	/* growing past the first guess of the buffer is fine below the bound */
	char *text = roce_readfile(AT_FDCWD, NULL, "/proc/self/maps", 1 << 20, 0, &len, &r);
	assert_non_null(text);
	assert_true(len > 100);
	free(text);
}

static void trusted_files_only(void **state)
{
	(void)state;
	struct roce_reading r;
	char buf[8];
	put("ours", "x", 0600);
	assert_int_equal(roce_readfile_buf(dfd, dir, "ours", buf, sizeof(buf), ROCE_READFILE_TRUSTED, &r), 1);
	put("shared", "x", 0620);
	assert_int_equal(roce_readfile_buf(dfd, dir, "shared", buf, sizeof(buf), ROCE_READFILE_TRUSTED, &r), -1);
	assert_int_equal(errno, EPERM);
	assert_int_equal(r.status, ROCE_UNREADABLE);
	assert_non_null(strstr(r.why, "shared: not trusted"));
	assert_int_equal(roce_readfile_buf(dfd, dir, "shared", buf, sizeof(buf), 0, &r), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(reads_whole_files, setup, teardown),
		cmocka_unit_test_setup_teardown(refuses_what_is_not_a_small_regular_file, setup, teardown),
		cmocka_unit_test_setup_teardown(never_opens_fifos_or_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(refuses_oversize, setup, teardown),
		cmocka_unit_test_setup_teardown(trusted_files_only, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
