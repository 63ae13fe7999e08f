/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - policy x model -> findings.  Pure: no I/O.  roce_check() (check.c)
 * runs the checks; the ones of their own files are indexed below.  Each
 * adds its findings through finding.h, never through check.c.
 */
#ifndef ROCE_CHECK_H
#define ROCE_CHECK_H

#include "check/finding.h"
#include "base/model.h"
#include "read/policy.h"

/* Returns 0, or -1 on ENOMEM (result is then freed). */
int roce_check(const struct roce_node *node, const struct roce_policy *policy, struct roce_check_result *out);
void roce_check_result_free(struct roce_check_result *r);

/* check_pfc.c, one of check.c's port checks: PFC on for PfcPriority on the
 * port's netdev nd (NULL: not judged) and the traffic class whose DSCP maps
 * to it (PfcUnknown= says what an unreadable state is).  *tc_out: that
 * traffic class, -1 none.  Returns the verdict of the finding it added (a
 * PASS without one when PfcPriority=none or without nd). */
enum roce_verdict roce_check_pfc_port(struct roce_check_result *r, const struct roce_policy *pol,
                                      const struct roce_device *d, const struct roce_port *p,
                                      const struct roce_netdev *nd, int *tc_out);
/* The DSCP map m sends to prio (26, AF31, when it qualifies), -1 none.
 * (check_pfc.c; check_trust.c's DSCP trust asks it too) */
int roce_check_pfc_dscp(const struct roce_dscp_map *m, int prio);

/* check_link.c: every RoCE port's rate against LinkRate= (a minimum, or as
 * fast as the same adapter model's other ports of its role), and against its
 * netdev's speed.  A slow port warns (LinkRateAction=warn), or is a hardware
 * fault whose port result is no longer healthy (fail).  -1 on ENOMEM. */
int roce_check_link(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);
/* Is d a host port (storage, front-end): its place read, no NVIDIA GPU
 * behind its PCIe switch, while another device of the node has one (the
 * node's GPU rails)?  False when the places were not read (collect.c reads
 * them when LinkRate=auto needs roles or, without Hca=, a port is down). */
bool roce_check_link_host_port(const struct roce_node *node, const struct roce_device *d);

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
/* check_drain.c: what a drain says and when it is done.
 * Every drain reason of ours starts with this: a reason without it is someone else's. */
#define ROCE_DRAIN_PREFIX "roce: "
/* Slurm drain reason for hardware failures ("roce: mlx5_1 port 1 DOWN", "+2 more").
 * Returns 1 and fills buf when the node has a hardware fault, else 0. */
int roce_check_drain_reason(const struct roce_check_result *r, char *buf, size_t len);
/* A node's Slurm state, as far as a drain cares (each adapter reads it its
 * own way: the plugin from libslurm's state bits, roce-check from sinfo). */
#define ROCE_DRAIN_STATE_DRAIN 0x1u /* drained or draining */
#define ROCE_DRAIN_STATE_DOWN 0x2u
#define ROCE_DRAIN_STATE_FAIL 0x4u /* failing or failed */
/* Is a node in state (ROCE_DRAIN_STATE_* bits) with drain reason reason
 * (Slurm's "reason"; NULL, "" or sinfo's "none" = none) held for someone
 * else's reason (an admin's "firmware update", Slurm's "Kill task failed")?
 * Then we leave it alone: draining again would replace the reason, and
 * resuming after our fix would undo the admin's drain.  Only a drained,
 * down or failing node is held for its reason: an idle node may keep an
 * old one after a resume (seen on Slurm 24.11). */
bool roce_check_drain_leave_alone(unsigned state, const char *reason);
/* sinfo's state word (%T: "drained", "draining", "idle+drain", "down*",
 * "failing"...) as ROCE_DRAIN_STATE_* bits: by substring, so any word
 * naming drain, down or fail counts (powered_down too, where the plugin
 * reads Slurm's bits and does not). */
unsigned roce_check_drain_state_word(const char *word);
/* Is the node held by a drain of ours: drained or draining (neither down
 * nor failing: those are Slurm's business) with a reason of ours? */
bool roce_check_drain_ours(unsigned state, const char *reason);
/* The subjects a check result looked at, for roce_check_drain_next: each
 * finding's device ("node" for one about no device), once, separated by
 * spaces, into buf (len bytes; what does not fit is left out).  Returns
 * buf. */
const char *roce_check_drain_seen(const struct roce_check_result *r, char *buf, size_t len);

/* What one run of the health check (roce-check --drain) found, as a drain
 * judges it: no hardware fault (configuration findings never drain), a
 * hardware fault, or no answer (the check did not finish, an earlier one
 * is stuck, a usage error): unknown is never a pass. */
enum roce_check_drain_run { ROCE_DRAIN_RUN_PASS, ROCE_DRAIN_RUN_FAULT, ROCE_DRAIN_RUN_UNKNOWN };
enum roce_check_drain_act {
	ROCE_DRAIN_ACT_NONE,     /* nothing to do */
	ROCE_DRAIN_ACT_DRAIN,    /* a fault: drain with our reason */
	ROCE_DRAIN_ACT_LEAVE,    /* a fault, but someone else holds the node (leave_alone) */
	ROCE_DRAIN_ACT_COUNT,    /* our drain, a pass: counted, not yet enough to resume */
	ROCE_DRAIN_ACT_RESUME,   /* our drain, passed resume_after runs in a row: resume */
	ROCE_DRAIN_ACT_NOT_SEEN, /* our drain names what this run did not look at: not counted */
};
struct roce_check_drain_next {
	enum roce_check_drain_act act;
	unsigned passes; /* the count to keep for the next run */
};
/* The health check's next step, from this run, the node's Slurm state and
 * reason, the subjects the run looked at (roce_check_drain_seen), the
 * passes counted so far and ResumeAfter= (0: never resume).  Passes count
 * only while the node is held by our drain and the run looked at what the
 * reason names (a GPU's PCIe link seen only with the job's GPUs is not
 * judged by a check without them); anything else starts the count again.
 * A resume keeps the count at resume_after until the node is seen free
 * (a resume that failed is tried again on the next pass).  Pure. */
struct roce_check_drain_next roce_check_drain_next(enum roce_check_drain_run run, unsigned state, const char *reason,
                                                   const char *seen, unsigned passes, unsigned resume_after);

/* Decide r->failed under pol's mode from r's tally (finding.h keeps it)
 * and its healthy ports: roce_check() ends with it; a later pipeline step
 * that adds findings which may fail the node (the job GPUs' PCIe paths)
 * calls it again. */
void roce_check_decide(struct roce_check_result *r, const struct roce_policy *pol);

const struct roce_port_result *roce_check_port(const struct roce_check_result *r, const char *device, unsigned port);

#endif
