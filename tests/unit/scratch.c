/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scratch.c - see scratch.h. */
#include "config.h"
#include "unit.h"
#include "scratch.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int fx_tmpdir(char *path, size_t len, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(path, len, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return mkdtemp(path) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) == 0 ? 0 : -1;
}

int fx_rmtree(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

void fx_mkdirs(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, rel) < (int)sizeof(path));
	for (char *p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0755) < 0 && errno != EEXIST)
				fail_msg("mkdir %s: %s", path, strerror(errno));
			*p = '/';
		}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

void fx_putf(const char *dir, const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX];
	const char *slash = strrchr(rel, '/');
	if (slash) {
		char parent[PATH_MAX];
		assert_true((size_t)(slash - rel) < sizeof(parent));
		memcpy(parent, rel, (size_t)(slash - rel));
		parent[slash - rel] = '\0';
		fx_mkdirs(dir, parent);
	}
	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, rel) < (int)sizeof(path));
	FILE *f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write %s: %s", path, strerror(errno));
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
}
