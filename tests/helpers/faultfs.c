/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs - a read-only FUSE view of a directory tree in which chosen files
 * fail the way a sick kernel or driver makes sysfs files fail.
 *
 *   faultfs BACKING MOUNTPOINT RULE...   (stays in the foreground)
 *
 * RULE is KIND:SUFFIX, matched against the last path components inside
 * the mount (so "mlx5_0/ports/1/gids/3" matches however the fixture's
 * class symlinks resolve); SUFFIX may hold fnmatch(3) wildcards within a
 * component ("gid_attrs/types/[0-9]*"):
 *   eio:SUFFIX        read() fails with EIO (a firmware command that failed)
 *   einval:SUFFIX     read() fails with EINVAL (the kernel's answer for the
 *                     type and ndev of an empty GID slot)
 *   eacces:SUFFIX     open() fails with EACCES (root cannot be refused by
 *                     mode bits; a file system can)
 *   hang=N:SUFFIX     read() sleeps N seconds, then answers (a stuck
 *                     firmware command).  Interrupts are not honoured (no
 *                     -o intr), so the reader waits in D state, killed or not,
 *                     as it would on a real sysfs attribute
 *   eagain:SUFFIX     read() fails with EAGAIN
 *   einvalempty:SUFFIX  read() fails with EINVAL when the file is empty:
 *                     the kernel's behaviour for every empty GID slot
 * Everything else is passed through: lstat, readlink, readdir, read.
 * Every file is opened direct_io so each read() reaches us, as in sysfs.
 * Used by tests/e2e/fault-fuse.sh; unmount with `fusermount3 -u` or SIGTERM.
 */
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RULES_MAX 64

enum kind { K_EIO, K_EINVAL, K_EACCES, K_HANG, K_EAGAIN, K_EINVAL_EMPTY };

static struct rule {
	enum kind kind;
	int seconds;
	const char *suffix;
} rules[RULES_MAX];
static int n_rules;
static char backing[PATH_MAX];

/* The last n components of path ("/a/b/c", 2 -> "b/c"), or path without its '/'. */
static const char *tail(const char *path, int n)
{
	const char *p = path + strlen(path);
	while (p > path) {
		p--;
		if (*p == '/' && --n == 0)
			return p + 1;
	}
	return *path == '/' ? path + 1 : path;
}

static const struct rule *rule_for(const char *path, enum kind k)
{
	for (int i = 0; i < n_rules; i++) {
		int parts = 1;
		for (const char *c = rules[i].suffix; *c; c++)
			parts += *c == '/';
		if (rules[i].kind == k && fnmatch(rules[i].suffix, tail(path, parts), FNM_PATHNAME) == 0)
			return &rules[i];
	}
	return NULL;
}

static int real_path(const char *path, char *out)
{
	int n = snprintf(out, PATH_MAX, "%s%s", backing, path);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	(void)fi;
	int rc = real_path(path, p);
	if (rc)
		return rc;
	return lstat(p, st) < 0 ? -errno : 0;
}

static int fs_readlink(const char *path, char *buf, size_t size)
{
	char p[PATH_MAX];
	int rc = real_path(path, p);
	if (rc)
		return rc;
	ssize_t n = readlink(p, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	char p[PATH_MAX];
	(void)off;
	(void)fi;
	(void)flags;
	int rc = real_path(path, p);
	if (rc)
		return rc;
	DIR *d = opendir(p);
	if (!d)
		return -errno;
	struct dirent *de;
	while ((de = readdir(d)))
		if (filler(buf, de->d_name, NULL, 0, 0))
			break;
	closedir(d);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	if (rule_for(path, K_EACCES))
		return -EACCES;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	int rc = real_path(path, p);
	if (rc)
		return rc;
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	const struct rule *r;
	if (rule_for(path, K_EIO))
		return -EIO;
	if (rule_for(path, K_EINVAL))
		return -EINVAL;
	if (rule_for(path, K_EAGAIN))
		return -EAGAIN;
	if (rule_for(path, K_EINVAL_EMPTY)) {
		struct stat st;
		if (fstat((int)fi->fh, &st) == 0 && st.st_size == 0)
			return -EINVAL;
	}
	if ((r = rule_for(path, K_HANG))) {
		struct timespec ts = { .tv_sec = r->seconds, .tv_nsec = 0 };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	ssize_t n = pread((int)fi->fh, buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close((int)fi->fh);
	return 0;
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* No caching: every lookup, attribute and read goes to us, as in sysfs. */
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->direct_io = 1;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readlink = fs_readlink,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.release = fs_release,
};

static int parse_rule(const char *s)
{
	static const struct { const char *name; enum kind k; } kinds[] = {
		{ "eio:", K_EIO }, { "einval:", K_EINVAL }, { "eacces:", K_EACCES }, { "eagain:", K_EAGAIN },
		{ "einvalempty:", K_EINVAL_EMPTY },
	};
	if (n_rules >= RULES_MAX)
		return -1;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(s, kinds[i].name, strlen(kinds[i].name))) {
			rules[n_rules].kind = kinds[i].k;
			rules[n_rules++].suffix = s + strlen(kinds[i].name);
			return 0;
		}
	int secs, used = 0;
	if (sscanf(s, "hang=%d:%n", &secs, &used) == 1 && used > 0 && secs >= 0) {
		rules[n_rules].kind = K_HANG;
		rules[n_rules].seconds = secs;
		rules[n_rules++].suffix = s + used;
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: faultfs BACKING MOUNTPOINT [eio|einval|einvalempty|eacces|eagain|hang=N]:SUFFIX...\n");
		return 2;
	}
	if (!realpath(argv[1], backing)) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 3; i < argc; i++)
		if (parse_rule(argv[i]) < 0) {
			fprintf(stderr, "faultfs: bad rule \"%s\"\n", argv[i]);
			return 2;
		}
	/* Foreground (the test owns the process), read-only, readable by
	 * `nobody` too; multithreaded so that a hung read does not stop others. */
	char *fargv[] = { argv[0], "-f", "-o", "ro,allow_other,fsname=faultfs", argv[2], NULL };
	return fuse_main(5, fargv, &ops, NULL);
}
