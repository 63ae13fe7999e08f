/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stuck.c - the StateDir marker of a collector stuck in the kernel (stuck.h). */
#include "config.h"
#include "proc/stuck.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "base/model.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MARKER_MAX 64

/* "collector.<kind>" for /sys, "collector-<hash>.<kind>" for another root. */
static void record_name(const char *sysfs_root, const char *kind, char *buf, size_t len)
{
	if (!sysfs_root || !sysfs_root[0] || strcmp(sysfs_root, "/sys") == 0) {
		snprintf(buf, len, "collector.%s", kind);
		return;
	}
	snprintf(buf, len, "collector-%08x.%s", (unsigned)roce_fnv1a(sysfs_root), kind);
}

static void marker_name(const char *sysfs_root, char *buf, size_t len) { record_name(sysfs_root, "stuck", buf, len); }

/* Field 22 of /proc/PID/stat (start time in clock ticks after boot) and the
 * state letter.  -1 when the process does not exist (or is unreadable). */
static int proc_start(pid_t pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024];
	struct roce_reading r;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (roce_readfile_buf(AT_FDCWD, NULL, path, buf, sizeof(buf), 0, &r) <= 0)
		return -1;
	/* The command name may hold spaces and parentheses: fields follow the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
	                 state, start) != 2)
		return -1;
	return 0;
}

static long age_s(unsigned long long start)
{
	struct timespec now;
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) < 0)
		return 0;
	long age = (long)now.tv_sec - (long)(start / (unsigned long long)hz);
	return age < 0 ? 0 : age;
}

int roce_stuck_mark(const char *state_dir, const char *sysfs_root, pid_t pid, struct roce_error *err)
{
	unsigned long long start;
	char state, name[64], text[MARKER_MAX];
	if (pid <= 0 || proc_start(pid, &start, &state) < 0 || state == 'Z' || state == 'X')
		return 0; /* already gone: nothing is stuck */
	int dfd = roce_safefile_state_dir(state_dir, err);
	if (dfd < 0)
		return -1;
	marker_name(sysfs_root, name, sizeof(name));
	int n = snprintf(text, sizeof(text), "%d %llu\n", (int)pid, start);
	int rc = roce_safefile_write(dfd, name, text, (size_t)n, geteuid(), getegid(), 0600, -1, ROCE_SAFEFILE_DURABLE,
	                             err);
	close(dfd);
	return rc;
}

/* The marker's pid and start time; -1 when it is not a marker of ours. */
static int read_marker(int dfd, const char *name, pid_t *pid, unsigned long long *start)
{
	char buf[MARKER_MAX + 1];
	struct roce_reading r;
	ssize_t n = roce_readfile_buf(dfd, NULL, name, buf, sizeof(buf), ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED,
	                              &r);
	if (n <= 0)
		return -1;
	int p, used = 0;
	if (sscanf(buf, "%d %llu\n%n", &p, start, &used) != 2 || used != n || p <= 0)
		return -2; /* ours but garbled: removed by the caller */
	*pid = p;
	return 0;
}

/* The live marker's process in StateDir dfd; a stale one is removed. */
static int find_at(int dfd, const char *sysfs_root, struct roce_stuck *out)
{
	char name[64], state;
	pid_t pid = 0;
	unsigned long long start = 0, now_start;

	marker_name(sysfs_root, name, sizeof(name));
	int found = 0;
	int rc = read_marker(dfd, name, &pid, &start);
	if (rc == -1)
		goto done;
	if (rc == 0 && proc_start(pid, &now_start, &state) == 0 && now_start == start && state != 'Z' && state != 'X') {
		out->pid = pid;
		out->age_s = age_s(start);
		found = 1;
		goto done;
	}
	unlinkat(dfd, name, 0); /* the process is gone (or the marker garbled): stale */
done:
	return found;
}

/* The late record in StateDir dfd: a regular file of root's (or this
 * euid's) that nobody else writes. */
static bool late_at(int dfd, const char *sysfs_root)
{
	char name[64];
	struct stat st;
	record_name(sysfs_root, "late", name, sizeof(name));
	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	       (st.st_uid == 0 || st.st_uid == geteuid()) && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

int roce_stuck_find(const char *state_dir, const char *sysfs_root, struct roce_stuck *out)
{
	bool late;
	return roce_stuck_find_late(state_dir, sysfs_root, out, &late);
}

int roce_stuck_find_late(const char *state_dir, const char *sysfs_root, struct roce_stuck *out, bool *late)
{
	memset(out, 0, sizeof(*out));
	*late = false;
	int dfd = roce_safefile_state_dir_existing(state_dir);
	if (dfd < 0)
		return 0; /* none, or not our StateDir: no marker of ours can be there */
	int found = find_at(dfd, sysfs_root, out);
	*late = late_at(dfd, sysfs_root);
	close(dfd);
	return found;
}

void roce_stuck_describe(const struct roce_stuck *s, char *buf, size_t len)
{
	snprintf(buf, len,
	         "an earlier fabric check (pid %d, started %ld s ago) is still stuck in a sysfs or netlink read, "
	         "so no new one was started; the node's RDMA driver or firmware may be wedged (check dmesg)",
	         (int)s->pid, s->age_s);
}

int roce_stuck_mark_late(const char *state_dir, const char *sysfs_root, struct roce_error *err)
{
	char name[64], text[32];
	int dfd = roce_safefile_state_dir(state_dir, err);
	if (dfd < 0)
		return -1;
	record_name(sysfs_root, "late", name, sizeof(name));
	int n = snprintf(text, sizeof(text), "%lld\n", (long long)time(NULL));
	int rc = roce_safefile_write(dfd, name, text, (size_t)n, geteuid(), getegid(), 0600, -1, 0, err);
	close(dfd);
	return rc;
}

bool roce_stuck_late_seen(const char *state_dir, const char *sysfs_root)
{
	int dfd = roce_safefile_state_dir_existing(state_dir);
	if (dfd < 0)
		return false;
	bool seen = late_at(dfd, sysfs_root);
	close(dfd);
	return seen;
}
