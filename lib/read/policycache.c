/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policycache.c - the last roce.conf that parsed, in StateDir (policycache.h). */
#include "config.h"
#include "read/policycache.h"
#include "read/policyfile.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "base/model.h"
#include "base/printable.h"
#include "base/timearg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_LEN 64
#define COPY_MAX (ROCE_POLICYFILE_MAX + 1024) /* the file and the closing comment */

/* policy-HASH.conf, the flag policy-HASH.bad and the markers policy-HASH.bad-VERSION. */
static void copy_name(char *buf, const char *path) { snprintf(buf, NAME_LEN, "policy-%08x.conf", roce_fnv1a(path)); }
static void flag_name(char *buf, const char *path) { snprintf(buf, NAME_LEN, "policy-%08x.bad", roce_fnv1a(path)); }

/* The comment that closes a copy: after the file's last line, so that the
 * copy's line numbers are the file's. */
static void closing(char *buf, size_t len, const char *path)
{
	char shown[300];
	snprintf(buf, len, "# the last good copy of %s, kept by slurm-roce for when that file does not parse\n",
	         roce_printable(path, shown, sizeof(shown)));
}

/* ---------------------------------------------------------------- the copy */

static char *copy_text(const char *path, const char *text, size_t len, size_t *n)
{
	char end[400];
	bool newline = len == 0 || text[len - 1] == '\n';
	closing(end, sizeof(end), path);
	size_t elen = strlen(end);
	char *c = malloc(len + 1 + elen + 1);
	if (!c)
		return NULL;
	memcpy(c, text, len);
	*n = len;
	if (!newline)
		c[(*n)++] = '\n';
	memcpy(c + *n, end, elen + 1);
	*n += elen;
	return c;
}

/* Write the copy of path's text unless it is already there. */
static void keep(int sfd, const char *dir, const char *path, const char *text, size_t len)
{
	char name[NAME_LEN];
	struct roce_reading r;
	struct roce_error err;
	size_t n, have_len = 0;
	char *want = copy_text(path, text, len, &n);

	copy_name(name, path);
	char *have = want ? roce_readfile(sfd, dir, name, COPY_MAX, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED,
	                                  &have_len, &r)
	                  : NULL;
	if (want && !(have && have_len == n && memcmp(have, want, n) == 0))
		roce_safefile_write(sfd, name, want, n, geteuid(), getegid(), 0600, -1, 0, &err);
	free(have);
	free(want);
}

/* The copy of path, parsed for node into p; saved gets its time.  -1 when
 * there is none, it is another file's, or it no longer parses. */
static int load_copy(int sfd, const char *dir, const char *path, const char *node, struct roce_policy *p,
                     struct roce_policycache_outcome *o)
{
	char name[NAME_LEN], where[4200], end[400];
	struct roce_policyfile_result res;
	struct roce_reading r;
	struct stat st;
	size_t len = 0;
	int rc = -1;

	copy_name(name, path);
	closing(end, sizeof(end), path);
	char *text = roce_readfile(sfd, dir, name, COPY_MAX, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &len, &r);
	size_t elen = strlen(end);
	if (!text || len < elen || memcmp(text + len - elen, end, elen) != 0)
		goto out;
	memset(&res, 0, sizeof(res));
	snprintf(where, sizeof(where), "%s/%s", dir, name);
	if (roce_policyfile_parse(p, text, len, where, node, &res) < 0)
		goto out;
	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		roce_timearg_iso((int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec, o->saved,
		                 sizeof(o->saved));
	rc = 0;
out:
	free(text);
	return rc;
}

/* ---------------------------------------------------------------- one log line per bad version */

/* After a good parse: forget the bad versions seen (one fstatat when there are none). */
static void forget_bad(int sfd, const char *path)
{
	char flag[NAME_LEN], prefix[NAME_LEN + 2];
	struct stat st;
	struct dirent *e;

	flag_name(flag, path);
	if (fstatat(sfd, flag, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	snprintf(prefix, sizeof(prefix), "%s-", flag);
	int dfd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d && dfd >= 0)
		close(dfd);
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			unlinkat(sfd, e->d_name, 0);
	if (d)
		closedir(d);
	unlinkat(sfd, flag, 0);
}

/* Is this reader the first to meet this version of the bad file?  The
 * marker is created exclusively: of readers racing, one is. */
static bool first_to_see(int sfd, const char *path, uint32_t version, size_t len)
{
	char marker[2 * NAME_LEN], flag[NAME_LEN];
	if (sfd < 0)
		return true; /* nowhere to remember it: say it every time */
	flag_name(flag, path);
	snprintf(marker, sizeof(marker), "%s-%08x-%zu", flag, (unsigned)version, len);
	int fd = openat(sfd, marker, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno != EEXIST;
	close(fd);
	fd = openat(sfd, flag, O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	return true;
}

int roce_policycache_load(struct roce_policy *p, const char *path, bool missing_ok, const char *node, bool save,
                          const char *state_dir, struct roce_policycache_outcome *o, struct roce_error *err)
{
	struct roce_policyfile_result res;
	struct roce_policy start = *p, lenient;
	size_t len = 0;
	int sfd = -1, rc = -1;

	memset(o, 0, sizeof(*o));
	char *text = roce_policyfile_text(path, missing_ok, &len, &res);
	if (!text && !res.n_problems)
		return 0; /* missing, and that is allowed: the defaults */
	if (text && roce_policyfile_parse(p, text, len, path, node, &res) == 0) {
		const char *dir = state_dir ? state_dir : p->state_dir;
		if (save && (sfd = roce_safefile_state_dir(dir, NULL)) >= 0) {
			keep(sfd, dir, path, text, len);
			forget_bad(sfd, path);
		}
		rc = 0;
		goto out;
	}
	o->bad = res.problems[0].err;
	if (err)
		*err = o->bad;
	lenient = *p;
	const char *dir = state_dir ? state_dir : lenient.state_dir;
	sfd = roce_safefile_state_dir_existing(dir);
	*p = start;
	if (sfd >= 0 && load_copy(sfd, dir, path, node, p, o) == 0) {
		o->cached = true;
		rc = 0;
	} else {
		*p = lenient;
	}
	/* Only readers that keep copies mark what they saw: roce-check says it every time. */
	o->first = !save || first_to_see(sfd, path, roce_fnv1a(text ? text : o->bad.msg), len);
out:
	if (sfd >= 0)
		close(sfd);
	free(text);
	return rc;
}
