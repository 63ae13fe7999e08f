/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - what the step's nodes offer beyond their rails, compared
 * (agree.h's MUST and SHOULD lines): over the agreed rails, the RDMA MTU
 * and link rate; per adapter model, the firmware; per node, the GID family
 * and index, the traffic class, the driver, the PFC priority, the priority
 * trust and ECN.  One line per difference, naming the groups of nodes.
 * Pure; called by agree.c.
 */
#ifndef ROCE_COMPARE_H
#define ROCE_COMPARE_H

#include "agree/fingerprint.h"
#include "agree/lines.h"
#include "base/nodelist.h"

struct roce_compare_in {
	const char *const *nodes;
	size_t n;
	const int *didx; /* per node: its distinct fingerprint, -1 none (missing, unchecked, no port) */
	const struct roce_fingerprint *const *fp; /* the distinct ones */
	const int (*port_of)[ROCE_FP_PORTS_MAX];  /* per distinct: its port on each rail of the reference */
	size_t nd;
	const int *cols; /* the agreed rails: their columns in the reference */
	size_t n_rails;
	roce_nodelist_fn fn;
};

/* What differed (flags). */
#define ROCE_COMPARE_MUST 0x1   /* where NCCL needs the same */
#define ROCE_COMPARE_SHOULD 0x2 /* where it should be the same */

/* Lines for what differs into l; *found gets ROCE_COMPARE_* as found.  -1
 * on ENOMEM. */
int roce_compare(const struct roce_compare_in *in, struct roce_lines *l, unsigned *found);

#endif
