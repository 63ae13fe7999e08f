/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dcb.c - RTM_GETDCB replies as a whole (lib/collect/netlink/dcb.c): error answers, a
 * driver without IEEE DCB, garbled envelopes and nests, and every
 * truncation and many byte flips of a full reply.  Replies are byte-exact
 * as dcbnl_ieee_fill() and netlink_ack() send them (tests/lib/nlreply.c).
 * Each object's values: test_dcb_pfc.c, test_dcb_app.c.
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/netlink/dcb.h"
#include "nlreply.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

static void t_dcb_eopnotsupp(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "veth0");
	/* what the kernel answered for lo/veth on this machine (strace of
	 * `dcb pfc show dev lo`): 36 bytes, NLM_F_CAPPED, -EOPNOTSUPP */
	struct nlmsghdr *nlh = nlreply_error(msgbuf.b, 1, -EOPNOTSUPP, RTM_GETDCB);
	assert_int_equal(nlh->nlmsg_len, 36);
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.dscp.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.pfc.read.err, EOPNOTSUPP);
	assert_string_equal(roce_status_name(nd.pfc.read.status), "not supported");
	assert_non_null(strstr(nd.pfc.read.why, "RTM_GETDCB veth0: driver has no DCB support"));
	assert_int_equal(nd.pfc.enabled, 0);

	/* without NETLINK_CAP_ACK the kernel echoes the whole request */
	nlh = nlreply_error(msgbuf.b, 1, -EOPNOTSUPP, RTM_GETDCB);
	nlh->nlmsg_flags = 0;
	char *echo = mnl_nlmsg_put_extra_header(nlh, 12);
	memcpy(echo, "\x00\x00\x00\x00\x09\x00\x01\x00lo\x00\x00", 12);
	nlreply_netdev(&nd, "veth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);

	nlreply_netdev(&nd, "veth9");
	assert_int_equal(roce_dcb_parse(nlreply_error(msgbuf.b, 1, -ENODEV, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MISSING);
	assert_int_equal(nd.dscp.read.status, ROCE_MISSING);

	nlreply_netdev(&nd, "veth9");
	assert_int_equal(roce_dcb_parse(nlreply_error(msgbuf.b, 1, -EPERM, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNREADABLE);
	assert_int_equal(nd.dscp.read.err, EPERM);
}

static void t_dcb_missing_ieee(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlreply_dcb_sample(msgbuf.b, 1, "eth0", 0), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.dscp.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.pfc.read.why, "no DCB_ATTR_IEEE"));
}

static void t_dcb_garbled(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct nlmsghdr *nlh;

	/* the APP table nest claims more than the IEEE nest holds */
	nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	struct nlattr *app = nlreply_nested(nlreply_attr(nlh, sizeof(struct dcbmsg), DCB_ATTR_IEEE),
	                                    DCB_ATTR_IEEE_APP_TABLE);
	assert_non_null(app);
	app->nla_len += 4;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.pfc.read.why, "DCB_ATTR_IEEE nest is garbled"));

	/* a reply to another DCB command */
	nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC);
	((struct dcbmsg *)mnl_nlmsg_get_payload(nlh))->cmd = DCB_CMD_PFC_GCFG;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	char want[64];
	snprintf(want, sizeof(want), "DCB command %d, not IEEE_GET", DCB_CMD_PFC_GCFG);
	assert_non_null(strstr(nd.pfc.read.why, want));

	/* the message ends inside the IEEE nest */
	nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	nlh->nlmsg_len -= 16;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);

	/* another netdev's answer */
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlreply_dcb_sample(msgbuf.b, 1, "eth1", NLREPLY_IEEE | NLREPLY_PFC), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
}

/* Every 4-byte truncation and many byte flips of a full DCB reply, each in
 * a heap block of exactly nlmsg_len bytes so that ASan sees any read past
 * the message.  Statuses must stay meaningful and OK values in range. */
static void t_dcb_mangled(void **state)
{
	(void)state;
	struct nlmsghdr *full = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	uint32_t len = full->nlmsg_len;
	unsigned seed = 12345;
	for (unsigned round = 0; round < 4000; round++) {
		uint32_t cut = round < len / 4 ? (round + 1) * 4 : len;
		struct nlmsghdr *m = malloc(cut);
		assert_non_null(m);
		memcpy(m, full, cut);
		m->nlmsg_len = cut;
		if (round >= len / 4)
			for (int k = 0; k < 3; k++) {
				seed = seed * 1103515245u + 12345u;
				size_t at = sizeof(struct nlmsghdr) + (seed >> 8) % (cut - sizeof(struct nlmsghdr));
				((unsigned char *)m)[at] ^= (unsigned char)(1u << ((seed >> 4) % 8));
			}
		struct roce_netdev nd;
		nlreply_netdev(&nd, "eth0");
		roce_dcb_parse(m, &nd);
		assert_true(nd.pfc.read.status >= ROCE_OK && nd.pfc.read.status <= ROCE_UNSUPPORTED);
		assert_true(nd.dscp.read.status >= ROCE_OK && nd.dscp.read.status <= ROCE_UNSUPPORTED);
		size_t n = 0;
		for (int d = 0; d < ROCE_DSCP_MAX; d++) {
			assert_true(nd.dscp.prio[d] >= -1 && nd.dscp.prio[d] < ROCE_PRIOS);
			n += nd.dscp.prio[d] >= 0;
		}
		assert_int_equal(n, nd.dscp.n);
		free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_dcb_eopnotsupp),
		cmocka_unit_test(t_dcb_missing_ieee),
		cmocka_unit_test(t_dcb_garbled),
		cmocka_unit_test(t_dcb_mangled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
