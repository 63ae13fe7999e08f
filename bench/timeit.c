/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeit - run a command N times, alternating with others, and print the
 * median, min and max wall time of each in milliseconds, and its median CPU
 * time (user + system of it and every child it waited for).
 *
 *   timeit N LABEL -- CMD ARGS... [ ::: LABEL -- CMD ARGS... ]...
 *
 * Commands run round-robin (A B C A B C ...) so that machine noise hits all
 * of them alike; stdout/stderr go to /dev/null.  A label ending in @K
 * ("show_gids@10") runs only every K-th round: a slow command sampled less
 * often, still in the same rounds as the others.  The ratio column is the
 * median wall time over the first command's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCMD 16

struct cmd {
	char label[128];
	char **argv;
	int every; /* run in rounds r % every == 0 */
	int n;     /* runs so far */
	double *ms, *cpu;
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

static double tv_ms(struct timeval tv) { return tv.tv_sec * 1e3 + tv.tv_usec / 1e3; }

static void run_once(struct cmd *c)
{
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	wait4(pid, &st, 0, &ru);
	c->ms[c->n] = now_ms() - t0;
	c->cpu[c->n] = tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
	c->n++;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: timeit N LABEL[@K] -- CMD... [::: LABEL[@K] -- CMD...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	struct cmd cmds[MAXCMD];
	int nc = 0;
	for (int i = 2; i < argc && nc < MAXCMD;) {
		struct cmd *c = &cmds[nc];
		snprintf(c->label, sizeof(c->label), "%s", argv[i]);
		char *at = strrchr(c->label, '@');
		c->every = at && atoi(at + 1) > 0 ? atoi(at + 1) : 1;
		if (at && c->every > 1)
			*at = '\0';
		if (i + 1 >= argc || strcmp(argv[i + 1], "--") != 0) {
			fprintf(stderr, "timeit: expected -- after %s\n", argv[i]);
			return 2;
		}
		c->argv = &argv[i + 2];
		int j = i + 2;
		while (j < argc && strcmp(argv[j], ":::") != 0)
			j++;
		argv[j < argc ? j : argc] = NULL;
		c->ms = calloc((size_t)n, sizeof(double));
		c->cpu = calloc((size_t)n, sizeof(double));
		c->n = 0;
		nc++;
		i = j + 1;
	}
	for (int r = 0; r < n; r++)
		for (int c = 0; c < nc; c++)
			if (r % cmds[c].every == 0)
				run_once(&cmds[c]);
	double base = 0;
	for (int c = 0; c < nc; c++) {
		struct cmd *x = &cmds[c];
		double med = median(x->ms, x->n), cpu = median(x->cpu, x->n);
		if (c == 0)
			base = med;
		printf("%-40s median %9.3f ms  min %9.3f  max %9.3f  cpu %8.3f ms  ratio %7.2f  (n=%d)\n", x->label, med,
		       x->ms[0], x->ms[x->n - 1], cpu, base > 0 ? med / base : 0, x->n);
	}
	return 0;
}
