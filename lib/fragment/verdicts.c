/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verdicts.c - the rules that turn a node's counter delta into verdicts.
 *
 * A rule is a function that looks at the node (node_rules) or at one port
 * (port_rules) and calls verdict() when the counters say something; its fix
 * text is the FIX_ constant just above it.  To add a rule: write it next to
 * its kin, add it to its table (the table order is the order of the
 * verdicts in the fragment and in the report), and document its code in
 * man/roce-report.1 (tests/e2e/man-pages.sh finds the codes as the string
 * just before verdict()'s severity argument).
 */
#include "config.h"
#include "fragment/verdicts.h"
#include "base/strcopy.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *roce_verdict_severity_name(enum roce_severity s)
{
	switch (s) {
	case ROCE_SEV_INFO: return "info";
	case ROCE_SEV_WARN: return "warn";
	case ROCE_SEV_FAIL: return "fail";
	}
	return "?";
}

void roce_verdict_list_free(struct roce_verdict_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* Append one verdict; message is fmt's text, the rest copied without printf
 * (strcopy.h: a busy node gives a hundred verdicts).  0, -1 on ENOMEM. */
static int verdict(struct roce_verdict_list *out, const char *subject, const char *code, enum roce_severity sev,
                   const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int verdict(struct roce_verdict_list *out, const char *subject, const char *code, enum roce_severity sev,
                   const char *fix, const char *fmt, ...)
{
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 8;
		struct roce_job_verdict *grown = realloc(out->v, cap * sizeof(*grown));
		if (!grown)
			return -1;
		out->v = grown;
		out->cap = cap;
	}
	struct roce_job_verdict *v = &out->v[out->n++];
	va_list ap;
	memset(v, 0, sizeof(*v));
	roce_strcopy(v->code, sizeof(v->code), code);
	v->severity = sev;
	roce_strcopy(v->subject, sizeof(v->subject), subject);
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	roce_strcopy(v->fix, sizeof(v->fix), fix);
	return 0;
}

/* Count of a counter during the job, or 0 when it was not read.  A reset or
 * saturated counter gives its lower bound: those events did happen. */
static uint64_t seen(const struct roce_port_delta *pd, enum roce_counter_id id)
{
	return pd->c[id].status == ROCE_DELTA_UNREAD ? 0 : pd->c[id].value;
}

/* The counter was read at both ends: a rule that needs a zero must not take
 * an unread counter's 0 for one (unknown is not zero). */
static bool known(const struct roce_port_delta *pd, enum roce_counter_id id)
{
	return pd->c[id].status != ROCE_DELTA_UNREAD;
}

/* ---------------------------------------------------------------- node rules */

typedef int (*node_rule)(const struct roce_delta *d, const struct roce_fragment_meta *m, struct roce_verdict_list *out);

#define FIX_SHARED_NODE "counters are per port, not per job: the numbers include the other jobs' traffic"
static int rule_shared_node(const struct roce_delta *d, const struct roce_fragment_meta *m,
                            struct roce_verdict_list *out)
{
	(void)d;
	if (!m || !m->n_shared)
		return 0;
	/* The first job ids that fit; the fragment's shared_with has them all. */
	char jobs[200] = "";
	for (size_t i = 0; i < m->n_shared && strlen(jobs) < sizeof(jobs) - 24; i++)
		snprintf(jobs + strlen(jobs), sizeof(jobs) - strlen(jobs), "%s%s", i ? ", " : "", m->shared_with[i]);
	return verdict(out, "node", "shared_node", ROCE_SEV_WARN, FIX_SHARED_NODE,
	               "node shared with job(s) %s during this job", jobs);
}

#define FIX_NO_PROLOG_SNAPSHOT                                                                          \
	"the job prolog did not snapshot this node: it runs only where a step "                         \
	"starts unless slurm.conf has PrologFlags=Alloc (set it, plugin or Prolog=roce-prolog alike); " \
	"after installing the plugin restart slurmd; check that StateDir is writable by root"
static int rule_no_prolog_snapshot(const struct roce_delta *d, const struct roce_fragment_meta *m,
                                   struct roce_verdict_list *out)
{
	(void)d;
	if (!m || !m->no_start)
		return 0;
	return verdict(out, "node", "no_prolog_snapshot", ROCE_SEV_WARN, FIX_NO_PROLOG_SNAPSHOT,
	               "no counts for this node: %s", m->note ? m->note : "no prolog snapshot");
}

#define FIX_NO_ROCE_PORTS "nothing to report; if the node should have RoCE ports, run roce-check"
static int rule_no_roce_ports(const struct roce_delta *d, const struct roce_fragment_meta *m,
                              struct roce_verdict_list *out)
{
	(void)m;
	if (d->n_ports)
		return 0;
	return verdict(out, "node", "no_roce_ports", ROCE_SEV_INFO, FIX_NO_ROCE_PORTS,
	               "no RoCE (Ethernet link layer) port on this node");
}

#define FIX_CHECK_FAILED                                                                   \
	"run roce-check on the node: its message names the fix; in warn mode the job ran " \
	"without what failed (a port left out of NCCL_IB_HCA), in strict mode the step did not start"
static int rule_node_check_failed(const struct roce_delta *d, const struct roce_fragment_meta *m,
                                  struct roce_verdict_list *out)
{
	(void)m;
	if (d->check != ROCE_FAIL)
		return 0;
	return verdict(out, "node", "check_failed", ROCE_SEV_FAIL, FIX_CHECK_FAILED, "the fabric check failed %s",
	               d->check_why);
}

static const node_rule node_rules[] = {
	rule_node_check_failed,
	rule_shared_node,
	rule_no_prolog_snapshot,
	rule_no_roce_ports,
};

/* ---------------------------------------------------------------- port rules */

/* What a port rule may look at. */
struct port_facts {
	const struct roce_port_delta *pd;
	const struct roce_delta *d;         /* the node: seconds of the job */
	const struct roce_fragment_meta *m; /* may be NULL */
	const char *subject;                /* "mlx5_0:1" */
};

typedef int (*port_rule)(const struct port_facts *f, struct roce_verdict_list *out);

/* -- the port itself and its counters */

#define FIX_PORT_VANISHED "driver reload, device reset or hot-unplug: check dmesg for mlx5_core errors"
#define FIX_PORT_APPEARED "driver reload or device reset during the job: check dmesg for mlx5_core errors"
static int rule_presence(const struct port_facts *f, struct roce_verdict_list *out)
{
	if (f->pd->presence == ROCE_PORT_VANISHED)
		return verdict(out, f->subject, "port_vanished", ROCE_SEV_WARN, FIX_PORT_VANISHED,
		               "the port disappeared during the job");
	if (f->pd->presence == ROCE_PORT_APPEARED)
		return verdict(out, f->subject, "port_appeared", ROCE_SEV_WARN, FIX_PORT_APPEARED,
		               "the port appeared during the job: no counts for it");
	return 0;
}

/* A port state that was read and is not ACTIVE. */
static bool not_active(const char *state) { return state[0] && strcmp(state, "ACTIVE") != 0; }

#define FIX_PORT_DOWN                                                                       \
	"check the cable, transceiver and switch port (ibv_devinfo, mlxlink -d <dev> -m); " \
	"NCCL left the port out (warn mode) or the step did not start (strict)"
static int rule_port_down(const struct port_facts *f, struct roce_verdict_list *out)
{
	const struct roce_port_delta *pd = f->pd;
	bool start = not_active(pd->state_start), end = not_active(pd->state_end);
	if (!start && !end)
		return 0;
	char when[96];
	if (start && end)
		snprintf(when, sizeof(when), "%s at job start and %s at job end", pd->state_start, pd->state_end);
	else if (start)
		snprintf(when, sizeof(when), "%s at job start, %s at job end", pd->state_start,
		         pd->state_end[0] ? pd->state_end : "not read");
	else
		snprintf(when, sizeof(when), "%s at job end (%s at job start)", pd->state_end,
		         pd->state_start[0] ? pd->state_start : "not read");
	return verdict(out, f->subject, "port_down", ROCE_SEV_FAIL, FIX_PORT_DOWN, "the port was %s", when);
}

/* A failed check other than the port being down (port_down says that). */
static int rule_check_failed(const struct port_facts *f, struct roce_verdict_list *out)
{
	const struct roce_port_delta *pd = f->pd;
	if (pd->check != ROCE_FAIL || not_active(pd->state_start) || not_active(pd->state_end))
		return 0;
	return verdict(out, f->subject, "check_failed", ROCE_SEV_FAIL, FIX_CHECK_FAILED, "the fabric check failed %s",
	               pd->check_why);
}

#define FIX_COUNTER_RESET "driver reload or firmware reset during the job: check dmesg for mlx5_core errors"
static int rule_counter_reset(const struct port_facts *f, struct roce_verdict_list *out)
{
	/* A port that came or went has its own verdict, which says it all. */
	if (f->pd->presence != ROCE_PORT_BOTH || !f->pd->reset)
		return 0;
	return verdict(out, f->subject, "counter_reset", ROCE_SEV_WARN, FIX_COUNTER_RESET,
	               "counters went backwards during the job: values are counts since the reset, lower bounds");
}

#define FIX_COUNTERS_UNREAD_HW                                                      \
	"hw_counters/ are mlx5's: without them this driver's ports get no loss or " \
	"congestion verdicts"
#define FIX_COUNTERS_UNREAD "the reason above names the file; the verdicts only use counters that were read"
static int rule_counters_unread(const struct port_facts *f, struct roce_verdict_list *out)
{
	/* Without a prolog snapshot nothing was read: one node verdict says so. */
	if (f->pd->presence != ROCE_PORT_BOTH || (f->m && f->m->no_start))
		return 0;
	size_t unread = 0, unread_hw = 0;
	const char *why = "";
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (f->pd->c[i].status == ROCE_DELTA_UNREAD) {
			if (!unread)
				why = f->pd->c[i].why;
			unread++;
			unread_hw += roce_counter_defs[i].hw;
		}
	if (!unread)
		return 0;
	return verdict(out, f->subject, "counters_unread", ROCE_SEV_INFO,
	               unread == unread_hw ? FIX_COUNTERS_UNREAD_HW : FIX_COUNTERS_UNREAD,
	               "%zu of %d counters could not be read (first: %s)", unread, ROCE_N_COUNTERS, why);
}

/* -- the link */

static int rule_link_down(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t down = seen(f->pd, ROCE_C_LINK_DOWNED);
	if (!down)
		return 0;
	return verdict(out, f->subject, "link_down", ROCE_SEV_FAIL, ROCE_FIX_LINK_DOWN,
	               "the link went down %" PRIu64 " time(s) during the job", down);
}

#define FIX_PHYSICAL_ERRORS                                                             \
	"a bad cable, optic or dirty connector: check the bit error rate (mlxlink -c) " \
	"and the switch port's error counters; reseat or replace the cable"
static int rule_physical_errors(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t sym = seen(f->pd, ROCE_C_SYMBOL_ERROR), rcv = seen(f->pd, ROCE_C_PORT_RCV_ERRORS),
	         icrc = seen(f->pd, ROCE_C_RX_ICRC_ENCAPSULATED), rec = seen(f->pd, ROCE_C_LINK_ERROR_RECOVERY);
	if (!sym && !rcv && !icrc && !rec)
		return 0;
	return verdict(out, f->subject, "physical_errors", ROCE_SEV_WARN, FIX_PHYSICAL_ERRORS,
	               "physical layer errors: symbol_error %" PRIu64 ", port_rcv_errors %" PRIu64
	               ", rx_icrc_encapsulated %" PRIu64 ", link_error_recovery %" PRIu64,
	               sym, rcv, icrc, rec);
}

#define FIX_XMIT_DISCARDS                                                                   \
	"the port could not send: link down, or packets timed out at the head of a paused " \
	"queue; look for pause storms and link flaps on this port and its switch port"
static int rule_xmit_discards(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t disc = seen(f->pd, ROCE_C_PORT_XMIT_DISCARDS);
	if (!disc)
		return 0;
	return verdict(out, f->subject, "xmit_discards", ROCE_SEV_WARN, FIX_XMIT_DISCARDS,
	               "%" PRIu64 " packets discarded on transmit", disc);
}

/* -- the health check's trend between jobs */

/* The counter's growth the health check found sick in t at at_ns, 0 none. */
static uint64_t trend_sick(const struct roce_trend *t, const struct port_facts *f, int c, int64_t at_ns)
{
	const struct roce_trend_port *tp = roce_trend_port_find(t, f->pd->device, f->pd->port);
	if (!tp || at_ns <= 0)
		return 0;
	return roce_trend_sick_at(&tp->c[c], f->m->trend_threshold[c], at_ns / 1000000000, f->m->trend_window_s);
}

static int rule_counter_trend(const struct port_facts *f, struct roce_verdict_list *out)
{
	const struct roce_fragment_meta *m = f->m;
	char list[256] = "";
	size_t used = 0;
	bool at_start = false, at_end = false;
	if (!m || !m->trend_threshold)
		return 0;
	for (int c = 0; c < ROCE_N_COUNTERS; c++) {
		uint64_t s = trend_sick(m->trend_start, f, c, m->start_ns),
		         e = trend_sick(m->trend_end, f, c, m->end_ns);
		if (!s && !e)
			continue;
		at_start |= s > 0;
		at_end |= e > 0;
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used,
			                         "%s%s +%" PRIu64 " (threshold %" PRIu64 ")", used ? ", " : "",
			                         roce_counter_defs[c].name, s > e ? s : e, m->trend_threshold[c]);
	}
	if (!at_start && !at_end)
		return 0;
	return verdict(out, f->subject, "counter_trend", ROCE_SEV_WARN, ROCE_TREND_FIX,
	               "the health check saw link-quality counters grow between its runs within %d s, "
	               "%s: %s",
	               m->trend_window_s,
	               at_start && at_end ? "when the job started and when it ended"
	               : at_start         ? "when the job started"
	                                  : "when the job ended",
	               list);
}

/* -- the GID NCCL was pinned to */

static int rule_gid_changed(const struct port_facts *f, struct roce_verdict_list *out)
{
	const struct roce_port_delta *pd = f->pd;
	if (!roce_delta_gid_changed(pd))
		return 0;
	return verdict(out, f->subject, "gid_changed", ROCE_SEV_FAIL, ROCE_FIX_GID_CHANGED,
	               "the RoCE v2 GID was index %d (%s) at job start and index %d (%s) at job end",
	               pd->gid_index_start, pd->gid_addr_start[0] ? pd->gid_addr_start : "address not read",
	               pd->gid_index, pd->gid_addr_end[0] ? pd->gid_addr_end : "address not read");
}

/* -- loss and retransmission */

#define FIX_RETRIES_EXCEEDED                                                            \
	"sustained packet loss or an unreachable peer: check PFC and ECN on the path, " \
	"and that every node uses the same, routable RoCE v2 GID index"
static int rule_retries_exceeded(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t retries = seen(f->pd, ROCE_C_REQ_TRANSPORT_RETRIES_EXCEEDED);
	if (!retries)
		return 0;
	return verdict(out, f->subject, "retries_exceeded", ROCE_SEV_FAIL, FIX_RETRIES_EXCEEDED,
	               "%" PRIu64 " queue pairs gave up after exhausting their retries (the application saw "
	               "\"transport retry counter exceeded\", NCCL \"completion with error 12\")",
	               retries);
}

/* A format: %s = "priority N", or "the RoCE priority" when the policy names none. */
#define FIX_PACKET_LOSS                                                                       \
	"RoCE needs a lossless or ECN-managed path: check that PFC is on for %s on this NIC " \
	"and on every switch hop, and that ECN marking is set on the switch queues of that traffic class"
static int rule_packet_loss(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t oos = seen(f->pd, ROCE_C_OUT_OF_SEQUENCE), seq = seen(f->pd, ROCE_C_PACKET_SEQ_ERR),
	         nak = seen(f->pd, ROCE_C_IMPLIED_NAK_SEQ_ERR), dup = seen(f->pd, ROCE_C_DUPLICATE_REQUEST);
	if (!oos && !seq && !nak)
		return 0;
	char prio[48] = "the RoCE priority", fix[sizeof(out->v->fix)];
	if (f->m && f->m->pfc_priority >= 0)
		snprintf(prio, sizeof(prio), "priority %d", f->m->pfc_priority);
	snprintf(fix, sizeof(fix), FIX_PACKET_LOSS, prio);
	return verdict(out, f->subject, "packet_loss", ROCE_SEV_WARN, fix,
	               "packets were lost: out_of_sequence %" PRIu64 ", packet_seq_err %" PRIu64
	               ", implied_nak_seq_err %" PRIu64 ", duplicate_request %" PRIu64,
	               oos, seq, nak, dup);
}

#define FIX_RDMA_TIMEOUTS                                                                    \
	"lost packets or a congested or unreachable peer: check link errors and PFC on the " \
	"peers; raising NCCL_IB_TIMEOUT hides the loss but does not fix it"
static int rule_rdma_timeouts(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t to = seen(f->pd, ROCE_C_LOCAL_ACK_TIMEOUT_ERR);
	if (!to)
		return 0;
	return verdict(out, f->subject, "rdma_timeouts", ROCE_SEV_WARN, FIX_RDMA_TIMEOUTS,
	               "%" PRIu64 " RDMA transport timeouts (no ACK within the QP timeout)", to);
}

#define FIX_RNR_RETRIES                                                                    \
	"a receiver did not post buffers in time: the receiving process fell behind (CPU " \
	"binding, starved progress thread)"
static int rule_rnr_retries(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t rnr = seen(f->pd, ROCE_C_RNR_NAK_RETRY_ERR);
	if (!rnr)
		return 0;
	return verdict(out, f->subject, "rnr_retries", ROCE_SEV_WARN, FIX_RNR_RETRIES,
	               "%" PRIu64 " receiver-not-ready retries exhausted", rnr);
}

#define FIX_OUT_OF_BUFFER "the receiving process fell behind; check its CPU and NUMA binding"
static int rule_out_of_buffer(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t oob = seen(f->pd, ROCE_C_OUT_OF_BUFFER);
	if (!oob)
		return 0;
	return verdict(out, f->subject, "out_of_buffer", ROCE_SEV_WARN, FIX_OUT_OF_BUFFER,
	               "%" PRIu64 " packets dropped: no receive buffer posted", oob);
}

#define FIX_ADAPTIVE_RETRANS                                                             \
	"the NIC retransmitted early because ACKs were late: a symptom of loss or deep " \
	"queues on the path"
static int rule_adaptive_retrans(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t adp = seen(f->pd, ROCE_C_ROCE_ADP_RETRANS), adpto = seen(f->pd, ROCE_C_ROCE_ADP_RETRANS_TO);
	if (!adp && !adpto)
		return 0;
	return verdict(out, f->subject, "adaptive_retrans", ROCE_SEV_INFO, FIX_ADAPTIVE_RETRANS,
	               "adaptive retransmission fired: roce_adp_retrans %" PRIu64 ", roce_adp_retrans_to %" PRIu64, adp,
	               adpto);
}

/* -- congestion and flow control */

/* The port's netdev for a fix text's command line, "<netdev>" when unknown. */
static const char *netdev_of(const struct roce_port_delta *pd) { return pd->netdev[0] ? pd->netdev : "<netdev>"; }

/* A format: %s = the port's netdev, or "<netdev>" when unknown. */
#define FIX_ECN_REACTION_DISABLED                                               \
	"enable DCQCN's reaction point for that priority (MLNX_OFED: echo 1 > " \
	"/sys/class/net/%s/ecn/roce_rp/enable/<prio>); without it congestion becomes pauses or loss"
static int rule_ecn_reaction_disabled(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t ign = seen(f->pd, ROCE_C_RP_CNP_IGNORED);
	if (!ign)
		return 0;
	char fix[sizeof(out->v->fix)];
	snprintf(fix, sizeof(fix), FIX_ECN_REACTION_DISABLED, netdev_of(f->pd));
	return verdict(out, f->subject, "ecn_reaction_disabled", ROCE_SEV_WARN, fix,
	               "%" PRIu64 " congestion notifications (CNPs) ignored: the NIC's ECN reaction point is "
	               "disabled on the priority this traffic uses",
	               ign);
}

#define FIX_CONGESTION                                                              \
	"normal under load; high counts relative to the packets moved point at an " \
	"oversubscribed path or incast traffic"
static int rule_congestion(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t marked = seen(f->pd, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS), sent = seen(f->pd, ROCE_C_NP_CNP_SENT),
	         handled = seen(f->pd, ROCE_C_RP_CNP_HANDLED);
	if (!marked && !sent && !handled)
		return 0;
	return verdict(out, f->subject, "congestion", ROCE_SEV_INFO, FIX_CONGESTION,
	               "the fabric signalled congestion: %" PRIu64 " ECN-marked packets received, %" PRIu64
	               " CNPs sent, %" PRIu64 " CNPs handled (rate reduced)",
	               marked, sent, handled);
}

/* A format: %s = the port's netdev, or "<netdev>" when unknown. */
#define FIX_ECN_NP_SILENT                                                                              \
	"enable DCQCN's notification point on the RoCE priority (MLNX_OFED: echo 1 > "                 \
	"/sys/class/net/%s/ecn/roce_np/enable/<prio>); if it is on, check with mlnx_qos that the CNP " \
	"priority (roce_np/cnp_802p_prio, cnp_dscp) is one the switch forwards"
static int rule_ecn_np_silent(const struct port_facts *f, struct roce_verdict_list *out)
{
	uint64_t marked = seen(f->pd, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS);
	if (!marked || !known(f->pd, ROCE_C_NP_CNP_SENT) || seen(f->pd, ROCE_C_NP_CNP_SENT))
		return 0;
	char fix[sizeof(out->v->fix)];
	snprintf(fix, sizeof(fix), FIX_ECN_NP_SILENT, netdev_of(f->pd));
	return verdict(out, f->subject, "ecn_np_silent", ROCE_SEV_WARN, fix,
	               "%" PRIu64 " ECN-marked RoCE packets received but no congestion notification (CNP) sent: "
	               "the senders were never told to slow down",
	               marked);
}

/* The priority RoCE traffic uses: the policy's, else the PFC-enabled one
 * that received the most pauses; -1 when neither. */
static int roce_priority(const struct port_facts *f)
{
	if (f->m && f->m->pfc_priority >= 0 && f->m->pfc_priority < ROCE_PRIOS)
		return f->m->pfc_priority;
	int best = -1;
	for (int p = 0; p < ROCE_PRIOS; p++)
		if ((f->pd->pfc_enabled & (1u << p)) &&
		    (best < 0 || f->pd->pfc_indications[p] > f->pd->pfc_indications[best]))
			best = p;
	return best;
}

#define FIX_PAUSES_WITHOUT_ECN                                                                               \
	"the switch does not mark ECN on the RoCE traffic class, so PFC is the only "                        \
	"brake and pauses spread congestion across the fabric: enable ECN (WRED/ECN marking) on the switch " \
	"queues of priority %d, below the PFC threshold"
static int rule_pauses_without_ecn(const struct port_facts *f, struct roce_verdict_list *out)
{
	int p = roce_priority(f);
	if (p < 0 || f->pd->pfc_status == ROCE_DELTA_UNREAD ||
	    f->pd->pfc_indications[p] < ROCE_PAUSES_WITHOUT_ECN_FRAMES ||
	    !known(f->pd, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS) || !known(f->pd, ROCE_C_RP_CNP_HANDLED) ||
	    seen(f->pd, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS) || seen(f->pd, ROCE_C_RP_CNP_HANDLED))
		return 0;
	char fix[sizeof(out->v->fix)];
	snprintf(fix, sizeof(fix), FIX_PAUSES_WITHOUT_ECN, p);
	return verdict(out, f->subject, "pauses_without_ecn", ROCE_SEV_FAIL, fix,
	               "%" PRIu64 " PFC pause frames received on priority %d and not one ECN mark "
	               "(np_ecn_marked_roce_packets 0, rp_cnp_handled 0)",
	               f->pd->pfc_indications[p], p);
}

/* A format: %s = who paused whom. */
#define FIX_PAUSE_STORM                                                                       \
	"%s: a receiver that cannot drain (stuck host, slow PCIe) or a misconfigured buffer " \
	"spreads pauses through the fabric; check the switch's PFC watchdog and the hosts that paused"
#define FIX_PFC_PAUSES "lossless flow control at work; many pauses mean congestion that ECN did not resolve"
/* Pauses on priority p: a storm above ROCE_PAUSE_STORM_RATE, else ordinary pauses. */
static int pfc_priority_verdict(const struct port_facts *f, unsigned p, struct roce_verdict_list *out)
{
	uint64_t rx = f->pd->pfc_indications[p], tx = f->pd->pfc_requests[p];
	if (!rx && !tx)
		return 0;
	double rate = f->d->seconds > 0 ? (double)(rx > tx ? rx : tx) / f->d->seconds : 0;
	/* The subject names the priority, so (subject, code) stays unique per node. */
	char prio_subject[96], fix[sizeof(out->v->fix)];
	snprintf(prio_subject, sizeof(prio_subject), "%.80s prio %u", f->subject, p);
	if (rate > ROCE_PAUSE_STORM_RATE) {
		snprintf(fix, sizeof(fix), FIX_PAUSE_STORM,
		         tx > rx ? "this NIC paused its switch" : "the switch paused this NIC");
		return verdict(out, prio_subject, "pause_storm", ROCE_SEV_WARN, fix,
		               "PFC pause storm on priority %u: %" PRIu64 " pause frames received, %" PRIu64
		               " sent (%.0f per second)",
		               p, rx, tx, rate);
	}
	return verdict(out, prio_subject, "pfc_pauses", ROCE_SEV_INFO, FIX_PFC_PAUSES,
	               "PFC on priority %u: %" PRIu64 " pause frames received, %" PRIu64 " sent", p, rx, tx);
}

static int rule_pfc(const struct port_facts *f, struct roce_verdict_list *out)
{
	if (f->pd->pfc_status == ROCE_DELTA_UNREAD)
		return 0;
	for (unsigned p = 0; p < ROCE_PRIOS; p++)
		if (pfc_priority_verdict(f, p, out) < 0)
			return -1;
	return 0;
}

static const port_rule port_rules[] = {
	rule_port_down,
	rule_check_failed,
	rule_presence,
	rule_counter_reset,
	rule_counters_unread,
	rule_link_down,
	rule_physical_errors,
	rule_counter_trend,
	rule_xmit_discards,
	rule_gid_changed,
	rule_retries_exceeded,
	rule_packet_loss,
	rule_rdma_timeouts,
	rule_rnr_retries,
	rule_out_of_buffer,
	rule_adaptive_retrans,
	rule_ecn_reaction_disabled,
	rule_ecn_np_silent,
	rule_pauses_without_ecn,
	rule_congestion,
	rule_pfc,
};

/* ---------------------------------------------------------------- all rules */

size_t roce_verdicts_max(size_t n_ports)
{
	/* rule_pfc gives one per priority; every other rule one at most */
	size_t node = sizeof(node_rules) / sizeof(node_rules[0]);
	size_t port = sizeof(port_rules) / sizeof(port_rules[0]) - 1 + ROCE_PRIOS;
	return node + n_ports * port;
}

int roce_verdicts_from_delta(const struct roce_delta *d, const struct roce_fragment_meta *m,
                             struct roce_verdict_list *out)
{
	for (size_t r = 0; r < sizeof(node_rules) / sizeof(node_rules[0]); r++)
		if (node_rules[r](d, m, out) < 0)
			return -1;
	for (size_t i = 0; i < d->n_ports; i++) {
		char subject[96];
		snprintf(subject, sizeof(subject), "%s:%u", d->ports[i].device, d->ports[i].port);
		struct port_facts f = { &d->ports[i], d, m, subject };
		for (size_t r = 0; r < sizeof(port_rules) / sizeof(port_rules[0]); r++)
			if (port_rules[r](&f, out) < 0)
				return -1;
	}
	return 0;
}

int roce_verdict_list_add(struct roce_verdict_list *l, const struct roce_job_verdict *v)
{
	return verdict(l, v->subject, v->code, v->severity, v->fix, "%s", v->message);
}

int roce_verdict_list_add_all(struct roce_verdict_list *to, const struct roce_verdict_list *from)
{
	for (size_t i = 0; i < from->n; i++)
		if (roce_verdict_list_add(to, &from->v[i]) < 0)
			return -1;
	return 0;
}
