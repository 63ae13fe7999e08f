/*
 * netlink.h - the netlink collector (libmnl): netdev state and MTU from
 * rtnetlink, PFC and the DSCP APP table from DCB netlink (DCB_CMD_IEEE_GET).
 * Always the current network namespace.
 */
#ifndef ROCE_NETLINK_H
#define ROCE_NETLINK_H

#include <linux/netlink.h>
#include "model.h"

struct roce_nl;

/* Open NETLINK_ROUTE with a receive deadline (timeout_ms > 0).  NULL + errno on failure. */
struct roce_nl *roce_nl_open(int timeout_ms);
void roce_nl_close(struct roce_nl *nl);

/* Fill nd->link_read, ifindex, mtu, operstate, up for nd->name. */
int roce_nl_get_link(struct roce_nl *nl, struct roce_netdev *nd);
/* Fill nd->pfc and nd->dscp (UNSUPPORTED when the driver has no DCB). */
int roce_nl_get_dcb(struct roce_nl *nl, struct roce_netdev *nd);

/* Fill node->netdevs for every port netdev in the model (link + DCB). */
int roce_collect_netlink(struct roce_node *node, int timeout_ms);

/* Reply parsers, separate so that tests feed them byte-exact messages. */
int roce_parse_link_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd);
int roce_parse_dcb_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd);

#endif
