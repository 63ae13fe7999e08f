/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobshare.c - the jobs that shared a node, by markers in StateDir (jobshare.h). */
#include "config.h"
#include "job/jobshare.h"
#include "base/statename.h"
#include "job/jobstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void idlist_add(struct roce_jobshare_ids *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->id[i], id) == 0)
			return;
	if (l->n >= 4096)
		return;
	void *grown = realloc(l->id, (l->n + 1) * sizeof(*l->id));
	if (!grown)
		return; /* a missed "shared" mark is not worth failing the report */
	l->id = grown;
	snprintf(l->id[l->n++], ROCE_JOBID_MAX, "%s", id);
}

/* This node's, or from before per-node names (no node: then this node's
 * as well, StateDir being node-local). */
static bool this_node(const struct roce_statename *n, const char *node)
{
	return !n->node[0] || strcmp(n->node, node) == 0;
}

static bool absent(int sfd, const char *name)
{
	return faccessat(sfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
}

/* A marker whose job has no snapshot on this node any more (under either
 * name: its prolog may have run before an upgrade): its epilog took its
 * markers before a late prolog added this one. */
static bool orphan_marker(int sfd, const struct roce_statename *n)
{
	char snap[ROCE_JOBSTATE_NAME_MAX];
	roce_jobstate_name(snap, n->job, NULL);
	if (!absent(sfd, snap))
		return false;
	roce_jobstate_name(snap, n->job, n->node[0] ? n->node : NULL);
	return absent(sfd, snap);
}

/* Other jobs' snapshots on this node.  One written before this boot began
 * belongs to a job that died with the node: removed, so it cannot flag
 * later jobs as sharing.  (mtime, not content: no need to read every other
 * snapshot.)  Other nodes' files are theirs: never looked at. */
static void scan_state_dir(int sfd, const char *job_id, const char *node, struct roce_jobshare_ids *others)
{
	int dup_fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	struct roce_statename n;
	time_t booted = roce_jobstate_boot_time();
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!roce_statename_parse(e->d_name, &n) || !this_node(&n, node) || strcmp(n.job, job_id) == 0)
			continue;
		if (n.kind == ROCE_STATENAME_MARKER && orphan_marker(sfd, &n))
			unlinkat(sfd, e->d_name, 0);
		if (n.kind != ROCE_STATENAME_SNAPSHOT)
			continue;
		if (roce_jobstate_before_boot(sfd, e->d_name, booted)) {
			unlinkat(sfd, e->d_name, 0);
			continue;
		}
		idlist_add(others, n.job);
	}
	closedir(d);
}

/* Markers "<jobid>.<node>.with.<other>" left for us by later jobs' prologs
 * on this node (and "<jobid>.with.<other>" from before per-node names). */
static void take_markers(int sfd, const char *job_id, const char *node, struct roce_jobshare_ids *shared)
{
	/* A fresh open, not dup(): a dup shares the directory offset with sfd. */
	int dup_fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	struct roce_statename n;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!roce_statename_parse(e->d_name, &n) || n.kind != ROCE_STATENAME_MARKER || !this_node(&n, node) ||
		    strcmp(n.job, job_id) != 0)
			continue;
		idlist_add(shared, n.other);
		unlinkat(sfd, e->d_name, 0);
	}
	closedir(d);
}

static void touch_marker(int sfd, const char *job, const char *node, const char *other)
{
	char marker[ROCE_STATENAME_MAX];
	roce_statename_format(marker, ROCE_STATENAME_MARKER, job, node, other);
	int fd = openat(sfd, marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

/*
 * Sharing is detected AFTER our snapshot is in place, and marked both ways
 * (<other>.<node>.with.<us> and <us>.<node>.with.<other>): of two prologs
 * running at the same time, the one that scans last sees the other's
 * snapshot, so both epilogs find a marker whatever the interleaving.
 */
void roce_jobshare_mark(int sfd, const char *job_id, const char *node)
{
	struct roce_jobshare_ids others = { 0 };
	scan_state_dir(sfd, job_id, node, &others);
	for (size_t i = 0; i < others.n; i++) {
		touch_marker(sfd, others.id[i], node, job_id);
		touch_marker(sfd, job_id, node, others.id[i]);
	}
	roce_jobshare_free(&others);
}

void roce_jobshare_collect(int sfd, const char *job_id, const char *node, struct roce_jobshare_ids *ids)
{
	take_markers(sfd, job_id, node, ids);
	scan_state_dir(sfd, job_id, node, ids);
}

void roce_jobshare_free(struct roce_jobshare_ids *ids)
{
	free(ids->id);
	memset(ids, 0, sizeof(*ids));
}
