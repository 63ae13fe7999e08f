/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_rtlink.c - RTM_GETLINK replies (lib/collect/netlink/rtlink.c), byte-exact as
 * rtnl_fill_ifinfo() and netlink_ack() send them (tests/lib/nlreply.c),
 * fed to roce_rtlink_parse().
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nlreply.h"
#include "collect/netlink/rtlink.h"
#include <linux/if_link.h>

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

/* The last attribute added to nlh (walking from offset). */
static struct nlattr *last_attr(struct nlmsghdr *nlh, size_t offset)
{
	struct nlattr *attr, *last = NULL;
	mnl_attr_for_each(attr, nlh, offset)
		last = attr;
	return last;
}

static void t_link_ok(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0", 7, IFF_UP | IFF_RUNNING | IFF_LOWER_UP, 9000, IF_OPER_UP);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), 0);
	assert_int_equal(nd.link_read.status, ROCE_OK);
	assert_string_equal(nd.link_read.why, "");
	assert_int_equal(nd.ifindex, 7);
	assert_int_equal(nd.mtu, 9000);
	assert_string_equal(nd.operstate, "UP");
	assert_true(nd.up);
}

static void check_up(unsigned flags, uint8_t oper, bool want_up, const char *want_name)
{
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth1");
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth1", 3, flags, 1500, oper);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), 0);
	assert_int_equal(nd.mtu, 1500);
	assert_string_equal(nd.operstate, want_name);
	assert_int_equal(nd.up, want_up);
}

static void t_link_up_rules(void **state)
{
	(void)state;
	check_up(0, IF_OPER_DOWN, false, "DOWN");
	check_up(IFF_UP, IF_OPER_DOWN, false, "DOWN");
	check_up(IFF_UP, IF_OPER_LOWERLAYERDOWN, false, "LOWERLAYERDOWN");
	check_up(IFF_UP | IFF_RUNNING, IF_OPER_DORMANT, false, "DORMANT");
	/* loopback-style: no carrier reporting, operstate stays UNKNOWN */
	check_up(IFF_UP | IFF_RUNNING | IFF_LOOPBACK, IF_OPER_UNKNOWN, true, "UNKNOWN");
	check_up(IFF_UP, IF_OPER_UNKNOWN, false, "UNKNOWN");
	/* operstate UP but administratively down cannot carry traffic */
	check_up(IFF_RUNNING, IF_OPER_UP, false, "UP");
	check_up(IFF_UP | IFF_RUNNING, 42, false, "UNKNOWN(42)");
}

static void t_link_enodev(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth9");
	assert_int_equal(roce_rtlink_parse(nlreply_error(msgbuf.b, 1, -ENODEV, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MISSING);
	assert_int_equal(nd.link_read.err, ENODEV);
	assert_string_equal(nd.link_read.why, "netdev eth9 does not exist in this network namespace");
	assert_int_equal(nd.ifindex, -1);

	nlreply_netdev(&nd, "eth9");
	assert_int_equal(roce_rtlink_parse(nlreply_error(msgbuf.b, 1, -EPERM, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_UNREADABLE);
	assert_int_equal(nd.link_read.err, EPERM);
	assert_non_null(strstr(nd.link_read.why, "RTM_GETLINK eth9"));

	/* an ACK is not an answer to a GET */
	nlreply_netdev(&nd, "eth9");
	assert_int_equal(roce_rtlink_parse(nlreply_error(msgbuf.b, 1, 0, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.link_read.why, "ACK"));
}

static void expect_link_malformed(struct nlmsghdr *nlh, const char *name, const char *why_part)
{
	struct roce_netdev nd;
	nlreply_netdev(&nd, name);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	if (!strstr(nd.link_read.why, why_part))
		fail_msg("why '%s' lacks '%s'", nd.link_read.why, why_part);
	/* nothing half-filled */
	assert_int_equal(nd.ifindex, -1);
	assert_int_equal(nd.mtu, 0);
	assert_false(nd.up);
}

/* A link reply made by hand: ifindex 2, then the caller's attributes. */
static struct nlmsghdr *hand_link(void)
{
	struct nlmsghdr *nlh = nlreply_header(msgbuf.b, RTM_NEWLINK, 1);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 2;
	return nlh;
}

static void t_link_malformed(void **state)
{
	(void)state;
	struct nlmsghdr *nlh;

	/* IFLA_MTU with a 2-byte payload */
	nlh = hand_link();
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "eth0");
	mnl_attr_put_u16(nlh, IFLA_MTU, 9000);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, IF_OPER_UP);
	expect_link_malformed(nlh, "eth0", "IFLA_MTU is not a u32");

	/* no IFLA_MTU, no IFLA_OPERSTATE */
	nlh = hand_link();
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, IF_OPER_UP);
	expect_link_malformed(nlh, "eth0", "IFLA_MTU missing");
	nlh = hand_link();
	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	expect_link_malformed(nlh, "eth0", "IFLA_OPERSTATE missing");

	/* last attribute claims 8 more bytes than the message has */
	nlh = nlreply_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	last_attr(nlh, sizeof(struct ifinfomsg))->nla_len += 8;
	expect_link_malformed(nlh, "eth0", "overruns");

	/* message cut in the middle of an attribute (IFLA_MAX_MTU) */
	nlh = nlreply_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	nlh->nlmsg_len -= 4;
	expect_link_malformed(nlh, "eth0", "overruns");

	/* an unaligned length would let libmnl look past the message */
	nlh = nlreply_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	nlh->nlmsg_len -= 1;
	expect_link_malformed(nlh, "eth0", "not 4-byte aligned");

	/* too short for struct ifinfomsg */
	nlh = nlreply_header(msgbuf.b, RTM_NEWLINK, 1);
	mnl_nlmsg_put_extra_header(nlh, 8);
	expect_link_malformed(nlh, "eth0", "too short");

	/* shorter than a netlink header */
	nlh = nlreply_header(msgbuf.b, RTM_NEWLINK, 1);
	nlh->nlmsg_len = 8;
	expect_link_malformed(nlh, "eth0", "shorter than a netlink header");

	/* wrong type, wrong netdev, ifindex 0 */
	nlh = nlreply_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	nlh->nlmsg_type = RTM_NEWADDR;
	expect_link_malformed(nlh, "eth0", "type 20");
	expect_link_malformed(nlreply_link(msgbuf.b, 1, "eth1", 2, IFF_UP, 9000, IF_OPER_UP), "eth0",
	                      "reply is about netdev eth1");
	expect_link_malformed(nlreply_link(msgbuf.b, 1, "eth0", 0, IFF_UP, 9000, IF_OPER_UP), "eth0", "ifindex 0");
}

static void t_link_hostile_name(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "e\x1b[31mx\n");
	assert_int_equal(roce_rtlink_parse(nlreply_error(msgbuf.b, 1, -ENODEV, RTM_GETLINK), &nd), -1);
	assert_string_equal(nd.link_read.why, "netdev e\\x1b[31mx\\n does not exist in this network namespace");
}

/* A VLAN device (`ip link add link eth0 name eth0.10 type vlan id 10
 * egress-qos-map 0:3 5:5`): its id and the PCPs its egress map reaches. */
static void t_link_vlan(void **state)
{
	(void)state;
	struct roce_netdev nd;
	const uint32_t eg[][2] = { { 0, 3 }, { 5, 5 } };
	nlreply_netdev(&nd, "eth0.10");
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0.10", 9, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	nlreply_link_vlan(nlh, 10, eg, 2);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), 0);
	assert_true(nd.vlan.is_vlan);
	assert_int_equal(nd.vlan.id, 10);
	assert_int_equal(nd.vlan.egress_pcps, (1u << 3) | (1u << 5));

	/* no egress map: the kernel leaves the nest out */
	nlreply_netdev(&nd, "eth0.10");
	nlh = nlreply_link(msgbuf.b, 1, "eth0.10", 9, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	nlreply_link_vlan(nlh, 10, NULL, 0);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), 0);
	assert_true(nd.vlan.is_vlan);
	assert_int_equal(nd.vlan.egress_pcps, 0);

	/* a physical device: no IFLA_LINKINFO */
	nlreply_netdev(&nd, "eth0");
	nlh = nlreply_link(msgbuf.b, 1, "eth0", 7, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), 0);
	assert_false(nd.vlan.is_vlan);
}

/* A mapping to PCP 9 or cut short is not what the kernel sends: malformed, naming the netdev. */
static void t_link_vlan_malformed(void **state)
{
	(void)state;
	struct roce_netdev nd;
	const uint32_t eg[][2] = { { 0, 9 } };
	nlreply_netdev(&nd, "eth0.10");
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0.10", 9, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	nlreply_link_vlan(nlh, 10, eg, 1);
	assert_int_equal(roce_rtlink_parse(nlh, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.link_read.why, "eth0.10"));
	assert_non_null(strstr(nd.link_read.why, "IFLA_LINKINFO"));
	assert_false(nd.vlan.is_vlan);

	const uint32_t ok[][2] = { { 0, 3 } };
	nlreply_netdev(&nd, "eth0.10");
	nlh = nlreply_link(msgbuf.b, 1, "eth0.10", 9, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	nlreply_link_vlan(nlh, 10, ok, 1);
	struct nlattr *m = nlreply_nested(nlreply_nested(nlreply_nested(nlreply_attr(nlh, sizeof(struct ifinfomsg), IFLA_LINKINFO),
	                                                                IFLA_INFO_DATA), IFLA_VLAN_EGRESS_QOS), IFLA_VLAN_QOS_MAPPING);
	assert_non_null(m);
	m->nla_len = 4 + 4;   /* a mapping of 4 bytes */
	assert_int_equal(roce_rtlink_parse(nlh, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_link_ok),
		cmocka_unit_test(t_link_up_rules),
		cmocka_unit_test(t_link_enodev),
		cmocka_unit_test(t_link_malformed),
		cmocka_unit_test(t_link_hostile_name),
		cmocka_unit_test(t_link_vlan),
		cmocka_unit_test(t_link_vlan_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
