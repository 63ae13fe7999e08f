/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agree.h - the job-wide agreement of a step's nodes, before NCCL starts.
 * Pure: no I/O.  Three steps:
 *
 *  roce_agree()         srun: the step's fingerprints (fingerprint.h) ->
 *                       the rails every node can use, matched by identity
 *                       (rails.h: the subnet each port's traffic lives on,
 *                       whatever the device is called), in the agreed
 *                       order (Rails= order, else the ports' order on most
 *                       nodes); one short line per difference (lines.h),
 *                       naming groups of nodes; which nodes had no
 *                       fingerprint;
 *  roce_agreed_encode() that verdict as the value of ROCE_AGREE_ENV, which
 *                       srun passes to the step, and roce_agreed_decode()
 *                       it back on each node (strictly: the user can forge
 *                       it; agreed.h);
 *  roce_agreed_apply()  each node: its own ports on the agreed rails, in
 *                       the agreed order, under its own device names.  A
 *                       node can only remove ports, never add one, so a
 *                       forged value can only hurt the user's own step.
 *
 * What is compared, and what each mode does (README, spank-roce(8),
 * docs/agreement.md):
 *  - rails (TRIM lines): a rail missing on some nodes, a port on another
 *    rail's subnet or at another rail's place (a crossed cable or address),
 *    a port on no rail of the others: warn leaves the rail or port out on
 *    every node, strict fails;
 *  - what NCCL needs the same and trimming cannot fix (MUST): GID family,
 *    RDMA MTU of a rail, traffic class: warn names the groups, strict fails;
 *  - what should be the same but NCCL runs without (SHOULD): link rate,
 *    firmware of one adapter model, driver version, PFC priority, priority
 *    trust, ECN, GID index: both modes name the groups, neither fails;
 *  - nodes without a usable fingerprint (UNKNOWN): warn lets each node use
 *    its own rails, strict fails.
 */
#ifndef ROCE_AGREE_H
#define ROCE_AGREE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/error.h"
#include "agree/fingerprint.h"
#include "agree/lines.h"
#include "agree/rails.h"
#include "base/nodelist.h"
#include "check/plan.h"

#define ROCE_AGREE_ENV "ROCE_AGREEMENT"
#define ROCE_AGREE_ENV_MAX 4096 /* 32 rails named twice (a subnet or a 63-byte device), and the head */

/* What the fingerprints showed (flags). */
#define ROCE_AGREE_TRIMMED 0x1  /* a rail or port not on every node */
#define ROCE_AGREE_MISMATCH 0x2 /* a difference NCCL cannot take and trimming cannot fix */
#define ROCE_AGREE_EMPTY 0x4    /* no rail usable on every node */
#define ROCE_AGREE_MISSING 0x8  /* a node had no (usable) fingerprint: unknown, never a pass */
#define ROCE_AGREE_DRIFT 0x10   /* a difference NCCL runs with: said, never a failure */

/* An agreed rail. */
struct roce_agree_rail {
	int col;        /* in the reference */
	int active_mtu; /* the same on every node; 0: it differs (MISMATCH) or is unknown: not compared */
};

struct roce_agreement {
	unsigned flags;
	struct roce_rails ref; /* every rail of the step, in the ports' order on most nodes */
	size_t n_rails;        /* agreed, in the order every node exports them */
	struct roce_agree_rail rails[ROCE_FP_PORTS_MAX];
	struct roce_lines lines;
	char uses[ROCE_LINE_MAX]; /* what every node uses: "=mlx5_0:1" (the same names everywhere) or the rails */
	char *missing;            /* the nodes without a fingerprint, as a list (NULL: none) */
	size_t n_missing;
};

/* fps[i] is nodes[i]'s fingerprint, NULL when it is missing or was refused
 * (nodes that share one may share the pointer: each distinct one is fitted
 * once).  fn compresses node lists (NULL: joined).  p gives Rails= (NULL:
 * none): rails in its order, ports on no Rails= subnet left out.  0, or -1
 * on ENOMEM. */
int roce_agree(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n, roce_nodelist_fn fn,
               const struct roce_policy *p, struct roce_agreement *out);
void roce_agree_free(struct roce_agreement *a);

/* What a step's nodes are told. */
enum roce_agree_verdict {
	ROCE_AGREED_RAILS = 0, /* export these rails (or fewer), in this order */
	ROCE_AGREED_EMPTY,     /* export no NCCL variables */
	ROCE_AGREED_OWN,       /* unknown: each node exports its own (warn, a fingerprint missing) */
	ROCE_AGREED_FAIL,      /* strict and the nodes disagree: the step fails everywhere */
};

struct roce_agreed {
	enum roce_agree_verdict verdict;
	char step[32]; /* "<job>.<step>" it was computed for */
	struct roce_rails ref;
	size_t n_rails;
	struct roce_agree_rail rails[ROCE_FP_PORTS_MAX];
};

/* The verdict for a step under mode (warn or strict). */
enum roce_agree_verdict roce_agree_verdict(const struct roce_agreement *a, bool strict);
#endif
