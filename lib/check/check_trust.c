/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_trust.c - the priority RoCE traffic really lands on.  Pure.
 *
 * PFC on PfcPriority protects nothing unless RoCE packets arrive on it.  The
 * port's trust says which header picks the priority: under DSCP trust the
 * traffic class's DSCP (NCCL_IB_TC >> 2) through dscp2prio; under PCP trust
 * the VLAN tag's priority bits, so untagged RoCE (a GID on the physical
 * netdev) is priority 0 whatever PFC says.  The trust is MLNX_OFED's
 * qos/trust where it exists, else inferred as today: DSCP entries in the
 * DCB APP table are DSCP trust (mlx5 switches trust on the first one), none
 * is PCP.  A trust that cannot be read is unknown, naming the file.
 *
 * New in 0.2.0, so released at warn (NEWS): with Trust=warn (the default)
 * what would fail the port, or leave it out as unknown, is a warning and the
 * port is kept; Trust=fail leaves it out; Trust=ignore does not look.
 */
#include "config.h"
#include "check/check.h"
#include "collect/trust.h"

#include <stdio.h>

/* What a port whose RoCE lands off the PFC priority (bad) or cannot be
 * shown to land on it (unsure) gets, and what a warning adds. */
static enum roce_verdict bad(const struct roce_policy *pol)
{
	return pol->trust == ROCE_ACTION_FAIL ? ROCE_FAIL : ROCE_WARN;
}
static enum roce_verdict unsure(const struct roce_policy *pol)
{
	return pol->trust == ROCE_ACTION_FAIL ? ROCE_UNKNOWN : ROCE_WARN;
}
static const char *kept(const struct roce_policy *pol)
{
	return pol->trust == ROCE_ACTION_FAIL ? "" : " (Trust=warn: the port is kept; Trust=fail leaves it out)";
}

/* The trust of nd and where it came from; UNKNOWN with no finding when
 * neither qos/trust nor the APP table was read (the pfc finding says why). */
static enum roce_trust_mode trust_of(const struct roce_netdev *nd, const char **from)
{
	if (roce_reading_ok(&nd->trust.read)) {
		*from = "qos/trust";
		return nd->trust.mode;
	}
	*from = "the DCB APP table";
	if (nd->trust.read.status != ROCE_MISSING || !roce_reading_ok(&nd->dscp.read))
		return ROCE_TRUST_UNKNOWN;
	return nd->dscp.n > 0 ? ROCE_TRUST_DSCP : ROCE_TRUST_PCP;
}

/* q: the netdev whose trust was read (a bond's member); nd: the GID's. */
static int judge_pcp(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_port_result *pr,
                     const struct roce_netdev *q, const struct roce_netdev *nd, const char *from, int prio)
{
	const char *ifn = q->trust.from[0] ? q->trust.from : q->name;
	if (!roce_reading_ok(&nd->link_read))
		return roce_finding_addf(r, "trust", pr->device, pr->port, unsure(pol), "unknown", 0, NULL,
		                         "%s trusts pcp (%s) but whether %s is a VLAN device is unknown (%s)%s", ifn,
		                         from, nd->name, nd->link_read.why, kept(pol));
	if (!nd->vlan.is_vlan)
		return roce_finding_addf(
		        r, "trust", pr->device, pr->port, bad(pol), "untagged PCP", 0, NULL,
		        "%s trusts pcp (%s) and the RoCE v2 GID is on %s, not a VLAN device: untagged RoCE "
		        "lands on priority 0, not the PFC priority %d; `mlnx_qos -i %s --trust dscp` (with "
		        "the traffic class's DSCP mapped to %d), or put the GID on a VLAN with "
		        "`egress-qos-map 0:%d`%s",
		        ifn, from, nd->name, prio, ifn, prio, prio, kept(pol));
	if (!(nd->vlan.egress_pcps & (1u << prio)))
		return roce_finding_addf(r, "trust", pr->device, pr->port, ROCE_WARN, "PCP unmapped", 0, NULL,
		                         "%s trusts pcp (%s); the RoCE v2 GID is on VLAN %s (id %u), whose egress QoS "
		                         "map "
		                         "sends nothing to the PFC priority %d: NCCL_IB_SL=%d tags NCCL's traffic, "
		                         "rdma_cm's is not; `ip link set %s type vlan egress-qos-map 0:%d`",
		                         ifn, from, nd->name, nd->vlan.id, prio, prio, nd->name, prio);
	return roce_finding_pass(r, "trust", pr->device, pr->port,
	                         "%s trusts pcp (%s); the RoCE v2 GID is on VLAN %s (id %u), whose egress QoS map "
	                         "reaches priority %d (NCCL_IB_SL=%d)",
	                         ifn, from, nd->name, nd->vlan.id, prio, prio);
}

static int judge_dscp(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_port_result *pr,
                      const struct roce_netdev *nd, const char *from, int prio)
{
	const struct roce_dscp_map *m = &nd->trust.dscp2prio;
	const char *map = "qos/dscp2prio";
	if (m->read.status == ROCE_MISSING || m->read.status == ROCE_NOT_READ) {
		m = &nd->dscp;
		map = "the DCB APP table";
	}
	if (!roce_reading_ok(&m->read) || m->n == 0)
		return roce_finding_addf(r, "trust", pr->device, pr->port, unsure(pol), "unknown", 0, NULL,
		                         "%s trusts dscp (%s) but its DSCP-to-priority map is unknown (%s%s%s)%s",
		                         nd->name, from, map, m->read.why[0] ? ": " : "",
		                         m->read.why[0] ? m->read.why : "no entries", kept(pol));
	int tc = pol->traffic_class != ROCE_TC_AUTO ? pol->traffic_class : r->traffic_class;
	if (tc < 0) {
		int dscp = roce_check_pfc_dscp(m, prio);
		if (dscp < 0)
			return roce_finding_addf(r, "trust", pr->device, pr->port, bad(pol), "no DSCP", 0, NULL,
			                         "%s trusts dscp (%s) but no DSCP maps to the PFC priority %d in %s: "
			                         "`mlnx_qos -i %s --dscp2prio set,26,%d` (or `dcb app add dev %s "
			                         "dscp-prio 26:%d`)%s",
			                         nd->name, from, prio, map, nd->name, prio, nd->name, prio, kept(pol));
		r->traffic_class = dscp << 2; /* NCCL_IB_TC, as check_pfc derives it from the APP table */
		tc = r->traffic_class;
	}
	int dscp = tc >> 2;
	if (m->prio[dscp] != prio)
		return roce_finding_addf(
		        r, "trust", pr->device, pr->port, bad(pol), "DSCP mismatch", 0, NULL,
		        "%s trusts dscp (%s): traffic class %d is DSCP %d, which %s maps to priority %d, "
		        "not the PFC priority %d: `mlnx_qos -i %s --dscp2prio set,%d,%d` (or fix TrafficClass)%s",
		        nd->name, from, tc, dscp, map, m->prio[dscp], prio, nd->name, dscp, prio, kept(pol));
	return roce_finding_pass(r, "trust", pr->device, pr->port,
	                         "%s trusts dscp (%s): traffic class %d is DSCP %d, which %s maps to the PFC priority "
	                         "%d",
	                         nd->name, from, tc, dscp, map, prio);
}

/* The trust of q, where RoCE on the GID's netdev nd lands (q is nd, or a
 * member of the bond nd). */
static int check_netdev(struct roce_check_result *r, const struct roce_policy *pol, struct roce_port_result *pr,
                        const struct roce_netdev *q, const struct roce_netdev *nd)
{
	if (q->trust.read.status == ROCE_NOT_READ)
		return 0;
	const char *from;
	enum roce_trust_mode mode = trust_of(q, &from);
	int rc;
	if (mode == ROCE_TRUST_UNKNOWN && q->trust.read.status == ROCE_MISSING)
		return 0;
	if (mode == ROCE_TRUST_UNKNOWN)
		rc = roce_finding_addf(r, "trust", pr->device, pr->port, unsure(pol), "unknown", 0, NULL,
		                       "the priority trust of %s is unknown (%s: %s): the priority RoCE lands on "
		                       "cannot be "
		                       "verified; `mlnx_qos -i %s` shows it%s",
		                       q->name, roce_status_name(q->trust.read.status), q->trust.read.why,
		                       q->trust.from[0] ? q->trust.from : q->name, kept(pol));
	else if (mode == ROCE_TRUST_PCP)
		rc = judge_pcp(r, pol, pr, q, nd, from, pol->pfc_priority);
	else
		rc = judge_dscp(r, pol, pr, q, from, pol->pfc_priority);
	if (rc < 0)
		return -1;
	if (r->trust == ROCE_TRUST_UNKNOWN)
		r->trust = mode;
	/* RoCE off the lossless priority, or not known to be on it: left out in warn mode (as for PFC). */
	enum roce_verdict v = r->findings[r->n_findings - 1].status;
	if (v == ROCE_FAIL || v == ROCE_UNKNOWN)
		pr->healthy = false;
	return 0;
}

/* The trust lives on each member of a bond (RoCE LAG), else on the port's netdev. */
static int check_port(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol,
                      struct roce_port_result *pr)
{
	const struct roce_netdev *nd = pr->netdev[0] ? roce_node_find_netdev(node, pr->netdev) : NULL;
	const struct roce_netdev *qos[ROCE_BOND_MEMBERS_MAX];
	size_t n = nd ? roce_node_qos_netdevs(node, nd, qos) : 0;
	for (size_t i = 0; i < n; i++)
		if (check_netdev(r, pol, pr, qos[i], nd) < 0)
			return -1;
	return 0;
}

int roce_check_trust(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	if (pol->pfc_priority == ROCE_PFC_NONE || pol->trust == ROCE_ACTION_IGNORE)
		return 0; /* no lossless priority to reach, or not asked */
	for (size_t i = 0; i < r->n_ports; i++)
		if (r->ports[i].roce && check_port(r, node, pol, &r->ports[i]) < 0)
			return -1;
	return 0;
}
