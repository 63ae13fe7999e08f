/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dcb_pfc.c - PFC from RTM_GETDCB replies (lib/collect/netlink/dcb_pfc.c), byte-exact
 * as dcbnl_ieee_fill() sends them (tests/lib/nlreply.c), through
 * roce_dcb_parse() as the collector runs it.
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "collect/netlink/dcb.h"
#include "nlreply.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

static void t_pfc_full(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	assert_int_equal(roce_dcb_parse(nlh, &nd), 0);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.pfc.cap, 8);
	assert_int_equal(nd.pfc.enabled, 0x08);
	assert_int_equal(nd.pfc.mbc, 0);
	assert_int_equal(nd.pfc.delay, 0x1234);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(nd.pfc.requests[i], 0x100000000ULL * (uint64_t)i + 1000 + (uint64_t)i);
		assert_int_equal(nd.pfc.indications[i], 2000 + (uint64_t)i);
	}
}

static void t_pfc_short(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_SHORT_PFC | NLREPLY_APP);
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	char want[128];
	snprintf(want, sizeof(want), "DCB_ATTR_IEEE_PFC has %zu bytes, struct ieee_pfc is %zu",
	         sizeof(struct ieee_pfc) - 8, sizeof(struct ieee_pfc));
	if (!strstr(nd.pfc.read.why, want))
		fail_msg("why '%s'", nd.pfc.read.why);
	assert_int_equal(nd.pfc.enabled, 0);
	/* the APP table is its own reading */
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 2);
}

/* No ieee_getpfc op: the IEEE nest holds only an (empty) APP table. */
static void t_pfc_absent(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .ieee = true, .app_table = true });
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	/* unknown, not disabled */
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.pfc.read.why, "no IEEE PFC"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_pfc_full),
		cmocka_unit_test(t_pfc_short),
		cmocka_unit_test(t_pfc_absent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
