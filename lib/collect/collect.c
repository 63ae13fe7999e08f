/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * collect.c - run every collector for one node under one deadline, and the
 * netlink collector that asks about each port netdev.
 */
#include "config.h"
#include "collect/collect.h"
#include "base/clock.h"
#include "collect/bond.h"
#include "collect/netlink/dcb.h"
#include "collect/netclass.h"
#include "collect/gdr.h"
#include "collect/pcie.h"
#include "collect/rdma.h"
#include "collect/netlink/rtaddr.h"
#include "collect/netlink/rtlink.h"
#include "collect/trust.h"
#include "collect/verbs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int add_port_netdevs(struct roce_node *node);

#define PORT_ACTIVE 4

/* The rate of d's first ACTIVE RoCE port (Ethernet, allowed by Hca=), 0 none. */
static unsigned roce_rate(const struct roce_policy *pol, const struct roce_device *d)
{
	if (!roce_policy_hca_allowed(pol, d->name))
		return 0;
	for (size_t p = 0; p < d->n_ports; p++) {
		const struct roce_port *port = &d->ports[p];
		if (port->link_layer == ROCE_LL_ETHERNET && roce_reading_ok(&port->state_read) &&
		    port->state == PORT_ACTIVE && roce_reading_ok(&port->rate_read))
			return port->rate_mbps;
	}
	return 0;
}

/* Without Hca=, an Ethernet port that is not ACTIVE: whether it is a host
 * port decides whether it drains (check.c). */
static bool port_down_unlisted(const struct roce_node *node, const struct roce_policy *pol)
{
	if (pol->n_hca)
		return false;
	for (size_t i = 0; i < node->n_devices; i++)
		for (size_t p = 0; p < node->devices[i].n_ports; p++) {
			const struct roce_port *port = &node->devices[i].ports[p];
			if (port->link_layer == ROCE_LL_ETHERNET && roce_reading_ok(&port->state_read) &&
			    port->state != PORT_ACTIVE)
				return true;
		}
	return false;
}

/* LinkRate=auto compares a port with its role's (check_link.c): the GPU
 * neighbourhood that tells roles apart is read only when two ports of one
 * adapter model run at different rates, or a port is down, the cases where
 * roles matter. */
static bool roles_needed(const struct roce_node *node, const struct roce_policy *pol)
{
	if (port_down_unlisted(node, pol))
		return true;
	if (pol->link_rate != ROCE_LINK_RATE_AUTO)
		return false;
	for (size_t i = 0; i < node->n_devices; i++) {
		const struct roce_device *a = &node->devices[i];
		unsigned ra = roce_rate(pol, a);
		if (!ra || !roce_reading_ok(&a->hca_type_read) || !roce_reading_ok(&a->board_id_read))
			continue;
		for (size_t j = i + 1; j < node->n_devices; j++) {
			const struct roce_device *b = &node->devices[j];
			unsigned rb = roce_rate(pol, b);
			if (rb && rb != ra && roce_reading_ok(&b->hca_type_read) &&
			    roce_reading_ok(&b->board_id_read) && !strcmp(a->hca_type, b->hca_type) &&
			    !strcmp(a->board_id, b->board_id))
				return true;
		}
	}
	return false;
}

void roce_collect(struct roce_node *node, const struct roce_policy *policy, const struct roce_collect_opts *opts)
{
	const char *root = opts && opts->sysfs_root ? opts->sysfs_root : policy->sysfs_root;
	struct roce_gid_want want = {
		.index = policy->gid_index,
		.addr_family = policy->addr_family,
		.full = opts && opts->full_gids,
	};
	int64_t start = roce_clock_ms();

	/* Every outcome, out of memory included, is recorded in the model. */
	roce_rdma_collect(node, root, &want);
	roce_gdr_collect(node, root, opts ? opts->proc_root : NULL);
	/* The new collectors read what the policy judges, nothing else
	 * (roce_pcie_want_of: the PCIe links, ACS and IOMMU each unless
	 * ignored, and what a GPU choice needs); ECN unless Ecn=ignore; the
	 * trust only with a PFC priority to reach (ETS comes in the one DCB
	 * reply PFC needs). */
	struct roce_pcie_want pcie = roce_pcie_want_of(policy, opts && opts->locality);
	roce_pcie_collect_node_wanted(node, root, &pcie);
	if (roles_needed(node, policy))
		roce_pcie_collect_gpu_near(node, root);
	roce_rdma_collect_modules(node, root);
	if (opts && opts->verbs)
		roce_verbs_collect(node);
	if (add_port_netdevs(node) == 0) {
		roce_bond_collect(node, root);
		roce_netclass_collect(node, root, policy->ecn != ROCE_ECN_IGNORE);
		if (policy->pfc_priority != ROCE_PFC_NONE)
			roce_trust_collect(node, root);
	}
	if (!opts || opts->netlink) {
		/* sysfs reads cannot be interrupted; netlink gets what is left. */
		int64_t left = policy->timeout_ms - (roce_clock_ms() - start);
		roce_collect_netlink(node, left > 1 ? (int)left : 1);
	}
}

/* ------------------------------------------------------------ netlink */

int roce_collect_netdevs(struct roce_nl *nl, struct roce_node *node)
{
	int not_ok = 0;
	for (size_t i = 0; i < node->n_netdevs; i++) {
		struct roce_netdev *nd = &node->netdevs[i];
		int rc = roce_rtlink_get(nl, nd);
		/* DCB is asked even when the link is down: PFC settings are
		 * configuration and readable on a down port.  Not when the
		 * netdev does not exist: the answer is known. */
		if (nd->link_read.status == ROCE_MISSING) {
			roce_dcb_set_all(nd, ROCE_MISSING, nd->link_read.err, nd->link_read.why);
			not_ok++;
			continue;
		}
		if (roce_dcb_get(nl, nd) < 0)
			rc = -1;
		if (rc < 0)
			not_ok++;
	}
	/* One dump for every netdev's addresses (the ports' subnets), after the
	 * links gave their ifindexes; not counted: nothing fails for it. */
	(void)roce_rtaddr_collect(nl, node);
	return not_ok;
}

static int add_port_netdevs(struct roce_node *node)
{
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		for (size_t p = 0; p < dev->n_ports; p++) {
			char name[IF_NAMESIZE];
			/* memcpy + terminate: the model field may lack a NUL. */
			memcpy(name, dev->ports[p].netdev, sizeof(name));
			name[sizeof(name) - 1] = '\0';
			if (name[0] && !roce_node_add_netdev(node, name)) {
				errno = ENOMEM;
				return -1;
			}
		}
	}
	return 0;
}

/* No socket: every reading of every netdev says why. */
static void open_failed(struct roce_node *node, int err)
{
	char why[ROCE_WHY_MAX];
	snprintf(why, sizeof(why), "cannot open a NETLINK_ROUTE socket: %s", strerror(err));
	for (size_t i = 0; i < node->n_netdevs; i++) {
		roce_reading_set(&node->netdevs[i].link_read, ROCE_UNREADABLE, err, "%s", why);
		roce_reading_set(&node->netdevs[i].addr_read, ROCE_UNREADABLE, err, "%s", why);
		roce_dcb_set_all(&node->netdevs[i], ROCE_UNREADABLE, err, why);
	}
}

int roce_collect_netlink(struct roce_node *node, int timeout_ms)
{
	if (add_port_netdevs(node) < 0)
		return -1;
	struct roce_nl *nl = roce_nl_open(timeout_ms);
	if (!nl) {
		int err = errno;
		open_failed(node, err);
		errno = err;
		return -1;
	}
	roce_nl_set_budget(nl, timeout_ms);
	int rc = roce_collect_netdevs(nl, node);
	roce_nl_close(nl);
	return rc;
}
