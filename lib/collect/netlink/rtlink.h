/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtlink.h - a netdev's link from rtnetlink (RTM_GETLINK by name): ifindex,
 * MTU, operstate, usable for traffic.  What `ip link show dev X` reads.
 *
 * Both record their outcome in nd->link_read; the return value only
 * summarises it (0 = ROCE_OK, -1 = look at the reading).
 */
#ifndef ROCE_RTLINK_H
#define ROCE_RTLINK_H

#include <linux/netlink.h>
#include "base/model.h"
#include "collect/netlink/nl.h"

/* Ask the kernel (nl.c) and fill nd->link_read, ifindex, mtu, operstate, up
 * for nd->name. */
int roce_rtlink_get(struct roce_nl *nl, struct roce_netdev *nd);
/* The reply alone, for byte-exact tests and fuzzing: nlh must point at a
 * whole message of nlh->nlmsg_len bytes (an RTM_NEWLINK or an NLMSG_ERROR);
 * nothing outside it is read.  Pure. */
int roce_rtlink_parse(const struct nlmsghdr *nlh, struct roce_netdev *nd);

#endif
