/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nl_common.h - feed a fuzzed datagram to a netlink reply parser the way
 * nl.c's transport does: walk it with roce_nlmsg_fits()/mnl_nlmsg_next()
 * (find_reply) and hand every message that passes to the parser, in a heap
 * buffer of exactly the datagram's size so ASan sees any overread.
 */
#ifndef ROCE_FUZZ_NL_COMMON_H
#define ROCE_FUZZ_NL_COMMON_H

#include "fuzz.h"
#include "base/model.h"
#include "collect/netlink/nlmsg.h"
#include "nlreply.h"
#include <libmnl/libmnl.h>

typedef int (*nl_parser)(const struct nlmsghdr *nlh, struct roce_netdev *nd);

static void check_reading(const struct roce_reading *r)
{
	FUZZ_CHECK(r->status != ROCE_NOT_READ, "parser left a reading unset");
	FUZZ_CHECK(memchr(r->why, '\0', sizeof(r->why)), "why not terminated");
	FUZZ_CHECK(r->status == ROCE_OK || r->why[0], "status %s without text", roce_status_name(r->status));
}

/* ETS and the buffers: set; absent (UNSUPPORTED) does not fail the reply;
 * what was read indexes only within the TC and buffer arrays. */
static void check_ets(const struct roce_netdev *nd, int rc)
{
	check_reading(&nd->ets.read);
	check_reading(&nd->buffer.read);
	FUZZ_CHECK(rc != 0 || ((nd->ets.read.status == ROCE_OK || nd->ets.read.status == ROCE_UNSUPPORTED) &&
	                       (nd->buffer.read.status == ROCE_OK || nd->buffer.read.status == ROCE_UNSUPPORTED)),
	           "rc 0 but ETS %s, buffer %s", roce_status_name(nd->ets.read.status),
	           roce_status_name(nd->buffer.read.status));
	for (int i = 0; i < ROCE_PRIOS; i++) {
		if (nd->ets.read.status == ROCE_OK)
			FUZZ_CHECK(nd->ets.prio_tc[i] < ROCE_PRIOS && nd->ets.tc_tx_bw[i] <= 100, "prio_tc %u bw %u",
			           nd->ets.prio_tc[i], nd->ets.tc_tx_bw[i]);
		if (nd->buffer.read.status == ROCE_OK)
			FUZZ_CHECK(nd->buffer.prio2buffer[i] < ROCE_PRIOS, "prio2buffer %u", nd->buffer.prio2buffer[i]);
	}
}

static inline void nl_feed(const uint8_t *data, size_t size, nl_parser parse, int dcb)
{
	char *buf = malloc(size ? size : 1);
	if (!buf)
		return;
	if (size)
		memcpy(buf, data, size);
	int len = (int)size;
	for (const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf; roce_nlmsg_fits(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		struct roce_netdev nd;
		nlreply_netdev(&nd, "eth0");
		int rc = parse(nlh, &nd);
		if (dcb) {
			check_reading(&nd.pfc.read);
			check_reading(&nd.dscp.read);
			FUZZ_CHECK(nd.dscp.n <= ROCE_DSCP_MAX, "%zu DSCP entries", nd.dscp.n);
			FUZZ_CHECK(rc == 0 ? nd.pfc.read.status == ROCE_OK && nd.dscp.read.status == ROCE_OK : 1,
			           "rc 0 but a reading is not OK");
			if (nd.dscp.read.status == ROCE_OK)
				for (int i = 0; i < ROCE_DSCP_MAX; i++)
					FUZZ_CHECK(nd.dscp.prio[i] >= -1 && nd.dscp.prio[i] < ROCE_PRIOS, "prio %d", nd.dscp.prio[i]);
			check_ets(&nd, rc);
		} else {
			check_reading(&nd.link_read);
			FUZZ_CHECK((rc == 0) == (nd.link_read.status == ROCE_OK), "rc %d status %s", rc,
			           roce_status_name(nd.link_read.status));
			if (rc == 0)
				FUZZ_CHECK(nd.ifindex > 0 && memchr(nd.operstate, '\0', sizeof(nd.operstate)), "ifindex %d", nd.ifindex);
		}
		/* a real reply is one message: stop after the first, as find_reply does
		 * unless the sequence number differs, which the fuzzer cannot know */
		if (nlh->nlmsg_seq & 1)
			break;
	}
	free(buf);
}

#endif
