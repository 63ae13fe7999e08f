/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * finding.h - what a check concludes: findings and the per-port result,
 * and roce_finding_addf, the one function that appends a finding (and
 * roce_finding_pass and roce_finding_unknown_aside, its forms for a pass
 * and for an unknown set aside): every
 * check (check.c's port checks, check_*.c, pciecheck.c) and every later
 * step (the pipeline's locality warnings, choice.c's) adds through it.
 * Its own file, below them all, so that no check calls back into check.c,
 * which runs them (check.c -> check_ecn.c -> finding.c, no circle).  Pure.
 *
 * What a job's output shows of a finding is its short form (its check,
 * cause and subject: "port_state down on mlx5_1:1", brief.h); the message with the fix
 * is for roce-check, the report and slurmd's log.  A quiet finding is a
 * state a supported stack simply does not expose (no ecn/ on upstream
 * mlx5, no DCB on a veth or VF, no NVIDIA driver, no bus/pci/devices in a
 * container): its verdict stands (never a pass), but it is not said in a
 * job's output unless the site asks (the *Unknown= keys, policy.h).
 *
 * The tally rule: roce_finding_addf counts each finding in r's tally
 * (n_pass, n_warn, n_unknown, n_fail) as it appends it, so the counts are
 * right after every call, during roce_check() and after it.  Whether the
 * node fails (r->failed) is decided from them by roce_check_decide()
 * (check.h): roce_check() ends with it, and a step that adds findings
 * later which may fail the node (the job GPUs' PCIe paths) calls it again.
 */
#ifndef ROCE_FINDING_H
#define ROCE_FINDING_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/model.h"
#include "read/policy.h"

enum roce_verdict { ROCE_PASS = 0, ROCE_WARN, ROCE_UNKNOWN, ROCE_FAIL };

/* What a finding is beside its verdict (roce_finding_addf's flags). */
#define ROCE_FINDING_HARDWARE 0x1u /* a node fault (drainable) when it fails */
#define ROCE_FINDING_QUIET 0x2u    /* not said in a job's output (above); never with FAIL */

#define ROCE_CAUSE_MAX 24 /* a finding's cause, with its NUL */

struct roce_finding {
	char check[24];   /* "port_state", "gid", "mtu", "pfc", ... */
	char subject[96]; /* "mlx5_0:1", "eth0", "node" */
	char device[ROCE_NAME_MAX];
	unsigned port; /* 0 = not about a port */
	enum roce_verdict status;
	bool hardware;     /* a node fault (drainable), not a configuration choice */
	char message[512]; /* what is wrong and what to do */
	char reason[64];   /* the short drain text of a hardware finding, "" = said from check */
	bool aside;        /* an UNKNOWN said and set aside: it never fails the node (roce_finding_unknown_aside) */
	bool quiet;        /* ROCE_FINDING_QUIET: not said in a job's output */
	char cause[ROCE_CAUSE_MAX]; /* a word or two for a job's output ("down", "off", "unknown"); "" for a pass */
};

/* What the check concluded about one port. */
struct roce_port_result {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE];
	bool roce;           /* Ethernet link layer and allowed by policy */
	bool healthy;        /* roce and no failing finding */
	int gid_index;       /* index of the routable RoCE v2 GID, -1 none */
	int active_mtu;      /* RDMA MTU in bytes, 0 unknown */
	unsigned netdev_mtu; /* the netdev's MTU, 0 unknown */
};

struct roce_check_result {
	struct roce_finding *findings;
	size_t n_findings, cap_findings;
	struct roce_port_result *ports;
	size_t n_ports;
	int gid_index;              /* the node's GID index for NCCL, -1 = none */
	int traffic_class;          /* policy value or derived from DSCP/PFC, -1 = none */
	enum roce_trust_mode trust; /* the RoCE ports' priority trust (check_trust.c); PCP: NCCL_IB_SL */
	enum roce_mode mode;
	bool failed; /* the node fails under the policy's mode (roce_check_decide) */
	/* the tally, kept by roce_finding_addf; n_unknown_aside of the
	 * n_unknown were set aside (counted, never failing the node) */
	size_t n_pass, n_warn, n_fail, n_unknown, n_unknown_aside;
};

/* Append a finding to r and count it in r's tally; -1 on ENOMEM.  device
 * NULL: about the node; port 0: about no port.  cause: what a job's output
 * says after the check's name (a word or two, no colon: "down", "no DCB";
 * NULL: the verdict's name).  flags: ROCE_FINDING_HARDWARE, a node fault
 * that drains when status is FAIL, with reason (NULL = none) its short drain
 * text, else check_drain.c makes one from the check's name;
 * ROCE_FINDING_QUIET (ignored on a FAIL: a failure is always said). */
int roce_finding_addf(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                      enum roce_verdict status, const char *cause, unsigned flags, const char *reason, const char *fmt,
                      ...) __attribute__((format(printf, 9, 10)));

/* A PASS finding: roce_finding_addf(r, check, device, port, ROCE_PASS, NULL, 0, NULL, fmt, ...). */
int roce_finding_pass(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* An UNKNOWN finding about device (NULL: the node) that is said once and
 * set aside: what the node cannot show at all (no bus/pci/devices in a
 * container's sysfs) is never a pass, and never a reason to fail a strict
 * step or to drain either, so the exit status stays what the other findings
 * make it.  Not about a port, never hardware; flags may be
 * ROCE_FINDING_QUIET.  -1 on ENOMEM. */
int roce_finding_unknown_aside(struct roce_check_result *r, const char *check, const char *device, unsigned flags,
                               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "pass", "warn", "unknown", "fail" */
const char *roce_finding_verdict_name(enum roce_verdict v);

#endif
