/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dcb_ets.c - ETS from RTM_GETDCB replies (lib/collect/netlink/dcb_ets.c), byte-exact
 * as dcbnl_ieee_fill() sends them (tests/lib/nlreply.c), through
 * roce_dcb_parse() as the collector runs it.
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collect/netlink/dcb.h"
#include "nlreply.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

static void t_ets_full(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_ETS | NLREPLY_PFC | NLREPLY_APP);
	assert_int_equal(roce_dcb_parse(nlh, &nd), 0);
	assert_int_equal(nd.ets.read.status, ROCE_OK);
	const uint8_t tc[8] = { 0, 0, 0, 3, 0, 0, 0, 0 }, bw[8] = { 50, 0, 0, 50, 0, 0, 0, 0 };
	assert_memory_equal(nd.ets.prio_tc, tc, 8);
	assert_memory_equal(nd.ets.tc_tx_bw, bw, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(nd.ets.tc_tsa[i], IEEE_8021QAZ_TSA_ETS);
	/* the buffers were not in this reply: not reported, and not a failure */
	assert_int_equal(nd.buffer.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.buffer.read.why, "RTM_GETDCB eth0: driver reports no receive buffers (no DCB_ATTR_DCB_BUFFER)"));
}

/* No ieee_getets op: no DCB_ATTR_IEEE_ETS in the nest. */
static void t_ets_absent(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct ieee_pfc pfc = nlreply_sample_pfc();
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .pfc = &pfc,
	                                                                        .app_table = true });
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), 0);   /* PFC and APP read: absent ETS is no failure */
	assert_int_equal(nd.ets.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.ets.read.why, "RTM_GETDCB eth0: driver reports no ETS (no DCB_ATTR_IEEE_ETS)"));
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
}

/* ETS 4 bytes short: MALFORMED naming the netdev and the attribute; the other objects stay readable. */
static void t_ets_short(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct ieee_ets ets = nlreply_sample_ets();
	struct ieee_pfc pfc = nlreply_sample_pfc();
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .ets = &ets,
	                                                                        .ets_len = sizeof(ets) - 4, .pfc = &pfc,
	                                                                        .app_table = true });
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.ets.read.status, ROCE_MALFORMED);
	char want[128];
	snprintf(want, sizeof(want), "RTM_GETDCB eth0: DCB_ATTR_IEEE_ETS has %zu bytes, struct ieee_ets is %zu",
	         sizeof(ets) - 4, sizeof(ets));
	if (!strstr(nd.ets.read.why, want))
		fail_msg("why '%s'", nd.ets.read.why);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.pfc.enabled, 0x08);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
}

/* A traffic class the kernel's own setets would refuse: MALFORMED, not an index past the TC arrays. */
static void t_ets_out_of_range(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct ieee_ets ets = nlreply_sample_ets();
	ets.prio_tc[5] = 8;
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .ets = &ets });
	nlreply_netdev(&nd, "eth0");
	roce_dcb_parse(nlh, &nd);
	assert_int_equal(nd.ets.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.ets.read.why, "priority 5 -> traffic class 8, bandwidth 0% (out of range)"));
	ets = nlreply_sample_ets();
	ets.tc_tx_bw[2] = 101;
	nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .ets = &ets });
	nlreply_netdev(&nd, "eth0");
	roce_dcb_parse(nlh, &nd);
	assert_int_equal(nd.ets.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.ets.read.why, "bandwidth 101%"));
}

/* A reply that fails as a whole (EOPNOTSUPP) says so for ETS and buffers too. */
static void t_ets_no_dcb(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlreply_error(msgbuf.b, 1, -EOPNOTSUPP, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.ets.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.buffer.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.ets.read.why, "driver has no DCB support"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ets_full),
		cmocka_unit_test(t_ets_absent),
		cmocka_unit_test(t_ets_short),
		cmocka_unit_test(t_ets_out_of_range),
		cmocka_unit_test(t_ets_no_dcb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
