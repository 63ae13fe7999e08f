/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readfloor LIST - read each file named in LIST (one absolute path a line,
 * grouped by directory) as cheaply as Linux allows: one O_PATH open per
 * directory, then openat, one read and close per file; no look at what the
 * file is, no parsing, no output.  bench/roce-check.sh gives it the files a
 * roce-check run opened (from strace): its time is the floor of any program
 * that reads those files, however it is written.  Exit 1 when no file read.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char list[1 << 20], buf[4096], dir[4096];
	int dfd = -1, fd, n_read = 0;
	ssize_t n;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "usage: readfloor LIST\n");
		return 2;
	}
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	list[n > 0 ? n : 0] = '\0';
	for (char *save = NULL, *p = strtok_r(list, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		char *slash = strrchr(p, '/');
		if (!slash || slash == p || (size_t)(slash - p) >= sizeof(dir))
			continue;
		*slash = '\0';
		if (dfd < 0 || strcmp(dir, p) != 0) {
			if (dfd >= 0)
				close(dfd);
			snprintf(dir, sizeof(dir), "%s", p);
			dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		}
		if ((fd = openat(dfd, slash + 1, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
			continue;
		n_read += read(fd, buf, sizeof(buf)) >= 0;
		close(fd);
	}
	return n_read == 0;
}
