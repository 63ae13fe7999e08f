/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-time - run one command and print "wall_ms cpu_ms maxrss_kib" of it:
 * wall from CLOCK_MONOTONIC around fork/exec/wait, user+sys and max RSS
 * from wait4's rusage (the child alone).  Exit status: the command's.
 * The command's stdout goes to /dev/null.
 * Used by bench/report.sh, which takes medians over many runs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: report-time CMD [ARGS...]\n");
		return 2;
	}
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		/* the command's output is not what we measure: discard it, as a textfile collector would write it to a file */
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 1);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		return 2;
	double wall = now_ms() - t0;
	double cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	printf("%.3f %.3f %ld\n", wall, cpu, ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
