/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bond.h - the member ports of a bonded port netdev (RoCE LAG: mlx5_bond_N
 * on bond0), from class/net/<bond>/bonding/slaves.  Not pure: reads sysfs.
 *
 * With RoCE LAG the RDMA device's port state follows the bond and its GIDs
 * name the bond, but PFC, ETS, the APP table, ECN and the priority trust
 * live on each member's own netdev (the bonding driver has no DCB): each
 * member becomes an entry of the node's netdevs, read by every netdev
 * collector, and the checks judge the members (roce_node_qos_netdevs).
 */
#ifndef ROCE_BOND_H
#define ROCE_BOND_H

#include "base/model.h"

/* For every port netdev of node->netdevs: its members (members_read
 * MISSING when it is not a bond), each added to node->netdevs. */
void roce_bond_collect(struct roce_node *node, const char *sysfs_root);

/* bonding/slaves as the bonding driver prints it ("eth0 eth1"): names
 * separated by single spaces.  0, or -1 (why) for anything else: a name the
 * kernel never gives, more than ROCE_BOND_MEMBERS_MAX, a repeat. */
int roce_bond_parse_slaves(const char *s, struct roce_netdev *nd, char *why, size_t whylen);

#endif
