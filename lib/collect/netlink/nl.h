/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nl.h - the netlink transport (libmnl): one NETLINK_ROUTE socket, one
 * request at a time, each answered within a deadline.  Always the current
 * network namespace.  Not pure: it talks to the kernel.
 *
 * The objects asked about have their own files, as iproute2's dcb/ has:
 * rtlink.c (RTM_GETLINK) and dcb.c (RTM_GETDCB, with dcb_pfc.c, dcb_app.c,
 * dcb_ets.c and dcb_buffer.c for the attributes of its reply) ask through
 * roce_nl_ask() and check the reply with nlmsg.h; collect.c (the layer
 * above) opens the socket, sets the budget and fills the node model.
 */
#ifndef ROCE_NL_H
#define ROCE_NL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include "base/model.h"

struct roce_nl;

/* Open NETLINK_ROUTE; no single request waits longer than timeout_ms (> 0).
 * NULL + errno on failure. */
struct roce_nl *roce_nl_open(int timeout_ms);
/* Test seam: speak netlink over an already-open datagram fd (e.g. one end of
 * an AF_UNIX SOCK_DGRAM socketpair standing in for the kernel).  Requests are
 * send() on it, replies are recv() from it; sequence numbers start at 1.
 * Takes ownership of fd (closed by roce_nl_close, also on failure). */
struct roce_nl *roce_nl_open_fd(int fd, int timeout_ms);
void roce_nl_close(struct roce_nl *nl);
/* Our netlink port id (0 for roce_nl_open_fd handles).  For tests. */
unsigned roce_nl_portid(const struct roce_nl *nl);
/* One overall deadline: from now on no request waits past now + budget_ms,
 * whatever the per-request timeout.  budget_ms <= 0 makes every later
 * request time out without being sent. */
void roce_nl_set_budget(struct roce_nl *nl, int budget_ms);

/* What one request came to. */
struct roce_nl_result {
	enum roce_status status; /* ROCE_OK: reply is the answer */
	int err;                 /* else the reading's errno and why */
	char why[ROCE_WHY_MAX];
	const struct nlmsghdr *reply; /* in the handle's buffer, valid until the next request */
};

/* Ask about one netdev: a request of type with a family header (fam,
 * famlen bytes) and the netdev's name as attribute name_type; wait for the
 * reply to it (matched by sequence number and our port id; on a
 * roce_nl_open socket, only a datagram from the kernel counts).
 * A name that is empty or too long is MALFORMED and not sent.  "what"
 * ("RTM_GETLINK eth0") starts every why. */
void roce_nl_ask(struct roce_nl *nl, uint16_t type, const void *fam, size_t famlen, uint16_t name_type,
                 const char *name, const char *what, struct roce_nl_result *res);

/* A dump: every message of the kernel's answer to one NLM_F_DUMP request
 * of type with a family header (fam, famlen bytes) goes to cb, in order,
 * until NLMSG_DONE, within the same deadline as roce_nl_ask (one for the
 * whole answer).  cb returns MNL_CB_OK to go on; anything else stops the
 * dump, res then MALFORMED with cb's why (whylen ROCE_WHY_MAX).  res->status
 * ROCE_OK once NLMSG_DONE came (res->reply NULL); an NLMSG_ERROR or a
 * failed NLMSG_DONE is the errno's status. */
typedef int (*roce_nl_msg_fn)(const struct nlmsghdr *nlh, void *data, char *why);
void roce_nl_dump(struct roce_nl *nl, uint16_t type, const void *fam, size_t famlen, const char *what,
                  roce_nl_msg_fn cb, void *data, struct roce_nl_result *res);

#endif
