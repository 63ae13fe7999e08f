/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtaddr.h - the netdevs' addresses from rtnetlink (RTM_GETADDR, one dump
 * for the whole node): what `ip -br addr` reads.  A RoCE v2 GID is made
 * from one of them; its prefix length is the port's subnet, the rail it is
 * on (lib/agree/fingerprint.h).
 *
 * The outcome is recorded in each netdev's addr_read; the return value only
 * summarises it (0 = ROCE_OK, -1 = look at the readings).
 */
#ifndef ROCE_RTADDR_H
#define ROCE_RTADDR_H

#include <linux/netlink.h>
#include "base/model.h"
#include "collect/netlink/nl.h"

/* Ask the kernel (nl.c) for every address and file each under the netdev
 * of node->netdevs with its ifindex (their links must have been read:
 * rtlink.h); addresses of other netdevs are dropped.  Every netdev with a
 * known ifindex gets addr_read OK (no address: n_addrs 0), or the dump's
 * failure. */
int roce_rtaddr_collect(struct roce_nl *nl, struct roce_node *node);

/* One message of the dump, for byte-exact tests and fuzzing: nlh must
 * point at a whole message of nlh->nlmsg_len bytes.  1 with *a and *ifindex
 * set for an IPv4 or IPv6 address, 0 for another family (skipped), -1 with
 * why (ROCE_WHY_MAX bytes) for a message that is not an RTM_NEWADDR as the
 * kernel builds it.  Pure. */
int roce_rtaddr_parse(const struct nlmsghdr *nlh, struct roce_ifaddr *a, int *ifindex, char *why);

#endif
