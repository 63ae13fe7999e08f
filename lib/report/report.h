/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - a job's fabric report: every node's fragment (fragment.h)
 * merged and sorted, and the groups the printers show (verdict code ->
 * nodes, the values that should agree across nodes -> nodes).  Pure:
 * reportdir.h reads the fragments from ReportDir into it, report_verdicts.h
 * adds the verdicts only the merge can give; the printers are
 * report_text.h, report_json.h, report_prometheus.h and report_html.h.
 *
 * Node lists are compressed by a caller-supplied function (roce-report uses
 * libslurm's hostlist; lib/ does not link libslurm because the SPANK
 * plugin, which links lib/, runs inside slurmd).
 */
#ifndef ROCE_REPORT_H
#define ROCE_REPORT_H

#include "base/error.h"
#include "base/slurmid.h" /* ROCE_JOBID_MAX */
#include "fragment/fragment.h"
#include "base/hashindex.h"
#include "base/nodelist.h" /* roce_nodelist_fn: NULL = join with commas */

struct roce_job_report {
	char job_id[ROCE_JOBID_MAX];
	struct roce_fragment *nodes; /* linear in nodes x ports */
	size_t n_nodes, cap_nodes;
	char **errors; /* fragments that could not be used, and why (escaped) */
	size_t n_errors;
	struct roce_arena_pool *pool; /* the nodes' memory when pooled (reportdir.c); freed last */
};

void roce_report_init(struct roce_job_report *r, const char *job_id);
void roce_report_free(struct roce_job_report *r);

/* Add a parsed fragment: the report takes *f over (and empties it, also on
 * failure).  -1 with err on ENOMEM. */
int roce_report_append(struct roce_job_report *r, struct roce_fragment *f, struct roce_error *err);
/* Move every node, error and the pool of from into r (from is left empty,
 * also on failure).  -1 with err on ENOMEM. */
int roce_report_take(struct roce_job_report *r, struct roce_job_report *from, struct roce_error *err);
/* Record that source could not be used: "source: why", escaped. */
void roce_report_error(struct roce_job_report *r, const char *source, const char *why);

/* Whose job the fragments are: the job_uid of the newest one (end_ns) that
 * root's file holds, else of the newest one; -1 when none. */
long roce_report_job_uid(const struct roce_job_report *r);
/* Drop the nodes whose job_uid is not uid (another instance of the job id),
 * each named in r->errors. */
void roce_report_keep_uid(struct roce_job_report *r, long uid);

/* Sort nodes by name (natural order) and drop a second fragment of a node
 * (recorded as an error: ReportDir holds one file per node, but a caller
 * appending its own fragments may repeat one).  Call once, before printing. */
void roce_report_sort(struct roce_job_report *r);

/* The longest time of any node (its prolog to its epilog), -1 when no node. */
double roce_report_seconds(const struct roce_job_report *r);

/* ---------------------------------------------------------------- for printers */

/* Every node of the report, compressed by fn (or joined); malloc'd, NULL on ENOMEM. */
char *roce_report_nodelist(const struct roce_job_report *r, roce_nodelist_fn fn);

/* Nodes that share a value: a verdict code, or an MTU such as "4096". */
struct roce_report_group {
	char *key;
	int severity;       /* the worst of the group (verdict groups) */
	const char *fix;    /* verdict groups: the fix of the code's first verdict in node order */
	const char **names; /* the report's node names, in node order */
	size_t n, cap;
};

/* Zeroed: empty.  A key is found by its hash (hashindex.h): grouping is
 * linear in the values, however many distinct ones a fragment makes up. */
struct roce_report_groups {
	struct roce_report_group *g;
	size_t n, cap;
	struct roce_hashindex index; /* key -> g[] */
};
void roce_report_groups_free(struct roce_report_groups *gs);
/* name (a node name, kept as a pointer) into key's group, made when new
 * (groups in order of first appearance).  -1 on ENOMEM. */
int roce_report_group_add(struct roce_report_groups *gs, const char *key, int severity, const char *name);
/* The group's nodes, compressed as roce_report_nodelist. */
char *roce_report_group_nodelist(const struct roce_report_group *g, roce_nodelist_fn fn);

/* Verdict code -> the nodes that have it (and the fix of its first
 * verdict); worst severity first, then by code (sorted: add nothing more
 * to gs).  -1 on ENOMEM (gs then holds what was grouped). */
int roce_report_verdict_groups(const struct roce_job_report *r, struct roce_report_groups *gs);

/* What must be the same on every node of a job for RDMA to work across them. */
enum roce_report_consistency {
	ROCE_CONS_GID,
	ROCE_CONS_MTU,
	ROCE_CONS_PFC,
	ROCE_CONS_RATE,
	ROCE_CONS_FW,
	ROCE_CONS_TC,
	ROCE_CONS_TRUST,
	ROCE_CONS_N
};
/* The JSON key ("gid_index") and the text report's title ("RoCE v2 GID index"). */
const char *roce_report_consistency_name(enum roce_report_consistency k);
const char *roce_report_consistency_title(enum roce_report_consistency k);
/* Value (as text) -> nodes, in order of first appearance; one group = consistent. */
int roce_report_consistency_groups(const struct roce_job_report *r, enum roce_report_consistency k,
                                   struct roce_report_groups *gs);

#endif
