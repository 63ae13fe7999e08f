/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stallwrite.c - LD_PRELOAD helper for tests/e2e/report-safety.sh: stands in
 * for a kernel whose write() stalls, so the test can SIGKILL roce-epilog in
 * the middle of writing its fragment.  When ROCE_TEST_STALL_MATCH is a
 * substring of the file being written (via /proc/self/fd), half the buffer
 * is written, the file ROCE_TEST_STALL_WRITE is created as a signal to the
 * test, and the process waits to be killed.  With ROCE_TEST_NO_TMPFILE set,
 * openat(O_TMPFILE) fails with EOPNOTSUPP as on a file system without it
 * (the writer then falls back to named temporaries).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	const char *signal_file = getenv("ROCE_TEST_STALL_WRITE"), *match = getenv("ROCE_TEST_STALL_MATCH");
	char link[64], target[4096];
	struct stat st;

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (signal_file && match && n > 64 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t len = readlink(link, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			if (strstr(target, match)) {
				real_write(fd, buf, n / 2);
				/* the signal file holds the stalled process's pid */
				int s = open(signal_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
				if (s >= 0) {
					char pid[24];
					int l = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
					real_write(s, pid, (size_t)l);
					close(s);
				}
				for (;;)
					pause();
			}
		}
	}
	return real_write(fd, buf, n);
}

static int no_tmpfile(int flags)
{
	if ((flags & O_TMPFILE) == O_TMPFILE && getenv("ROCE_TEST_NO_TMPFILE")) {
		errno = EOPNOTSUPP;
		return 1;
	}
	return 0;
}

int openat(int dfd, const char *path, int flags, ...)
{
	static int (*real_openat)(int, const char *, int, ...);
	mode_t mode = 0;
	if (!real_openat)
		real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (no_tmpfile(flags))
		return -1;
	return real_openat(dfd, path, flags, mode);
}

int openat64(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return openat(dfd, path, flags, mode);
}
