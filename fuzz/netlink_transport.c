/*
 * netlink_transport - the whole receive path of the netlink collector:
 * roce_nl_get_link() and roce_nl_get_dcb() over roce_nl_open_fd() on an
 * AF_UNIX datagram socketpair, with the fuzzer's bytes queued as the
 * "kernel's" datagrams before each request.  This runs netlink.c's own
 * find_reply/recv_reply (sequence matching, message walking) and then the
 * parsers, not a copy of them.  Input: [u16 length of datagram 1][datagram
 * 1][datagram 2]; datagram 1 answers the link request (seq 1), datagram 2
 * the DCB request (seq 2).  A datagram that answers nothing costs the 1 ms
 * deadline, so this target is slower than the parser targets.
 */
#include "config.h"
#include "fuzz.h"
#include "model.h"
#include "netlink.h"

#include <sys/socket.h>
#include <unistd.h>

static void queue(int fd, const uint8_t *p, size_t n)
{
	if (n > 0 && send(fd, p, n, MSG_DONTWAIT) < 0)
		return;   /* larger than the socket takes: nothing queued */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int sv[2];
	struct roce_netdev nd;
	if (size < 2 || size > 65536)
		return 0;
	size_t l1 = (size_t)data[0] | (size_t)data[1] << 8;
	data += 2;
	size -= 2;
	if (l1 > size)
		l1 = size;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	struct roce_nl *nl = roce_nl_open_fd(sv[0], 1);
	if (!nl)
		abort();
	memset(&nd, 0, sizeof(nd));
	snprintf(nd.name, sizeof(nd.name), "eth0");
	queue(sv[1], data, l1);
	roce_nl_get_link(nl, &nd);
	FUZZ_CHECK(nd.link_read.status != ROCE_NOT_READ, "link reading unset");
	FUZZ_CHECK(nd.link_read.status == ROCE_OK || nd.link_read.why[0], "link %s without why",
	           roce_status_name(nd.link_read.status));
	queue(sv[1], data + l1, size - l1);
	roce_nl_get_dcb(nl, &nd);
	FUZZ_CHECK(nd.pfc.read.status != ROCE_NOT_READ && nd.dscp.read.status != ROCE_NOT_READ, "DCB reading unset");
	FUZZ_CHECK(nd.dscp.n <= ROCE_DSCP_MAX, "%zu DSCP entries", nd.dscp.n);
	roce_nl_close(nl);
	close(sv[1]);
	return 0;
}
