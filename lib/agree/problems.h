/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * problems.h - the step's nodes' problems said once, not once per node
 * (issue 31): each problem the nodes' prologs put in their fingerprints
 * ("pfc missing on mlx5_0:1", brief.h) becomes one line naming the nodes
 * that have it in hostlist form ("node[1-3]: pfc missing on mlx5_0:1"),
 * the worst first, at most ROCE_PROBLEM_LINES lines whatever the step's
 * size, the rest counted in one more.  The keys of every problem said go
 * to the nodes (spank/jobwide.c passes them on in ROCE_SAID), whose own
 * line then leaves those out.  Pure.
 */
#ifndef ROCE_PROBLEMS_H
#define ROCE_PROBLEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "agree/fingerprint.h"
#include "agree/lines.h"

#define ROCE_SAID_ENV "ROCE_SAID" /* "JOB.STEP KEY,KEY,...": what srun said, for the step's nodes */
#define ROCE_SAID_ENV_MAX (32 + 9 * 64)
#define ROCE_PROBLEM_LINES 5
#define ROCE_PROBLEM_KEYS_MAX 64 /* distinct problems a step's nodes may have and still be said by srun */

struct roce_problem_keys {
	size_t n;
	bool overflow; /* more distinct problems than ROCE_PROBLEM_KEYS_MAX: the nodes say their own */
	uint32_t key[ROCE_PROBLEM_KEYS_MAX];
};

/* fp[i] is names[i]'s fingerprint (NULL: none read; nodes of one content
 * share one pointer).  Lines of kind ROCE_LINE_SHOULD (the step runs) are
 * added to out, keys filled.  -1 on ENOMEM (nothing said: the nodes say
 * their own). */
int roce_problems_say(const struct roce_fingerprint *const *fp, const char *const *names, size_t n,
                      roce_nodelist_fn fn, struct roce_lines *out, struct roce_problem_keys *keys);

/* keys as "k1,k2,..." (8 hex digits each) into buf; false when they do not fit or overflowed. */
bool roce_problem_keys_format(const struct roce_problem_keys *keys, char *buf, size_t len);
/* Is key among the comma-separated hex keys of text? */
bool roce_problem_keys_have(const char *text, uint32_t key);

#endif
