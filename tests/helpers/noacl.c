/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noacl.c - LD_PRELOAD helper for tests/e2e/root-files.sh: stands in for a
 * file system without POSIX ACLs (NFS without them, some FUSE file
 * systems), where setting "system.posix_acl_access" fails with EOPNOTSUPP.
 * The epilog then gives a fragment to the job's user instead (safefile.h),
 * which is what lets the earlier owner of a reused job id rewrite it.
 * Every other extended attribute call goes through unchanged.  Built by
 * "make check" (tests/helpers/.libs/noacl.so), without sanitizers: it is preloaded
 * ahead of their runtimes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <sys/xattr.h>

static int is_acl(const char *name)
{
	return name && strncmp(name, "system.posix_acl_", 17) == 0;
}

int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)
{
	static int (*real)(int, const char *, const void *, size_t, int);
	if (is_acl(name)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (!real)
		real = (int (*)(int, const char *, const void *, size_t, int))dlsym(RTLD_NEXT, "fsetxattr");
	return real(fd, name, value, size, flags);
}

int setxattr(const char *path, const char *name, const void *value, size_t size, int flags)
{
	static int (*real)(const char *, const char *, const void *, size_t, int);
	if (is_acl(name)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (!real)
		real = (int (*)(const char *, const char *, const void *, size_t, int))dlsym(RTLD_NEXT, "setxattr");
	return real(path, name, value, size, flags);
}
