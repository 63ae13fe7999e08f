/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policyfile.h - reading a roce.conf into a struct roce_policy (policy.h).
 *
 * slurm.conf style: Key=Value words separated by white space, '#' starts a
 * comment.  A line whose first word is NodeName=PATTERN (a Slurm hostlist
 * pattern, lib/base/hostmatch.h) starts a section: the keys after it, on its
 * line and the lines below, apply only to the nodes it names, until the next
 * NodeName= line (NodeName=ALL: every node again); a later section
 * overrides an earlier one.  ReportDir= and SharedDir= are read outside the
 * compute nodes (roce-report, srun), so they are refused in a section.
 *
 * A read goes on past a problem: every key that parses is set, every
 * problem is kept (the first ROCE_POLICYFILE_PROBLEMS_MAX), each naming the
 * file, the line and the key; and every key is checked whichever node reads
 * the file, so a file that fails on one node fails on all of them.  A
 * reader that needs only some keys (roce-report: ReportDir) asks whether a
 * problem touches them.
 */
#ifndef ROCE_POLICYFILE_H
#define ROCE_POLICYFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/error.h"
#include "read/policy.h"

#define ROCE_POLICYFILE_MAX (1024 * 1024) /* bytes of a roce.conf */
#define ROCE_POLICYFILE_LINE_MAX 1024     /* bytes of one line, its newline included */
#define ROCE_POLICYFILE_PROBLEMS_MAX 16
#define ROCE_POLICYFILE_SECTIONS_MAX 16

struct roce_policyfile_problem {
	const char *key; /* the key whose value was refused, as the key table spells it; NULL: not one key's */
	bool unread;     /* the file or a line was not read: any key may be in what was lost */
	struct roce_error err;
};

/* What one read found, beside the policy. */
struct roce_policyfile_result {
	size_t n_problems; /* every problem; the first ROCE_POLICYFILE_PROBLEMS_MAX are kept */
	struct roce_policyfile_problem problems[ROCE_POLICYFILE_PROBLEMS_MAX];
	size_t n_sections;                               /* NodeName= lines */
	size_t n_matched;                                /* those naming the node (the first ..._MAX kept) */
	int matched_lines[ROCE_POLICYFILE_SECTIONS_MAX]; /* where they are */
	char node[256];                                  /* the node the policy is for */
};

/* The bytes of the file at path (malloc'd, NUL-terminated, *len of them):
 * a regular file or /dev/null (the documented "defaults only"); a FIFO or
 * device in its place is refused, not waited on.  NULL with *len 0 and no
 * problem when it is missing and missing_ok (the defaults stand); NULL
 * with a problem in res otherwise. */
char *roce_policyfile_text(const char *path, bool missing_ok, size_t *len, struct roce_policyfile_result *res);

/* Parse text (named `name` in messages: "name:12: ...") into p for node
 * (NULL: this node, SLURMD_NODENAME else the short host name).  0, or -1
 * with problems in res (p holds every key that parsed). */
int roce_policyfile_parse(struct roce_policy *p, const char *text, size_t len, const char *name, const char *node,
                          struct roce_policyfile_result *res);

/* roce_policyfile_text, then roce_policyfile_parse. */
int roce_policyfile_read(struct roce_policy *p, const char *path, bool missing_ok, const char *node,
                         struct roce_policyfile_result *res);

/* The same for this node, err = the first problem: for readers that need
 * the whole file. */
int roce_policyfile_load(struct roce_policy *p, const char *path, bool missing_ok, struct roce_error *err);

/* The first problem a reader of keys (a NULL-terminated list of names) must
 * not ignore: a refused value of one of them, or a part of the file that
 * was not read; NULL when there is none. */
const struct roce_policyfile_problem *roce_policyfile_touches(const struct roce_policyfile_result *res,
                                                              const char *const *keys);

#endif
