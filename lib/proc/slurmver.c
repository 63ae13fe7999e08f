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
#include "base/model.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* What one `PROGRAM -V` said. */
enum answer {
	ANSWER_NONE = -1,  /* no answer: not run, killed, or past the deadline (asked again next time) */
	ANSWER_NO_VERSION, /* it ran and ended without a version line */
	ANSWER_VERSION,    /* version set */
};

/* program (a name PATH finds, or a path) -V, within timeout_ms (command.h:
 * killed after it).  The first line of its output; a failing program may
 * still have printed one. */
static enum answer ask(const char *program, char *version, size_t len, int timeout_ms)
{
	const char *argv[] = { program, "-V", NULL };
	struct roce_command c;
	char line[256], v[64];
	roce_command_run(argv, timeout_ms, line, sizeof(line), &c);
	if (c.timed_out || c.error || c.signal)
		return ANSWER_NONE;
	line[strcspn(line, "\n")] = '\0';
	if (roce_slurmver_parse(line, v, sizeof(v)) < 0)
		return c.status >= 0 ? ANSWER_NO_VERSION : ANSWER_NONE;
	if (strlen(v) >= len)
		return ANSWER_NONE;
	strcpy(version, v);
	return ANSWER_VERSION;
}

static const char *const programs[] = { "slurmd", "sinfo" };
#define N_PROGRAMS (sizeof(programs) / sizeof(programs[0]))

int roce_slurmver_installed(char *out, size_t len, int timeout_ms)
{
	for (size_t i = 0; i < N_PROGRAMS; i++)
		if (ask(programs[i], out, len, timeout_ms) == ANSWER_VERSION)
			return 0;
	return -1;
}

/* ---------------------------------------------------------------- the record in the cache directory */

/* The file PATH runs for name, as execvp picks it: the first regular file
 * with an execute bit ("" in PATH is the current directory; no PATH:
 * glibc's /bin:/usr/bin).  0 with path and *st set, -1 when there is none. */
static int find_program(const char *name, char *path, size_t len, struct stat *st)
{
	const char *p = getenv("PATH");
	if (!p)
		p = "/bin:/usr/bin";
	for (;;) {
		size_t n = strcspn(p, ":");
		int w = n ? snprintf(path, len, "%.*s/%s", (int)n, p, name) : snprintf(path, len, "%s", name);
		if (w > 0 && (size_t)w < len && stat(path, st) == 0 && S_ISREG(st->st_mode) && (st->st_mode & 0111))
			return 0;
		if (!p[n])
			return -1;
		p += n + 1;
	}
}

/* The record's first line: the file path names, as it is now.  Any change
 * to the file (an upgrade replaces it: another inode; an edit in place: its
 * size, mtime or ctime) gives another line.  -1 when path cannot be kept
 * on one line. */
static int record_head(const char *path, const struct stat *st, char *buf, size_t len)
{
	if (strchr(path, '\n'))
		return -1;
	int n = snprintf(buf, len, "v1 %llu %llu %lld %lld.%09ld %lld.%09ld %s\n", (unsigned long long)st->st_dev,
	                 (unsigned long long)st->st_ino, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
	                 st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec, path);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* "slurmver-<hash of the path>": one record per program path. */
static void record_name(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "slurmver-%08x", (unsigned)roce_fnv1a(path));
}

/* The recorded answer of the file head describes; ANSWER_NONE when there
 * is no record for it (none, another file's, not ours, garbled). */
static enum answer recorded(const char *dir, const char *path, const char *head, char *version, size_t len)
{
	char name[32], buf[PATH_MAX + 256];
	struct roce_reading r;
	int dfd = roce_safefile_open_dir("TopologyCache directory", dir, ROCE_SAFEFILE_TRUSTED, 0, NULL);
	if (dfd < 0)
		return ANSWER_NONE;
	record_name(path, name, sizeof(name));
	ssize_t n = roce_readfile_buf(dfd, NULL, name, buf, sizeof(buf), ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED,
	                              &r);
	close(dfd);
	size_t hl = strlen(head);
	if (n <= 0 || strncmp(buf, head, hl) != 0)
		return ANSWER_NONE;
	char *answer = buf + hl, *end = strchr(answer, '\n');
	if (!end || end[1] != '\0')
		return ANSWER_NONE;
	*end = '\0';
	if (!strcmp(answer, "-"))
		return ANSWER_NO_VERSION;
	/* Only a version as slurmver_parse gives it ("slurm X" is its line). */
	char line[96], v[64];
	snprintf(line, sizeof(line), "slurm %s", answer);
	if (strlen(answer) >= sizeof(v) || roce_slurmver_parse(line, v, sizeof(v)) < 0 || strcmp(v, answer) != 0 ||
	    strlen(v) >= len)
		return ANSWER_NONE;
	strcpy(version, v);
	return ANSWER_VERSION;
}

/* Keep the answer for the file head describes (a directory of root's only:
 * a caller without one asks every time). */
static void record(const char *dir, const char *path, const char *head, const char *answer)
{
	char name[32], text[PATH_MAX + 256];
	struct roce_error err;
	int n = snprintf(text, sizeof(text), "%s%s\n", head, answer);
	if (n <= 0 || (size_t)n >= sizeof(text))
		return;
	int dfd = roce_safefile_cache_dir(dir, &err);
	if (dfd < 0)
		return;
	record_name(path, name, sizeof(name));
	roce_safefile_write(dfd, name, text, (size_t)n, geteuid(), getegid(), 0600, -1, 0, &err);
	close(dfd);
}

int roce_slurmver_cached(const char *dir, char *out, size_t len, int timeout_ms)
{
	for (size_t i = 0; i < N_PROGRAMS; i++) {
		char path[PATH_MAX], head[PATH_MAX + 160], version[64];
		struct stat st;
		if (find_program(programs[i], path, sizeof(path), &st) < 0)
			continue;
		bool keep = dir && dir[0] && record_head(path, &st, head, sizeof(head)) == 0;
		enum answer a = keep ? recorded(dir, path, head, version, sizeof(version)) : ANSWER_NONE;
		if (a == ANSWER_NONE) {
			a = ask(path, version, sizeof(version), timeout_ms);
			if (keep && a != ANSWER_NONE)
				record(dir, path, head, a == ANSWER_VERSION ? version : "-");
		}
		if (a != ANSWER_VERSION)
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
