/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fingerprint.h - what one node of a job offers NCCL, as the job prolog saw
 * it: the healthy allowed RoCE ports in order with their netdevs and MTUs,
 * the GID index and family, the traffic class, the PFC priority and the
 * node's verdict.  Written by the prolog to SharedDir (shareddir.h), read by
 * srun for the job-wide agreement (agree.h).  Pure: built from a check
 * result, to JSON, and parsed back strictly.
 *
 * A fingerprint sits on a shared file system and is read by every user's
 * srun: it is untrusted input.  The parser takes at most ROCE_FP_TEXT_MAX
 * bytes, refuses unknown members (the schema is versioned: a new member,
 * such as issue 12's service level, comes with the next version and a
 * parser that reads both), checks every range, and checks that the job id
 * is the one the caller asked for (the node is the file's name for it).  No path is ever
 * built from what a fingerprint says.
 */
#ifndef ROCE_FINGERPRINT_H
#define ROCE_FINGERPRINT_H

#include <json-c/json.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include "check/check.h"
#include "base/error.h"

/* 2: no "node" member: the fingerprints of nodes that offer the same are the
 * same bytes, stored once in SharedDir under their digest (shareddir.h). */
#define ROCE_FP_SCHEMA "slurm-roce/fingerprint/2"
#define ROCE_FP_PORTS_MAX ROCE_HCA_MAX /* NCCL_IB_HCA takes at most 32 entries */
#define ROCE_FP_TEXT_MAX 16384         /* far above 32 ports; a planted file cannot make us read more */
#define ROCE_FP_NODE_MAX 64
#define ROCE_FP_JOB_MAX 16

/* The node's verdict in its prolog: every port passed, some did not, or
 * the node has no usable port. */
enum roce_fp_verdict { ROCE_FP_PASS = 0, ROCE_FP_WARN, ROCE_FP_FAIL };

struct roce_fp_port {
	char device[ROCE_NAME_MAX];
	unsigned port; /* 1..255 */
	char netdev[IF_NAMESIZE];
	int active_mtu;      /* RDMA MTU in bytes (256..4096), 0 unknown */
	unsigned netdev_mtu; /* 0 unknown */
	unsigned rate_gbps;  /* link rate, 0 unknown */
};

struct roce_fingerprint {
	char job_id[ROCE_FP_JOB_MAX];
	char node[ROCE_FP_NODE_MAX];
	enum roce_fp_verdict verdict;
	int gid_index;     /* -1 none */
	int addr_family;   /* 4 or 6 */
	int traffic_class; /* -1 none */
	int pfc_priority;  /* -1 not checked */
	size_t n_ports;    /* healthy allowed RoCE ports, in the check's order */
	struct roce_fp_port ports[ROCE_FP_PORTS_MAX];
};

/* The fingerprint of a checked node: its healthy ports (at most 32), the
 * link rates from model (NULL: unknown).  Pure. */
void roce_fingerprint_from_check(const struct roce_policy *p, const struct roce_node *model,
                                 const struct roce_check_result *check, const char *job_id, const char *node,
                                 struct roce_fingerprint *out);

/* As JSON ("schema" first), without the node name: nodes that offer the same
 * get the same bytes; NULL on ENOMEM. */
json_object *roce_fingerprint_to_json(const struct roce_fingerprint *f);

/* text (len bytes) -> *f, for job_id (NULL: not compared); f->node is set to
 * node (NULL: ""), the name the file was filed under.  -1 with err naming
 * the member and the problem; f is then zeroed. */
int roce_fingerprint_parse(const char *text, size_t len, const char *job_id, const char *node,
                           struct roce_fingerprint *f, struct roce_error *err);

/* The port named device:port, or NULL. */
const struct roce_fp_port *roce_fingerprint_port(const struct roce_fingerprint *f, const char *device, unsigned port);

#endif
