/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reportdir.c - read the fragments of ReportDir/<job id>/ (reportdir.h says what is refused). */
#include "config.h"
#include "report/reportdir.h"
#include "base/cpus.h"
#include "base/slurmid.h"
#include "fragment/fragment_read.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#define FRAGMENT_MAX (16u << 20) /* a node with 4096 ports is < 16 MiB */

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
	char *buf = roce_readfile_reuse(dfd, NULL, name, FRAGMENT_MAX, ROCE_READFILE_NOFOLLOW, &t->buf, &t->cap, &len,
	                                &st, &rd);
	if (!buf) {
		/* "<name> is not a regular file (a FIFO)": never opened */
		if (rd.status == ROCE_MALFORMED && errno == EINVAL && strrchr(rd.why, '('))
			roce_error_set(&err, "not a regular file %s", strrchr(rd.why, '('));
		else
			roce_error_set(&err, "cannot read: %s", strerror(errno));
		roce_report_error(r, name, err.msg);
		return;
	}
	if (roce_fragment_read(r->pool, buf, len, r->job_id, &f, &err) < 0) {
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

/* The fragment files of the directory, in directory order: names[i] is
 * at text + at[i]. */
struct names {
	char *text;
	size_t len, cap;
	size_t *at;
	size_t n, cap_at;
};

static int names_add(struct names *ns, const char *name)
{
	size_t len = strlen(name) + 1;
	if (ns->len + len > ns->cap) {
		size_t cap = ns->cap ? ns->cap * 2 : 4096;
		while (cap < ns->len + len)
			cap *= 2;
		char *grown = realloc(ns->text, cap);
		if (!grown)
			return -1;
		ns->text = grown;
		ns->cap = cap;
	}
	if (ns->n == ns->cap_at) {
		size_t cap = ns->cap_at ? ns->cap_at * 2 : 256;
		size_t *grown = realloc(ns->at, cap * sizeof(*grown));
		if (!grown)
			return -1;
		ns->at = grown;
		ns->cap_at = cap;
	}
	memcpy(ns->text + ns->len, name, len);
	ns->at[ns->n++] = ns->len;
	ns->len += len;
	return 0;
}

static int list_fragments(DIR *d, const char *dir, struct names *ns, struct roce_error *err)
{
	struct dirent *e;
	errno = 0;
	while ((e = readdir(d)))
		if (fragment_file_name(e->d_name) && names_add(ns, e->d_name) < 0) {
			roce_error_set(err, "cannot list %s: out of memory", dir);
			return -1;
		}
	if (errno) {
		roce_error_set(err, "cannot list %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Files are taken BATCH at a time: few atomic operations, and the threads
 * still end together. */
#define BATCH 32
#define THREADS_MAX 8
#define FILES_PER_THREAD 256 /* fewer files than this are not worth a thread */
#define POOL_FILES_MIN 512   /* from here on, fragments are kept in pools (arena.h) */
/* On a network file system a file costs round trips (CephFS: the MDS for
 * the open, an OSD for the data, ~1-2 ms each cold), not CPU: threads that
 * wait overlap their waits, so their number is not bound by the CPUs. */
#define NET_THREADS_MAX 32
#define NET_FILES_PER_THREAD 64
#define NET_BATCH 4
/* One loading thread: its own report part and read buffer, so that threads
 * share nothing but the next file's index. */
struct part {
	const struct names *ns;
	int dfd;
	size_t batch;
	atomic_size_t *next;
	struct roce_job_report r;
	pthread_t tid;
};

static void *load_part(void *arg)
{
	struct part *p = arg;
	struct text t = { NULL, 0 };
	size_t i;
	while ((i = atomic_fetch_add(p->next, p->batch)) < p->ns->n)
		for (size_t k = i; k < i + p->batch && k < p->ns->n; k++)
			load_one(&p->r, p->dfd, p->ns->text + p->ns->at[k], &t);
	free(t.buf);
	return NULL;
}

/* Whether a file of dfd's file system costs network round trips. */
static bool network_fs(int dfd)
{
	static const unsigned long magic[] = {
		CEPH_SUPER_MAGIC,        NFS_SUPER_MAGIC,       FUSE_SUPER_MAGIC /* ceph-fuse */,
		0x0bd00bd0 /* Lustre */, 0x47504653 /* GPFS */, 0xfe534d42 /* SMB2 */,
		0xff534d42 /* CIFS */,
	};
	struct statfs sfs;
	if (fstatfs(dfd, &sfs) < 0)
		return false;
	for (size_t i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sfs.f_type == magic[i])
			return true;
	return false;
}

/* Locally: the CPUs this process may run on (taskset, a cgroup's cpuset),
 * at most THREADS_MAX, and one thread per FILES_PER_THREAD files.  On a
 * network file system: one per NET_FILES_PER_THREAD, at most NET_THREADS_MAX. */
static size_t threads_for(size_t files, bool net)
{
	size_t cpus = net ? NET_THREADS_MAX : roce_cpus_usable();
	size_t n = files / (net ? NET_FILES_PER_THREAD : FILES_PER_THREAD);
	if (n > cpus)
		n = cpus;
	if (n > (net ? NET_THREADS_MAX : THREADS_MAX))
		n = net ? NET_THREADS_MAX : THREADS_MAX;
	return n ? n : 1;
}

/* Errors in name order: the threads found them in no particular order,
 * and a listing should read the same on every run. */
static int error_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Read every listed file into r, on several threads when there are many
 * (the merge of a 16,384-node job is mostly reading and parsing).  A
 * thread that cannot be started leaves its share to the others: the
 * calling thread is always one of them. */
static int load_all(struct roce_job_report *r, int dfd, const struct names *ns, struct roce_error *err)
{
	struct part parts[NET_THREADS_MAX];
	atomic_size_t next = 0;
	bool net = network_fs(dfd);
	size_t n = threads_for(ns->n, net), started = 1, first_error = r->n_errors;
	for (size_t i = 0; i < n; i++) {
		parts[i] = (struct part){ .ns = ns, .dfd = dfd, .batch = net ? NET_BATCH : BATCH, .next = &next };
		roce_report_init(&parts[i].r, r->job_id);
		/* one per thread; without one (ENOMEM), malloc */
		if (ns->n >= POOL_FILES_MIN)
			parts[i].r.pool = roce_arena_pool_new();
	}
	for (size_t i = 1; i < n; i++) {
		if (pthread_create(&parts[i].tid, NULL, load_part, &parts[i]) != 0)
			break;
		started++;
	}
	load_part(&parts[0]);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && i < started)
			pthread_join(parts[i].tid, NULL);
		if (roce_report_take(r, &parts[i].r, err) < 0)
			rc = -1;
	}
	if (r->n_errors - first_error > 1)
		qsort(r->errors + first_error, r->n_errors - first_error, sizeof(*r->errors), error_cmp);
	return rc;
}

/* dir, opened by roce_safefile_open_dir (no symbolic link followed), for listing; NULL with err set. */
static DIR *open_listing(const char *dir, struct roce_error *err)
{
	int dfd = roce_safefile_open_dir(NULL, dir, 0, 0, err);
	if (dfd < 0)
		return NULL;
	DIR *d = fdopendir(dfd);
	if (!d) {
		roce_error_set(err, "cannot list %s: %s", dir, strerror(errno));
		close(dfd);
	}
	return d;
}

int roce_reportdir_load(struct roce_job_report *r, const char *dir, struct roce_error *err)
{
	DIR *d = open_listing(dir, err);
	if (!d)
		return -1;
	struct names ns = { 0 };
	int rc = list_fragments(d, dir, &ns, err);
	if (rc == 0)
		rc = load_all(r, dirfd(d), &ns, err);
	free(ns.text);
	free(ns.at);
	closedir(d);
	return rc;
}

int roce_reportdir_jobs(const char *report_dir, roce_reportdir_job_fn fn, void *arg, struct roce_error *err)
{
	DIR *d = open_listing(report_dir, err);
	if (!d)
		return -1;
	struct dirent *e;
	struct stat st;
	int rc = 0;
	/* Only ReportDir/<job id>/: JOBID.earlier-INODE and the rest are not a job's current report. */
	while (rc == 0 && (e = readdir(d)))
		if (roce_slurmid_job_ok(e->d_name) && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode))
			rc = fn(e->d_name, (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec, arg);
	closedir(d);
	return rc < 0 ? -1 : 0;
}
