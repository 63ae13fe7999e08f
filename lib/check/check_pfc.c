/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_pfc.c - PFC on the RoCE priority of a port's netdev, and the
 * traffic class (NCCL_IB_TC) that lands on it: TrafficClass's DSCP must map
 * to PfcPriority, or with TrafficClass=auto a DSCP that maps to it is
 * derived (26, AF31, preferred).  One of check.c's port checks, in its own
 * file with the DSCP lookup check_trust.c shares.  Pure.
 */
#include "config.h"
#include "check/check.h"

#include <stdio.h>
#include <string.h>

int roce_check_pfc_dscp(const struct roce_dscp_map *m, int prio)
{
	/* DSCP 26 (AF31) is the common RoCE choice: prefer it when it qualifies. */
	if (m->prio[26] == prio)
		return 26;
	for (int d = 0; d < ROCE_DSCP_MAX; d++)
		if (m->prio[d] == prio)
			return d;
	return -1;
}

enum roce_verdict roce_check_pfc_port(struct roce_check_result *r, const struct roce_policy *pol,
                                      const struct roce_device *d, const struct roce_port *p,
                                      const struct roce_netdev *nd, int *tc_out)
{
	*tc_out = -1;
	if (pol->pfc_priority == ROCE_PFC_NONE || !nd)
		return ROCE_PASS;
	const struct roce_pfc *pfc = &nd->pfc;
	if (!roce_reading_ok(&pfc->read)) {
		/* No DCB in the driver (veth, virtio, VFs, a container's netdev) is
		 * what such a stack is: quiet unless the site asks (PfcUnknown=);
		 * any other unknown state is news, said as a warning at least. */
		bool no_dcb = pfc->read.status == ROCE_UNSUPPORTED;
		enum roce_verdict v = pol->pfc_unknown == ROCE_UNKNOWN_FAIL ? ROCE_FAIL : ROCE_WARN;
		unsigned quiet = no_dcb && pol->pfc_unknown == ROCE_UNKNOWN_QUIET ? ROCE_FINDING_QUIET : 0;
		if (no_dcb) {
			roce_finding_addf(r, "pfc", d->name, p->num, v, "unknown (no DCB)", quiet, NULL,
			                  "%s has no DCB: PFC unknown (PfcPriority=none or PfcUnknown= in roce.conf)",
			                  nd->name);
			return v;
		}
		roce_finding_addf(r, "pfc", d->name, p->num, v, "unknown", 0, NULL,
		                  "PFC state of %s is unknown (%s%s%s): PFC cannot be verified; "
		                  "check it with `dcb pfc show dev %s` or mlnx_qos",
		                  nd->name, roce_status_name(pfc->read.status), pfc->read.why[0] ? ": " : "",
		                  pfc->read.why, nd->name);
		return v;
	}
	int prio = pol->pfc_priority;
	if (!(pfc->enabled & (1u << prio))) {
		char on[32] = "";
		for (int i = 0; i < ROCE_PRIOS; i++)
			if (pfc->enabled & (1u << i))
				snprintf(on + strlen(on), sizeof(on) - strlen(on), "%s%d", on[0] ? "," : "", i);
		roce_finding_addf(r, "pfc", d->name, p->num, ROCE_FAIL, "off", 0, NULL,
		                  "PFC is off for priority %d on %s (enabled: %s): `dcb pfc set dev %s prio-pfc %d:on` "
		                  "(or mlnx_qos -i %s --pfc), "
		                  "and enable PFC and ECN for it on every switch on the path",
		                  prio, nd->name, on[0] ? on : "none", nd->name, prio, nd->name);
		return ROCE_FAIL;
	}
	const struct roce_dscp_map *m = &nd->dscp;
	if ((!roce_reading_ok(&m->read) || m->n == 0) && roce_reading_ok(&nd->trust.read) &&
	    nd->trust.mode == ROCE_TRUST_DSCP) {
		/* MLNX_OFED's DSCP trust with its map in qos/dscp2prio: check_trust.c judges it. */
		*tc_out = pol->traffic_class;
		roce_finding_pass(r, "pfc", d->name, p->num, "PFC is on for priority %d on %s (DSCP trust: see trust)",
		                  prio, nd->name);
		return ROCE_PASS;
	}
	if (!roce_reading_ok(&m->read) || m->n == 0) {
		roce_finding_addf(r, "pfc", d->name, p->num, pol->traffic_class == ROCE_TC_AUTO ? ROCE_WARN : ROCE_PASS,
		                  "no DSCP table", 0, NULL,
		                  "PFC is on for priority %d on %s; no DSCP-to-priority table (PCP trust)%s", prio,
		                  nd->name,
		                  pol->traffic_class == ROCE_TC_AUTO
		                          ? ": NCCL_IB_TC cannot be derived, set TrafficClass"
		                          : "");
		if (pol->traffic_class != ROCE_TC_AUTO)
			*tc_out = pol->traffic_class;
		return pol->traffic_class == ROCE_TC_AUTO ? ROCE_WARN : ROCE_PASS;
	}
	if (pol->traffic_class != ROCE_TC_AUTO) {
		int dscp = pol->traffic_class >> 2;
		*tc_out = pol->traffic_class;
		if (m->prio[dscp] != prio) {
			roce_finding_addf(r, "pfc", d->name, p->num, ROCE_FAIL, "DSCP mismatch", 0, NULL,
			                  "TrafficClass %d is DSCP %d, which %s maps to priority %d, "
			                  "not the PFC priority %d: fix TrafficClass or the DSCP mapping "
			                  "(`dcb app add dev %s dscp-prio %d:%d`)",
			                  pol->traffic_class, dscp, nd->name, m->prio[dscp], prio, nd->name, dscp,
			                  prio);
			return ROCE_FAIL;
		}
		roce_finding_pass(r, "pfc", d->name, p->num, "PFC on priority %d; DSCP %d maps to it on %s", prio, dscp,
		                  nd->name);
		return ROCE_PASS;
	}
	int dscp = roce_check_pfc_dscp(m, prio);
	if (dscp < 0) {
		roce_finding_addf(r, "pfc", d->name, p->num, ROCE_FAIL, "no DSCP", 0, NULL,
		                  "no DSCP maps to PFC priority %d on %s: RoCE traffic will not be lossless; "
		                  "`dcb app add dev %s dscp-prio 26:%d` (or mlnx_qos --trust dscp)",
		                  prio, nd->name, nd->name, prio);
		return ROCE_FAIL;
	}
	*tc_out = dscp << 2;
	roce_finding_pass(r, "pfc", d->name, p->num, "PFC on priority %d; DSCP %d maps to it on %s (traffic class %d)",
	                  prio, dscp, nd->name, dscp << 2);
	return ROCE_PASS;
}
