/*
 * netlink.h - the netlink collector (libmnl): netdev state and MTU from
 * rtnetlink, PFC and the DSCP APP table from DCB netlink (DCB_CMD_IEEE_GET).
 * Always the current network namespace.
 *
 * Every function records its outcome in the netdev's readings; the return
 * value only summarises it (0 = the readings it fills are ROCE_OK, -1 = look
 * at the readings).  A driver without DCB is ROCE_UNSUPPORTED ("unknown"),
 * never "PFC disabled".
 */
#ifndef ROCE_NETLINK_H
#define ROCE_NETLINK_H

#include <linux/netlink.h>
#include "model.h"

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

/* Fill nd->link_read, ifindex, mtu, operstate, up for nd->name. */
int roce_nl_get_link(struct roce_nl *nl, struct roce_netdev *nd);
/* Fill nd->pfc and nd->dscp (UNSUPPORTED when the driver has no DCB). */
int roce_nl_get_dcb(struct roce_nl *nl, struct roce_netdev *nd);

/* Link + DCB for every entry of node->netdevs, under whatever budget nl has.
 * Returns how many netdevs have a reading that is not ROCE_OK (UNSUPPORTED
 * DCB counts: veth and friends are never all OK). */
int roce_nl_collect(struct roce_nl *nl, struct roce_node *node);

/* Add every port netdev named in the model (devices[].ports[].netdev,
 * non-empty) to node->netdevs, then fill link + DCB for every entry of
 * node->netdevs, all within timeout_ms for the whole call.  If the socket
 * cannot be opened every reading becomes UNREADABLE with the errno text.
 * Returns -1 + errno when the collector could not run at all (socket open
 * failed, ENOMEM adding a netdev), else roce_nl_collect()'s count. */
int roce_collect_netlink(struct roce_node *node, int timeout_ms);

/* Reply parsers, separate so that tests feed them byte-exact messages.  nlh
 * must point at a whole message of nlh->nlmsg_len bytes: the reply to our
 * request, which may be an NLMSG_ERROR.  They never read outside it. */
int roce_parse_link_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd);
int roce_parse_dcb_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd);

/* "UP", "DOWN", "LOWERLAYERDOWN", ... for IF_OPER_*; NULL for unknown values. */
const char *roce_operstate_name(unsigned operstate);

#endif
