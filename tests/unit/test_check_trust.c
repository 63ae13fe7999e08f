/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check_trust.c - the priority RoCE lands on (check_trust.c) over models built in memory. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/plan.h"
#include "fixtures.h"
#include "nlreply.h"
#include "collect/netlink/rtlink.h"
#include <linux/if_link.h>

/* Two healthy ports (PFC on 3, APP table DSCP 26 -> 3) whose netdevs show
 * MLNX_OFED's qos/: trust dscp, dscp2prio the default DSCP / 8. */
static int setup(void **state)
{
	struct fx_check *f = fx_check_new(2);
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		struct roce_trust *t = &f->node.netdevs[i].trust;
		roce_reading_set(&t->read, ROCE_OK, 0, NULL);
		t->mode = ROCE_TRUST_DSCP;
		snprintf(t->from, sizeof(t->from), "%s", f->node.netdevs[i].name);
		roce_reading_set(&t->dscp2prio.read, ROCE_OK, 0, NULL);
		for (int d = 0; d < ROCE_DSCP_MAX; d++)
			t->dscp2prio.prio[d] = (int8_t)(d / 8);
		t->dscp2prio.n = ROCE_DSCP_MAX;
	}
	f->policy.trust = ROCE_ACTION_FAIL; /* the default is warn (NEWS): these tests judge fail */
	*state = f;
	return 0;
}

static void t_dscp_pass(void **state)
{
	struct fx_check *f = *state;
	f->policy.traffic_class = 106;   /* DSCP 26 with ECN bits */
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "eth1 trusts dscp (qos/trust): traffic class 106 is DSCP 26, which qos/dscp2prio "
	                                 "maps to the PFC priority 3");
	assert_int_equal(f->check.trust, ROCE_TRUST_DSCP);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_TC"), "106");
	assert_null(roce_plan_get(&f->plan, "NCCL_IB_SL"));
	assert_int_equal(f->check.n_fail + f->check.n_unknown, 0);
}

/* dscp2prio, not the APP table, is what the firmware uses under MLNX_OFED. */
static void t_dscp_other_prio(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[1].trust.dscp2prio.prio[26] = 5;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "traffic class 104 is DSCP 26, which qos/dscp2prio maps to priority 5, not the "
	                                    "PFC priority 3: `mlnx_qos -i eth1 --dscp2prio set,26,3`"));
	assert_non_null(fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_PASS));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
}

/* MLNX_OFED with an empty APP table: the TC comes from dscp2prio, the pfc finding does not say PCP. */
static void t_dscp_tc_from_dscp2prio(void **state)
{
	struct fx_check *f = *state;
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		memset(f->node.netdevs[i].dscp.prio, -1, sizeof(f->node.netdevs[i].dscp.prio));
		f->node.netdevs[i].dscp.n = 0;
	}
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_PASS));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_TC"), "104");
	for (size_t i = 0; i < f->check.n_findings; i++)
		assert_null(strstr(f->check.findings[i].message, "PCP trust"));
	assert_int_equal(f->check.n_warn + f->check.n_fail + f->check.n_unknown, 0);
}

/* PCP trust, GID on the physical netdev: untagged RoCE lands on priority 0. */
static void t_pcp_untagged(void **state)
{
	struct fx_check *f = *state;
	for (size_t i = 0; i < f->node.n_netdevs; i++)
		f->node.netdevs[i].trust.mode = ROCE_TRUST_PCP;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "eth0 trusts pcp (qos/trust) and the RoCE v2 GID is on eth0, not a VLAN device: "
	                                    "untagged RoCE lands on priority 0, not the PFC priority 3; `mlnx_qos -i eth0 --trust dscp`"));
	assert_non_null(strstr(fd->message, "egress-qos-map 0:3"));
	assert_false(fd->hardware);
	assert_true(f->check.failed || f->check.mode != ROCE_MODE_STRICT);
	assert_false(f->plan.valid);   /* no healthy port left */
}

/* PCP trust on a VLAN whose egress map reaches the PFC priority: pass, NCCL_IB_SL. */
static void t_pcp_vlan(void **state)
{
	struct fx_check *f = *state;
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		struct roce_netdev *nd = &f->node.netdevs[i];
		nd->trust.mode = ROCE_TRUST_PCP;
		nd->vlan.is_vlan = true;
		nd->vlan.id = 10;
		nd->vlan.egress_pcps = 1u << 3;
	}
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "eth1 trusts pcp (qos/trust); the RoCE v2 GID is on VLAN eth1 (id 10), whose "
	                                 "egress QoS map reaches priority 3 (NCCL_IB_SL=3)");
	assert_int_equal(f->check.trust, ROCE_TRUST_PCP);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_SL"), "3");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");

	/* a VLAN whose map sends elsewhere: warned, NCCL still tagged by NCCL_IB_SL */
	f->node.netdevs[1].vlan.egress_pcps = 1u << 5;
	fx_check_run(f);
	fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "sends nothing to the PFC priority 3"));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
}

/* The VLAN as the kernel describes it (byte-exact RTM_NEWLINK with
 * IFLA_LINKINFO, `ip link add link eth1 name eth1.10 type vlan id 10
 * egress-qos-map 0:3`): the netdev of the GID, its trust from eth1's qos/. */
static void t_pcp_vlan_from_netlink(void **state)
{
	struct fx_check *f = *state;
	static union { char b[NLREPLY_BUFSZ]; uint64_t align; } mb;
	const uint32_t eg[][2] = { { 0, 3 } };
	for (size_t i = 0; i < f->node.n_netdevs; i++)
		f->node.netdevs[i].trust.mode = ROCE_TRUST_PCP;
	struct roce_netdev *nd = &f->node.netdevs[1];
	struct nlmsghdr *nlh = nlreply_link(mb.b, 1, nd->name, 9, IFF_UP | IFF_RUNNING | IFF_LOWER_UP, 9000, IF_OPER_UP);
	nlreply_link_vlan(nlh, 10, eg, 1);
	assert_int_equal(roce_rtlink_parse(nlh, nd), 0);
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_PASS));
	assert_non_null(fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_FAIL));   /* eth0 untagged */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_1:1");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_SL"), "3");
}

/* No qos/trust (upstream driver): inferred from the APP table as before. */
static void t_absent_falls_back(void **state)
{
	struct fx_check *f = *state;
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		struct roce_trust *t = &f->node.netdevs[i].trust;
		roce_reading_set(&t->read, ROCE_MISSING, 2, "/sys/class/net/eth%zu/qos/trust does not exist", i);
		roce_reading_set(&t->dscp2prio.read, ROCE_MISSING, 2, "no dscp2prio");
	}
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "eth0 trusts dscp (the DCB APP table): traffic class 104 is DSCP 26, which the "
	                                 "DCB APP table maps to the PFC priority 3");
	/* an empty APP table is PCP trust: the untagged GID fails */
	memset(f->node.netdevs[0].dscp.prio, -1, sizeof(f->node.netdevs[0].dscp.prio));
	f->node.netdevs[0].dscp.n = 0;
	fx_check_run(f);
	assert_non_null(strstr(fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_FAIL)->message, "trusts pcp (the DCB APP table)"));
	/* and no APP table at all (no DCB): nothing to say beyond the pfc finding */
	roce_reading_set(&f->node.netdevs[0].dscp.read, ROCE_UNSUPPORTED, 95, "no DCB");
	roce_reading_set(&f->node.netdevs[0].pfc.read, ROCE_UNSUPPORTED, 95, "no DCB");
	fx_check_run(f);
	assert_null(fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_FAIL));
	assert_null(fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_UNKNOWN));
}

/* A trust or map that cannot be read is unknown, naming the file; the port is left out. */
static void t_unreadable(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.netdevs[1].trust.read, ROCE_UNREADABLE, 13,
	                 "cannot open /sys/class/net/eth1/qos/trust: Permission denied");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "the priority trust of eth1 is unknown (unreadable: cannot open "
	                                    "/sys/class/net/eth1/qos/trust: Permission denied)"));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");

	roce_reading_set(&f->node.netdevs[1].trust.read, ROCE_OK, 0, NULL);
	roce_reading_set(&f->node.netdevs[1].trust.dscp2prio.read, ROCE_MALFORMED, 0,
	                 "/sys/class/net/eth1/qos/dscp2prio: line 1 is not a header line");
	fx_check_run(f);
	fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "DSCP-to-priority map is unknown (qos/dscp2prio: /sys/class/net/eth1/qos/dscp2prio: "
	                                    "line 1 is not a header line)"));
}

/* PfcPriority=none: no lossless priority to reach, no trust finding. */
/* The default, Trust=warn (released at warn: NEWS): RoCE off the PFC
 * priority, or not known to be on it, is a warning and the port is kept,
 * also in strict mode; Trust=ignore does not look. */
static void t_default_warn(void **state)
{
	struct fx_check *f = *state;
	struct roce_policy defaults;
	roce_policy_defaults(&defaults);
	assert_int_equal(defaults.trust, ROCE_ACTION_WARN);
	f->policy.trust = ROCE_ACTION_WARN;
	f->policy.mode = ROCE_MODE_STRICT;
	f->node.netdevs[0].trust.dscp2prio.prio[26] = 5;
	roce_reading_set(&f->node.netdevs[1].trust.read, ROCE_UNREADABLE, 13,
	                 "cannot open /sys/class/net/eth1/qos/trust: Permission denied");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_0:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "which qos/dscp2prio maps to priority 5, not the PFC priority 3"));
	assert_non_null(strstr(fd->message, "(Trust=warn: the port is kept; Trust=fail leaves it out)"));
	fd = fx_finding(&f->check, "trust", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "the priority trust of eth1 is unknown"));
	assert_int_equal(f->check.n_unknown, 0);
	assert_false(f->check.failed);
	f->policy.trust = ROCE_ACTION_IGNORE;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "trust", FX_ANY), 0);
}

static void t_no_pfc(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[0].trust.mode = ROCE_TRUST_PCP;
	f->policy.pfc_priority = ROCE_PFC_NONE;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "trust", FX_ANY), 0);
	assert_null(roce_plan_get(&f->plan, "NCCL_IB_SL"));
}

/* Issue 25, RoCE LAG: the trust of each member (qos/ is a port's), the
 * VLAN question of the GID's netdev (the bond). */
static void t_bond(void **state)
{
	(void)state;
	struct fx_check *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fx_bond(&f->node);
	roce_policy_defaults(&f->policy);
	f->policy.trust = ROCE_ACTION_FAIL;
	for (size_t i = 0; i < 2; i++) {
		struct roce_trust *t = &f->node.netdevs[i].trust;
		roce_reading_set(&t->read, ROCE_OK, 0, NULL);
		t->mode = ROCE_TRUST_DSCP;
		snprintf(t->from, sizeof(t->from), "%s", f->node.netdevs[i].name);
		roce_reading_set(&t->dscp2prio.read, ROCE_OK, 0, NULL);
		for (int d = 0; d < ROCE_DSCP_MAX; d++)
			t->dscp2prio.prio[d] = (int8_t)(d / 8);
		t->dscp2prio.n = ROCE_DSCP_MAX;
	}
	roce_reading_set(&f->node.netdevs[2].trust.read, ROCE_MISSING, 2, "/sys/class/net/bond0/qos/trust does not exist");
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "trust", ROCE_PASS), 2);
	assert_int_equal(f->check.n_fail + f->check.n_unknown + f->check.n_warn, 0);
	/* eth1 trusts PCP and the GID is on bond0, untagged */
	f->node.netdevs[1].trust.mode = ROCE_TRUST_PCP;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "trust", "mlx5_bond_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "eth1 trusts pcp (qos/trust) and the RoCE v2 GID is on bond0, not a VLAN "
	                                    "device"));
	fx_check_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_dscp_pass, setup, fx_check_teardown),
		cmocka_unit_test(t_bond),
		cmocka_unit_test_setup_teardown(t_dscp_other_prio, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_dscp_tc_from_dscp2prio, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_pcp_untagged, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_pcp_vlan, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_pcp_vlan_from_netlink, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_absent_falls_back, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_unreadable, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_no_pfc, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_default_warn, setup, fx_check_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
