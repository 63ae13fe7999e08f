/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmver.c - the Slurm release this build is for, against the installed
 * one (slurmver.h).  The installed version comes from Slurm's own programs:
 * libslurm's soname changes with every release, so linking it would make
 * roce-check fail to start exactly when it should speak.
 */
#include "config.h"
#include "proc/slurmver.h"
#include "proc/command.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int roce_slurmver_installed(char *out, size_t len, int timeout_ms)
{
	static const char *const programs[] = { "slurmd", "sinfo" };
	for (size_t i = 0; i < sizeof(programs) / sizeof(programs[0]); i++) {
		const char *argv[] = { programs[i], "-V", NULL };
		struct roce_command c;
		char line[256], version[64];
		/* the first line; a failing program may still have printed one */
		roce_command_run(argv, timeout_ms, line, sizeof(line), &c);
		if (c.timed_out)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (roce_slurmver_parse(line, version, sizeof(version)) < 0)
			continue;
		if (strlen(version) >= len)
			return -1;
		strcpy(out, version);
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
