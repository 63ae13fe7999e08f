/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reportdir.c - read the fragments of ReportDir/<job id>/ (reportdir.h says what is refused). */
#include "config.h"
#include "reportdir.h"
#include "fragment_read.h"
#include "readfile.h"
#include "safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FRAGMENT_MAX (16u << 20)   /* a node with 4096 ports is < 16 MiB */

/* "<node>.json", not a dot file. */
static bool fragment_file_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && n >= 6 && strcmp(name + n - 5, ".json") == 0;
}

/* The fragment of node "x" is "x.json". */
static bool names_agree(const struct roce_fragment *f, const char *file)
{
	char expect[80];
	snprintf(expect, sizeof(expect), "%s.json", f->name);
	return strcmp(expect, file) == 0;
}

/* A file's text, in one buffer for them all. */
struct text {
	char *buf;
	size_t cap;
};

static void load_one(struct roce_job_report *r, int dfd, const char *name, struct text *t)
{
	struct roce_error err;
	struct roce_reading rd;
	struct roce_fragment f;
	struct stat st;
	size_t len = 0;
	char *buf = roce_readfile_reuse(dfd, NULL, name, FRAGMENT_MAX, ROCE_READFILE_NOFOLLOW, &t->buf, &t->cap, &len, &st,
	                                &rd);
	if (!buf) {
		/* "<name> is not a regular file (a FIFO)": never opened */
		if (rd.status == ROCE_MALFORMED && errno == EINVAL && strrchr(rd.why, '('))
			roce_error_set(&err, "not a regular file %s", strrchr(rd.why, '('));
		else
			roce_error_set(&err, "cannot read: %s", strerror(errno));
		roce_report_error(r, name, err.msg);
		return;
	}
	if (roce_fragment_read(buf, len, r->job_id, &f, &err) < 0) {
		roce_report_error(r, name, err.msg);
	} else if (!names_agree(&f, name)) {
		roce_fragment_free(&f);
		roce_report_error(r, name, "the node name inside does not match the file name");
	} else if (st.st_uid != 0 && (long)st.st_uid != f.uid) {
		/* Without ACLs a fragment belongs to its job's user, who can
		 * rewrite it; anyone else's file says what they chose. */
		roce_error_set(&err, "owned by uid %u, neither root nor its job_uid %ld", (unsigned)st.st_uid, f.uid);
		roce_fragment_free(&f);
		roce_report_error(r, name, err.msg);
	} else {
		f.file_owner = (long)st.st_uid;
		if (roce_report_append(r, &f, &err) < 0)
			roce_report_error(r, name, err.msg);
	}
}

int roce_reportdir_load(struct roce_job_report *r, const char *dir, struct roce_error *err)
{
	int dfd = roce_safefile_open_dir(NULL, dir, 0, 0, err);
	if (dfd < 0)
		return -1;
	DIR *d = fdopendir(dfd);
	if (!d) {
		roce_error_set(err, "cannot list %s: %s", dir, strerror(errno));
		close(dfd);
		return -1;
	}
	struct dirent *e;
	struct text t = { NULL, 0 };
	while ((e = readdir(d)))
		if (fragment_file_name(e->d_name))
			load_one(r, dirfd(d), e->d_name, &t);
	free(t.buf);
	closedir(d);
	return 0;
}

int roce_reportdir_jobs(const char *report_dir, roce_reportdir_job_fn fn, void *arg, struct roce_error *err)
{
	int dfd = roce_safefile_open_dir(NULL, report_dir, 0, 0, err);
	if (dfd < 0)
		return -1;
	DIR *d = fdopendir(dfd);
	if (!d) {
		roce_error_set(err, "cannot list %s: %s", report_dir, strerror(errno));
		close(dfd);
		return -1;
	}
	struct dirent *e;
	struct stat st;
	int rc = 0;
	/* Only ReportDir/<job id>/: JOBID.earlier-INODE and the rest are not a job's current report. */
	while (rc == 0 && (e = readdir(d)))
		if (roce_fragment_job_id_ok(e->d_name) && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode))
			rc = fn(e->d_name, (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec, arg);
	closedir(d);
	return rc < 0 ? -1 : 0;
}
