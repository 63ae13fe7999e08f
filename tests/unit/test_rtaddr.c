/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_rtaddr.c - RTM_GETADDR (lib/collect/netlink/rtaddr.c): dump messages
 * byte-exact as inet_fill_ifaddr(), inet6_fill_ifaddr() and
 * netlink_dump_done() build them (tests/lib/nlreply.c) fed to
 * roce_rtaddr_parse(); whole dumps over an AF_UNIX socketpair playing the
 * kernel (nl.c's roce_nl_dump) filed under a node's netdevs; and the real
 * kernel's loopback.
 */
#include "config.h"
#include "unit.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "nlreply.h"
#include "base/clock.h"
#include "collect/netlink/rtaddr.h"
#include "collect/netlink/rtlink.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;
static union { char b[NLREPLY_BUFSZ]; uint64_t align; } dgram;

static struct nlmsghdr *addr4(uint32_t seq, const char *text, unsigned prefix, int ifindex, const char *label)
{
	uint8_t a[4];
	assert_int_equal(inet_pton(AF_INET, text, a), 1);
	return nlreply_addr(msgbuf.b, seq, AF_INET, a, prefix, ifindex, label, 0);
}

static struct nlmsghdr *addr6(uint32_t seq, const char *text, unsigned prefix, int ifindex, uint8_t scope)
{
	uint8_t a[16];
	assert_int_equal(inet_pton(AF_INET6, text, a), 1);
	return nlreply_addr(msgbuf.b, seq, AF_INET6, a, prefix, ifindex, "", scope);
}

static void t_parse_ipv4(void **state)
{
	(void)state;
	struct roce_ifaddr a;
	char why[ROCE_WHY_MAX] = "";
	int ifindex = 0;
	struct nlmsghdr *nlh = addr4(1, "192.0.2.70", 26, 5, "eth1");
	/* what inet_fill_ifaddr() puts, byte by byte: 16 + 8 of header, then
	 * ADDRESS, LOCAL, BROADCAST (8 each), LABEL "eth1" (12), FLAGS (8), CACHEINFO (20) */
	assert_int_equal(nlh->nlmsg_len, 16 + 8 + 8 + 8 + 8 + 12 + 8 + 20);
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), 1);
	assert_int_equal(a.family, AF_INET);
	assert_int_equal(a.prefix, 26);
	assert_int_equal(ifindex, 5);
	assert_memory_equal(a.addr, ((uint8_t[]){ 192, 0, 2, 70 }), 4);
	/* a point-to-point address: IFA_LOCAL is ours, IFA_ADDRESS the peer's */
	struct nlattr *at = nlreply_attr(nlh, sizeof(struct ifaddrmsg), IFA_ADDRESS);
	memcpy(mnl_attr_get_payload(at), ((uint8_t[]){ 192, 0, 2, 71 }), 4);
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), 1);
	assert_memory_equal(a.addr, ((uint8_t[]){ 192, 0, 2, 70 }), 4);
}

static void t_parse_ipv6(void **state)
{
	(void)state;
	struct roce_ifaddr a;
	char why[ROCE_WHY_MAX] = "";
	int ifindex = 0;
	uint8_t want[16];
	inet_pton(AF_INET6, "2001:db8:1::10", want);
	struct nlmsghdr *nlh = addr6(9, "2001:db8:1::10", 64, 7, 0);
	assert_int_equal(nlh->nlmsg_len, 16 + 8 + 20 + 20 + 8);
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), 1);
	assert_int_equal(a.family, AF_INET6);
	assert_int_equal(a.prefix, 64);
	assert_int_equal(ifindex, 7);
	assert_memory_equal(a.addr, want, 16);
	/* another family is skipped, not refused */
	((struct ifaddrmsg *)mnl_nlmsg_get_payload(nlh))->ifa_family = AF_PACKET;
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), 0);
}

static void t_parse_refused(void **state)
{
	(void)state;
	struct roce_ifaddr a;
	char why[ROCE_WHY_MAX];
	int ifindex;
	struct nlmsghdr *nlh;

	nlh = addr4(1, "192.0.2.70", 26, 5, "eth1");
	((struct ifaddrmsg *)mnl_nlmsg_get_payload(nlh))->ifa_prefixlen = 33;
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);
	assert_string_equal(why, "RTM_GETADDR: prefix length 33 or ifindex 5 out of range");

	nlh = addr4(1, "192.0.2.70", 26, 0, "eth1");
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);

	/* an IPv6 message carrying 4 bytes */
	nlh = addr4(1, "192.0.2.70", 26, 5, "eth1");
	((struct ifaddrmsg *)mnl_nlmsg_get_payload(nlh))->ifa_family = AF_INET6;
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);
	assert_string_equal(why, "RTM_GETADDR: an IPv6 address of 4 bytes");

	/* no address at all */
	nlh = nlreply_header(msgbuf.b, RTM_NEWADDR, 1);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_index = 3;
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);
	assert_string_equal(why, "RTM_GETADDR: an IPv4 address of 0 bytes");

	/* an attribute that runs past the message */
	nlh = addr4(1, "192.0.2.70", 26, 5, "eth1");
	nlreply_attr(nlh, sizeof(struct ifaddrmsg), IFA_FLAGS)->nla_len = 200;
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);
	assert_non_null(strstr(why, "overruns"));

	/* another type, and a message too short for its ifaddrmsg */
	nlh = nlreply_link(msgbuf.b, 1, "eth0", 2, 0, 1500, 6);
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);
	nlh = nlreply_header(msgbuf.b, RTM_NEWADDR, 1);
	nlh->nlmsg_len = 20;
	assert_int_equal(roce_rtaddr_parse(nlh, &a, &ifindex, why), -1);
}

/* ---------------------------------------------------------------- dumps */

struct pair {
	struct roce_nl *nl;
	int peer;
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

/* The datagram built so far, queued for the next request (seq 1 on a fresh pair). */
static void queue(struct pair *p, size_t *off)
{
	assert_int_equal(send(p->peer, dgram.b, *off, 0), (ssize_t)*off);
	*off = 0;
}

static void node_of(struct roce_node *node)
{
	static const char *const names[] = { "eth0", "eth1", "eth2", "eth9" };
	static const int idx[] = { 5, 6, 7, -1 };
	roce_node_init(node);
	for (size_t i = 0; i < 4; i++) {
		struct roce_netdev *nd = roce_node_add_netdev(node, names[i]);
		assert_non_null(nd);
		nd->ifindex = idx[i];
		roce_reading_set(&nd->link_read, i == 3 ? ROCE_MISSING : ROCE_OK, i == 3 ? ENODEV : 0,
		                 i == 3 ? "netdev eth9 does not exist in this network namespace" : NULL);
	}
}

static void t_collect(void **state)
{
	(void)state;
	struct pair p;
	struct roce_node node;
	size_t off = 0;
	pair_open(&p, 2000);
	node_of(&node);
	/* two datagrams: lo, eth0's IPv4 and link-local IPv6; then eth1's and the end */
	nlreply_append(dgram.b, &off, addr4(1, "127.0.0.1", 8, 1, "lo"));
	nlreply_append(dgram.b, &off, addr4(1, "192.0.2.10", 26, 5, "eth0"));
	nlreply_append(dgram.b, &off, addr6(1, "fe80::1", 64, 5, 253));
	nlreply_append(dgram.b, &off, addr6(2, "2001:db8::99", 64, 6, 0)); /* another request's: not ours */
	queue(&p, &off);
	nlreply_append(dgram.b, &off, addr4(1, "192.0.2.75", 26, 6, "eth1"));
	nlreply_append(dgram.b, &off, nlreply_done(msgbuf.b, 1, 0));
	queue(&p, &off);
	assert_int_equal(roce_rtaddr_collect(p.nl, &node), 0);
	struct roce_netdev *e0 = &node.netdevs[0], *e1 = &node.netdevs[1], *e2 = &node.netdevs[2],
	                   *e9 = &node.netdevs[3];
	assert_int_equal(e0->addr_read.status, ROCE_OK);
	assert_int_equal(e0->n_addrs, 2);
	assert_int_equal(e0->addrs[0].prefix, 26);
	assert_int_equal(e0->addrs[1].family, AF_INET6);
	assert_int_equal(e1->n_addrs, 1);
	assert_memory_equal(e1->addrs[0].addr, ((uint8_t[]){ 192, 0, 2, 75 }), 4);
	assert_int_equal(e2->addr_read.status, ROCE_OK); /* no address: known */
	assert_int_equal(e2->n_addrs, 0);
	assert_int_equal(e9->addr_read.status, ROCE_MISSING);
	assert_string_equal(e9->addr_read.why, "netdev eth9 does not exist in this network namespace");

	/* the request, byte by byte: a header and an ifaddrmsg of AF_UNSPEC, NLM_F_DUMP */
	union { char b[256]; uint64_t align; } req;
	assert_int_equal(recv(p.peer, req.b, sizeof(req.b), MSG_DONTWAIT), 16 + 8);
	const struct nlmsghdr *r = (const void *)req.b;
	assert_int_equal(r->nlmsg_type, RTM_GETADDR);
	assert_int_equal(r->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	assert_int_equal(r->nlmsg_seq, 1);
	assert_int_equal(((const struct ifaddrmsg *)mnl_nlmsg_get_payload(r))->ifa_family, AF_UNSPEC);
	roce_node_free(&node);
	pair_close(&p);
}

/* More addresses than a netdev keeps: counted. */
static void t_collect_many(void **state)
{
	(void)state;
	struct pair p;
	struct roce_node node;
	size_t off = 0;
	char text[32];
	pair_open(&p, 2000);
	node_of(&node);
	for (int i = 0; i < ROCE_NETDEV_ADDRS + 3; i++) {
		snprintf(text, sizeof(text), "198.51.100.%d", i + 1);
		nlreply_append(dgram.b, &off, addr4(1, text, 24, 5, "eth0"));
	}
	nlreply_append(dgram.b, &off, nlreply_done(msgbuf.b, 1, 0));
	queue(&p, &off);
	assert_int_equal(roce_rtaddr_collect(p.nl, &node), 0);
	assert_int_equal(node.netdevs[0].n_addrs, ROCE_NETDEV_ADDRS);
	assert_int_equal(node.netdevs[0].addrs_more, 3);
	roce_node_free(&node);
	pair_close(&p);
}

/* A dump that fails, an error instead of a dump, a garbled message, a silent kernel:
 * no netdev keeps half an answer. */
static void t_collect_fails(void **state)
{
	(void)state;
	struct pair p;
	struct roce_node node;
	size_t off = 0;

	pair_open(&p, 2000);
	node_of(&node);
	nlreply_append(dgram.b, &off, addr4(1, "192.0.2.10", 26, 5, "eth0"));
	nlreply_append(dgram.b, &off, nlreply_done(msgbuf.b, 1, -EINTR));
	queue(&p, &off);
	assert_int_equal(roce_rtaddr_collect(p.nl, &node), -1);
	assert_int_equal(node.netdevs[0].addr_read.status, ROCE_UNREADABLE);
	assert_string_equal(node.netdevs[0].addr_read.why, "RTM_GETADDR: the dump failed: Interrupted system call");
	assert_int_equal(node.netdevs[0].n_addrs, 0);
	roce_node_free(&node);
	pair_close(&p);

	pair_open(&p, 2000);
	node_of(&node);
	nlreply_append(dgram.b, &off, nlreply_error(msgbuf.b, 1, -EOPNOTSUPP, RTM_GETADDR));
	queue(&p, &off);
	assert_int_equal(roce_rtaddr_collect(p.nl, &node), -1);
	assert_int_equal(node.netdevs[1].addr_read.status, ROCE_UNSUPPORTED);
	roce_node_free(&node);
	pair_close(&p);

	pair_open(&p, 2000);
	node_of(&node);
	struct nlmsghdr *bad = addr4(1, "192.0.2.10", 26, 5, "eth0");
	((struct ifaddrmsg *)mnl_nlmsg_get_payload(bad))->ifa_prefixlen = 40;
	nlreply_append(dgram.b, &off, bad);
	nlreply_append(dgram.b, &off, nlreply_done(msgbuf.b, 1, 0));
	queue(&p, &off);
	assert_int_equal(roce_rtaddr_collect(p.nl, &node), -1);
	assert_int_equal(node.netdevs[0].addr_read.status, ROCE_MALFORMED);
	assert_string_equal(node.netdevs[0].addr_read.why, "RTM_GETADDR: prefix length 40 or ifindex 5 out of range");
	roce_node_free(&node);
	pair_close(&p);

	/* the answer never ends: the deadline holds for the whole dump */
	pair_open(&p, 200);
	node_of(&node);
	nlreply_append(dgram.b, &off, addr4(1, "192.0.2.10", 26, 5, "eth0"));
	queue(&p, &off);
	int64_t t0 = roce_clock_ms();
	assert_int_equal(roce_rtaddr_collect(p.nl, &node), -1);
	int64_t took = roce_clock_ms() - t0;
	if (took < 200 || took > 400)
		fail_msg("a dump without its end took %lld ms with a 200 ms deadline", (long long)took);
	assert_int_equal(node.netdevs[0].addr_read.status, ROCE_TIMEOUT);
	assert_int_equal(node.netdevs[0].n_addrs, 0);
	roce_node_free(&node);
	pair_close(&p);
}

/* The real kernel: loopback has 127.0.0.1/8 wherever lo is up. */
static void t_kernel_lo(void **state)
{
	(void)state;
	struct roce_nl *nl = roce_nl_open(2000);
	if (!nl)
		skip();
	struct roce_node node;
	roce_node_init(&node);
	struct roce_netdev *lo = roce_node_add_netdev(&node, "lo");
	assert_int_equal(roce_rtlink_get(nl, lo), 0);
	assert_int_equal(roce_rtaddr_collect(nl, &node), 0);
	assert_int_equal(lo->addr_read.status, ROCE_OK);
	bool found = false;
	for (size_t i = 0; i < lo->n_addrs; i++)
		found |= lo->addrs[i].family == AF_INET && lo->addrs[i].prefix == 8 && lo->addrs[i].addr[0] == 127;
	if (!found && lo->up)
		fail_msg("lo is up without 127.0.0.1/8 (%zu addresses)", lo->n_addrs);
	roce_node_free(&node);
	roce_nl_close(nl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_parse_ipv4),   cmocka_unit_test(t_parse_ipv6),   cmocka_unit_test(t_parse_refused),
		cmocka_unit_test(t_collect),      cmocka_unit_test(t_collect_many), cmocka_unit_test(t_collect_fails),
		cmocka_unit_test(t_kernel_lo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
