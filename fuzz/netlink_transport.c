/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netlink_transport - the whole receive path of the netlink collector:
 * roce_rtlink_get() and roce_dcb_get() over roce_nl_open_fd() on an
 * AF_UNIX datagram socketpair, with the fuzzer's bytes queued as the
 * "kernel's" datagrams before each request.  This runs nl.c's own
 * find_reply/recv_reply (sequence matching, message walking, waiting for
 * the next datagram, the deadline) and then the parsers, not a copy of them.
 *
 * Input: [mode][u16 length of datagram 1][datagram 1][datagram 2];
 * datagram 1 is queued before the link request (seq 1), datagram 2 before
 * the DCB request (seq 2).  Unless mode is SILENT, each fuzzed datagram is
 * followed by the answer a kernel gives for a netdev that has gone
 * (NLMSG_ERROR -ENODEV for that request's sequence number): a fuzzed
 * datagram that answers nothing is then skipped and recv_reply() reads the
 * next one, instead of every such input waiting out the 1 ms deadline
 * (which held this target at ~600 execs/s).  Mode SILENT keeps the deadline
 * path (ROCE_TIMEOUT) reachable: nothing at all is queued and both requests
 * wait out their 1 ms.  Its datagrams are ignored on purpose: every SILENT
 * input then runs the same code, so the corpus keeps one or two of them
 * instead of a slow copy of every datagram (the wait-then-timeout edges do
 * not depend on what was read before).  The fuzzer finds the byte from the
 * comparison below.  (A TIMEOUT can still happen with an answer queued:
 * the deadline is whole milliseconds of CLOCK_MONOTONIC, so a 1 ms request
 * started late in a millisecond may expire within microseconds.  That is
 * no broken promise, so it is not checked.)
 *
 * One socketpair serves every input: the handle gets a dup() of our end
 * (roce_nl_close() closes it), and both ends are drained afterwards so no
 * datagram outlives its input.
 */
#include "config.h"
#include "collect/netlink/dcb.h"
#include "fuzz.h"
#include "base/model.h"
#include "collect/netlink/nl.h"
#include "nlreply.h"
#include "collect/netlink/rtlink.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#define SILENT 'T'

static int sv[2] = { -1, -1 };

static void queue(const uint8_t *p, size_t n)
{
	if (n > 0 && send(sv[1], p, n, MSG_DONTWAIT) < 0)
		return;   /* larger than the socket takes: nothing queued */
}

/* The kernel's answer to request seq about a netdev that has gone
 * (NLMSG_ERROR -ENODEV, as rtnetlink sends it with NETLINK_CAP_ACK). */
static void queue_enodev(unsigned seq, uint16_t req_type)
{
	static union { char b[NLREPLY_BUFSZ]; uint64_t align; } m;
	struct nlmsghdr *nlh = nlreply_error(m.b, seq, -ENODEV, req_type);
	queue((const uint8_t *)nlh, nlh->nlmsg_len);
}

static void drain(int fd)
{
	char b[1];
	while (recv(fd, b, sizeof(b), MSG_DONTWAIT) >= 0)
		;
	FUZZ_CHECK(errno == EAGAIN || errno == EWOULDBLOCK, "drain: %s", strerror(errno));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_netdev nd;
	if (size < 3 || size > 65536)
		return 0;
	int silent = data[0] == SILENT;
	size_t l1 = (size_t)data[1] | (size_t)data[2] << 8;
	data += 3;
	size -= 3;
	if (l1 > size)
		l1 = size;
	if (sv[0] < 0 && socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	int fd = dup(sv[0]);
	if (fd < 0)
		abort();
	struct roce_nl *nl = roce_nl_open_fd(fd, 1);
	if (!nl)
		abort();
	nlreply_netdev(&nd, "eth0");

	if (!silent) {
		queue(data, l1);
		queue_enodev(1, RTM_GETLINK);
	}
	roce_rtlink_get(nl, &nd);
	FUZZ_CHECK(nd.link_read.status != ROCE_NOT_READ, "link reading unset");
	FUZZ_CHECK(nd.link_read.status == ROCE_OK || nd.link_read.why[0], "link %s without why",
	           roce_status_name(nd.link_read.status));
	/* what the link request left unread (our ENODEV when the fuzzed
	 * datagram answered): a real kernel sends one answer per request */
	drain(sv[0]);

	if (!silent) {
		queue(data + l1, size - l1);
		queue_enodev(2, RTM_GETDCB);
	}
	roce_dcb_get(nl, &nd);
	FUZZ_CHECK(nd.pfc.read.status != ROCE_NOT_READ && nd.dscp.read.status != ROCE_NOT_READ, "DCB reading unset");
	FUZZ_CHECK(nd.dscp.n <= ROCE_DSCP_MAX, "%zu DSCP entries", nd.dscp.n);
	roce_nl_close(nl);
	drain(sv[0]);
	drain(sv[1]);   /* our requests */
	return 0;
}
