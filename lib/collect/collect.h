/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * collect.h - run every collector for one node under one deadline, and the
 * netlink collector (nl.c's socket, rtlink.c and dcb.c per netdev).  Not
 * pure: this is where the node model is filled from the kernel.
 */
#ifndef ROCE_COLLECT_H
#define ROCE_COLLECT_H

#include "base/model.h"
#include "collect/netlink/nl.h"
#include "read/policy.h"

struct roce_collect_opts {
	const char *sysfs_root; /* NULL = "/sys" */
	bool full_gids;         /* dump whole GID tables */
	bool netlink;           /* false: skip rtnetlink/DCB (tests of sysfs only) */
	bool verbs;             /* query libibverbs where devices exist */
	const char *proc_root;  /* NULL = "/proc" (DMA-BUF: kernel release, NVIDIA driver) */
	bool locality;          /* a GPU choice follows: read what it weighs (pcie.h, roce_pcie_want_of) */
};

/* Fill node (roce_node_init'ed).  Nothing is returned: every outcome, a
 * missing subsystem or out of memory included, is a reading in the model. */
void roce_collect(struct roce_node *node, const struct roce_policy *policy, const struct roce_collect_opts *opts);

/* Add every port netdev named in the model (devices[].ports[].netdev,
 * non-empty) to node->netdevs, then fill link + DCB for every entry of
 * node->netdevs, all within timeout_ms for the whole call.  If the socket
 * cannot be opened every reading becomes UNREADABLE with the errno text.
 * Returns -1 + errno when the collector could not run at all (socket open
 * failed, ENOMEM adding a netdev), else roce_collect_netdevs()'s count. */
int roce_collect_netlink(struct roce_node *node, int timeout_ms);
/* Link + DCB for every entry of node->netdevs on nl, then one dump of the
 * addresses (rtaddr.h), under whatever budget nl has.  Returns how many netdevs have a reading that is not ROCE_OK
 * (UNSUPPORTED DCB counts: veth and friends are never all OK). */
int roce_collect_netdevs(struct roce_nl *nl, struct roce_node *node);

#endif
