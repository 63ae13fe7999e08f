/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agree.h - the job-wide agreement of a step's nodes, before NCCL starts.
 * Pure: no I/O.  Three steps, each O(nodes):
 *
 *  roce_agree()         srun: the step's fingerprints (fingerprint.h) ->
 *                       the rails every node can use (the healthy ports by
 *                       device:port, in the first node's order), what could
 *                       not be trimmed (RDMA MTU of a rail, GID index and
 *                       family, traffic class) named by groups of nodes,
 *                       and which nodes had no fingerprint;
 *  roce_agree_encode()  that verdict as the value of ROCE_AGREE_ENV, which
 *                       srun passes to the step, and roce_agree_decode() it
 *                       back on each node (strictly: the user can forge it);
 *  roce_agree_apply()   each node: its own plan restricted to the agreed
 *                       rails that it has healthy, in the agreed order.  A
 *                       node can only remove ports, never add one, so a
 *                       forged value can only hurt the user's own step.
 */
#ifndef ROCE_AGREE_H
#define ROCE_AGREE_H

#include <stdbool.h>
#include <stddef.h>
#include "base/error.h"
#include "agree/fingerprint.h"
#include "base/nodelist.h"
#include "check/plan.h"

#define ROCE_AGREE_ENV "ROCE_AGREEMENT"
#define ROCE_AGREE_ENV_MAX 2560  /* 32 x "mlx5_NN:P@4096," and the head, with room */
#define ROCE_AGREE_UNION_MAX 128 /* distinct rails named in messages */

/* What the fingerprints showed (flags). */
#define ROCE_AGREE_TRIMMED 0x1  /* some node lacked a rail another had */
#define ROCE_AGREE_MISMATCH 0x2 /* a difference that cannot be trimmed */
#define ROCE_AGREE_EMPTY 0x4    /* no rail usable on every node */
#define ROCE_AGREE_MISSING 0x8  /* a node had no (usable) fingerprint: unknown, never a pass */

struct roce_agree_rail {
	char device[ROCE_NAME_MAX];
	unsigned port;
	int active_mtu; /* the first node's (the same everywhere unless MISMATCH);
	                                        0 in ROCE_AGREEMENT: not compared (MISMATCH under warn) */
};

struct roce_agreement {
	unsigned flags;
	size_t n_rails;
	struct roce_agree_rail rails[ROCE_FP_PORTS_MAX];
	/* One warning each, malloc'd, NULL when there is nothing to say: */
	char *trimmed;  /* "node3: mlx5_1:1 missing; ..." */
	char *mismatch; /* "RDMA MTU 4096 on node[1,3]; 1024 on node2; ..." */
	char *missing;  /* the nodes without a fingerprint, as a list */
};

/* fps[i] is nodes[i]'s fingerprint, NULL when it is missing or was refused.
 * fn compresses node lists (NULL: joined).  0, or -1 on ENOMEM. */
int roce_agree(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n, roce_nodelist_fn fn,
               struct roce_agreement *out);
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
	size_t n_rails;
	struct roce_agree_rail rails[ROCE_FP_PORTS_MAX];
};

/* The verdict for a step under mode (warn or strict). */
enum roce_agree_verdict roce_agree_verdict(const struct roce_agreement *a, bool strict);
/* "1;<step>;<verdict>[;dev:port@mtu,...]" into buf; -1 when it does not fit. */
int roce_agree_encode(const struct roce_agreement *a, enum roce_agree_verdict v, const char *step, char *buf,
                      size_t len);
/* The value back; -1 with err when it is not one roce_agree_encode wrote. */
int roce_agree_decode(const char *s, struct roce_agreed *d, struct roce_error *err);

/* Restrict plan (built from self's check) to d's rails that self has
 * healthy with the same RDMA MTU (any, where d says 0), in d's order, each
 * once: NCCL_IB_HCA and NCCL_SOCKET_IFNAME are rewritten (plan.h's
 * roce_plan_setf); with none left the plan becomes invalid.  Returns how
 * many agreed rails this node could not take (0: all), naming them in why
 * (len bytes). */
int roce_agree_apply(const struct roce_agreed *d, const struct roce_fingerprint *self, struct roce_plan *plan,
                     char *why, size_t len);

#endif
