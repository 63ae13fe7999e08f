/*
 * test_netlink.c - the netlink collector against byte-exact replies.
 *
 * Replies are built with the uapi structs and libmnl exactly as the kernel
 * lays them out (rtnl_fill_ifinfo(), dcbnl_ieee_fill(), netlink_ack()), then
 * fed to the parsers directly, or through the transport over an AF_UNIX
 * socketpair whose far end plays the kernel (or a kernel that never
 * answers).  One test asks the real kernel about "lo".
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <net/if.h>     /* before linux/if.h: glibc's and the uapi's must not clash */
#include <linux/dcbnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "model.h"
#include "netlink.h"

#define BUFSZ 16384
static union { char b[BUFSZ]; uint64_t align; } msgbuf;

static void netdev_init(struct roce_netdev *nd, const char *name)
{
	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->ifindex = -1;
	memset(nd->dscp.prio, -1, sizeof(nd->dscp.prio));
}

static struct nlmsghdr *put_header(void *buf, uint16_t type, uint32_t seq)
{
	memset(buf, 0, BUFSZ);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	return nlh;
}

/* ------------------------------------------------------------ builders */

/* RTM_NEWLINK as rtnl_fill_ifinfo() starts it: ifinfomsg, IFNAME, ...,
 * MTU, ..., OPERSTATE. */
static struct nlmsghdr *build_link(void *buf, uint32_t seq, const char *name, int ifindex, unsigned flags,
                                   uint32_t mtu, uint8_t oper)
{
	struct nlmsghdr *nlh = put_header(buf, RTM_NEWLINK, seq);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_type = 1; /* ARPHRD_ETHER */
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = flags;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_TXQLEN, 1000);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, oper);
	mnl_attr_put_u8(nlh, IFLA_LINKMODE, 0);
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	mnl_attr_put_u32(nlh, IFLA_MIN_MTU, 68);
	mnl_attr_put_u32(nlh, IFLA_MAX_MTU, 65535);
	return nlh;
}

/* NLMSG_ERROR as netlink_ack() sends it with NETLINK_CAP_ACK semantics:
 * the error code and the request's header only. */
static struct nlmsghdr *build_error(void *buf, uint32_t seq, int error, uint16_t req_type)
{
	struct nlmsghdr *nlh = put_header(buf, NLMSG_ERROR, seq);
	nlh->nlmsg_flags = NLM_F_CAPPED;
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg.nlmsg_len = 28;
	e->msg.nlmsg_type = req_type;
	e->msg.nlmsg_flags = NLM_F_REQUEST;
	e->msg.nlmsg_seq = seq;
	return nlh;
}

static void put_app(struct nlmsghdr *nlh, uint8_t selector, uint8_t prio, uint16_t protocol)
{
	struct dcb_app app = { .selector = selector, .priority = prio, .protocol = protocol };
	mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(app), &app);
}

static struct ieee_pfc sample_pfc(void)
{
	struct ieee_pfc pfc;
	memset(&pfc, 0, sizeof(pfc));
	pfc.pfc_cap = 8;
	pfc.pfc_en = 0x08;
	pfc.mbc = 0;
	pfc.delay = 0x1234;
	for (int i = 0; i < 8; i++) {
		pfc.requests[i] = 0x100000000ULL * (uint64_t)i + 1000 + (uint64_t)i;
		pfc.indications[i] = 2000 + (uint64_t)i;
	}
	return pfc;
}

enum { WITH_PFC = 1, WITH_APP = 2, SHORT_PFC = 4, WITH_IEEE = 8 };

/* RTM_GETDCB reply as dcbnl_ieee_fill() builds it: IFNAME, IEEE { ETS,
 * PFC, APP_TABLE { APP... } }, DCBX.  The APP table mixes DSCP entries
 * (26 -> 3, 48 -> 6) with entries of other selectors that share numbers
 * with real protocols (FCoE ethertype, RoCE v2 UDP port 4791). */
static struct nlmsghdr *build_dcb(void *buf, uint32_t seq, const char *name, int what)
{
	struct nlmsghdr *nlh = put_header(buf, RTM_GETDCB, seq);
	struct dcbmsg *dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->dcb_family = AF_UNSPEC;
	dcb->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, name);
	if (what & WITH_IEEE) {
		struct nlattr *ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
		struct ieee_ets ets;
		memset(&ets, 0, sizeof(ets));
		ets.ets_cap = 8;
		mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets), &ets);
		if (what & (WITH_PFC | SHORT_PFC)) {
			struct ieee_pfc pfc = sample_pfc();
			mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, (what & SHORT_PFC) ? sizeof(pfc) - 8 : sizeof(pfc), &pfc);
		}
		if (what & WITH_APP) {
			struct nlattr *app = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
			put_app(nlh, IEEE_8021QAZ_APP_SEL_ETHERTYPE, 4, 0x8906);
			put_app(nlh, IEEE_8021QAZ_APP_SEL_DSCP, 3, 26);
			put_app(nlh, IEEE_8021QAZ_APP_SEL_DGRAM, 7, 4791);
			put_app(nlh, IEEE_8021QAZ_APP_SEL_DSCP, 6, 48);
			put_app(nlh, IEEE_8021QAZ_APP_SEL_STREAM, 5, 26);
			put_app(nlh, IEEE_8021QAZ_APP_SEL_ANY, 2, 48);
			mnl_attr_nest_end(nlh, app);
		}
		mnl_attr_nest_end(nlh, ieee);
	}
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	return nlh;
}

/* The last attribute added to nlh (walking from offset). */
static struct nlattr *last_attr(struct nlmsghdr *nlh, size_t offset)
{
	struct nlattr *attr, *last = NULL;
	mnl_attr_for_each(attr, nlh, offset)
		last = attr;
	return last;
}

/* ------------------------------------------------------------ link parser */

static void t_link_ok(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "eth0");
	struct nlmsghdr *nlh = build_link(msgbuf.b, 1, "eth0", 7, IFF_UP | IFF_RUNNING | IFF_LOWER_UP, 9000, IF_OPER_UP);
	assert_int_equal(roce_parse_link_msg(nlh, &nd), 0);
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
	netdev_init(&nd, "eth1");
	struct nlmsghdr *nlh = build_link(msgbuf.b, 1, "eth1", 3, flags, 1500, oper);
	assert_int_equal(roce_parse_link_msg(nlh, &nd), 0);
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
	netdev_init(&nd, "eth9");
	assert_int_equal(roce_parse_link_msg(build_error(msgbuf.b, 1, -ENODEV, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MISSING);
	assert_int_equal(nd.link_read.err, ENODEV);
	assert_string_equal(nd.link_read.why, "netdev eth9 does not exist in this network namespace");
	assert_int_equal(nd.ifindex, -1);

	netdev_init(&nd, "eth9");
	assert_int_equal(roce_parse_link_msg(build_error(msgbuf.b, 1, -EPERM, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_UNREADABLE);
	assert_int_equal(nd.link_read.err, EPERM);
	assert_non_null(strstr(nd.link_read.why, "RTM_GETLINK eth9"));

	/* an ACK is not an answer to a GET */
	netdev_init(&nd, "eth9");
	assert_int_equal(roce_parse_link_msg(build_error(msgbuf.b, 1, 0, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.link_read.why, "ACK"));
}

static void expect_link_malformed(struct nlmsghdr *nlh, const char *name, const char *why_part)
{
	struct roce_netdev nd;
	netdev_init(&nd, name);
	assert_int_equal(roce_parse_link_msg(nlh, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	if (!strstr(nd.link_read.why, why_part))
		fail_msg("why '%s' lacks '%s'", nd.link_read.why, why_part);
	/* nothing half-filled */
	assert_int_equal(nd.ifindex, -1);
	assert_int_equal(nd.mtu, 0);
	assert_false(nd.up);
}

static void t_link_malformed(void **state)
{
	(void)state;
	struct nlmsghdr *nlh;

	/* IFLA_MTU with a 2-byte payload */
	nlh = put_header(msgbuf.b, RTM_NEWLINK, 1);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 2;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "eth0");
	mnl_attr_put_u16(nlh, IFLA_MTU, 9000);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, IF_OPER_UP);
	expect_link_malformed(nlh, "eth0", "IFLA_MTU is not a u32");

	/* no IFLA_MTU, no IFLA_OPERSTATE */
	nlh = put_header(msgbuf.b, RTM_NEWLINK, 1);
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 2;
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, IF_OPER_UP);
	expect_link_malformed(nlh, "eth0", "IFLA_MTU missing");
	nlh = put_header(msgbuf.b, RTM_NEWLINK, 1);
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 2;
	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	expect_link_malformed(nlh, "eth0", "IFLA_OPERSTATE missing");

	/* last attribute claims 8 more bytes than the message has */
	nlh = build_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	last_attr(nlh, sizeof(struct ifinfomsg))->nla_len += 8;
	expect_link_malformed(nlh, "eth0", "overruns");

	/* message cut in the middle of an attribute (IFLA_MAX_MTU) */
	nlh = build_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	nlh->nlmsg_len -= 4;
	expect_link_malformed(nlh, "eth0", "overruns");

	/* an unaligned length would let libmnl look past the message */
	nlh = build_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	nlh->nlmsg_len -= 1;
	expect_link_malformed(nlh, "eth0", "not 4-byte aligned");

	/* too short for struct ifinfomsg */
	nlh = put_header(msgbuf.b, RTM_NEWLINK, 1);
	mnl_nlmsg_put_extra_header(nlh, 8);
	expect_link_malformed(nlh, "eth0", "too short");

	/* shorter than a netlink header */
	nlh = put_header(msgbuf.b, RTM_NEWLINK, 1);
	nlh->nlmsg_len = 8;
	expect_link_malformed(nlh, "eth0", "shorter than a netlink header");

	/* wrong type, wrong netdev, ifindex 0 */
	nlh = build_link(msgbuf.b, 1, "eth0", 2, IFF_UP, 9000, IF_OPER_UP);
	nlh->nlmsg_type = RTM_NEWADDR;
	expect_link_malformed(nlh, "eth0", "type 20");
	expect_link_malformed(build_link(msgbuf.b, 1, "eth1", 2, IFF_UP, 9000, IF_OPER_UP), "eth0",
	                      "reply is about netdev eth1");
	expect_link_malformed(build_link(msgbuf.b, 1, "eth0", 0, IFF_UP, 9000, IF_OPER_UP), "eth0", "ifindex 0");
}

static void t_link_hostile_name(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "e\x1b[31mx\n");
	assert_int_equal(roce_parse_link_msg(build_error(msgbuf.b, 1, -ENODEV, RTM_GETLINK), &nd), -1);
	assert_string_equal(nd.link_read.why, "netdev e\\x1b[31mx\\n does not exist in this network namespace");
}

/* ------------------------------------------------------------ DCB parser */

static void assert_only_dscp(const struct roce_netdev *nd, int d1, int p1, int d2, int p2)
{
	for (int d = 0; d < ROCE_DSCP_MAX; d++) {
		int want = d == d1 ? p1 : d == d2 ? p2 : -1;
		if (nd->dscp.prio[d] != want)
			fail_msg("dscp %d -> %d, want %d", d, nd->dscp.prio[d], want);
	}
}

static void t_dcb_full(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "eth0");
	struct nlmsghdr *nlh = build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | WITH_PFC | WITH_APP);
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), 0);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.pfc.cap, 8);
	assert_int_equal(nd.pfc.enabled, 0x08);
	assert_int_equal(nd.pfc.mbc, 0);
	assert_int_equal(nd.pfc.delay, 0x1234);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(nd.pfc.requests[i], 0x100000000ULL * (uint64_t)i + 1000 + (uint64_t)i);
		assert_int_equal(nd.pfc.indications[i], 2000 + (uint64_t)i);
	}
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 2);
	assert_only_dscp(&nd, 26, 3, 48, 6);
}

static void t_dcb_no_app_table(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | WITH_PFC), &nd), 0);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 0);
	assert_only_dscp(&nd, -1, -1, -1, -1);

	/* an empty nest, as dcbnl_ieee_fill() sends for an empty table */
	struct nlmsghdr *nlh = put_header(msgbuf.b, RTM_GETDCB, 1);
	struct dcbmsg *dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->cmd = DCB_CMD_IEEE_GET;
	struct nlattr *ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_nest_end(nlh, mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE));
	mnl_attr_nest_end(nlh, ieee);
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.n, 0);
	/* no ieee_getpfc op: unknown, not disabled */
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.pfc.read.why, "no IEEE PFC"));
}

static void t_dcb_short_pfc(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | SHORT_PFC | WITH_APP), &nd), -1);
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

static void t_dcb_eopnotsupp(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "veth0");
	/* what the kernel answered for lo/veth on this machine (strace of
	 * `dcb pfc show dev lo`): 36 bytes, NLM_F_CAPPED, -EOPNOTSUPP */
	struct nlmsghdr *nlh = build_error(msgbuf.b, 1, -EOPNOTSUPP, RTM_GETDCB);
	assert_int_equal(nlh->nlmsg_len, 36);
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.dscp.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.pfc.read.err, EOPNOTSUPP);
	assert_string_equal(roce_status_name(nd.pfc.read.status), "not supported");
	assert_non_null(strstr(nd.pfc.read.why, "RTM_GETDCB veth0: driver has no DCB support"));
	assert_int_equal(nd.pfc.enabled, 0);

	/* without NETLINK_CAP_ACK the kernel echoes the whole request */
	nlh = build_error(msgbuf.b, 1, -EOPNOTSUPP, RTM_GETDCB);
	nlh->nlmsg_flags = 0;
	char *echo = mnl_nlmsg_put_extra_header(nlh, 12);
	memcpy(echo, "\x00\x00\x00\x00\x09\x00\x01\x00lo\x00\x00", 12);
	netdev_init(&nd, "veth0");
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);

	netdev_init(&nd, "veth9");
	assert_int_equal(roce_parse_dcb_msg(build_error(msgbuf.b, 1, -ENODEV, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MISSING);
	assert_int_equal(nd.dscp.read.status, ROCE_MISSING);

	netdev_init(&nd, "veth9");
	assert_int_equal(roce_parse_dcb_msg(build_error(msgbuf.b, 1, -EPERM, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNREADABLE);
	assert_int_equal(nd.dscp.read.err, EPERM);
}

static void t_dcb_missing_ieee(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_dcb(msgbuf.b, 1, "eth0", 0), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.dscp.read.status, ROCE_UNSUPPORTED);
	assert_non_null(strstr(nd.pfc.read.why, "no DCB_ATTR_IEEE"));
}

/* An APP table with one hand-made entry. */
static struct nlmsghdr *build_app_only(const void *entry, size_t len, const void *entry2, size_t len2)
{
	struct nlmsghdr *nlh = put_header(msgbuf.b, RTM_GETDCB, 1);
	struct dcbmsg *dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->cmd = DCB_CMD_IEEE_GET;
	struct nlattr *ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	struct ieee_pfc pfc = sample_pfc();
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
	netdev_init(&nd, "eth0");
	roce_parse_dcb_msg(nlh, &nd);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, want);
	if (why_part && !strstr(nd.dscp.read.why, why_part))
		fail_msg("why '%s' lacks '%s'", nd.dscp.read.why, why_part);
	if (want != ROCE_OK) {
		assert_int_equal(nd.dscp.n, 0);
		assert_only_dscp(&nd, -1, -1, -1, -1);
	}
}

static void t_dcb_bad_app(void **state)
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
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_app_only(&a, sizeof(a), &a, sizeof(a)), &nd), 0);
	assert_int_equal(nd.dscp.n, 1);
	assert_only_dscp(&nd, 26, 3, -1, -1);
}

static void t_dcb_garbled(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct nlmsghdr *nlh;

	/* the APP table nest claims more than the IEEE nest holds */
	nlh = build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | WITH_PFC | WITH_APP);
	struct nlattr *ieee = mnl_nlmsg_get_payload_offset(nlh, sizeof(struct dcbmsg));
	ieee = mnl_attr_next(ieee); /* after IFNAME */
	assert_int_equal(mnl_attr_get_type(ieee), DCB_ATTR_IEEE);
	struct nlattr *inner, *app = NULL;
	mnl_attr_for_each_nested(inner, ieee)
		app = inner;
	assert_int_equal(mnl_attr_get_type(app), DCB_ATTR_IEEE_APP_TABLE);
	app->nla_len += 4;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.pfc.read.why, "DCB_ATTR_IEEE nest is garbled"));

	/* an APP entry overruns its table */
	app->nla_len -= 4;
	struct nlattr *entry, *last = NULL;
	mnl_attr_for_each_nested(entry, app)
		last = entry;
	last->nla_len += 4;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.dscp.read.why, "overruns DCB_ATTR_IEEE_APP_TABLE"));

	/* a reply to another DCB command */
	nlh = build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | WITH_PFC);
	((struct dcbmsg *)mnl_nlmsg_get_payload(nlh))->cmd = DCB_CMD_PFC_GCFG;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	char want[64];
	snprintf(want, sizeof(want), "DCB command %d, not IEEE_GET", DCB_CMD_PFC_GCFG);
	assert_non_null(strstr(nd.pfc.read.why, want));

	/* the message ends inside the IEEE nest */
	nlh = build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | WITH_PFC | WITH_APP);
	nlh->nlmsg_len -= 16;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(nlh, &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);

	/* another netdev's answer */
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_dcb(msgbuf.b, 1, "eth1", WITH_IEEE | WITH_PFC), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
}

/* Every 4-byte truncation and many byte flips of a full DCB reply, each in
 * a heap block of exactly nlmsg_len bytes so that ASan sees any read past
 * the message.  Statuses must stay meaningful and OK values in range. */
static void t_dcb_mangled(void **state)
{
	(void)state;
	struct nlmsghdr *full = build_dcb(msgbuf.b, 1, "eth0", WITH_IEEE | WITH_PFC | WITH_APP);
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
		netdev_init(&nd, "eth0");
		roce_parse_dcb_msg(m, &nd);
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

/* ------------------------------------------------------------ transport */

struct pair {
	struct roce_nl *nl;
	int peer;   /* the "kernel" end */
};

static void pair_open(struct pair *p, int timeout_ms)
{
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv), 0);
	p->nl = roce_nl_open_fd(sv[0], timeout_ms);
	assert_non_null(p->nl);
	p->peer = sv[1];
}

static void pair_close(struct pair *p)
{
	roce_nl_close(p->nl);
	close(p->peer);
}

static void peer_send(struct pair *p, const struct nlmsghdr *nlh)
{
	assert_int_equal(send(p->peer, nlh, nlh->nlmsg_len, 0), (ssize_t)nlh->nlmsg_len);
}

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A peer that never answers: the request must come back TIMEOUT after the
 * deadline, and not much later (2x is a correctness bound, not a speed
 * claim). */
static void t_deadline_silent_peer(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	pair_open(&p, 200);
	netdev_init(&nd, "eth0");
	int64_t t0 = mono_ms();
	assert_int_equal(roce_nl_get_link(p.nl, &nd), -1);
	int64_t took = mono_ms() - t0;
	assert_int_equal(nd.link_read.status, ROCE_TIMEOUT);
	assert_int_equal(nd.link_read.err, ETIMEDOUT);
	assert_non_null(strstr(nd.link_read.why, "RTM_GETLINK eth0: no answer"));
	if (took < 200 || took > 400)
		fail_msg("timed out after %lld ms with a 200 ms deadline", (long long)took);

	t0 = mono_ms();
	assert_int_equal(roce_nl_get_dcb(p.nl, &nd), -1);
	took = mono_ms() - t0;
	assert_int_equal(nd.pfc.read.status, ROCE_TIMEOUT);
	assert_int_equal(nd.dscp.read.status, ROCE_TIMEOUT);
	if (took < 200 || took > 400)
		fail_msg("DCB timed out after %lld ms with a 200 ms deadline", (long long)took);
	pair_close(&p);
}

/* One overall budget for a whole collection: three netdevs, six requests,
 * 10 s per request but 300 ms in all. */
static void t_deadline_budget(void **state)
{
	(void)state;
	struct pair p;
	struct roce_node node;
	pair_open(&p, 10000);
	roce_node_init(&node);
	assert_non_null(roce_node_add_netdev(&node, "eth0"));
	assert_non_null(roce_node_add_netdev(&node, "eth1"));
	assert_non_null(roce_node_add_netdev(&node, "eth2"));
	roce_nl_set_budget(p.nl, 300);
	int64_t t0 = mono_ms();
	assert_int_equal(roce_nl_collect(p.nl, &node), 3);
	int64_t took = mono_ms() - t0;
	if (took < 300 || took > 600)
		fail_msg("collection took %lld ms with a 300 ms budget", (long long)took);
	for (size_t i = 0; i < node.n_netdevs; i++) {
		assert_int_equal(node.netdevs[i].link_read.status, ROCE_TIMEOUT);
		assert_int_equal(node.netdevs[i].pfc.read.status, ROCE_TIMEOUT);
		assert_int_equal(node.netdevs[i].dscp.read.status, ROCE_TIMEOUT);
	}
	/* the first request used the budget; later ones were never sent */
	assert_non_null(strstr(node.netdevs[2].link_read.why, "deadline passed before the request was sent"));
	char req[256];
	assert_true(recv(p.peer, req, sizeof(req), MSG_DONTWAIT) > 0);
	assert_int_equal(recv(p.peer, req, sizeof(req), MSG_DONTWAIT), -1);
	roce_node_free(&node);
	pair_close(&p);
}

/* Replies are matched by sequence number: a stale reply (to a request that
 * timed out earlier) is skipped.  The requests are checked byte by byte. */
static void t_transport_requests_and_seq(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	union { char b[512]; uint64_t align; } req;
	pair_open(&p, 2000);
	netdev_init(&nd, "eth0");

	peer_send(&p, build_link(msgbuf.b, 7, "eth0", 4, IFF_UP, 1500, IF_OPER_DOWN)); /* stale */
	peer_send(&p, build_link(msgbuf.b, 1, "eth0", 4, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP));
	assert_int_equal(roce_nl_get_link(p.nl, &nd), 0);
	assert_int_equal(nd.mtu, 9000);
	assert_true(nd.up);

	ssize_t n = recv(p.peer, req.b, sizeof(req.b), MSG_DONTWAIT);
	const struct nlmsghdr *rq = (const void *)req.b;
	assert_int_equal(n, 16 + 16 + 12);
	assert_int_equal(rq->nlmsg_len, n);
	assert_int_equal(rq->nlmsg_type, RTM_GETLINK);
	assert_int_equal(rq->nlmsg_flags, NLM_F_REQUEST);
	assert_int_equal(rq->nlmsg_seq, 1);
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(rq);
	assert_int_equal(ifi->ifi_index, 0);
	const struct nlattr *a = mnl_nlmsg_get_payload_offset(rq, sizeof(*ifi));
	assert_int_equal(mnl_attr_get_type(a), IFLA_IFNAME);
	assert_int_equal(a->nla_len, 4 + 5);
	assert_memory_equal(mnl_attr_get_payload(a), "eth0", 5);

	/* two messages in one datagram: the one for another seq is skipped */
	char two[2 * 1024] __attribute__((aligned(8)));
	struct nlmsghdr *m1 = build_dcb(msgbuf.b, 9, "eth0", WITH_IEEE);
	memcpy(two, m1, m1->nlmsg_len);
	size_t off = m1->nlmsg_len;
	struct nlmsghdr *m2 = build_dcb(msgbuf.b, 2, "eth0", WITH_IEEE | WITH_PFC | WITH_APP);
	memcpy(two + off, m2, m2->nlmsg_len);
	assert_int_equal(send(p.peer, two, off + m2->nlmsg_len, 0), (ssize_t)(off + m2->nlmsg_len));
	assert_int_equal(roce_nl_get_dcb(p.nl, &nd), 0);
	assert_int_equal(nd.pfc.enabled, 0x08);
	assert_int_equal(nd.dscp.prio[26], 3);

	n = recv(p.peer, req.b, sizeof(req.b), MSG_DONTWAIT);
	assert_int_equal(n, 16 + 4 + 12);
	assert_int_equal(rq->nlmsg_type, RTM_GETDCB);
	assert_int_equal(rq->nlmsg_flags, NLM_F_REQUEST);
	assert_int_equal(rq->nlmsg_seq, 2);
	const struct dcbmsg *dcb = mnl_nlmsg_get_payload(rq);
	assert_int_equal(dcb->dcb_family, AF_UNSPEC);
	assert_int_equal(dcb->cmd, DCB_CMD_IEEE_GET);
	a = mnl_nlmsg_get_payload_offset(rq, sizeof(*dcb));
	assert_int_equal(mnl_attr_get_type(a), DCB_ATTR_IFNAME);
	assert_memory_equal(mnl_attr_get_payload(a), "eth0", 5);
	pair_close(&p);
}

/* A reply bigger than the receive buffer is reported, not read past. */
static void t_transport_oversize(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	pair_open(&p, 2000);
	netdev_init(&nd, "eth0");
	size_t big = 40000;
	char *blob = calloc(1, big);
	assert_non_null(blob);
	struct nlmsghdr *nlh = build_link(msgbuf.b, 1, "eth0", 4, IFF_UP, 9000, IF_OPER_UP);
	memcpy(blob, nlh, nlh->nlmsg_len);
	assert_int_equal(send(p.peer, blob, big, 0), (ssize_t)big);
	free(blob);
	assert_int_equal(roce_nl_get_link(p.nl, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_UNREADABLE);
	assert_non_null(strstr(nd.link_read.why, "reply larger than"));
	assert_int_equal(nd.mtu, 0);
	pair_close(&p);
}

/* A message whose nlmsg_len has the top bit set passes libmnl's
 * mnl_nlmsg_ok() (it compares as int); it must be skipped as not fitting the
 * datagram, never handed to a parser (found by fuzz/netlink_link). */
static void t_transport_huge_nlmsg_len(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	pair_open(&p, 200);
	netdev_init(&nd, "eth0");
	struct nlmsghdr *nlh = build_link(msgbuf.b, 1, "eth0", 4, IFF_UP, 9000, IF_OPER_UP);
	size_t len = nlh->nlmsg_len;
	nlh->nlmsg_len = 0xfffff600u;
	assert_int_equal(send(p.peer, nlh, len, 0), (ssize_t)len);
	assert_int_equal(roce_nl_get_link(p.nl, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_TIMEOUT);
	assert_int_equal(nd.mtu, 0);
	pair_close(&p);
}

/* An NLMSG_ERROR code outside the errno range (INT_MIN cannot be negated:
 * UBSan, found by fuzz/netlink_link) is a malformed reply. */
static void t_error_code_range(void **state)
{
	(void)state;
	struct roce_netdev nd;
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_link_msg(build_error(msgbuf.b, 1, INT_MIN, RTM_GETLINK), &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.link_read.why, "NLMSG_ERROR code -2147483648 is not an errno"));
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_error(msgbuf.b, 1, -4096, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_MALFORMED);
	netdev_init(&nd, "eth0");
	assert_int_equal(roce_parse_dcb_msg(build_error(msgbuf.b, 1, -4095, RTM_GETDCB), &nd), -1);
	assert_int_equal(nd.pfc.read.status, ROCE_UNREADABLE);
}

/* The peer went away: send fails, reported as UNREADABLE. */
static void t_transport_peer_closed(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	pair_open(&p, 2000);
	close(p.peer);
	p.peer = -1;
	netdev_init(&nd, "eth0");
	int64_t t0 = mono_ms();
	assert_int_equal(roce_nl_get_dcb(p.nl, &nd), -1);
	assert_true(mono_ms() - t0 < 1000);
	assert_int_equal(nd.pfc.read.status, ROCE_UNREADABLE);
	assert_non_null(strstr(nd.pfc.read.why, "send"));
	roce_nl_close(p.nl);
}

static void t_invalid_names(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	pair_open(&p, 200);
	netdev_init(&nd, "");
	assert_int_equal(roce_nl_get_link(p.nl, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_int_equal(roce_nl_get_dcb(p.nl, &nd), -1);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);
	/* nothing was sent */
	char req[64];
	assert_int_equal(recv(p.peer, req, sizeof(req), MSG_DONTWAIT), -1);
	pair_close(&p);
	errno = 0;
	assert_null(roce_nl_open(0));
	assert_int_equal(errno, EINVAL);
}

/* ------------------------------------------------------------ real kernel */

static void add_port(struct roce_node *node, const char *dev, const char *netdev)
{
	node->devices = realloc(node->devices, (node->n_devices + 1) * sizeof(*node->devices));
	assert_non_null(node->devices);
	struct roce_device *d = &node->devices[node->n_devices++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", dev);
	d->ports = calloc(1, sizeof(*d->ports));
	assert_non_null(d->ports);
	d->n_ports = 1;
	d->ports[0].num = 1;
	snprintf(d->ports[0].netdev, sizeof(d->ports[0].netdev), "%s", netdev);
}

/* Loopback exists in every network namespace and has no DCB ops. */
static void t_kernel_lo(void **state)
{
	(void)state;
	struct roce_nl *nl = roce_nl_open(2000);
	if (!nl)
		skip();
	roce_nl_close(nl);

	struct roce_node node;
	roce_node_init(&node);
	add_port(&node, "rxe0", "lo");
	add_port(&node, "rxe1", "roce-nx0");
	add_port(&node, "rxe2", "lo");    /* same netdev twice: one entry */
	add_port(&node, "rxe3", "");      /* no netdev: none */
	assert_int_equal(roce_collect_netlink(&node, 2000), 2);
	assert_int_equal(node.n_netdevs, 2);
	struct roce_netdev *lo = roce_node_find_netdev(&node, "lo");
	assert_non_null(lo);
	assert_int_equal(lo->link_read.status, ROCE_OK);
	assert_true(lo->ifindex > 0);
	assert_true(lo->mtu > 0);
	assert_true(lo->operstate[0] != '\0');
	assert_int_equal(lo->pfc.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(lo->dscp.read.status, ROCE_UNSUPPORTED);
	struct roce_netdev *nx = roce_node_find_netdev(&node, "roce-nx0");
	assert_non_null(nx);
	assert_int_equal(nx->link_read.status, ROCE_MISSING);
	assert_string_equal(nx->link_read.why, "netdev roce-nx0 does not exist in this network namespace");
	assert_int_equal(nx->pfc.read.status, ROCE_MISSING);
	roce_node_free(&node);
}

/* Any process may unicast to our port id: a forged RTM_NEWLINK queued
 * before the request, with the right sequence number and port id, must be
 * dropped because it does not come from the kernel (nl_pid 0). */
static void t_kernel_spoofed_reply(void **state)
{
	(void)state;
	struct roce_nl *nl = roce_nl_open(2000);
	if (!nl)
		skip();
	int spoofer = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	assert_true(spoofer >= 0);
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_pid = roce_nl_portid(nl) };
	assert_true(to.nl_pid != 0);
	struct nlmsghdr *fake = build_link(msgbuf.b, 1, "lo", 1, IFF_UP | IFF_RUNNING, 1234, IF_OPER_UP);
	fake->nlmsg_pid = to.nl_pid;
	assert_int_equal(sendto(spoofer, fake, fake->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)),
	                 (ssize_t)fake->nlmsg_len);
	struct roce_netdev nd;
	netdev_init(&nd, "lo");
	assert_int_equal(roce_nl_get_link(nl, &nd), 0);
	assert_int_equal(nd.link_read.status, ROCE_OK);
	assert_true(nd.mtu != 1234);
	assert_true(nd.mtu > 0);
	close(spoofer);
	roce_nl_close(nl);
}

/* No file descriptors left: every reading says why. */
static void t_open_fails(void **state)
{
	(void)state;
	struct roce_node node;
	struct rlimit old, low;
	roce_node_init(&node);
	add_port(&node, "mlx5_0", "eth0");
	add_port(&node, "mlx5_1", "eth1");
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	int probe = dup(0);
	assert_true(probe >= 0);
	close(probe);
	low = old;
	low.rlim_cur = (rlim_t)probe; /* the lowest free fd is now out of range */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	errno = 0;
	int rc = roce_collect_netlink(&node, 1000);
	int err = errno;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(rc, -1);
	assert_int_equal(err, EMFILE);
	assert_int_equal(node.n_netdevs, 2);
	for (size_t i = 0; i < 2; i++) {
		struct roce_netdev *nd = &node.netdevs[i];
		assert_int_equal(nd->link_read.status, ROCE_UNREADABLE);
		assert_int_equal(nd->pfc.read.status, ROCE_UNREADABLE);
		assert_int_equal(nd->dscp.read.status, ROCE_UNREADABLE);
		assert_int_equal(nd->link_read.err, EMFILE);
		assert_string_equal(nd->link_read.why, "cannot open a NETLINK_ROUTE socket: Too many open files");
	}
	roce_node_free(&node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_link_ok),
		cmocka_unit_test(t_link_up_rules),
		cmocka_unit_test(t_link_enodev),
		cmocka_unit_test(t_link_malformed),
		cmocka_unit_test(t_link_hostile_name),
		cmocka_unit_test(t_dcb_full),
		cmocka_unit_test(t_dcb_no_app_table),
		cmocka_unit_test(t_dcb_short_pfc),
		cmocka_unit_test(t_dcb_eopnotsupp),
		cmocka_unit_test(t_dcb_missing_ieee),
		cmocka_unit_test(t_dcb_bad_app),
		cmocka_unit_test(t_dcb_garbled),
		cmocka_unit_test(t_dcb_mangled),
		cmocka_unit_test(t_deadline_silent_peer),
		cmocka_unit_test(t_deadline_budget),
		cmocka_unit_test(t_transport_requests_and_seq),
		cmocka_unit_test(t_transport_oversize),
		cmocka_unit_test(t_transport_peer_closed),
		cmocka_unit_test(t_transport_huge_nlmsg_len),
		cmocka_unit_test(t_error_code_range),
		cmocka_unit_test(t_invalid_names),
		cmocka_unit_test(t_kernel_lo),
		cmocka_unit_test(t_kernel_spoofed_reply),
		cmocka_unit_test(t_open_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
