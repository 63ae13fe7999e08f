/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verdicts.h - a node's counter delta -> verdicts: what the counters say
 * happened to the fabric during the job, and what to check.  Pure.
 *
 * A verdict is (code, severity, subject, message, fix).  The rules are in
 * verdicts.c, one small function per rule with its fix text beside it;
 * roce-report(1) documents every code (tests/e2e/man-pages.sh checks it).
 */
#ifndef ROCE_VERDICTS_H
#define ROCE_VERDICTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "pipeline/delta.h"
#include "pipeline/trend.h"

/* Average PFC pause frames per second on one priority above which we call it a storm. */
#define ROCE_PAUSE_STORM_RATE 10000.0
/* PFC pause frames received on the RoCE priority during a job from which
 * zero ECN marks means the switch does not mark (pauses_without_ecn).  A
 * switch queue pauses at its PFC threshold, above the ECN marking
 * threshold, so a switch that marks shows marks long before this many
 * pauses; a few pauses alone (link start, one brief incast) prove nothing.
 * A thousand, each up to a few milliseconds of a stopped link, is a
 * congested job, not noise. */
#define ROCE_PAUSES_WITHOUT_ECN_FRAMES 1000

/* Fix texts of rules the live view (live.h) applies while the job runs too. */
#define ROCE_FIX_LINK_DOWN                                                                       \
	"check the cable, transceiver and switch port (mlxlink -d <pci> -m, switch port logs); " \
	"collectives usually fail or hang when a link drops"
#define ROCE_FIX_GID_CHANGED                                                                               \
	"an address or VLAN was added or removed on the netdev during the job (NetworkManager, "           \
	"DHCP, cloud-init): the job's NCCL_IB_GID_INDEX no longer names the routable RoCE v2 GID, so new " \
	"connections fail or hang; make the node's addresses static"

enum roce_severity { ROCE_SEV_INFO = 0, ROCE_SEV_WARN, ROCE_SEV_FAIL };
/* "info", "warn", "fail" (the fragment's and the report's spelling). */
const char *roce_verdict_severity_name(enum roce_severity s);

struct roce_job_verdict {
	char code[32]; /* "packet_loss", "link_down", ... */
	enum roce_severity severity;
	char subject[96];  /* "mlx5_0:1", "mlx5_0:1 prio 3", or "node" */
	char message[320]; /* what the counters say, with numbers */
	char fix[320];     /* likely cause and what to check */
};

struct roce_verdict_list {
	struct roce_job_verdict *v;
	size_t n, cap;
};
void roce_verdict_list_free(struct roce_verdict_list *l);
/* Append a copy of v (a verdict made outside the delta rules).  0, -1 on ENOMEM. */
int roce_verdict_list_add(struct roce_verdict_list *l, const struct roce_job_verdict *v);

/* Append copies of every verdict of from.  0, -1 on ENOMEM. */
int roce_verdict_list_add_all(struct roce_verdict_list *to, const struct roce_verdict_list *from);
/* The most verdicts these rules give a node of n_ports ports: every rule
 * firing, the PFC rule once per priority.  (An epilog adds at most a
 * user_override per NCCL variable recorded: ranwith.h.) */
size_t roce_verdicts_max(size_t n_ports);

/* Everything about the node's job that is not a counter: the rules read it
 * (shared node, PFC priority, missing prolog snapshot) and the fragment
 * records it (fragment.h). */
struct roce_fragment_meta {
	const char *job_id;
	const char *node;
	uid_t job_uid;
	int64_t start_ns, end_ns;       /* CLOCK_REALTIME; 0 = unknown */
	const char *const *shared_with; /* other job ids on this node during the job */
	size_t n_shared;
	int pfc_priority; /* policy's PFC priority, -1 none */
	const char *note; /* e.g. "no prolog snapshot", may be NULL */
	bool no_start;    /* there was no usable prolog snapshot (note says why) */
	/* The health check's link-quality trend (trend.h) as the prolog and the
	 * epilog found it in StateDir (NULL: none), judged at the job's start
	 * and end by the policy's thresholds (NULL: Trend=ignore) and window. */
	const struct roce_trend *trend_start, *trend_end;
	const uint64_t *trend_threshold; /* [ROCE_N_COUNTERS] */
	int trend_window_s;
};

/* Verdicts for one node, appended to out in rule order (node rules, then
 * each port's).  m may be NULL.  Returns 0, -1 on ENOMEM. */
int roce_verdicts_from_delta(const struct roce_delta *d, const struct roce_fragment_meta *m,
                             struct roce_verdict_list *out);

#endif
