/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * brief.h - what a job's output says of a node's findings: their short form
 * ("port_state down on mlx5_2:1"), grouped and worst first, in a line that
 * fits.  The message with its fix is for roce-check, the report and
 * slurmd's log (finding.h).  Pure.
 */
#ifndef ROCE_BRIEF_H
#define ROCE_BRIEF_H

#include <stddef.h>
#include <stdint.h>
#include "check/finding.h"

/* No line the plugin prints to a job's output is longer (issue 31). */
#define ROCE_BRIEF_LINE_MAX 200
#define ROCE_BRIEF_SUBJECTS_MAX 128

/* One problem: a check with its verdict and cause, and the subjects that
 * have it ("mlx5_0:1,mlx5_1:1"; "" about the node; cut with ",..."). */
struct roce_brief {
	enum roce_verdict status;
	char check[24];
	char cause[ROCE_CAUSE_MAX];
	char subjects[ROCE_BRIEF_SUBJECTS_MAX];
};

/* Which findings a job's output shows: every one said (not quiet), or
 * only those that fail a strict step (FAIL, and UNKNOWN not set aside). */
enum roce_brief_which { ROCE_BRIEF_SAID = 0, ROCE_BRIEF_FAILING };

/* The problems of f[0..n): the non-pass findings which selects, one per
 * (verdict, check, cause) with its subjects in the findings' order, the
 * worst verdict first (FAIL, UNKNOWN, WARN), then in the order of their
 * first finding.  At most max go to out; returns how many there are (more
 * than max when some did not fit). */
size_t roce_brief_of(const struct roce_finding *f, size_t n, enum roce_brief_which which, struct roce_brief *out,
                     size_t max);

/* Is f one that which shows? */
bool roce_brief_shows(const struct roce_finding *f, enum roce_brief_which which);

/* b as "check cause on subjects", or "check cause" about the node, made
 * printable (the subjects may come from another node's file). */
void roce_brief_text(const struct roce_brief *b, char *buf, size_t len);

/* The first n of total problems b[] as "A; B (+k more)" in buf (len
 * bytes): as many whole ones as fit, at least the first (cut if it must
 * be); returns how many were shown. */
size_t roce_brief_join(const struct roce_brief *b, size_t n, size_t total, char *buf, size_t len);

/* A problem's identity across nodes and between the prolog's check and a
 * step's (srun tells the nodes which it said: spank/jobwide.c): FNV-1a of
 * its verdict, check, cause and subjects. */
uint32_t roce_brief_key(const struct roce_brief *b);

#endif
