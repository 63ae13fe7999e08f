/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_nl.c - the netlink transport (lib/collect/netlink/nl.c): deadlines, sequence
 * numbers, the requests byte by byte, oversize and impossible replies, a
 * peer that went away, names refused before sending.  The far end of an
 * AF_UNIX socketpair plays the kernel with byte-exact replies
 * (tests/lib/nlreply.c), or a kernel that never answers; one test forges a
 * reply to a real NETLINK_ROUTE socket.
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "collect/netlink/dcb.h"
#include "collect/netlink/nl.h"
#include "nlreply.h"
#include "collect/netlink/rtlink.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

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

/* A peer that never answers: the request must come back TIMEOUT after the
 * deadline, and not much later (2x is a correctness bound, not a speed
 * claim). */
static void t_deadline_silent_peer(void **state)
{
	(void)state;
	struct pair p;
	struct roce_netdev nd;
	pair_open(&p, 200);
	nlreply_netdev(&nd, "eth0");
	int64_t t0 = roce_clock_ms();
	assert_int_equal(roce_rtlink_get(p.nl, &nd), -1);
	int64_t took = roce_clock_ms() - t0;
	assert_int_equal(nd.link_read.status, ROCE_TIMEOUT);
	assert_int_equal(nd.link_read.err, ETIMEDOUT);
	assert_non_null(strstr(nd.link_read.why, "RTM_GETLINK eth0: no answer"));
	if (took < 200 || took > 400)
		fail_msg("timed out after %lld ms with a 200 ms deadline", (long long)took);

	t0 = roce_clock_ms();
	assert_int_equal(roce_dcb_get(p.nl, &nd), -1);
	took = roce_clock_ms() - t0;
	assert_int_equal(nd.pfc.read.status, ROCE_TIMEOUT);
	assert_int_equal(nd.dscp.read.status, ROCE_TIMEOUT);
	if (took < 200 || took > 400)
		fail_msg("DCB timed out after %lld ms with a 200 ms deadline", (long long)took);
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
	nlreply_netdev(&nd, "eth0");

	peer_send(&p, nlreply_link(msgbuf.b, 7, "eth0", 4, IFF_UP, 1500, IF_OPER_DOWN)); /* stale */
	peer_send(&p, nlreply_link(msgbuf.b, 1, "eth0", 4, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP));
	assert_int_equal(roce_rtlink_get(p.nl, &nd), 0);
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
	struct nlmsghdr *m1 = nlreply_dcb_sample(msgbuf.b, 9, "eth0", NLREPLY_IEEE);
	memcpy(two, m1, m1->nlmsg_len);
	size_t off = m1->nlmsg_len;
	struct nlmsghdr *m2 = nlreply_dcb_sample(msgbuf.b, 2, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	memcpy(two + off, m2, m2->nlmsg_len);
	assert_int_equal(send(p.peer, two, off + m2->nlmsg_len, 0), (ssize_t)(off + m2->nlmsg_len));
	assert_int_equal(roce_dcb_get(p.nl, &nd), 0);
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
	nlreply_netdev(&nd, "eth0");
	size_t big = 40000;
	char *blob = calloc(1, big);
	assert_non_null(blob);
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0", 4, IFF_UP, 9000, IF_OPER_UP);
	memcpy(blob, nlh, nlh->nlmsg_len);
	assert_int_equal(send(p.peer, blob, big, 0), (ssize_t)big);
	free(blob);
	assert_int_equal(roce_rtlink_get(p.nl, &nd), -1);
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
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_link(msgbuf.b, 1, "eth0", 4, IFF_UP, 9000, IF_OPER_UP);
	size_t len = nlh->nlmsg_len;
	nlh->nlmsg_len = 0xfffff600u;
	assert_int_equal(send(p.peer, nlh, len, 0), (ssize_t)len);
	assert_int_equal(roce_rtlink_get(p.nl, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_TIMEOUT);
	assert_int_equal(nd.mtu, 0);
	pair_close(&p);
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
	nlreply_netdev(&nd, "eth0");
	int64_t t0 = roce_clock_ms();
	assert_int_equal(roce_dcb_get(p.nl, &nd), -1);
	assert_true(roce_clock_ms() - t0 < 1000);
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
	nlreply_netdev(&nd, "");
	assert_int_equal(roce_rtlink_get(p.nl, &nd), -1);
	assert_int_equal(nd.link_read.status, ROCE_MALFORMED);
	assert_int_equal(roce_dcb_get(p.nl, &nd), -1);
	assert_int_equal(nd.dscp.read.status, ROCE_MALFORMED);
	/* nothing was sent */
	char req[64];
	assert_int_equal(recv(p.peer, req, sizeof(req), MSG_DONTWAIT), -1);
	pair_close(&p);
	errno = 0;
	assert_null(roce_nl_open(0));
	assert_int_equal(errno, EINVAL);
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
	struct nlmsghdr *fake = nlreply_link(msgbuf.b, 1, "lo", 1, IFF_UP | IFF_RUNNING, 1234, IF_OPER_UP);
	fake->nlmsg_pid = to.nl_pid;
	assert_int_equal(sendto(spoofer, fake, fake->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)),
	                 (ssize_t)fake->nlmsg_len);
	struct roce_netdev nd;
	nlreply_netdev(&nd, "lo");
	assert_int_equal(roce_rtlink_get(nl, &nd), 0);
	assert_int_equal(nd.link_read.status, ROCE_OK);
	assert_true(nd.mtu != 1234);
	assert_true(nd.mtu > 0);
	close(spoofer);
	roce_nl_close(nl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_deadline_silent_peer),
		cmocka_unit_test(t_transport_requests_and_seq),
		cmocka_unit_test(t_transport_oversize),
		cmocka_unit_test(t_transport_peer_closed),
		cmocka_unit_test(t_transport_huge_nlmsg_len),
		cmocka_unit_test(t_invalid_names),
		cmocka_unit_test(t_kernel_spoofed_reply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
