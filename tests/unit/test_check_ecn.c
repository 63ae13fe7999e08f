/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check_ecn.c - the ECN/DCQCN check (check_ecn.c) over models built in memory. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/plan.h"
#include "fixtures.h"

/* Two healthy ports whose netdevs show MLNX_OFED's ecn/: NP and RP on for
 * every priority, CNPs on priority 3 (lossless) with DSCP 48. */
static int setup(void **state)
{
	struct fx_check *f = fx_check_new(2);
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		struct roce_ecn *e = &f->node.netdevs[i].ecn;
		roce_reading_set(&e->read, ROCE_OK, 0, NULL);
		memset(e->np, 1, sizeof(e->np));
		memset(e->rp, 1, sizeof(e->rp));
		e->cnp_dscp = 48;
		e->cnp_prio = 3;
	}
	f->policy.ecn = ROCE_ECN_REQUIRE; /* the default is warn (NEWS): these tests judge require */
	*state = f;
	return 0;
}

static void t_on(void **state)
{
	struct fx_check *f = *state;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ecn", "mlx5_1:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "ECN notification and reaction points on for priority 3 on eth1");
	assert_int_equal(f->check.n_warn + f->check.n_fail + f->check.n_unknown, 0);
}

/* RP off on the RoCE priority: fails (Ecn=require), the port is left out; Ecn=warn warns; ignore is silent. */
static void t_rp_off(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[1].ecn.rp[3] = 0;
	f->node.netdevs[1].ecn.rp[5] = 0;   /* another priority: not ours */
	f->node.netdevs[0].ecn.np[5] = 0;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ecn", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "ECN is off on eth1 for priority 3 (roce_rp)"));
	/* the fix names the point that is off, not the one that is on */
	assert_non_null(strstr(fd->message, "congestion turns into pauses and timeouts: "
	                                    "`echo 1 > /sys/class/net/eth1/ecn/roce_rp/enable/3` (persist"));
	assert_null(strstr(fd->message, "roce_np"));
	assert_false(fd->hardware);
	assert_non_null(fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_PASS));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	char reason[64];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);   /* configuration */

	f->policy.ecn = ROCE_ECN_WARN;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "ecn", "mlx5_1:1", ROCE_WARN));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	f->policy.ecn = ROCE_ECN_IGNORE;
	fx_check_run(f);
	for (size_t i = 0; i < f->check.n_findings; i++)
		assert_string_not_equal(f->check.findings[i].check, "ecn");
}

static void t_np_off_both(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[0].ecn.np[3] = 0;
	fx_check_run(f);
	const char *msg = fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_FAIL)->message;
	assert_non_null(strstr(msg, "for priority 3 (roce_np)"));
	assert_non_null(strstr(msg, "`echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3` (persist"));
	assert_null(strstr(msg, "roce_rp"));
	f->node.netdevs[0].ecn.rp[3] = 0;
	fx_check_run(f);
	msg = fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_FAIL)->message;
	assert_non_null(strstr(msg, "for priority 3 (roce_np and roce_rp)"));
	assert_non_null(strstr(msg, "`echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3` and `... roce_rp/enable/3`"));
}

/* The priority is the one the traffic class maps to when PfcPriority=none; with neither nothing is checked. */
static void t_priority_from_tc(void **state)
{
	struct fx_check *f = *state;
	f->policy.pfc_priority = ROCE_PFC_NONE;
	f->node.netdevs[0].ecn.np[3] = 0;
	fx_check_run(f);
	assert_null(fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_FAIL));   /* TC auto without PFC: none derived */
	f->policy.traffic_class = 104;   /* DSCP 26 -> priority 3 */
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_FAIL));
}

/* No ecn/ (upstream driver): unknown said as a warning, never fail, also in strict mode. */
static void t_missing(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.netdevs[0].ecn.read, ROCE_MISSING, 2, "/sys/class/net/eth0/ecn does not exist");
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "ECN state of eth0 is unknown: /sys/class/net/eth0/ecn does not exist (upstream mlx5"));
	assert_false(f->check.failed);
	/* quiet in a job's output (issue 31), said again with EcnUnknown=warn; the port's health is the same */
	assert_true(fd->quiet);
	assert_string_equal(fd->cause, "unknown (no ecn/)");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	f->policy.ecn_unknown = ROCE_UNKNOWN_WARN;
	fx_check_run(f);
	fd = fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_WARN);
	assert_non_null(fd);
	assert_false(fd->quiet);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
}

/* A file that could not be read is unknown naming it; the port is not healthy. */
static void t_unreadable(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.netdevs[1].ecn.read, ROCE_MALFORMED, 0,
	                 "/sys/class/net/eth1/ecn/roce_rp/enable/3: \"yes\" is not 0-1");
	f->node.netdevs[1].ecn.rp[3] = -1;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ecn", "mlx5_1:1", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_string_equal(fd->message, "ECN state of eth1 for priority 3 is unknown (malformed: "
	                                 "/sys/class/net/eth1/ecn/roce_rp/enable/3: \"yes\" is not 0-1)");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	/* the default, Ecn=warn: released at warn, so said and the port kept,
	 * also in strict mode (NEWS) */
	f->policy.ecn = ROCE_ECN_WARN;
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	fd = fx_finding(&f->check, "ecn", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "is unknown (malformed: "));
	assert_non_null(strstr(fd->message, "the port is kept (Ecn=require leaves it out)"));
	assert_false(f->check.failed);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
}

/* CNPs on a lossy priority, and CNP DSCPs that differ between ports: warnings. */
static void t_cnp(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[0].ecn.cnp_prio = 6;   /* PFC only on 3 */
	f->node.netdevs[1].ecn.cnp_dscp = 46;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ecn", "mlx5_0:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "CNPs go out on priority 6, which is lossy while priority 3 is lossless"));
	fd = fx_finding(&f->check, "ecn", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "CNP DSCP is 46 on eth1 but 48 on eth0"));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
}

/* Issue 25, RoCE LAG: ECN on each member of the bond, which has no ecn/. */
static void t_bond(void **state)
{
	(void)state;
	struct fx_check *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fx_bond(&f->node);
	roce_policy_defaults(&f->policy);
	f->policy.ecn = ROCE_ECN_REQUIRE;
	for (size_t i = 0; i < 2; i++) {
		struct roce_ecn *e = &f->node.netdevs[i].ecn;
		roce_reading_set(&e->read, ROCE_OK, 0, NULL);
		memset(e->np, 1, sizeof(e->np));
		memset(e->rp, 1, sizeof(e->rp));
		e->cnp_dscp = 48;
		e->cnp_prio = 3;
	}
	roce_reading_set(&f->node.netdevs[2].ecn.read, ROCE_MISSING, 2, "/sys/class/net/bond0/ecn does not exist");
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "ecn", ROCE_PASS), 2);
	assert_int_equal(fx_finding_count(&f->check, "ecn", FX_ANY), 2);   /* nothing said of bond0's ecn/ */
	f->node.netdevs[1].ecn.rp[3] = 0;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ecn", "mlx5_bond_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "ECN is off on eth1 for priority 3 (roce_rp)"));
	f->node.netdevs[1].ecn.rp[3] = 1;
	f->node.netdevs[1].ecn.cnp_dscp = 46;
	fx_check_run(f);
	fd = fx_finding(&f->check, "ecn", "mlx5_bond_0:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "CNP DSCP is 46 on eth1 but 48 on eth0"));
	fx_check_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_on, setup, fx_check_teardown),
		cmocka_unit_test(t_bond),
		cmocka_unit_test_setup_teardown(t_rp_off, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_np_off_both, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_priority_from_tc, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_missing, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_unreadable, setup, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_cnp, setup, fx_check_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
