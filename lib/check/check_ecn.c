/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_ecn.c - ECN/DCQCN on the RoCE priority of every RoCE port.  Pure.
 *
 * The seed's first outage: RDMA timeouts from an incomplete ECN setup.  PFC
 * alone stops loss but spreads pauses; DCQCN needs the notification point
 * (answers ECN-marked packets with CNPs) and the reaction point (slows down
 * on CNPs) on the priority RoCE uses.  The priority is PfcPriority, else the
 * one the traffic class's DSCP maps to; with neither there is nothing to
 * check.  Only MLNX_OFED shows the setting (class/net/<if>/ecn/); upstream
 * mlx5 keeps it in debugfs (DCQCN on by default in the firmware): a missing
 * ecn/ is said as unknown in a warning, never a pass and never a fail (strict
 * mode fails on an UNKNOWN verdict, which would fail every upstream node),
 * and quiet (not in a job's output) unless EcnUnknown=warn.
 */
#include "config.h"
#include "check/check.h"

#include <stdio.h>
#include <string.h>

/* The priority RoCE traffic uses on nd, -1 unknown. */
static int roce_priority(const struct roce_check_result *r, const struct roce_policy *pol, const struct roce_netdev *nd)
{
	if (pol->pfc_priority != ROCE_PFC_NONE)
		return pol->pfc_priority;
	int tc = pol->traffic_class != ROCE_TC_AUTO ? pol->traffic_class : r->traffic_class;
	if (tc >= 0 && roce_reading_ok(&nd->dscp.read))
		return nd->dscp.prio[tc >> 2];
	return -1;
}

/* The fix names exactly the points that are off, the one off first. */
static void ecn_fix(const struct roce_netdev *nd, int prio, char *buf, size_t len)
{
	bool np = nd->ecn.np[prio] == 0, rp = nd->ecn.rp[prio] == 0;
	const char *first = np ? "roce_np" : "roce_rp";
	int n = snprintf(buf, len, "`echo 1 > /sys/class/net/%s/ecn/%s/enable/%d`", nd->name, first, prio);
	if (np && rp && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " and `... roce_rp/enable/%d`", prio);
}

static int judge(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_port_result *pr,
                 const struct roce_netdev *nd, int prio)
{
	const struct roce_ecn *e = &nd->ecn;
	enum roce_verdict bad = pol->ecn == ROCE_ECN_REQUIRE ? ROCE_FAIL : ROCE_WARN;
	if (e->np[prio] == 0 || e->rp[prio] == 0) {
		const char *which = e->np[prio] == 0 && e->rp[prio] == 0 ? "roce_np and roce_rp"
		                    : e->np[prio] == 0                   ? "roce_np"
		                                                         : "roce_rp";
		char fix[200];
		ecn_fix(nd, prio, fix, sizeof(fix));
		return roce_finding_addf(r, "ecn", pr->device, pr->port, bad, "off", 0, NULL,
		                         "ECN is off on %s for priority %d (%s): DCQCN cannot slow senders down, "
		                         "congestion turns into pauses and timeouts: %s (persist with mlnx_qos or the "
		                         "OFED config), and ECN marking on the switches",
		                         nd->name, prio, which, fix);
	}
	/* Unverifiable: with Ecn=require unknown (the port is left out), with
	 * the default warn a warning that keeps the port (released at warn). */
	if (e->np[prio] < 0 || e->rp[prio] < 0)
		return roce_finding_addf(r, "ecn", pr->device, pr->port,
		                         pol->ecn == ROCE_ECN_REQUIRE ? ROCE_UNKNOWN : ROCE_WARN, "unknown", 0, NULL,
		                         "ECN state of %s for priority %d is unknown (%s: %s)%s", nd->name, prio,
		                         roce_status_name(e->read.status), e->read.why,
		                         pol->ecn == ROCE_ECN_REQUIRE
		                                 ? ""
		                                 : ": the port is kept (Ecn=require leaves it out)");
	bool lossless = roce_reading_ok(&nd->pfc.read) && (nd->pfc.enabled & (1u << prio));
	if (lossless && e->cnp_prio >= 0 && !(nd->pfc.enabled & (1u << e->cnp_prio)) && pol->ecn != ROCE_ECN_IGNORE)
		return roce_finding_addf(
		        r, "ecn", pr->device, pr->port, ROCE_WARN, "CNPs lossy", 0, NULL,
		        "ECN on for priority %d on %s, but CNPs go out on priority %d, which is lossy while "
		        "priority %d is lossless: dropped CNPs leave senders at full rate; put CNPs on a "
		        "lossless or strict-priority queue (ecn/roce_np/cnp_802p_prio, cnp_dscp)",
		        prio, nd->name, e->cnp_prio, prio);
	return roce_finding_pass(r, "ecn", pr->device, pr->port,
	                         "ECN notification and reaction points on for priority %d on %s", prio, nd->name);
}

static int check_netdev(struct roce_check_result *r, const struct roce_policy *pol, struct roce_port_result *pr,
                        const struct roce_netdev *nd)
{
	if (nd->ecn.read.status == ROCE_NOT_READ)
		return 0;
	int prio = roce_priority(r, pol, nd);
	if (prio < 0 || prio >= ROCE_PRIOS)
		return 0;
	/* No ecn/ at all: upstream mlx5, the default of most distributions:
	 * unknown, said as a warning, quiet unless the site asks (EcnUnknown=). */
	if (nd->ecn.read.status == ROCE_MISSING)
		return roce_finding_addf(r, "ecn", pr->device, pr->port, ROCE_WARN, "unknown (no ecn/)",
		                         pol->ecn_unknown == ROCE_UNKNOWN_QUIET ? ROCE_FINDING_QUIET : 0, NULL,
		                         "ECN state of %s is unknown: %s (upstream mlx5 shows DCQCN only in debugfs, "
		                         "mlx5/<pci>/cc_params; the firmware default is on); Ecn=ignore silences this",
		                         nd->name, nd->ecn.read.why);
	if (judge(r, pol, pr, nd, prio) < 0)
		return -1;
	/* A failing or unverifiable port is not healthy (as for PFC): left out in warn mode. */
	enum roce_verdict v = r->findings[r->n_findings - 1].status;
	if (v == ROCE_FAIL || v == ROCE_UNKNOWN)
		pr->healthy = false;
	return 0;
}

static int check_port(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol,
                      struct roce_port_result *pr)
{
	const struct roce_netdev *port_nd = pr->netdev[0] ? roce_node_find_netdev(node, pr->netdev) : NULL;
	if (!port_nd)
		return 0;
	/* ECN lives on each member of a bond (RoCE LAG), else on the port's netdev */
	const struct roce_netdev *qos[ROCE_BOND_MEMBERS_MAX];
	size_t n = roce_node_qos_netdevs(node, port_nd, qos);
	for (size_t i = 0; i < n; i++)
		if (check_netdev(r, pol, pr, qos[i]) < 0)
			return -1;
	return 0;
}

/* The CNP DSCP is the switches' to honour: one value on every port. */
static int check_cnp_dscp(struct roce_check_result *r, const struct roce_node *node)
{
	const struct roce_netdev *first = NULL;
	for (size_t i = 0; i < r->n_ports; i++) {
		const struct roce_port_result *pr = &r->ports[i];
		const struct roce_netdev *port_nd =
		        pr->roce && pr->netdev[0] ? roce_node_find_netdev(node, pr->netdev) : NULL;
		const struct roce_netdev *qos[ROCE_BOND_MEMBERS_MAX];
		size_t n = port_nd ? roce_node_qos_netdevs(node, port_nd, qos) : 0;
		for (size_t m = 0; m < n; m++) {
			const struct roce_netdev *nd = qos[m];
			if (nd->ecn.cnp_dscp < 0)
				continue;
			if (!first)
				first = nd;
			else if (nd->ecn.cnp_dscp != first->ecn.cnp_dscp)
				return roce_finding_addf(r, "ecn", pr->device, pr->port, ROCE_WARN, "CNP DSCP differs",
				                         0, NULL,
				                         "CNP DSCP is %d on %s but %d on %s: switches give CNPs one "
				                         "queue; set the same "
				                         "ecn/roce_np/cnp_dscp on every port",
				                         nd->ecn.cnp_dscp, nd->name, first->ecn.cnp_dscp, first->name);
		}
	}
	return 0;
}

int roce_check_ecn(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	if (pol->ecn == ROCE_ECN_IGNORE)
		return 0;
	for (size_t i = 0; i < r->n_ports; i++)
		if (r->ports[i].roce && check_port(r, node, pol, &r->ports[i]) < 0)
			return -1;
	return check_cnp_dscp(r, node);
}
