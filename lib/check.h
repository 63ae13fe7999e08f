/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - policy x model -> findings.  Pure: no I/O.
 */
#ifndef ROCE_CHECK_H
#define ROCE_CHECK_H

#include "model.h"
#include "policy.h"

enum roce_verdict { ROCE_PASS = 0, ROCE_WARN, ROCE_UNKNOWN, ROCE_FAIL };

struct roce_finding {
	char check[24];          /* "port_state", "gid", "mtu", "pfc", ... */
	char subject[96];        /* "mlx5_0:1", "eth0", "node" */
	char device[ROCE_NAME_MAX];
	unsigned port;           /* 0 = not about a port */
	enum roce_verdict status;
	bool hardware;           /* a node fault (drainable), not a configuration choice */
	char message[512];       /* what is wrong and what to do */
};

/* What the check concluded about one port. */
struct roce_port_result {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE];
	bool roce;               /* Ethernet link layer and allowed by policy */
	bool healthy;            /* roce and no failing finding */
	int gid_index;           /* index of the routable RoCE v2 GID, -1 none */
	int active_mtu;          /* RDMA MTU in bytes, 0 unknown */
	unsigned netdev_mtu;     /* the netdev's MTU, 0 unknown */
};

struct roce_check_result {
	struct roce_finding *findings;
	size_t n_findings, cap_findings;
	struct roce_port_result *ports;
	size_t n_ports;
	int gid_index;           /* the node's GID index for NCCL, -1 = none */
	int traffic_class;       /* policy value or derived from DSCP/PFC, -1 = none */
	enum roce_mode mode;
	bool failed;             /* the node fails under the policy's mode */
	size_t n_pass, n_warn, n_fail, n_unknown;
};

/* Returns 0, or -1 on ENOMEM (result is then freed). */
int roce_check(const struct roce_node *node, const struct roce_policy *policy,
               struct roce_check_result *out);
void roce_check_result_free(struct roce_check_result *r);

/* Every drain reason of ours starts with this: a reason without it is someone else's. */
#define ROCE_DRAIN_PREFIX "roce: "
/* A node's current drain reason (Slurm's "reason"; NULL or "" = none) is
 * someone else's (an admin's "firmware update", Slurm's "Kill task failed"):
 * we leave that node alone, as draining again would replace the reason and
 * resuming after our fix would undo the admin's drain. */
bool roce_check_reason_is_others(const char *reason);
/* Slurm drain reason for hardware failures ("roce: mlx5_1 port 1 DOWN", "+2 more").
 * Returns 1 and fills buf when the node has a hardware fault, else 0. */
int roce_check_drain_reason(const struct roce_check_result *r, char *buf, size_t len);

/* Append a finding while roce_check() runs (the checks of other files, such
 * as pciecheck.c; roce_check() counts it); -1 on ENOMEM.  hardware: a node
 * fault that drains when status is FAIL. */
int roce_check_addf(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                    enum roce_verdict status, bool hardware, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Append a finding (for later pipeline steps such as locality); -1 on ENOMEM. */
int roce_check_add(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                   enum roce_verdict status, const char *message);

const char *roce_verdict_name(enum roce_verdict v);
const struct roce_port_result *roce_check_port(const struct roce_check_result *r,
                                               const char *device, unsigned port);

#endif
