/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - policy x model -> findings.  Pure: no I/O.
 */
#ifndef ROCE_CHECK_H
#define ROCE_CHECK_H

#include "check/finding.h"
#include "base/model.h"
#include "read/policy.h"

/* Returns 0, or -1 on ENOMEM (result is then freed). */
int roce_check(const struct roce_node *node, const struct roce_policy *policy, struct roce_check_result *out);
void roce_check_result_free(struct roce_check_result *r);

/* Append a finding while roce_check() runs (its tally counts it): for the
 * checks in their own files below.  reason (may be NULL) is the short
 * drain text of a hardware fail.  -1 on ENOMEM. */
int roce_check_finding(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                       enum roce_verdict status, bool hardware, const char *reason, const char *fmt, ...)
        __attribute__((format(printf, 8, 9)));

/* check_link.c: every RoCE port's rate against LinkRate= (a minimum, or as
 * fast as the same adapter model's other ports), and against its netdev's
 * speed.  A slow port is a hardware fault: its port result is no longer
 * healthy.  -1 on ENOMEM. */
int roce_check_link(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);

/* check_fw.c: adapters of one model (hca_type + board_id) on different
 * firmware warn; an unreadable fw_ver is unknown.  -1 on ENOMEM. */
int roce_check_fw(struct roce_check_result *r, const struct roce_node *node);

/* check_ecn.c: ECN notification and reaction points on the RoCE priority
 * (Ecn=require fails, warn warns, ignore skips); a missing ecn/ is unknown,
 * said as a warning; CNPs on a lossy priority and CNP DSCPs that differ
 * between ports warn.  -1 on ENOMEM. */
int roce_check_ecn(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);

/* check_ets.c: the PFC priority's traffic class at 0 % under ETS, or its
 * receive buffer shared with a lossy priority, warns (Ets=fail fails and
 * leaves the port out, ignore skips); ETS or buffers the driver does not
 * report are unknown, said as a warning; a garbled attribute is unknown.
 * -1 on ENOMEM. */
int roce_check_ets(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);
/* check_trust.c: the priority RoCE really lands on.  DSCP trust: the traffic
 * class's DSCP must map (qos/dscp2prio, else the APP table) to PfcPriority;
 * PCP trust: the GID's netdev must be a VLAN whose egress map reaches it
 * (untagged RoCE is priority 0).  Sets r->trust.  -1 on ENOMEM. */
int roce_check_trust(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);
/* The DSCP a map sends to prio (26, AF31, when it qualifies), -1 none.  (check.c) */
int roce_check_dscp_for_priority(const struct roce_dscp_map *m, int prio);

/* Every drain reason of ours starts with this: a reason without it is someone else's. */
#define ROCE_DRAIN_PREFIX "roce: "
/* A node's current drain reason (Slurm's "reason"; NULL or "" = none) is
 * someone else's (an admin's "firmware update", Slurm's "Kill task failed"):
 * we leave that node alone, as draining again would replace the reason and
 * resuming after our fix would undo the admin's drain.  (check.c) */
bool roce_check_reason_is_others(const char *reason);
/* check_drain.c: Slurm drain reason for hardware failures ("roce: mlx5_1 port 1 DOWN", "+2 more").
 * Returns 1 and fills buf when the node has a hardware fault, else 0. */
int roce_check_drain_reason(const struct roce_check_result *r, char *buf, size_t len);

/* Count r's findings again and decide r->failed under pol's mode: for a
 * later pipeline step that added findings with roce_finding_addf (the job
 * GPUs' PCIe paths).  roce_check() ends with it. */
void roce_check_tally(struct roce_check_result *r, const struct roce_policy *pol);

/* Append a finding (for later pipeline steps such as locality); -1 on ENOMEM. */
int roce_check_add(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                   enum roce_verdict status, const char *message);

const struct roce_port_result *roce_check_port(const struct roce_check_result *r, const char *device, unsigned port);

#endif
