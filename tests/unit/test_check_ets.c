/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_check_ets.c - the ETS and receive-buffer check (check_ets.c) on
 * netdevs filled by the real DCB parser from byte-exact RTM_GETDCB replies
 * (tests/lib/nlreply.c), as the collector fills them.
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "collect/netlink/dcb.h"
#include "fixtures.h"
#include "nlreply.h"
#include "check/plan.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

/* netdev i of the fixture (eth<i>) as the kernel answers with d; NULL
 * parts of d are left out of the reply, as a driver without the op does. */
static void answer(struct fx_check *f, size_t i, struct nlreply_dcb d)
{
	struct roce_netdev *nd = &f->node.netdevs[i];
	struct ieee_pfc pfc = nlreply_sample_pfc();
	d.name = nd->name;
	d.ieee = true;
	d.pfc = &pfc;
	d.app_table = true;
	d.app = nlreply_sample_app;
	d.n_app = NLREPLY_SAMPLE_APPS;
	roce_dcb_parse(nlreply_dcb(msgbuf.b, 1, &d), nd);
	assert_int_equal(nd->pfc.read.status, ROCE_OK);
}

/* Both netdevs with the sample ETS and buffers, eth1 with what the test changed. */
static void answer_both(struct fx_check *f, const struct ieee_ets *ets1, const struct dcbnl_buffer *buf1)
{
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	answer(f, 0, (struct nlreply_dcb){ .ets = &ets, .buffer = &buf });
	answer(f, 1, (struct nlreply_dcb){ .ets = ets1, .buffer = buf1 });
}

static void want(const struct roce_finding *fd, const char *text)
{
	if (!fd)
		fail_msg("no such finding (wanted '%s')", text);
	if (!strstr(fd->message, text))
		fail_msg("message '%s' lacks '%s'", fd->message, text);
}

/* The fixture's netdevs were never asked over netlink: nothing to say. */
static void t_not_read(void **state)
{
	struct fx_check *f = *state;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "ets", FX_ANY), 0);
}

static void t_fine(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "priority 3 on TC 3 with 50 % under ETS; receive buffer 1 holds no lossy priority on eth1");
	assert_int_equal(fx_finding_count(&f->check, "ets", FX_ANY), 2);
	assert_int_equal(f->check.n_warn + f->check.n_fail + f->check.n_unknown, 0);
}

/* The PFC priority's TC at 0 % under ETS: a warning with the fix for both
 * tools; Ets=fail fails and leaves the port out; Ets=ignore is silent. */
static void t_zero_bw(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	ets.tc_tx_bw[0] = 100;
	ets.tc_tx_bw[3] = 0;
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN);
	want(fd, "PFC priority 3 is on TC 3, which has 0 % bandwidth under ETS on eth1");
	want(fd, "`mlnx_qos -i eth1 --tcbw 50,0,0,50,0,0,0,0`");
	want(fd, "`dcb ets set dev eth1 tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0`");
	assert_false(fd->hardware);
	assert_non_null(fx_finding(&f->check, "ets", "mlx5_0:1", ROCE_PASS));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");

	f->policy.ets = ROCE_ACTION_FAIL;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_FAIL));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	char reason[64];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);   /* configuration, not hardware */

	f->policy.ets = ROCE_ACTION_IGNORE;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "ets", FX_ANY), 0);
}

/* Strict priority with 0 % is not a warning: a strict TC is served before
 * every ETS TC, its tc_tx_bw is not a share of the link (drivers report 0
 * for it).  mlnx_qos's common RoCE setup puts the RoCE TC on strict. */
static void t_strict_zero_bw(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	ets.tc_tsa[3] = IEEE_8021QAZ_TSA_STRICT;
	ets.tc_tx_bw[0] = 100;
	ets.tc_tx_bw[3] = 0;
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	want(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_PASS), "priority 3 on TC 3 (strict priority)");
	assert_int_equal(f->check.n_warn + f->check.n_fail + f->check.n_unknown, 0);
}

/* Another priority's TC at 0 %: not ours. */
static void t_other_tc_zero(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	ets.prio_tc[5] = 5;   /* TC 5: ETS at 0 % */
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_PASS));
	assert_int_equal(f->check.n_warn, 0);
}

/* Every priority in buffer 0: the lossless buffer holds lossy traffic. */
static void t_shared_buffer(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	buf.prio2buffer[3] = 0;
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN);
	want(fd, "PFC priority 3 shares receive buffer 0 of eth1 with lossy priorities 0,1,2,4,5,6,7");
	want(fd, "`mlnx_qos -i eth1 --prio2buffer 1,1,1,0,1,1,1,1`");
	want(fd, "`dcb buffer set dev eth1 prio-buffer 0:1 1:1 2:1 3:0 4:1 5:1 6:1 7:1`");
	assert_int_equal(fx_finding_count(&f->check, "ets", FX_ANY), 2);   /* eth0's pass, eth1's warning */
	assert_null(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_PASS));
}

/* One lossy priority beside priority 3 in buffer 1; another lossless one is fine. */
static void t_shared_one_lossy(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	buf.prio2buffer[6] = 1;
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN);
	want(fd, "shares receive buffer 1 of eth1 with lossy priority 6:");
	want(fd, "--prio2buffer 0,0,0,1,0,0,0,0`");
	f->node.netdevs[1].pfc.enabled |= 1u << 6;   /* priority 6 lossless too: the buffer is all lossless */
	fx_check_run(f);
	want(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_PASS), "receive buffer 1 holds no lossy priority");
}

/* Both at once: two warnings. */
static void t_both_bad(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	ets.tc_tx_bw[0] = 100;
	ets.tc_tx_bw[3] = 0;
	buf.prio2buffer[0] = 1;
	answer_both(f, &ets, &buf);
	fx_check_run(f);
	assert_int_equal(f->check.n_warn, 2);
	assert_int_equal(fx_finding_count(&f->check, "ets", FX_ANY), 3);
}

/* The driver reports neither (no ieee_getets, no dcbnl_getbuffer): unknown,
 * in a warning (strict mode would fail every such node on UNKNOWN). */
static void t_absent(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	answer_both(f, NULL, NULL);
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN);
	want(fd, "ETS and receive buffers of eth1 unknown: the driver reports neither DCB_ATTR_IEEE_ETS nor DCB_ATTR_DCB_BUFFER");
	want(fd, "`dcb ets show dev eth1`");
	want(fd, "Ets=ignore silences this");
	assert_int_equal(f->check.n_unknown, 0);
	assert_true(fd->quiet); /* quiet in a job's output (issue 31), said with EtsUnknown=warn */
	f->policy.ets_unknown = ROCE_UNKNOWN_WARN;
	fx_check_run(f);
	fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN);
	assert_false(fd->quiet);
	f->policy.ets_unknown = ROCE_UNKNOWN_QUIET;
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_false(f->check.failed);

	/* ETS read, the buffers not (kernel < 4.18): what is known is said */
	answer(f, 1, (struct nlreply_dcb){ .ets = &ets });
	fx_check_run(f);
	fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN);
	want(fd, "receive buffers of eth1 unknown: the driver reports no DCB_ATTR_DCB_BUFFER; priority 3 on TC 3 with 50 % under ETS");
}

/* A short attribute: unknown naming the netdev and the attribute, never a pass. */
static void t_short(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	struct ieee_pfc pfc = nlreply_sample_pfc();
	answer_both(f, &ets, &buf);
	struct roce_netdev *nd = &f->node.netdevs[1];
	roce_dcb_parse(nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth1", .ieee = true, .ets = &ets,
	                                                                 .ets_len = 10, .pfc = &pfc, .buffer = &buf,
	                                                                 .buffer_len = 7, .app_table = true,
	                                                                 .app = nlreply_sample_app,
	                                                                 .n_app = NLREPLY_SAMPLE_APPS }), nd);
	fx_check_run(f);
	assert_int_equal(f->check.n_unknown, 2);
	const struct roce_finding *fd = fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_UNKNOWN);
	want(fd, "DCB_ATTR_IEEE_ETS of eth1 cannot be used (malformed: RTM_GETDCB eth1: DCB_ATTR_IEEE_ETS has 10 bytes");
	assert_null(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_PASS));
	/* warn mode: the port stays (the check is warn-level) */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
}

/* PFC off for the priority, or PfcPriority=none: the pfc check speaks, not this one. */
static void t_no_pfc(void **state)
{
	struct fx_check *f = *state;
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	ets.tc_tx_bw[0] = 100;
	ets.tc_tx_bw[3] = 0;
	answer_both(f, &ets, &buf);
	f->node.netdevs[1].pfc.enabled = 0x10;
	fx_check_run(f);
	assert_null(fx_finding(&f->check, "ets", "mlx5_1:1", ROCE_WARN));
	f->policy.pfc_priority = ROCE_PFC_NONE;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "ets", FX_ANY), 0);
}

/* Issue 25, RoCE LAG: PFC and ETS come from each member's DCB reply
 * (byte-exact, as the kernel answers RTM_GETDCB), the bond has none: a
 * member at 0 % under ETS warns naming it; a member whose reply lacks PFC on
 * priority 3 fails naming it. */
static void t_bond_members(void **state)
{
	(void)state;
	struct fx_check *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fx_bond(&f->node);
	roce_policy_defaults(&f->policy);
	assert_string_equal(f->node.netdevs[1].name, "eth1");
	struct ieee_ets zero = nlreply_sample_ets();
	zero.tc_tx_bw[3] = 0;
	zero.tc_tx_bw[0] += 50;
	answer_both(f, &zero, NULL);
	fx_check_run(f);
	want(fx_finding(&f->check, "ets", "mlx5_bond_0:1", ROCE_WARN), "PFC priority 3 is on TC 3, which has 0 % bandwidth "
	                                                               "under ETS on eth1");
	assert_int_equal(fx_finding_count(&f->check, "pfc", ROCE_PASS), 2);
	/* eth1's reply without PFC on priority 3 */
	struct ieee_pfc pfc = nlreply_sample_pfc();
	pfc.pfc_en = 1u << 4;
	struct ieee_ets ets = nlreply_sample_ets();
	struct nlreply_dcb d = { .name = "eth1", .ieee = true, .pfc = &pfc, .ets = &ets, .app_table = true,
		                 .app = nlreply_sample_app, .n_app = NLREPLY_SAMPLE_APPS };
	roce_dcb_parse(nlreply_dcb(msgbuf.b, 1, &d), &f->node.netdevs[1]);
	fx_check_run(f);
	want(fx_finding(&f->check, "pfc", "mlx5_bond_0:1", ROCE_FAIL), "PFC is off for priority 3 on eth1 (enabled: 4)");
	assert_true(f->check.failed);   /* the bond is the node's only port */
	fx_check_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_not_read, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test(t_bond_members),
		cmocka_unit_test_setup_teardown(t_fine, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_zero_bw, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_strict_zero_bw, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_other_tc_zero, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_shared_buffer, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_shared_one_lossy, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_both_bad, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_absent, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_short, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_no_pfc, fx_check_setup2, fx_check_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
