/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmver.c - the Slurm release this build is for, against the installed
 * one (slurmver.h).  The installed version comes from Slurm's own programs:
 * libslurm's soname changes with every release, so linking it would make
 * roce-check fail to start exactly when it should speak.
 */
#include "config.h"
#include "proc/slurmver.h"
#include "proc/worker.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *roce_slurmver_built(void) { return ROCE_SLURM_RELEASE; }

/* "24.11.5" -> 24, 11; -1 unless it starts with digits '.' digits. */
static int major_minor(const char *v, unsigned long *major, unsigned long *minor)
{
	char *end;
	if (!isdigit((unsigned char)v[0]))
		return -1;
	*major = strtoul(v, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	*minor = strtoul(end + 1, &end, 10);
	return *end == '\0' || *end == '.' || *end == '-' ? 0 : -1;
}

int roce_slurmver_parse(const char *line, char *out, size_t len)
{
	unsigned long major, minor;
	size_t end = strlen(line);
	while (end && isspace((unsigned char)line[end - 1]))
		end--;
	size_t start = end;
	while (start && !isspace((unsigned char)line[start - 1]))
		start--;
	size_t n = end - start;
	if (n == 0 || n >= len || n >= 64)
		return -1;
	char word[64];
	memcpy(word, line + start, n);
	word[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)word[i]) && !strchr(".-_+~", word[i]))
			return -1;
	if (major_minor(word, &major, &minor) < 0)
		return -1;
	memcpy(out, word, n + 1);
	return 0;
}

bool roce_slurmver_same_release(const char *a, const char *b)
{
	unsigned long am, an, bm, bn;
	return major_minor(a, &am, &an) == 0 && major_minor(b, &bm, &bn) == 0 && am == bm && an == bn;
}

struct version_out {
	int found;
	char version[64];
};

/* In a worker child (deadline, no zombie left to us): run PROGRAM -V with
 * stdin and stderr on /dev/null, read its first line. */
static void ask_slurm(const void *arg, void *res)
{
	const char *program = arg;
	struct version_out *out = res;
	int fd[2];
	char line[256];
	if (pipe(fd) < 0)
		return;
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDERR_FILENO);
		}
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execlp(program, program, "-V", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	FILE *f = fdopen(fd[0], "r");
	if (f && fgets(line, sizeof(line), f))
		out->found = roce_slurmver_parse(line, out->version, sizeof(out->version)) == 0;
	if (f)
		fclose(f);
	else
		close(fd[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int roce_slurmver_installed(char *out, size_t len, int timeout_ms)
{
	static const char *const programs[] = { "slurmd", "sinfo" };
	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		struct version_out v;
		struct roce_worker_end end;
		if (roce_worker_run(ask_slurm, programs[i], &v, sizeof(v), timeout_ms, &end) < 0 || !v.found)
			continue;
		v.version[sizeof(v.version) - 1] = '\0';
		if (strlen(v.version) >= len)
			return -1;
		strcpy(out, v.version);
		return 0;
	}
	return -1;
}

void roce_slurmver_print_version(const char *prog)
{
	char installed[64];
	printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
	printf("built for Slurm %s\n", roce_slurmver_built());
	if (roce_slurmver_installed(installed, sizeof(installed), ROCE_SLURMVER_TIMEOUT_MS) < 0)
		printf("installed Slurm: unknown (neither slurmd -V nor sinfo -V answered)\n");
	else
		printf("installed Slurm %s%s\n", installed,
		       roce_slurmver_same_release(roce_slurmver_built(), installed)
		               ? ""
		               : ": another release, rebuild slurm-roce for it (spank_roce.so will not load)");
}
