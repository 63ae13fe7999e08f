/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dcb_app.c - the DSCP map from RTM_GETDCB replies (lib/collect/netlink/dcb_app.c),
 * byte-exact as dcbnl_ieee_fill() sends them (tests/lib/nlreply.c), through
 * roce_dcb_parse() as the collector runs it; broken APP entries by hand.
 */
#include "config.h"
#include "unit.h"

#include <string.h>

#include "collect/netlink/dcb.h"
#include "nlreply.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

static void assert_only_dscp(const struct roce_netdev *nd, int d1, int p1, int d2, int p2)
{
	for (int d = 0; d < ROCE_DSCP_MAX; d++) {
		int want = d == d1 ? p1 : d == d2 ? p2 : -1;
		if (nd->dscp.prio[d] != want)
			fail_msg("dscp %d -> %d, want %d", d, nd->dscp.prio[d], want);
	}
}

static void t_app_full(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	assert_int_equal(roce_dcb_parse(nlh, &nd), 0);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 2);
	assert_only_dscp(&nd, 26, 3, 48, 6);
}

static void t_app_no_table(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC), &nd), 0);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 0);
	assert_only_dscp(&nd, -1, -1, -1, -1);

	/* an empty nest, as dcbnl_ieee_fill() sends for an empty table (and
	 * no PFC: test_dcb_pfc t_pfc_absent) */
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .ieee = true, .app_table = true });
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 0);
}

/* An APP table of one or two entries made by hand, of any length. */
static struct nlmsghdr *build_app_only(const void *entry, size_t len, const void *entry2, size_t len2)
{
	struct nlmsghdr *nlh = nlreply_header(msgbuf.b, RTM_GETDCB, 1);
	struct dcbmsg *dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->cmd = DCB_CMD_IEEE_GET;
	struct nlattr *ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	struct ieee_pfc pfc = nlreply_sample_pfc();
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	struct nlattr *app = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, len, entry);
	if (entry2)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, len2, entry2);
	mnl_attr_nest_end(nlh, app);
	mnl_attr_nest_end(nlh, ieee);
	return nlh;
}

static void expect_dscp(struct nlmsghdr *nlh, enum roce_status want, const char *why_part)
{
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	roce_dcb_parse(nlh, &nd);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, want);
	if (why_part && !strstr(nd.dscp.read.why, why_part))
		fail_msg("why '%s' lacks '%s'", nd.dscp.read.why, why_part);
	if (want != ROCE_OK) {
		assert_int_equal(nd.dscp.n, 0);
		assert_only_dscp(&nd, -1, -1, -1, -1);
	}
}

static void t_app_bad(void **state)
{
	(void)state;
	struct dcb_app a = { .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26 };
	struct dcb_app b = a;

	expect_dscp(build_app_only(&a, 2, NULL, 0), ROCE_MALFORMED, "APP entry has 2 bytes, struct dcb_app is 4");
	expect_dscp(build_app_only(&a, 3, NULL, 0), ROCE_MALFORMED, "APP entry has 3 bytes");
	b.protocol = 64;
	expect_dscp(build_app_only(&b, sizeof(b), NULL, 0), ROCE_MALFORMED, "dscp 64 -> priority 3 out of range");
	b.protocol = 26;
	b.priority = 8;
	expect_dscp(build_app_only(&b, sizeof(b), NULL, 0), ROCE_MALFORMED, "dscp 26 -> priority 8 out of range");
	b.priority = 5;
	expect_dscp(build_app_only(&a, sizeof(a), &b, sizeof(b)), ROCE_MALFORMED, "DSCP 26 to both priority 3 and 5");
	/* the same entry twice is harmless */
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(build_app_only(&a, sizeof(a), &a, sizeof(a)), &nd), 0);
	assert_int_equal(nd.dscp.n, 1);
	assert_only_dscp(&nd, 26, 3, -1, -1);
}

/* An APP entry that overruns its table spoils the map, not PFC. */
static void t_app_overrun(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	struct nlattr *app = nlreply_nested(nlreply_attr(nlh, sizeof(struct dcbmsg), DCB_ATTR_IEEE),
	                                    DCB_ATTR_IEEE_APP_TABLE);
	assert_non_null(app);
	struct nlattr *entry, *last = NULL;
	mnl_attr_for_each_nested(entry, app)
		last = entry;
	last->nla_len += 4;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.dscp.read.why, "overruns DCB_ATTR_IEEE_APP_TABLE"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_app_full),
		cmocka_unit_test(t_app_no_table),
		cmocka_unit_test(t_app_bad),
		cmocka_unit_test(t_app_overrun),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
