/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeit - run a command N times, alternating with others, and print the
 * median, min and max wall time of each in milliseconds.
 *
 *   timeit N LABEL -- CMD ARGS... [ ::: LABEL -- CMD ARGS... ]...
 *
 * Commands run round-robin (A B C A B C ...) so that machine noise hits all
 * of them alike; stdout/stderr go to /dev/null.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCMD 16

struct cmd {
	const char *label;
	char **argv;
	double *ms;
};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double run_once(char **argv)
{
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	return now_ms() - t0;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: timeit N LABEL -- CMD... [::: LABEL -- CMD...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	struct cmd cmds[MAXCMD];
	int nc = 0;
	for (int i = 2; i < argc && nc < MAXCMD;) {
		cmds[nc].label = argv[i];
		if (i + 1 >= argc || strcmp(argv[i + 1], "--") != 0) {
			fprintf(stderr, "timeit: expected -- after %s\n", argv[i]);
			return 2;
		}
		cmds[nc].argv = &argv[i + 2];
		int j = i + 2;
		while (j < argc && strcmp(argv[j], ":::") != 0)
			j++;
		argv[j < argc ? j : argc] = NULL;
		cmds[nc].ms = calloc((size_t)n, sizeof(double));
		nc++;
		i = j + 1;
	}
	for (int r = 0; r < n; r++)
		for (int c = 0; c < nc; c++)
			cmds[c].ms[r] = run_once(cmds[c].argv);
	double base = 0;
	for (int c = 0; c < nc; c++) {
		qsort(cmds[c].ms, (size_t)n, sizeof(double), cmp);
		double med = cmds[c].ms[n / 2];
		if (c == 0)
			base = med;
		printf("%-40s median %8.3f ms  min %8.3f  max %8.3f  ratio %6.2f  (n=%d)\n", cmds[c].label, med,
		       cmds[c].ms[0], cmds[c].ms[n - 1], base > 0 ? med / base : 0, n);
	}
	return 0;
}
