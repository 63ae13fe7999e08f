/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shareddir.c - node fingerprints in SharedDir (shareddir.h; docs/agreement.md). */
#include "config.h"
#include "agree/shareddir.h"
#include "base/clock.h"
#include "base/sha256.h"
#include "base/slurmid.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEXT_BUF (ROCE_FP_TEXT_MAX + 2)
#define POLL_MIN_MS 25
#define POLL_MAX_MS 200 /* a listing of 16,384 names is not free: poll less often as the wait grows */
#define DIGEST_BYTES (ROCE_SHAREDDIR_DIGEST_HEX / 2)

/* ---------------------------------------------------------------- names */

/* An entry's name taken apart. */
struct entry {
	int64_t t;
	char digest[ROCE_SHAREDDIR_DIGEST_HEX + 1];
	const char *node; /* into the name */
};

/* "<T>.<D>.<node>": T decimal without a leading zero, D 32 lowercase hex
 * digits, node a name fragments are filed under.  Anything else is not an
 * entry (dot names are a writer's temporaries). */
static bool entry_parse(const char *name, struct entry *e)
{
	const char *p = name;
	int64_t t = 0;
	if (*p < '1' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (t > (INT64_MAX - 9) / 10)
			return false;
		t = t * 10 + (*p - '0');
	}
	if (*p++ != '.')
		return false;
	for (int i = 0; i < ROCE_SHAREDDIR_DIGEST_HEX; i++, p++) {
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
		e->digest[i] = *p;
	}
	e->digest[ROCE_SHAREDDIR_DIGEST_HEX] = '\0';
	if (*p++ != '.' || !roce_slurmid_node_ok(p))
		return false;
	e->t = t;
	e->node = p;
	return true;
}

/* ---------------------------------------------------------------- the prolog and epilog */

/* SharedDir/<job>/ for job_uid: made if missing (0700, then shared), never
 * through a link, root's or (no ACLs) the job user's. */
static int job_dir(int dfd, const char *job_id, uid_t job_uid, struct roce_error *err)
{
	/* The last epilog of an earlier job with this id may remove it between our mkdir and open. */
	for (int tries = 0; tries < 3; tries++) {
		/* open first: every node but the first finds it (one round trip less on CephFS) */
		int jfd = openat(dfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (jfd < 0 && errno == ENOENT) {
			if (mkdirat(dfd, job_id, 0700) < 0 && errno != EEXIST) {
				roce_error_set(err, "SharedDir/%s cannot be created: %s", job_id, strerror(errno));
				return -1;
			}
			continue;
		}
		if (jfd < 0) {
			roce_error_set(err, "SharedDir/%s cannot be opened: %s", job_id, strerror(errno));
			return -1;
		}
		struct roce_error why;
		if (roce_safefile_share_dir(jfd, job_uid, &why) < 0) {
			roce_error_set(err, "SharedDir/%s %s", job_id, why.msg);
			close(jfd);
			return -1;
		}
		return jfd;
	}
	roce_error_set(err, "SharedDir/%s keeps disappearing", job_id);
	return -1;
}

int roce_shareddir_prepare(const struct roce_policy *p, const char *job_id, uid_t job_uid, struct roce_error *err)
{
	if (!roce_slurmid_job_ok(job_id)) {
		roce_error_set(err, "SharedDir: job id not usable as a file name");
		return -1;
	}
	int dfd = roce_safefile_shared_dir(p->shared_dir, err);
	if (dfd < 0)
		return -1;
	int jfd = job_dir(dfd, job_id, job_uid, err);
	close(dfd);
	if (jfd < 0)
		return -1;
	close(jfd);
	return 0;
}

int roce_shareddir_write(const struct roce_policy *p, const struct roce_fingerprint *f, uid_t job_uid, time_t now,
                         char *entry, size_t entry_len, struct roce_error *err)
{
	char digest[ROCE_SHAREDDIR_DIGEST_HEX + 1];
	int rc = -1, jfd = -1;
	if (!roce_slurmid_job_ok(f->job_id) || !roce_slurmid_node_ok(f->node) || now <= 0) {
		roce_error_set(err, "SharedDir: job id or node name not usable as a file name");
		return -1;
	}
	int dfd = roce_safefile_shared_dir(p->shared_dir, err); /* made 0711, never where others write */
	if (dfd < 0)
		return -1;
	json_object *o = roce_fingerprint_to_json(f);
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
	if (!text) {
		roce_error_set(err, "out of memory serialising the fingerprint");
		goto out;
	}
	roce_sha256_hex(text, strlen(text), DIGEST_BYTES, digest);
	if ((size_t)snprintf(entry, entry_len, "%" PRId64 ".%s.%s", (int64_t)now, digest, f->node) >= entry_len) {
		roce_error_set(err, "SharedDir: entry name too long");
		goto out;
	}
	if ((jfd = job_dir(dfd, f->job_id, job_uid, err)) < 0)
		goto out;
	/* 0444 root's: the directory decides who may read it */
	rc = roce_safefile_write(jfd, entry, text, strlen(text), geteuid(), getegid(), 0444, -1, 0, err);
out:
	if (rc < 0 && entry_len)
		entry[0] = '\0';
	if (jfd >= 0)
		close(jfd);
	json_object_put(o);
	close(dfd);
	return rc;
}

void roce_shareddir_remove(const struct roce_policy *p, const char *job_id, const char *entry)
{
	struct entry en;
	if (!p->shared_dir[0] || !roce_slurmid_job_ok(job_id) || !entry || !entry_parse(entry, &en))
		return;
	int dfd = roce_safefile_shared_dir_existing(p->shared_dir);
	if (dfd < 0)
		return;
	int jfd = openat(dfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (jfd >= 0) {
		unlinkat(jfd, entry, 0);
		close(jfd);
		unlinkat(dfd, job_id, AT_REMOVEDIR); /* the last node's epilog: ENOTEMPTY for the others */
	}
	close(dfd);
}

int roce_shareddir_read_own(const struct roce_policy *p, const char *job_id, const char *entry,
                            struct roce_fingerprint *f, struct roce_error *err)
{
	struct entry en;
	struct roce_reading r;
	size_t len;
	int rc = -1;
	if (!p->shared_dir[0] || !roce_slurmid_job_ok(job_id) || !entry || !entry_parse(entry, &en)) {
		roce_error_set(err, "SharedDir: no entry of this node's");
		return -1;
	}
	int dfd = roce_safefile_shared_dir_existing(p->shared_dir);
	int jfd = dfd < 0 ? -1 : openat(dfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char *text = jfd < 0 ? NULL
	                     : roce_readfile(jfd, NULL, entry, ROCE_FP_TEXT_MAX,
	                                     ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &len, &r);
	if (jfd < 0)
		roce_error_set(err, "SharedDir/%s cannot be opened", job_id);
	else if (!text)
		roce_error_set(err, "%s", r.why);
	else
		rc = roce_fingerprint_parse(text, len, job_id, NULL, f, err);
	free(text);
	if (jfd >= 0)
		close(jfd);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* ---------------------------------------------------------------- srun */

/* The step's nodes by name, for the listing's lookups. */
struct node_index {
	const char *const *nodes;
	size_t *order; /* indexes sorted by name */
	size_t n;
};

static int order_cmp(const void *a, const void *b, void *arg)
{
	const char *const *nodes = arg;
	return strcmp(nodes[*(const size_t *)a], nodes[*(const size_t *)b]);
}

static int index_build(struct node_index *ix, const char *const *nodes, size_t n)
{
	ix->nodes = nodes;
	ix->n = n;
	if (!(ix->order = malloc((n ? n : 1) * sizeof(*ix->order))))
		return -1;
	for (size_t i = 0; i < n; i++)
		ix->order[i] = i;
	qsort_r(ix->order, n, sizeof(*ix->order), order_cmp, (void *)nodes);
	return 0;
}

/* The node's index, or n when it is not one of the step's. */
static size_t index_find(const struct node_index *ix, const char *node)
{
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ix->nodes[ix->order[mid]], node);
		if (c == 0)
			return ix->order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ix->n;
}

/* Per node, the entry to take: the newest of this job's. */
struct pick {
	int64_t t; /* 0: none */
	char digest[ROCE_SHAREDDIR_DIGEST_HEX + 1];
	char name[ROCE_SHAREDDIR_ENTRY_MAX];
	bool conflict;   /* two different fingerprints written in the same second */
	bool not_a_file; /* the listing says it is no regular file */
};

struct gather_ctx {
	const char *job_id;
	int64_t since; /* entries before this are an earlier job's */
	struct node_index ix;
	struct pick *picks;
	char *text;
	struct roce_fp_gather *g;
};

/* Node i is unknown: "<entry>: <why>" is said for the first such node. */
static void refuse(struct gather_ctx *c, size_t i, const char *entry, const char *why)
{
	c->g->state[i] = ROCE_FP_REFUSED;
	if (c->g->n_refused++ == 0)
		snprintf(c->g->refused_why, sizeof(c->g->refused_why), "%s: %.200s", entry, why);
}

/* One name of the listing. */
static void consider(struct gather_ctx *c, const struct dirent *d)
{
	struct entry e;
	if (d->d_name[0] == '.')
		return;
	if (strlen(d->d_name) >= ROCE_SHAREDDIR_ENTRY_MAX || !entry_parse(d->d_name, &e)) {
		c->g->n_ignored++;
		return;
	}
	size_t i = index_find(&c->ix, e.node);
	if (i == c->ix.n || c->g->state[i] != ROCE_FP_MISSING)
		return; /* another node of the job, or one already read */
	if (e.t < c->since) {
		c->g->n_stale++;
		c->g->stale[i] = true;
		return;
	}
	struct pick *p = &c->picks[i];
	if (p->t == e.t && strcmp(p->digest, e.digest) != 0)
		p->conflict = true;
	if (p->t >= e.t)
		return;
	p->t = e.t;
	p->conflict = false;
	p->not_a_file = d->d_type != DT_REG && d->d_type != DT_UNKNOWN;
	memcpy(p->digest, e.digest, sizeof(p->digest));
	memcpy(p->name, d->d_name, strlen(d->d_name) + 1); /* shorter than ROCE_SHAREDDIR_ENTRY_MAX: parsed */
}

/* f cut to its ports (see shareddir.h); NULL on ENOMEM. */
static struct roce_fingerprint *compact(const struct roce_fingerprint *f)
{
	size_t size = offsetof(struct roce_fingerprint, ports) + f->n_ports * sizeof(f->ports[0]);
	struct roce_fingerprint *c = malloc(size);
	if (c) {
		memcpy(c, f, size);
		c->node[0] = '\0';
	}
	return c;
}

static int keep_distinct(struct roce_fp_gather *g, struct roce_fingerprint *f)
{
	if (g->n_distinct == g->cap_distinct) {
		size_t cap = g->cap_distinct ? 2 * g->cap_distinct : 16;
		void *grown = realloc(g->distinct, cap * sizeof(*g->distinct));
		if (!grown)
			return -1;
		g->distinct = grown;
		g->cap_distinct = cap;
	}
	g->distinct[g->n_distinct++] = f;
	return 0;
}

/* Node i's file: its fingerprint (kept in g->distinct), or NULL with the
 * node refused. */
static struct roce_fingerprint *read_entry(struct gather_ctx *c, int jfd, size_t i)
{
	struct pick *p = &c->picks[i];
	struct roce_fingerprint f;
	struct roce_reading r;
	struct roce_error perr;
	char digest[ROCE_SHAREDDIR_DIGEST_HEX + 1];
	c->g->n_files++;
	/* One more byte than a fingerprint may have: a longer file is refused by the parser. */
	ssize_t len = roce_readfile_buf(jfd, NULL, p->name, c->text, TEXT_BUF,
	                                ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &r);
	if (len < 0) {
		refuse(c, i, p->name, r.why);
		return NULL;
	}
	if (len > ROCE_FP_TEXT_MAX) {
		refuse(c, i, p->name, "more bytes than a fingerprint may have");
		return NULL;
	}
	roce_sha256_hex(c->text, (size_t)len, DIGEST_BYTES, digest);
	if (strcmp(digest, p->digest) != 0) {
		refuse(c, i, p->name, "the content does not match the digest in its name");
		return NULL;
	}
	if (roce_fingerprint_parse(c->text, (size_t)len, c->job_id, NULL, &f, &perr) < 0) {
		refuse(c, i, p->name, perr.msg);
		return NULL;
	}
	struct roce_fingerprint *kept = compact(&f);
	if (!kept || keep_distinct(c->g, kept) < 0) {
		free(kept);
		refuse(c, i, p->name, "out of memory");
		return NULL;
	}
	return kept;
}

/* Nodes sorted by the digest they picked: each run of equal digests is
 * one fingerprint to read. */
static int by_digest(const void *a, const void *b, void *arg)
{
	const struct pick *picks = arg;
	int c = strcmp(picks[*(const size_t *)a].digest, picks[*(const size_t *)b].digest);
	return c ? c : (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Read one file per distinct digest among the picked nodes still missing;
 * a file that fails refuses its node, and the next node of the run is tried. */
static int read_picked(struct gather_ctx *c, int jfd, size_t *todo, size_t n_todo)
{
	struct roce_fp_gather *g = c->g;
	qsort_r(todo, n_todo, sizeof(*todo), by_digest, c->picks);
	for (size_t a = 0, b; a < n_todo; a = b) {
		const char *d = c->picks[todo[a]].digest;
		for (b = a + 1; b < n_todo && strcmp(c->picks[todo[b]].digest, d) == 0; b++)
			;
		struct roce_fingerprint *f = NULL;
		for (size_t k = a; k < b && !f; k++)
			f = read_entry(c, jfd, todo[k]);
		for (size_t k = a; k < b && f; k++) {
			size_t i = todo[k];
			if (g->state[i] != ROCE_FP_MISSING)
				continue;
			g->fp[i] = f;
			g->state[i] = ROCE_FP_READ;
			g->n_read++;
		}
	}
	return 0;
}

/* One pass: list the job's directory, pick, read.  The number of nodes
 * still missing. */
static size_t gather_pass(struct gather_ctx *c, int jfd, size_t *todo)
{
	struct roce_fp_gather *g = c->g;
	int fd = dup(jfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return g->n - g->n_read - g->n_refused;
	}
	rewinddir(d);
	g->n_ignored = 0;
	g->n_stale = 0;
	while ((e = readdir(d)))
		consider(c, e);
	closedir(d);
	size_t n_todo = 0, missing = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (g->state[i] != ROCE_FP_MISSING || !c->picks[i].t)
			continue;
		/* before the reading: a node sharing a digest is given the file read for another */
		if (c->picks[i].conflict)
			refuse(c, i, c->picks[i].name, "another fingerprint of this node has the same time");
		else if (c->picks[i].not_a_file)
			refuse(c, i, c->picks[i].name, "not a regular file");
		else
			todo[n_todo++] = i;
	}
	read_picked(c, jfd, todo, n_todo);
	for (size_t i = 0; i < g->n; i++)
		if (g->state[i] == ROCE_FP_MISSING) {
			missing++;
			c->picks[i].t = 0; /* a later pass looks again */
		}
	return missing;
}

static void gather_sleep(int64_t waited_ms)
{
	int64_t ms = waited_ms / 4;
	ms = ms < POLL_MIN_MS ? POLL_MIN_MS : ms > POLL_MAX_MS ? POLL_MAX_MS : ms;
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* The job's directory: -1 with *e = errno while it cannot be opened. */
static int open_job_dir(int dfd, const char *job_id, int *e)
{
	int jfd = openat(dfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*e = jfd < 0 ? errno : 0;
	return jfd;
}

int roce_shareddir_gather(const char *shared_dir, const char *job_id, time_t job_start, const char *const *nodes,
                          size_t n, int timeout_ms, struct roce_fp_gather *g, struct roce_error *err)
{
	struct gather_ctx c = { .job_id = job_id, .g = g };
	size_t *todo = NULL;
	int rc = -1, jfd = -1, e = 0;
	memset(g, 0, sizeof(*g));
	if (!roce_slurmid_job_ok(job_id)) {
		roce_error_set(err, "SharedDir: \"%.16s\" is not a job id", job_id);
		return -1;
	}
	/* srun is the job's user: SharedDir is not for it to list, only to enter */
	int dfd = roce_safefile_open_dir("SharedDir", shared_dir, ROCE_SAFEFILE_SEARCH, 0, err);
	if (dfd < 0)
		return -1;
	c.since = job_start > 0 ? (int64_t)job_start - ROCE_SHAREDDIR_SLACK_S : 0;
	g->n = n;
	g->fp = calloc(n ? n : 1, sizeof(*g->fp));
	g->state = calloc(n ? n : 1, sizeof(*g->state));
	g->stale = calloc(n ? n : 1, sizeof(*g->stale));
	c.picks = calloc(n ? n : 1, sizeof(*c.picks));
	todo = malloc((n ? n : 1) * sizeof(*todo));
	c.text = malloc(TEXT_BUF);
	if (!g->fp || !g->state || !g->stale || !c.picks || !todo || !c.text || index_build(&c.ix, nodes, n) < 0) {
		roce_error_set(err, "out of memory for %zu fingerprints", n);
		goto out;
	}
	int64_t t0 = roce_clock_ms(), deadline = t0 + timeout_ms;
	for (;;) {
		if (jfd < 0)
			jfd = open_job_dir(dfd, job_id, &e);
		if (jfd >= 0 && gather_pass(&c, jfd, todo) == 0)
			break;
		if (roce_clock_ms() >= deadline)
			break;
		gather_sleep(roce_clock_ms() - t0);
	}
	g->waited_ms = (double)(roce_clock_ms() - t0);
	if (jfd < 0 && e != ENOENT) {
		roce_error_set(err, "SharedDir %s/%s cannot be read: %s", shared_dir, job_id, strerror(e));
		goto out;
	}
	rc = 0;
out:
	if (jfd >= 0)
		close(jfd);
	close(dfd);
	free(c.text);
	free(c.picks);
	free(c.ix.order);
	free(todo);
	if (rc < 0)
		roce_shareddir_gather_free(g);
	return rc;
}

void roce_shareddir_gather_free(struct roce_fp_gather *g)
{
	for (size_t i = 0; g->distinct && i < g->n_distinct; i++)
		free(g->distinct[i]);
	free(g->distinct);
	free(g->fp);
	free(g->state);
	free(g->stale);
	memset(g, 0, sizeof(*g));
}

/* ---------------------------------------------------------------- the sweep */

#define SWEPT ".swept"
#define SWEEPING ".sweeping"

/* Remove the entries of jfd written before since (everything: INT64_MAX),
 * and the temporaries of writers long gone.  The count removed. */
static size_t remove_entries(int jfd, int64_t since)
{
	int fd = dup(jfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	struct entry e;
	size_t removed = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		bool ours = entry_parse(de->d_name, &e);
		if (since == INT64_MAX || (ours && e.t < since))
			removed += unlinkat(jfd, de->d_name, 0) == 0 || unlinkat(jfd, de->d_name, AT_REMOVEDIR) == 0;
	}
	closedir(d);
	return removed;
}

/* Version 1's "<job>.<node>.json" in SharedDir itself: the job id. */
static bool v1_name(const char *name, char *job, size_t len)
{
	size_t n = strcspn(name, ".");
	if (n == 0 || n >= len || !name[n])
		return false;
	memcpy(job, name, n);
	job[n] = '\0';
	size_t l = strlen(name);
	return roce_slurmid_job_ok(job) && l > 5 && strcmp(name + l - 5, ".json") == 0;
}

/* One name of SharedDir: a job's directory or a version 1 file. */
static void sweep_one(int dfd, const char *name, roce_shareddir_job_fn fn, void *arg, struct roce_shareddir_swept *out)
{
	char job[ROCE_FP_JOB_MAX];
	time_t start = 0;
	if (roce_slurmid_job_ok(name)) {
		int jfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (jfd < 0)
			return;
		out->jobs++;
		int st = fn(name, &start, arg);
		if (st == 0) {
			out->entries_removed += remove_entries(jfd, INT64_MAX);
			out->jobs_removed += unlinkat(dfd, name, AT_REMOVEDIR) == 0;
		} else if (st == 1 && start > 0) {
			out->entries_removed += remove_entries(jfd, (int64_t)start - ROCE_SHAREDDIR_SLACK_S);
		}
		close(jfd);
	} else if (v1_name(name, job, sizeof(job)) && fn(job, &start, arg) == 0) {
		out->entries_removed += unlinkat(dfd, name, 0) == 0;
	}
}

/* Whether this process sweeps now: nobody did for period_s, nobody does. */
static bool sweep_claim(int dfd, time_t now, int period_s)
{
	struct stat st;
	if (fstatat(dfd, SWEPT, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mtime > now - period_s &&
	    st.st_mtime <= now + ROCE_SHAREDDIR_SLACK_S)
		return false;
	if (mkdirat(dfd, SWEEPING, 0700) == 0)
		return true;
	/* a sweeper that died long ago: its claim goes, the next one sweeps */
	if (fstatat(dfd, SWEEPING, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mtime < now - period_s)
		unlinkat(dfd, SWEEPING, AT_REMOVEDIR);
	return false;
}

static void sweep_done(int dfd)
{
	int fd = openat(dfd, SWEPT, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		futimens(fd, NULL);
		close(fd);
	}
	unlinkat(dfd, SWEEPING, AT_REMOVEDIR);
}

int roce_shareddir_sweep(const char *shared_dir, time_t now, int period_s, size_t max_jobs, roce_shareddir_job_fn fn,
                         void *arg, struct roce_shareddir_swept *out, struct roce_error *err)
{
	memset(out, 0, sizeof(*out));
	int dfd = roce_safefile_open_dir("SharedDir", shared_dir, ROCE_SAFEFILE_TRUSTED, 0, err);
	if (dfd < 0)
		return -1;
	if (!sweep_claim(dfd, now, period_s)) {
		close(dfd);
		return 0;
	}
	out->ran = true;
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d) {
		roce_error_set(err, "SharedDir %s cannot be listed: %s", shared_dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		sweep_done(dfd);
		close(dfd);
		return -1;
	}
	while ((e = readdir(d)) && out->jobs < max_jobs)
		if (e->d_name[0] != '.')
			sweep_one(dfd, e->d_name, fn, arg, out);
	closedir(d);
	sweep_done(dfd);
	close(dfd);
	return 0;
}
