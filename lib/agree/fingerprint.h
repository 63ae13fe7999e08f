/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fingerprint.h - what one node of a job offers NCCL, as the job prolog saw
 * it: the healthy allowed RoCE ports in PCI order with their netdevs, rails
 * (the subnet of the GID's address, or the Rails= entry holding it), MTUs,
 * link rates and ECN state; the adapters' models and firmware; the driver
 * version, the GID index and family, the traffic class, the PFC priority,
 * the priority trust and the node's verdict.  Nothing in it is one node's
 * alone (no address, no serial number): nodes that offer the same write the
 * same bytes (docs/agreement.md).  Written by the prolog to SharedDir
 * (shareddir.h), read by srun for the job-wide agreement (agree.h).  Pure:
 * built from a check result, to JSON, and parsed back strictly.
 *
 * A fingerprint sits on a shared file system and is read by every user's
 * srun: it is untrusted input.  The parser takes at most ROCE_FP_TEXT_MAX
 * bytes, refuses unknown members (the schema is versioned: a new member,
 * such as issue 12's service level, comes with the next version), checks
 * every range and word, and checks that the job id is the one the caller
 * asked for (the node is the file's name for it).  No path is ever built
 * from what a fingerprint says.
 */
#ifndef ROCE_FINGERPRINT_H
#define ROCE_FINGERPRINT_H

#include <json-c/json.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include "check/brief.h"
#include "check/check.h"
#include "base/error.h"
#include "base/subnet.h"

/* 2: no "node" member: the fingerprints of nodes that offer the same are the
 * same bytes, stored once in SharedDir under their digest (shareddir.h).
 * 3: each port's rail and ECN state, the adapters, the driver, the trust,
 * the verdict "unchecked", ports in PCI order.
 * 4: the node's problems as a job's output says them (brief.h), so that srun
 * says each once for the step's nodes.
 * 5: each port's path probe to the next node (Probe=ip): "probe", present
 * only when probed, {"verdict": "ok"} alone when it passed (nodes whose
 * probes passed still write the same bytes); "resolves" {peer, got} when
 * the next node's name resolved here to an address it does not have.  3 and 4 are still read (no
 * problems in 3, no probes in either): the prologs of nodes not yet
 * upgraded write them. */
#define ROCE_FP_SCHEMA "slurm-roce/fingerprint/5"
#define ROCE_FP_SCHEMA_4 "slurm-roce/fingerprint/4"
#define ROCE_FP_SCHEMA_3 "slurm-roce/fingerprint/3"
#define ROCE_FP_PROBLEMS_MAX 8 /* the worst; the rest are counted */
#define ROCE_FP_PORTS_MAX ROCE_HCA_MAX /* NCCL_IB_HCA takes at most 32 entries */
#define ROCE_FP_TEXT_MAX 32768         /* far above 32 ports and adapters; a planted file cannot make us read more */
#define ROCE_FP_NODE_MAX 64
#define ROCE_FP_JOB_MAX 16
#define ROCE_FP_WORD_MAX 64 /* a firmware, board, adapter type or driver version */

/* The node's verdict in its prolog: every port passed, some did not, the
 * node has no usable port, or its check did not run (no ports: srun says
 * so, never a pass). */
enum roce_fp_verdict { ROCE_FP_PASS = 0, ROCE_FP_WARN, ROCE_FP_FAIL, ROCE_FP_UNCHECKED };

/* The path probe from this node to the next one of the job on a port's
 * rail (Probe=ip; lib/agree/pathprobe.h): not probed, passed, or how it
 * failed. */
enum roce_fp_probe {
	ROCE_FP_PROBE_NONE = 0,
	ROCE_FP_PROBE_OK,
	ROCE_FP_PROBE_NO_ANSWER,
	ROCE_FP_PROBE_SIZE,
	ROCE_FP_PROBE_DSCP,
	ROCE_FP_PROBE_LOCAL
};

struct roce_fp_probe_result {
	enum roce_fp_probe verdict;
	char peer[ROCE_FP_NODE_MAX]; /* the node probed ("" when it passed: not written) */
	unsigned largest, of;        /* the largest IP packet that passed (0 none), of the largest probed */
	int sent, arrived;           /* DSCP sent, DSCP that arrived (-1 unknown) */
};

struct roce_fp_port {
	char device[ROCE_NAME_MAX];
	unsigned port; /* 1..255 */
	char netdev[IF_NAMESIZE];
	char rail[ROCE_SUBNET_TEXT_MAX]; /* canonical subnet; "" unknown (the port is then known by its name) */
	int active_mtu;                  /* RDMA MTU in bytes (256..4096), 0 unknown */
	unsigned netdev_mtu;             /* 0 unknown */
	unsigned rate_gbps;              /* link rate, 0 unknown */
	int ecn_np, ecn_rp;              /* ECN on the PFC priority: 1 on, 0 off, -1 unknown or not checked */
	struct roce_fp_probe_result probe;
};

/* An adapter one of the ports is on. */
struct roce_fp_device {
	char device[ROCE_NAME_MAX];
	char hca_type[ROCE_FP_WORD_MAX]; /* with board_id the adapter model; "" unknown */
	char board_id[ROCE_FP_WORD_MAX];
	char fw_ver[ROCE_FP_WORD_MAX];
};

struct roce_fingerprint {
	char job_id[ROCE_FP_JOB_MAX];
	char node[ROCE_FP_NODE_MAX];
	enum roce_fp_verdict verdict;
	int gid_index;                 /* -1 none */
	int addr_family;               /* 4 or 6 */
	int traffic_class;             /* -1 none */
	int pfc_priority;              /* -1 not checked */
	enum roce_trust_mode trust;    /* the RoCE ports' priority trust */
	char driver[ROCE_FP_WORD_MAX]; /* mlx5_core's version, "" none read */
	size_t n_problems;             /* what a job's output says of the node (not quiet), the worst first */
	struct roce_brief problems[ROCE_FP_PROBLEMS_MAX];
	unsigned problems_more; /* beyond those, or not safe to carry (a name outside the words parsed back) */
	/* the path probe's name check (Probe=ip): the next node's name resolved
	 * here to got, none of the addresses it announced ("" peer: no finding) */
	struct {
		char peer[ROCE_FP_NODE_MAX];
		char got[64];
	} resolves;
	size_t n_devices;
	struct roce_fp_device devices[ROCE_FP_PORTS_MAX];
	size_t n_ports; /* healthy allowed RoCE ports, in PCI order (ports last: shareddir.c keeps only those used) */
	struct roce_fp_port ports[ROCE_FP_PORTS_MAX];
};

/* The fingerprint of a checked node: its healthy ports (at most 32) in the
 * PCI order of their adapters, their rails (the policy's Rails= entry that
 * holds the address of the port's GID, else that address's subnet on its
 * netdev), rates, ECN and adapters from model (NULL: unknown).  Pure. */
void roce_fingerprint_from_check(const struct roce_policy *p, const struct roce_node *model,
                                 const struct roce_check_result *check, const char *job_id, const char *node,
                                 struct roce_fingerprint *out);
/* The address of the GID that device's port offers NCCL (check's GID
 * index), the bytes NCCL and RoCE use: its family (AF_INET: 4 bytes into
 * addr, AF_INET6: 16), or 0 unknown; netdev gets the netdev that address
 * is on (the GID's own: a VLAN's, not the port's; the port's when the
 * GID's was not read), where RoCE's packets leave. */
int roce_fingerprint_port_addr(const struct roce_node *model, const struct roce_check_result *check, const char *device,
                               unsigned port, uint8_t addr[16], char netdev[IF_NAMESIZE]);
/* A node whose check did not run: verdict unchecked, nothing else known. */
void roce_fingerprint_unchecked(const struct roce_policy *p, const char *job_id, const char *node,
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
/* The adapter named device, or NULL. */
const struct roce_fp_device *roce_fingerprint_device(const struct roce_fingerprint *f, const char *device);
/* "pass", "warn", "fail", "unchecked" */
const char *roce_fingerprint_verdict_name(int v);
/* "none", "ok", "no_answer", "size", "dscp", "local" */
const char *roce_fingerprint_probe_name(int v);
/* "dscp", "pcp", "unknown" */
const char *roce_fingerprint_trust_name(int t);
/* What a fingerprint may carry, written and parsed alike (these words end up
 * in srun's messages, for every user of the job): a firmware, board, adapter
 * type or driver version as sysfs shows them, or ""; a problem as brief.h
 * makes one from our checks. */
bool roce_fingerprint_word_ok(const char *s);
bool roce_fingerprint_problem_ok(const struct roce_brief *b);

#endif
