/* SPDX-License-Identifier: GPL-2.0-or-later */
/* livereport.c - a running job's live files read into one view (livereport.h). */
#include "config.h"
#include "report/livereport.h"
#include "base/clock.h"
#include "base/printable.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "read/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LIVE_SUFFIX ".live"
#define FRAGMENT_SUFFIX ".json"

void roce_livereport_init(struct roce_livereport *r, const char *job_id)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->job_id, sizeof(r->job_id), "%s", job_id);
}

void roce_livereport_free(struct roce_livereport *r)
{
	for (size_t i = 0; i < r->n_nodes; i++)
		roce_live_free(&r->nodes[i]);
	free(r->nodes);
	free(r->ended);
	for (size_t i = 0; i < r->n_errors; i++)
		free(r->errors[i]);
	free(r->errors);
	memset(r, 0, sizeof(*r));
}

static void error_add(struct roce_livereport *r, const char *file, const char *why)
{
	char line[600];
	char **grown = realloc(r->errors, (r->n_errors + 1) * sizeof(*grown));
	if (!grown)
		return;
	r->errors = grown;
	/* the file name and what the reader quotes from the file are hostile */
	snprintf(line, sizeof(line), "%s: %s", file, why);
	if ((r->errors[r->n_errors] = roce_printable_dup(line)))
		r->n_errors++;
}

/* "<node><suffix>" with a node name we file under: the node into node. */
static bool node_file(const char *name, const char *suffix, char *node, size_t len)
{
	size_t n = strlen(name), s = strlen(suffix);
	if (n <= s || n - s >= len || strcmp(name + n - s, suffix) != 0)
		return false;
	snprintf(node, len, "%.*s", (int)(n - s), name);
	return roce_slurmid_node_ok(node);
}

/* ---------------------------------------------------------------- one file */

static int node_add(struct roce_livereport *r, struct roce_live *l)
{
	struct roce_live *grown = realloc(r->nodes, (r->n_nodes + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	r->nodes = grown;
	r->nodes[r->n_nodes++] = *l;
	return 0;
}

/* 0 added or refused (named in errors), -1 out of memory. */
static int load_one(struct roce_livereport *r, int dfd, const char *name, const char *node)
{
	struct roce_reading rd;
	struct roce_error err;
	struct roce_live l;
	struct stat st;
	size_t len = 0;
	char *buf = NULL, *text;
	size_t cap = 0;
	if (!(text = roce_readfile_reuse(dfd, NULL, name, ROCE_LIVE_FILE_MAX, ROCE_READFILE_NOFOLLOW, &buf, &cap, &len,
	                                 &st, &rd))) {
		roce_error_set(&err, "cannot read: %s", rd.why);
		error_add(r, name, err.msg);
		free(buf);
		return 0;
	}
	int rc = roce_live_json_read(&l, text, len, &err);
	free(buf);
	if (rc < 0) {
		error_add(r, name, err.msg);
	} else if (strcmp(l.job_id, r->job_id) != 0 || strcmp(l.node, node) != 0) {
		error_add(r, name, "not this job's and node's live file (its job_id or node differs)");
		roce_live_free(&l);
	} else if (st.st_uid != 0 && (long)st.st_uid != l.job_uid) {
		/* without ACLs the file is its job's user's, who can rewrite it; anyone else's says what they chose */
		roce_error_set(&err, "owned by uid %u, neither root nor its job_uid %ld", (unsigned)st.st_uid,
		               l.job_uid);
		error_add(r, name, err.msg);
		roce_live_free(&l);
	} else if (node_add(r, &l) < 0) {
		roce_live_free(&l);
		return -1;
	}
	return 0;
}

static int ended_add(struct roce_livereport *r, const char *node)
{
	char(*grown)[64] = realloc(r->ended, (r->n_ended + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	r->ended = grown;
	snprintf(r->ended[r->n_ended++], sizeof(*grown), "%s", node);
	return 0;
}

static bool has_ended(const struct roce_livereport *r, const char *node)
{
	for (size_t i = 0; i < r->n_ended; i++)
		if (strcmp(r->ended[i], node) == 0)
			return true;
	return false;
}

/* ---------------------------------------------------------------- the directory */

static int by_node(const void *a, const void *b)
{
	const struct roce_live *x = a, *y = b;
	int c = roce_sysfs_natural_cmp(x->node, y->node);
	return c ? c : strcmp(x->node, y->node);
}

static int by_name(const void *a, const void *b)
{
	const char *x = a, *y = b;
	int c = roce_sysfs_natural_cmp(x, y);
	return c ? c : strcmp(x, y);
}

/* The fragments' node names first (a node where the job ended has its live
 * file removed, or about to be), then the live files of the others. */
static int scan(struct roce_livereport *r, int dfd, bool live, struct roce_error *err)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	char node[64];
	int rc = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		roce_error_set(err, "cannot list the job's directory: %s", strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (!live && node_file(e->d_name, FRAGMENT_SUFFIX, node, sizeof(node)))
			rc = ended_add(r, node);
		else if (live && node_file(e->d_name, LIVE_SUFFIX, node, sizeof(node)) && !has_ended(r, node)) {
			if (r->n_nodes >= ROCE_LIVEREPORT_NODES_MAX)
				r->skipped++;
			else
				rc = load_one(r, dfd, e->d_name, node);
		}
	}
	closedir(d);
	if (rc < 0)
		roce_error_set(err, "out of memory");
	return rc;
}

int roce_livereport_load(struct roce_livereport *r, const char *dir, struct roce_error *err)
{
	int dfd = roce_safefile_open_dir(NULL, dir, 0, 0, NULL);
	if (dfd < 0) {
		int e = errno; /* the caller tells EACCES (not the job's user) apart */
		roce_error_set(err, "cannot open %s: %s", dir, strerror(e));
		errno = e;
		return -1;
	}
	r->now_ns = roce_clock_realtime_ns();
	int rc = scan(r, dfd, false, err) < 0 || scan(r, dfd, true, err) < 0 ? -1 : 0;
	close(dfd);
	if (r->n_nodes > 1)
		qsort(r->nodes, r->n_nodes, sizeof(*r->nodes), by_node);
	if (r->n_ended > 1)
		qsort(r->ended, r->n_ended, sizeof(*r->ended), by_name);
	return rc;
}

void roce_livereport_keep_uid(struct roce_livereport *r, long uid)
{
	size_t kept = 0;
	if (uid < 0)
		return;
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (r->nodes[i].job_uid == uid)
			r->nodes[kept++] = r->nodes[i];
		else
			roce_live_free(&r->nodes[i]);
	}
	r->n_nodes = kept;
}

/* ---------------------------------------------------------------- numbers */

void roce_livereport_metric_port(const struct roce_live *l, const struct roce_live_port *p,
                                 const struct roce_live_interval *iv, struct roce_fragment *n,
                                 struct roce_fragment_port *fp)
{
	memset(n, 0, sizeof(*n));
	memset(fp, 0, sizeof(*fp));
	n->name = (char *)l->node;
	n->start_ns = iv->from_ns;
	n->end_ns = l->now_ns;
	n->seconds = l->now_ns > iv->from_ns ? (double)(l->now_ns - iv->from_ns) / 1e9 : -1;
	fp->device = (char *)p->device;
	fp->netdev = (char *)p->netdev;
	fp->port = p->port;
	fp->presence = p->presence;
	memcpy(fp->c, iv->c, sizeof(fp->c));
	memcpy(fp->cs, iv->cs, sizeof(fp->cs));
	fp->pfc_status = iv->pfc_status;
	memcpy(fp->pfc_req, iv->pfc_req, sizeof(fp->pfc_req));
	memcpy(fp->pfc_ind, iv->pfc_ind, sizeof(fp->pfc_ind));
	fp->check = -1;
}

const char *roce_livereport_age(const struct roce_livereport *r, int64_t ns, char *buf, size_t len)
{
	if (ns <= 0 || r->now_ns <= 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	int64_t s = r->now_ns > ns ? (r->now_ns - ns) / 1000000000 : 0;
	if (s < 120)
		snprintf(buf, len, "%" PRId64 "s", s);
	else if (s < 2 * 3600)
		snprintf(buf, len, "%" PRId64 "m", s / 60);
	else if (s < 2 * 86400)
		snprintf(buf, len, "%" PRId64 "h", s / 3600);
	else
		snprintf(buf, len, "%" PRId64 "d", s / 86400);
	return buf;
}
