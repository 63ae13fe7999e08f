/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shareddir.c - node fingerprints in SharedDir (shareddir.h). */
#include "config.h"
#include "agree/shareddir.h"
#include "base/clock.h"
#include "base/slurmid.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NAME_MAX_LEN (ROCE_FP_JOB_MAX + ROCE_FP_NODE_MAX + 8)
#define POLL_MS 25
#define TEXT_BUF (ROCE_FP_TEXT_MAX + 2)

/* "<jobid>.<node>.json", or false when either is not a name we file under. */
static bool fp_name(char *buf, const char *job_id, const char *node)
{
	if (!roce_slurmid_job_ok(job_id) || !roce_slurmid_node_ok(node))
		return false;
	snprintf(buf, NAME_MAX_LEN, "%s.%s.json", job_id, node);
	return true;
}

int roce_shareddir_write(const struct roce_policy *p, const struct roce_fingerprint *f, uid_t job_uid,
                         struct roce_error *err)
{
	char name[NAME_MAX_LEN];
	int rc = -1;
	if (!fp_name(name, f->job_id, f->node)) {
		roce_error_set(err, "SharedDir: job id or node name not usable as a file name");
		return -1;
	}
	int dfd = roce_safefile_open_dir("SharedDir", p->shared_dir, ROCE_SAFEFILE_CREATE | ROCE_SAFEFILE_TRUSTED, 0755,
	                                 err);
	if (dfd < 0)
		return -1;
	json_object *o = roce_fingerprint_to_json(f);
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
	if (!text)
		roce_error_set(err, "out of memory serialising the fingerprint");
	else if (roce_safefile_write(dfd, name, text, strlen(text), geteuid(), getegid(), 0440, (long)job_uid, 0,
	                             err) == 0)
		rc = 0;
	json_object_put(o);
	close(dfd);
	return rc;
}

void roce_shareddir_remove(const struct roce_policy *p, const char *job_id, const char *node)
{
	char name[NAME_MAX_LEN];
	struct roce_error e;
	if (!p->shared_dir[0] || !fp_name(name, job_id, node))
		return;
	int dfd = roce_safefile_open_dir("SharedDir", p->shared_dir, ROCE_SAFEFILE_TRUSTED, 0, &e);
	if (dfd < 0)
		return;
	roce_safefile_remove_temps(dfd, name);
	unlinkat(dfd, name, 0);
	close(dfd);
}

/* f cut to its ports (see shareddir.h); NULL on ENOMEM. */
static struct roce_fingerprint *compact(const struct roce_fingerprint *f)
{
	size_t size = offsetof(struct roce_fingerprint, ports) + f->n_ports * sizeof(f->ports[0]);
	struct roce_fingerprint *c = malloc(size);
	if (c)
		memcpy(c, f, size);
	return c;
}

/* One node's file: read (*out set), refused (why set), or still missing. */
static enum roce_fp_state read_one(int dfd, const char *dir, const char *job_id, const char *node, char *text,
                                   struct roce_fingerprint **out, struct roce_error *why)
{
	struct roce_fingerprint f;
	char name[NAME_MAX_LEN];
	struct roce_reading r;
	if (!fp_name(name, job_id, node)) {
		roce_error_set(why, "%.64s: not a node name a fingerprint is filed under", node);
		return ROCE_FP_REFUSED;
	}
	/* One more byte than a fingerprint may have: a longer file is refused by the parser. */
	ssize_t len =
	        roce_readfile_buf(dfd, dir, name, text, TEXT_BUF, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &r);
	if (len < 0) {
		if (r.status == ROCE_MISSING)
			return ROCE_FP_MISSING;
		roce_error_set(why, "%s: %s", name, r.why);
		return ROCE_FP_REFUSED;
	}
	struct roce_error perr;
	int rc = roce_fingerprint_parse(text, (size_t)len, job_id, node, &f, &perr);
	if (rc < 0) {
		roce_error_set(why, "%s: %.200s", name, perr.msg);
		return ROCE_FP_REFUSED;
	}
	if (!(*out = compact(&f))) {
		roce_error_set(why, "%s: out of memory", name);
		return ROCE_FP_REFUSED;
	}
	return ROCE_FP_READ;
}

/* One pass over the nodes still missing; true when none is left. */
static bool gather_pass(int dfd, const char *dir, const char *job_id, const char *const *nodes, char *text,
                        struct roce_fp_gather *g)
{
	size_t missing = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (g->state[i] != ROCE_FP_MISSING)
			continue;
		struct roce_error why;
		g->state[i] = read_one(dfd, dir, job_id, nodes[i], text, &g->fp[i], &why);
		if (g->state[i] == ROCE_FP_READ)
			g->n_read++;
		else if (g->state[i] == ROCE_FP_REFUSED && g->n_refused++ == 0)
			snprintf(g->refused_why, sizeof(g->refused_why), "%s", why.msg);
		else if (g->state[i] == ROCE_FP_MISSING)
			missing++;
	}
	return missing == 0;
}

int roce_shareddir_gather(const char *shared_dir, const char *job_id, const char *const *nodes, size_t n,
                          int timeout_ms, struct roce_fp_gather *g, struct roce_error *err)
{
	memset(g, 0, sizeof(*g));
	int dfd = roce_safefile_open_dir("SharedDir", shared_dir, 0, 0, err);
	if (dfd < 0)
		return -1;
	g->n = n;
	g->fp = calloc(n ? n : 1, sizeof(*g->fp));
	g->state = calloc(n ? n : 1, sizeof(*g->state));
	char *text = malloc(TEXT_BUF);
	if (!g->fp || !g->state || !text) {
		free(text);
		roce_error_set(err, "out of memory for %zu fingerprints", n);
		roce_shareddir_gather_free(g);
		close(dfd);
		return -1;
	}
	int64_t t0 = roce_clock_ms(), deadline = t0 + timeout_ms;
	while (!gather_pass(dfd, shared_dir, job_id, nodes, text, g) && roce_clock_ms() < deadline) {
		struct timespec ts = { 0, POLL_MS * 1000000L };
		nanosleep(&ts, NULL);
	}
	g->waited_ms = (double)(roce_clock_ms() - t0);
	free(text);
	close(dfd);
	return 0;
}

void roce_shareddir_gather_free(struct roce_fp_gather *g)
{
	for (size_t i = 0; g->fp && i < g->n; i++)
		free(g->fp[i]);
	free(g->fp);
	free(g->state);
	memset(g, 0, sizeof(*g));
}
