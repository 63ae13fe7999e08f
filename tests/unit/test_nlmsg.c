/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_nlmsg.c - the checks every netlink reply goes through (lib/collect/netlink/nlmsg.c):
 * the message fits its datagram, the envelope (NLMSG_ERROR codes), walks
 * that notice an attribute overrunning its container.  Replies from
 * tests/lib/nlreply.c.
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "collect/netlink/dcb.h"
#include "collect/netlink/nlmsg.h"
#include "nlreply.h"
#include "base/printable.h"
#include "collect/netlink/rtlink.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

/* nlmsg_len with the top bit set is negative as an int: libmnl's
 * mnl_nlmsg_ok() lets it through, roce_nlmsg_fits() does not. */
static void t_fits(void **state)
{
	(void)state;
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0", 4, IFF_UP, 9000, IF_OPER_UP);
	int len = (int)nlh->nlmsg_len;
	assert_true(roce_nlmsg_fits(nlh, len));
	assert_false(roce_nlmsg_fits(nlh, len - 4));
	assert_false(roce_nlmsg_fits(nlh, (int)sizeof(*nlh) - 1));
	nlh->nlmsg_len = 0xfffff600u;
	assert_true(mnl_nlmsg_ok(nlh, len));
	assert_false(roce_nlmsg_fits(nlh, len));
	nlh->nlmsg_len = sizeof(*nlh) - 1;
	assert_false(roce_nlmsg_fits(nlh, len));
}

/* An NLMSG_ERROR code outside the errno range (INT_MIN cannot be negated:
 * UBSan, found by fuzz/netlink_link) is a malformed reply. */
static void t_error_code_range(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_rtlink_parse(nlreply_error(msgbuf.b, 1, INT_MIN, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.link_read.why, "NLMSG_ERROR code -2147483648 is not an errno"));
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlreply_error(msgbuf.b, 1, -4096, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlreply_error(msgbuf.b, 1, -4095, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNREADABLE);
}

/* "RTM_GETDCB <name>" is what snprintf("%s %s") makes of the escaped name,
 * cut the same way at every buffer size. */
static void t_what(void **state)
{
	(void)state;
	const char *names[] = {
		"eth0", "", "e\x1b[31mx\n",
		"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",   /* 60 bytes escaped: cut */
	};
	char shown[ROCE_NLMSG_SHOWN_MAX], want[ROCE_NLMSG_WHAT_MAX + 32], got[ROCE_NLMSG_WHAT_MAX + 32];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (size_t len = 1; len <= sizeof(got); len++) {
			snprintf(want, len, "%s %s", "RTM_GETDCB", roce_printable(names[i], shown, sizeof(shown)));
			memset(got, 'Z', sizeof(got));
			assert_ptr_equal(roce_nlmsg_what(got, len, "RTM_GETDCB", names[i]), got);
			assert_string_equal(got, want);
		}
	assert_string_equal(roce_nlmsg_what(got, ROCE_NLMSG_WHAT_MAX, "RTM_GETLINK", "e\x1b[31mx\n"),
	                    "RTM_GETLINK e\\x1b[31mx\\n");
}

static int count_cb(const struct nlattr *attr, void *data)
{
	(void)attr;
	++*(int *)data;
	return MNL_CB_OK;
}

static int refuse_cb(const struct nlattr *attr, void *data)
{
	(void)data;
	return mnl_attr_get_type(attr) == IFLA_MTU ? MNL_CB_ERROR : MNL_CB_OK;
}

/* A walk says whether it saw every attribute: libmnl's own iterator stops
 * without a word at one that runs past the message. */
static void t_walk(void **state)
{
	(void)state;
	int n = 0;
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0", 4, IFF_UP, 9000, IF_OPER_UP);
	assert_int_equal(roce_nlmsg_walk(nlh, sizeof(struct ifinfomsg), count_cb, &n), ROCE_NLMSG_WALKED);
	assert_int_equal(n, 7);
	assert_int_equal(roce_nlmsg_walk(nlh, sizeof(struct ifinfomsg), refuse_cb, NULL), ROCE_NLMSG_REFUSED);
	nlh->nlmsg_len -= 4;   /* IFLA_MAX_MTU now ends past the message */
	n = 0;
	assert_int_equal(roce_nlmsg_walk(nlh, sizeof(struct ifinfomsg), count_cb, &n), ROCE_NLMSG_OVERRUN);
	assert_int_equal(n, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fits),
		cmocka_unit_test(t_what),
		cmocka_unit_test(t_error_code_range),
		cmocka_unit_test(t_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
