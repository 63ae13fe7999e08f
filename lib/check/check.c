/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.c - policy x model -> findings.  Pure: reads the model, never the system.
 *
 * Every finding names what it is about and says what to do.  A port with a
 * failing (or unverifiable) finding is not "healthy": warn mode leaves it
 * out of NCCL_IB_HCA, strict mode fails the node.
 */
#include "config.h"
#include "check/check.h"
#include "check/pciecheck.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define PORT_ACTIVE 4
#define PHYS_LINKUP 5

static const char *family_name(int af) { return af == AF_INET6 ? "IPv6" : "IPv4"; }

/* ------------------------------------------------------------ per-port checks */

/* Without Hca=, a host port (no GPU behind its PCIe switch, the node's GPU
 * rails elsewhere: check_link.c) that is down is said, left out and not
 * drained: unplugged storage and front-end ports are common on healthy
 * nodes.  A GPU's rail that is down, a port whose place is unknown, and
 * every port Hca= names still fail and drain. */
#define HOST_DOWN_NOTE                                                                                             \
	"a host port (no GPU behind its PCIe switch; this node's GPU rails are other ports) that is down is left " \
	"out, "                                                                                                    \
	"not drained; Hca= names the ports you expect up"

static bool port_down(const struct roce_port *p)
{
	return roce_reading_ok(&p->state_read) && roce_reading_ok(&p->phys_state_read) &&
	       (p->state != PORT_ACTIVE || p->phys_state != PHYS_LINKUP);
}

static bool host_port_down(const struct roce_node *node, const struct roce_policy *pol, const struct roce_device *d,
                           const struct roce_port *p)
{
	return pol->n_hca == 0 && port_down(p) && roce_check_link_host_port(node, d);
}

static enum roce_verdict check_port_state(struct roce_check_result *r, const struct roce_device *d,
                                          const struct roce_port *p, bool host_down)
{
	const struct roce_reading *bad = !roce_reading_ok(&p->state_read)        ? &p->state_read
	                                 : !roce_reading_ok(&p->phys_state_read) ? &p->phys_state_read
	                                                                         : NULL;
	if (bad) {
		roce_finding_addf(r, "port_state", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL,
		                  "%s port %u state cannot be read (%s: %s): check the mlx5_ib driver (dmesg)", d->name,
		                  p->num, roce_status_name(bad->status), bad->why);
		return ROCE_UNKNOWN;
	}
	if (host_down) {
		roce_finding_addf(r, "port_state", d->name, p->num, ROCE_WARN, "down", 0, NULL,
		                  "%s port %u is %s (phys_state %s): " HOST_DOWN_NOTE
		                  "; if it should be up, check its cable, transceiver and switch port",
		                  d->name, p->num, p->state_name, p->phys_state_name);
		return ROCE_WARN;
	}
	if (p->state != PORT_ACTIVE || p->phys_state != PHYS_LINKUP) {
		roce_finding_addf(r, "port_state", d->name, p->num, ROCE_FAIL, "down", ROCE_FINDING_HARDWARE, NULL,
		                  "%s port %u is %s (phys_state %s): check the cable, transceiver and switch port; "
		                  "`ip link set %s up` if the netdev is down",
		                  d->name, p->num, p->state_name, p->phys_state_name,
		                  p->netdev[0] ? p->netdev : "<netdev>");
		return ROCE_FAIL;
	}
	roce_finding_pass(r, "port_state", d->name, p->num, "%s port %u is ACTIVE, LinkUp, %s", d->name, p->num,
	                  p->rate[0] ? p->rate : "rate unknown");
	return ROCE_PASS;
}

static enum roce_verdict check_netdev(struct roce_check_result *r, const struct roce_node *node,
                                      const struct roce_device *d, const struct roce_port *p, bool host_down,
                                      const struct roce_netdev **out)
{
	*out = NULL;
	if (!p->netdev[0]) {
		roce_finding_addf(r, "netdev", d->name, p->num, ROCE_FAIL, "no netdev", ROCE_FINDING_HARDWARE, NULL,
		                  "%s port %u has no Ethernet netdev (%s): check that the mlx5_core netdev exists",
		                  d->name, p->num, p->netdev_read.why[0] ? p->netdev_read.why : "none found");
		return ROCE_FAIL;
	}
	const struct roce_netdev *nd = roce_node_find_netdev(node, p->netdev);
	if (!nd || nd->link_read.status == ROCE_NOT_READ) {
		roce_finding_addf(r, "netdev", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL,
		                  "%s (netdev of %s port %u) was not queried", p->netdev, d->name, p->num);
		return ROCE_UNKNOWN;
	}
	if (nd->link_read.status == ROCE_MISSING) {
		roce_finding_addf(r, "netdev", d->name, p->num, ROCE_FAIL, "not in namespace", 0, NULL,
		                  "%s (netdev of %s port %u) does not exist in this network namespace: "
		                  "run outside a private network namespace, or move the netdev in",
		                  p->netdev, d->name, p->num);
		return ROCE_FAIL;
	}
	if (!roce_reading_ok(&nd->link_read)) {
		roce_finding_addf(r, "netdev", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL, "%s: %s (%s)",
		                  p->netdev, roce_status_name(nd->link_read.status), nd->link_read.why);
		return ROCE_UNKNOWN;
	}
	*out = nd;
	if (!nd->up && host_down) {
		roce_finding_addf(r, "netdev", d->name, p->num, ROCE_WARN, "down", 0, NULL,
		                  "%s (netdev of %s port %u) is %s, as its port: " HOST_DOWN_NOTE, nd->name, d->name,
		                  p->num, nd->operstate[0] ? nd->operstate : "down");
		return ROCE_WARN;
	}
	if (!nd->up) {
		roce_finding_addf(r, "netdev", d->name, p->num, ROCE_FAIL, "down", ROCE_FINDING_HARDWARE, NULL,
		                  "%s (netdev of %s port %u) is %s: `ip link set %s up`, "
		                  "check the cable and switch port",
		                  nd->name, d->name, p->num, nd->operstate[0] ? nd->operstate : "down", nd->name);
		return ROCE_FAIL;
	}
	roce_finding_pass(r, "netdev", d->name, p->num, "%s is up, MTU %u", nd->name, nd->mtu);
	return ROCE_PASS;
}

/* Lowest index holding a usable GID, as NCCL picks it; -1 none. */
static const struct roce_gid *first_usable(const struct roce_port *p, int family)
{
	for (size_t i = 0; i < p->n_gids; i++)
		if (roce_gid_usable(&p->gids[i], family))
			return &p->gids[i];
	return NULL;
}

static void describe_gid(const struct roce_gid *g, char *buf, size_t len)
{
	char addr[64];
	if (!g) {
		snprintf(buf, len, "not read");
	} else if (!roce_reading_ok(&g->read)) {
		snprintf(buf, len, "%s", roce_status_name(g->read.status));
	} else if (g->empty) {
		snprintf(buf, len, "empty");
	} else {
		roce_gid_format_addr(g->raw, addr, sizeof(addr));
		snprintf(buf, len, "%s %s%s", roce_gid_type_name(g->type), addr,
		         roce_gid_any_link_local(g->raw) ? " (link-local)" : "");
	}
}

/* The first GID entry whose value, type or netdev could not be read. */
static const struct roce_gid *unreadable_gid(const struct roce_port *p)
{
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct roce_gid *g = &p->gids[i];
		if (!roce_reading_ok(&g->read))
			return g;
		if (!g->empty && (!roce_reading_ok(&g->type_read) || !roce_reading_ok(&g->ndev_read)))
			return g;
	}
	return NULL;
}

/* Why there is no usable GID at all: give the most specific cause. */
static void explain_no_gid(const struct roce_port *p, int family, char *buf, size_t len)
{
	bool v1 = false, v2_other = false;
	const struct roce_gid *ll = NULL; /* a link-local RoCE v2 GID, of our family if there is one */
	for (size_t i = 0; i < p->n_gids; i++) {
		const struct roce_gid *g = &p->gids[i];
		if (g->empty || !roce_reading_ok(&g->read))
			continue;
		if (g->type == ROCE_GID_TYPE_IB_ROCE_V1)
			v1 = true;
		else if (g->type == ROCE_GID_TYPE_ROCE_V2 && roce_gid_any_link_local(g->raw)) {
			if (!ll || (roce_gid_is_ipv4(g->raw) == (family == AF_INET) &&
			            roce_gid_is_ipv4(ll->raw) != (family == AF_INET)))
				ll = g;
		} else if (g->type == ROCE_GID_TYPE_ROCE_V2)
			v2_other = true;
	}
	const char *nd = p->netdev[0] ? p->netdev : "the netdev";
	bool ll_ipv4 = ll && roce_gid_is_ipv4_link_local(ll->raw) && family == AF_INET;
	if (v2_other && !ll_ipv4) {
		snprintf(buf, len,
		         "only RoCE v2 GIDs of the other address family: give %s an %s address or set AddrFamily", nd,
		         family_name(family));
	} else if (ll_ipv4) {
		/* An address the host gave itself (no DHCP lease, an unapplied config). */
		char addr[64];
		roce_gid_format_addr(ll->raw, addr, sizeof(addr));
		snprintf(buf, len,
		         "only a link-local RoCE v2 GID, which is not routable: give %s its routable %s address "
		         "(GID %d is %s, link-local: not routed across an L3 fabric)",
		         nd, family_name(family), ll->index, addr);
	} else if (ll) {
		snprintf(buf, len, "only a link-local RoCE v2 GID, which is not routable: give %s an %s address", nd,
		         family_name(family));
	} else if (v1) {
		snprintf(buf, len,
		         "only RoCE v1 GIDs: RoCE v2 is disabled on this port (check the firmware's ROCE_CONTROL / "
		         "cma_roce_mode)");
	} else {
		snprintf(buf, len, "the GID table is empty: give %s an %s address", nd, family_name(family));
	}
}

static enum roce_verdict check_gid(struct roce_check_result *r, const struct roce_policy *pol,
                                   const struct roce_device *d, const struct roce_port *p, int *index_out)
{
	char have[96], where[256];
	*index_out = -1;
	const struct roce_gid *found = first_usable(p, pol->addr_family);
	/* A table we could not (fully) read is unknown, unless what we did read answers. */
	if (!roce_reading_ok(&p->gids_read) && !found) {
		roce_finding_addf(r, "gid", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL,
		                  "%s port %u GID table cannot be read (%s: %s)", d->name, p->num,
		                  roce_status_name(p->gids_read.status), p->gids_read.why);
		return ROCE_UNKNOWN;
	}
	if (pol->gid_index >= 0) {
		const struct roce_gid *at = roce_port_find_gid(p, pol->gid_index);
		if (at && roce_gid_usable(at, pol->addr_family)) {
			*index_out = at->index;
			describe_gid(at, have, sizeof(have));
			roce_finding_pass(r, "gid", d->name, p->num, "GID %d is %s on %s", at->index, have, at->ndev);
			return ROCE_PASS;
		}
		if (at && !roce_reading_ok(&at->read) && at->read.status != ROCE_MALFORMED) {
			roce_finding_addf(r, "gid", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL,
			                  "%s port %u GID %d cannot be read (%s)", d->name, p->num, pol->gid_index,
			                  at->read.why);
			return ROCE_UNKNOWN;
		}
		describe_gid(at, have, sizeof(have));
		if (found) {
			*index_out = -1;
			describe_gid(found, where, sizeof(where));
			roce_finding_addf(r, "gid", d->name, p->num, ROCE_FAIL, "at another index", 0, NULL,
			                  "%s port %u: GID %d is %s, not a routable RoCE v2 %s GID; "
			                  "the RoCE v2 %s GID (%s) is at index %d: "
			                  "set GidIndex=%d or GidIndex=auto in roce.conf, "
			                  "or remove the address or VLAN that shifted it",
			                  d->name, p->num, pol->gid_index, have, family_name(pol->addr_family),
			                  family_name(pol->addr_family), where, found->index, found->index);
			return ROCE_FAIL;
		}
	} else if (found) {
		*index_out = found->index;
		describe_gid(found, have, sizeof(have));
		roce_finding_pass(r, "gid", d->name, p->num, "GID %d is %s on %s (auto)", found->index, have,
		                  found->ndev);
		return ROCE_PASS;
	}
	/* An entry we could not read might be the one: that is unknown, not a fault. */
	const struct roce_gid *bad = unreadable_gid(p);
	if (bad) {
		const struct roce_reading *rd = !roce_reading_ok(&bad->read)        ? &bad->read
		                                : !roce_reading_ok(&bad->type_read) ? &bad->type_read
		                                                                    : &bad->ndev_read;
		roce_finding_addf(r, "gid", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL,
		                  "%s port %u has no usable RoCE v2 %s GID, and GID %d cannot be read (%s: %s)",
		                  d->name, p->num, family_name(pol->addr_family), bad->index,
		                  roce_status_name(rd->status), rd->why);
		return ROCE_UNKNOWN;
	}
	explain_no_gid(p, pol->addr_family, where, sizeof(where));
	roce_finding_addf(r, "gid", d->name, p->num, ROCE_FAIL, "missing", ROCE_FINDING_HARDWARE, NULL,
	                  "%s port %u has no routable RoCE v2 %s GID: %s", d->name, p->num,
	                  family_name(pol->addr_family), where);
	return ROCE_FAIL;
}

static enum roce_verdict check_mtu(struct roce_check_result *r, const struct roce_policy *pol,
                                   const struct roce_device *d, const struct roce_port *p, const struct roce_netdev *nd,
                                   int *active_mtu, unsigned *netdev_mtu)
{
	*active_mtu = 0;
	*netdev_mtu = 0;
	if (!nd)
		return ROCE_UNKNOWN;
	*netdev_mtu = nd->mtu;
	*active_mtu = roce_ib_mtu_for_netdev_mtu(nd->mtu);
	if (p->verbs_read.status != ROCE_NOT_READ && !roce_reading_ok(&p->verbs_read)) {
		roce_finding_addf(r, "mtu", d->name, p->num, ROCE_WARN, "not cross-checked", 0, NULL,
		                  "%s port %u: the libibverbs MTU cross-check was not done: %s; "
		                  "the active RDMA MTU %d is derived from %s MTU %u",
		                  d->name, p->num, p->verbs_read.why, *active_mtu, nd->name, nd->mtu);
	} else if (p->verbs_active_mtu && p->verbs_active_mtu != *active_mtu) {
		roce_finding_addf(r, "mtu", d->name, p->num, ROCE_WARN, "verbs differ", 0, NULL,
		                  "%s port %u: libibverbs reports active MTU %d, but %s MTU %u implies %d", d->name,
		                  p->num, p->verbs_active_mtu, nd->name, nd->mtu, *active_mtu);
		*active_mtu = p->verbs_active_mtu;
	}
	if (pol->mtu && nd->mtu != pol->mtu) {
		roce_finding_addf(r, "mtu", d->name, p->num, ROCE_FAIL, "mismatch", 0, NULL,
		                  "%s MTU is %u, the policy requires %u (RDMA MTU %d): `ip link set %s mtu %u`, "
		                  "and the switch ports must match",
		                  nd->name, nd->mtu, pol->mtu, *active_mtu, nd->name, pol->mtu);
		return ROCE_FAIL;
	}
	roce_finding_pass(r, "mtu", d->name, p->num, "%s MTU %u, active RDMA MTU %d", nd->name, nd->mtu, *active_mtu);
	return ROCE_PASS;
}

/* ------------------------------------------------------------ node-level checks */

static int check_port(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol,
                      const struct roce_device *d, const struct roce_port *p, struct roce_port_result *pr)
{
	snprintf(pr->device, sizeof(pr->device), "%s", d->name);
	pr->port = p->num;
	pr->gid_index = -1;
	snprintf(pr->netdev, sizeof(pr->netdev), "%s", p->netdev);
	if (!roce_reading_ok(&p->link_layer_read)) {
		return roce_finding_addf(r, "link_layer", d->name, p->num, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "%s port %u link layer cannot be read (%s: %s)", d->name, p->num,
		                         roce_status_name(p->link_layer_read.status), p->link_layer_read.why);
	}
	if (p->link_layer != ROCE_LL_ETHERNET)
		return roce_finding_pass(r, "link_layer", d->name, p->num,
		                         "%s port %u is InfiniBand, not RoCE: left out", d->name, p->num);
	if (!roce_policy_hca_allowed(pol, d->name))
		return 0;
	pr->roce = true;

	size_t before = r->n_findings;
	const struct roce_netdev *nd;
	int tc;
	bool ok = true, host_down = host_port_down(node, pol, d, p);
	ok &= check_port_state(r, d, p, host_down) == ROCE_PASS;
	ok &= check_netdev(r, node, d, p, host_down, &nd) == ROCE_PASS;
	ok &= check_gid(r, pol, d, p, &pr->gid_index) == ROCE_PASS;
	ok &= check_mtu(r, pol, d, p, nd, &pr->active_mtu, &pr->netdev_mtu) != ROCE_FAIL;
	/* PFC where it lives: on each member of a bond (RoCE LAG), else on nd */
	const struct roce_netdev *qos[ROCE_BOND_MEMBERS_MAX];
	size_t n_qos = nd ? roce_node_qos_netdevs(node, nd, qos) : 1;
	for (size_t i = 0; i < n_qos; i++) {
		ok &= roce_check_pfc_port(r, pol, d, p, nd ? qos[i] : NULL, &tc) != ROCE_FAIL;
		if (tc >= 0 && r->traffic_class < 0)
			r->traffic_class = tc;
	}
	if (r->n_findings < before) /* out of memory inside roce_finding_addf() */
		return -1;
	pr->healthy = ok;
	return 0;
}

/* NCCL_IB_GID_INDEX is one value per process: every port must agree.  With
 * auto (or after a shift) the index held by most healthy ports wins, ties to
 * the lower index (NCCL's scan order); the other ports are left out. */
static int check_gid_uniform(struct roce_check_result *r, const struct roce_policy *pol)
{
	int best = -1;
	size_t best_n = 0;
	for (size_t i = 0; i < r->n_ports; i++) {
		const struct roce_port_result *pi = &r->ports[i];
		if (!pi->healthy)
			continue;
		size_t n = 0;
		for (size_t j = 0; j < r->n_ports; j++)
			n += r->ports[j].healthy && r->ports[j].gid_index == pi->gid_index;
		if (n > best_n || (n == best_n && pi->gid_index < best)) {
			best = pi->gid_index;
			best_n = n;
		}
	}
	r->gid_index = best;
	for (size_t i = 0; i < r->n_ports; i++) {
		struct roce_port_result *pr = &r->ports[i];
		if (!pr->healthy || pr->gid_index == best)
			continue;
		pr->healthy = false;
		if (roce_finding_addf(r, "gid", pr->device, pr->port, ROCE_FAIL, "index differs", 0, NULL,
		                      "the RoCE v2 GID is at index %d on %s:%u but at %d on other ports: "
		                      "NCCL_IB_GID_INDEX is one value per process; "
		                      "make the GID tables agree (same addresses and VLANs on every port)%s",
		                      pr->gid_index, pr->device, pr->port, best,
		                      pol->gid_index == ROCE_GID_AUTO ? "" : " or set GidIndex") < 0)
			return -1;
	}
	return 0;
}

/* NCCL uses the smaller active MTU of both ends and mixed MTUs have hung jobs:
 * the RDMA MTU held by most healthy ports wins and the others are left out
 * (warn mode) or fail the node (strict), as for the GID index.  A tie goes to
 * the larger MTU: 1500 is what a netdev falls back to when its configuration
 * was not applied (driver reload, failed network setup), while 4200 or 9000
 * is only ever set on purpose, so the smaller one is the likely mistake. */
static int check_mtu_uniform(struct roce_check_result *r)
{
	const struct roce_port_result *best = NULL;
	size_t best_n = 0, known = 0;
	for (size_t i = 0; i < r->n_ports; i++) {
		const struct roce_port_result *pi = &r->ports[i];
		if (!pi->healthy || !pi->active_mtu)
			continue;
		known++;
		size_t n = 0;
		for (size_t j = 0; j < r->n_ports; j++)
			n += r->ports[j].healthy && r->ports[j].active_mtu == pi->active_mtu;
		if (n > best_n || (n == best_n && pi->active_mtu > best->active_mtu)) {
			best = pi;
			best_n = n;
		}
	}
	if (!best)
		return 0;
	if (best_n == known)
		return roce_finding_pass(r, "mtu_uniform", NULL, 0, "active RDMA MTU is %d on every healthy RoCE port",
		                         best->active_mtu);
	/* Copies: roce_finding_addf() may move r->findings, never r->ports, but keep it obvious. */
	int want = best->active_mtu;
	unsigned want_netdev = best->netdev_mtu;
	for (size_t i = 0; i < r->n_ports; i++) {
		struct roce_port_result *pr = &r->ports[i];
		if (!pr->healthy || !pr->active_mtu || pr->active_mtu == want)
			continue;
		pr->healthy = false;
		if (roce_finding_addf(
		            r, "mtu_uniform", pr->device, pr->port, ROCE_FAIL, "differs", 0, NULL,
		            "%s:%u (%s) has active RDMA MTU %d (%s MTU %u), but most RoCE ports have %d (MTU %u): "
		            "NCCL uses the smaller MTU of both ends and mixed MTUs have hung jobs, so it is left out: "
		            "`ip link set %s mtu %u`, and give its switch port the same MTU",
		            pr->device, pr->port, pr->netdev, pr->active_mtu, pr->netdev, pr->netdev_mtu, want,
		            want_netdev, pr->netdev, want_netdev) < 0)
			return -1;
	}
	return 0;
}

/* The drain reason of a node whose RDMA driver did not load: ib_core makes
 * class/infiniband, the adapter's driver (mlx5_ib for mlx5_* devices) fills it. */
static void driver_reason(const struct roce_policy *pol, char *buf, size_t len)
{
	bool mlx5 = true;
	for (size_t i = 0; i < pol->n_hca; i++)
		mlx5 = mlx5 && strncmp(pol->hca[i], "mlx5_", 5) == 0;
	snprintf(buf, len, "RDMA driver not loaded (ib_core%s)", mlx5 ? ", mlx5_ib" : "");
}

/* Hca= names devices this node must have, so a node with no class/infiniband
 * at all (ib_core and the adapter's driver not loaded: a DKMS build that
 * failed on a new kernel, a blacklist) fails it, and drains: one finding
 * for the node, naming the drivers. */
static int check_no_rdma_driver(struct roce_check_result *r, const struct roce_node *node,
                                const struct roce_policy *pol)
{
	char reason[64], listed[160] = "";
	size_t used = 0;
	for (size_t i = 0; i < pol->n_hca && used < sizeof(listed); i++)
		used += (size_t)snprintf(listed + used, sizeof(listed) - used, "%s%s", i ? "," : "", pol->hca[i]);
	driver_reason(pol, reason, sizeof(reason));
	return roce_finding_addf(r, "hca", NULL, 0, ROCE_FAIL, "no RDMA driver", ROCE_FINDING_HARDWARE, reason,
	                         "Hca= lists %s, but no RDMA driver is loaded: %s (ib_core and the adapter's "
	                         "RDMA driver are not loaded: `modprobe mlx5_ib` or the adapter's driver, `dmesg`; "
	                         "after a kernel update, a DKMS module that did not build: `dkms status`)",
	                         listed, node->devices_read.why);
}

static int check_node(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	/* An Hca= device absent from a listing we read is a hardware fault, also when
	 * the node has no RDMA device at all or no class/infiniband (the driver did
	 * not load); from a listing we could not read (EIO, EACCES) it is unknown
	 * (never a drain). */
	if (pol->n_hca && node->devices_read.status == ROCE_MISSING)
		return check_no_rdma_driver(r, node, pol);
	for (size_t i = 0; i < pol->n_hca; i++) {
		if (roce_node_find_device(node, pol->hca[i]))
			continue;
		if (roce_devices_listed(node)
		            ? roce_finding_addf(r, "hca", pol->hca[i], 0, ROCE_FAIL, "missing", ROCE_FINDING_HARDWARE,
		                                NULL,
		                                "%s is listed in Hca= but not present: "
		                                "check the HCA (lspci, dmesg) or fix Hca=",
		                                pol->hca[i]) < 0
		            : roce_finding_addf(r, "hca", pol->hca[i], 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                                "%s is listed in Hca=, but the RDMA devices cannot be listed (%s)",
		                                pol->hca[i], node->devices_read.why) < 0)
			return -1;
	}
	return 0;
}

void roce_check_decide(struct roce_check_result *r, const struct roce_policy *pol)
{
	size_t healthy = 0;
	for (size_t i = 0; i < r->n_ports; i++)
		healthy += r->ports[i].healthy;
	r->mode = pol->mode;
	/* warn: only "RoCE impossible on every port" fails; strict: every fail (and unknown, but those set
	 * aside) counts. */
	if (pol->mode == ROCE_MODE_STRICT)
		r->failed = r->n_fail > 0 || r->n_unknown > r->n_unknown_aside || healthy == 0;
	else
		r->failed = healthy == 0;
}

/* Directory entries rdma.c refused (names the kernel never gives): said after
 * the ports, whose problems matter more to whoever reads the first findings. */
static int refused_entries(struct roce_check_result *r, const struct roce_node *node)
{
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		if (dev->ports_read.status == ROCE_MALFORMED &&
		    roce_finding_addf(r, "device", dev->name, 0, ROCE_UNKNOWN, "entry refused", 0, NULL,
		                      "%s: a port entry was refused (%s); its other ports were checked", dev->name,
		                      dev->ports_read.why) < 0)
			return -1;
	}
	if (node->devices_read.status == ROCE_MALFORMED)
		return roce_finding_addf(r, "devices", NULL, 0, ROCE_UNKNOWN, "entry refused", 0, NULL,
		                         "an entry of the RDMA device list was refused (%s); "
		                         "the other devices were checked",
		                         node->devices_read.why);
	return 0;
}

int roce_check(const struct roce_node *node, const struct roce_policy *pol, struct roce_check_result *out)
{
	memset(out, 0, sizeof(*out));
	out->gid_index = -1;
	out->traffic_class = -1;

	size_t nports = 0;
	for (size_t d = 0; d < node->n_devices; d++)
		nports += node->devices[d].n_ports;
	out->ports = calloc(nports ? nports : 1, sizeof(*out->ports));
	if (!out->ports)
		goto nomem;

	if (!roce_devices_listed(node)) {
		if (roce_finding_addf(out, "devices", NULL, 0, ROCE_FAIL, "none", 0, NULL,
		                      "no RDMA devices: %s (is the mlx5_ib driver loaded? `modprobe mlx5_ib`)",
		                      node->devices_read.why) < 0)
			goto nomem;
	}
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		if (!roce_reading_ok(&dev->ports_read) && dev->ports_read.status != ROCE_MALFORMED &&
		    roce_finding_addf(out, "device", dev->name, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                      "%s ports cannot be listed (%s)", dev->name, dev->ports_read.why) < 0)
			goto nomem;
		for (size_t p = 0; p < dev->n_ports; p++)
			if (check_port(out, node, pol, dev, &dev->ports[p], &out->ports[out->n_ports++]) < 0)
				goto nomem;
	}
	if (refused_entries(out, node) < 0)
		goto nomem;
	size_t roce_ports = 0;
	for (size_t i = 0; i < out->n_ports; i++)
		roce_ports += out->ports[i].roce;
	if (roce_devices_listed(node) && node->n_devices == 0 &&
	    roce_finding_addf(out, "devices", NULL, 0, ROCE_FAIL, "none", 0, NULL,
	                      "no RDMA devices: %s/class/infiniband lists none "
	                      "(is the mlx5_ib driver loaded? `modprobe mlx5_ib`)",
	                      node->sysfs_root) < 0)
		goto nomem;
	if (roce_devices_listed(node) && node->n_devices > 0 && roce_ports == 0 &&
	    roce_finding_addf(out, "devices", NULL, 0, ROCE_FAIL, "no RoCE port", 0, NULL,
	                      "no RoCE port%s: every RDMA port is InfiniBand or left out by Hca=",
	                      pol->n_hca ? "" : "s") < 0)
		goto nomem;
	/* Node-wide checks of their own files, then MTU: the GID index is then
	 * chosen among the ports that stay. */
	if (roce_check_link(out, node, pol) < 0 || roce_check_fw(out, node) < 0 || roce_check_ecn(out, node, pol) < 0 ||
	    roce_check_ets(out, node, pol) < 0 || roce_check_trust(out, node, pol) < 0)
		goto nomem;
	if (check_mtu_uniform(out) < 0 || check_gid_uniform(out, pol) < 0 || check_node(out, node, pol) < 0 ||
	    roce_pciecheck(out, node, pol) < 0)
		goto nomem;
	if (pol->traffic_class != ROCE_TC_AUTO)
		out->traffic_class = pol->traffic_class;
	roce_check_decide(out, pol);
	return 0;
nomem:
	roce_check_result_free(out);
	return -1;
}

void roce_check_result_free(struct roce_check_result *r)
{
	free(r->findings);
	free(r->ports);
	memset(r, 0, sizeof(*r));
	r->gid_index = -1;
	r->traffic_class = -1;
}

const struct roce_port_result *roce_check_port(const struct roce_check_result *r, const char *device, unsigned port)
{
	for (size_t i = 0; i < r->n_ports; i++)
		if (r->ports[i].port == port && strcmp(r->ports[i].device, device) == 0)
			return &r->ports[i];
	return NULL;
}
