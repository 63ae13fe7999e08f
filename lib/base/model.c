/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model.c - helpers and pure predicates over the node model (no I/O). */
#include "config.h"
#include "base/model.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t roce_fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

const char *roce_status_name(enum roce_status s)
{
	switch (s) {
	case ROCE_NOT_READ: return "not read";
	case ROCE_OK: return "ok";
	case ROCE_MISSING: return "missing";
	case ROCE_UNREADABLE: return "unreadable";
	case ROCE_MALFORMED: return "malformed";
	case ROCE_UNSUPPORTED: return "not supported";
	case ROCE_TIMEOUT: return "timed out";
	}
	return "?";
}

enum roce_status roce_status_for_errno(int err)
{
	if (err == ENOENT || err == ENOTDIR || err == ENODEV || err == ENXIO)
		return ROCE_MISSING;
	if (err == EOPNOTSUPP)
		return ROCE_UNSUPPORTED;
	return ROCE_UNREADABLE;
}

void roce_reading_set(struct roce_reading *r, enum roce_status s, int err, const char *fmt, ...)
{
	r->status = s;
	r->err = err;
	r->why[0] = '\0';
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->why, sizeof(r->why), fmt, ap);
		va_end(ap);
	}
}

void roce_node_init(struct roce_node *node)
{
	memset(node, 0, sizeof(*node));
	snprintf(node->sysfs_root, sizeof(node->sysfs_root), "/sys");
}

void roce_node_free(struct roce_node *node)
{
	for (size_t d = 0; d < node->n_devices; d++) {
		struct roce_device *dev = &node->devices[d];
		for (size_t p = 0; p < dev->n_ports; p++)
			free(dev->ports[p].gids);
		free(dev->ports);
	}
	free(node->devices);
	free(node->netdevs);
	node->devices = NULL;
	node->netdevs = NULL;
	node->n_devices = node->n_netdevs = 0;
}

struct roce_device *roce_node_find_device(const struct roce_node *node, const char *name)
{
	for (size_t i = 0; i < node->n_devices; i++)
		if (strcmp(node->devices[i].name, name) == 0)
			return &node->devices[i];
	return NULL;
}

const struct roce_port *roce_node_find_port(const struct roce_node *node, const char *device, unsigned num)
{
	const struct roce_device *d = node ? roce_node_find_device(node, device) : NULL;
	for (size_t i = 0; d && i < d->n_ports; i++)
		if (d->ports[i].num == num)
			return &d->ports[i];
	return NULL;
}

const struct roce_gid *roce_port_find_gid(const struct roce_port *port, int index)
{
	for (size_t i = 0; port && index >= 0 && i < port->n_gids; i++)
		if (port->gids[i].index == index)
			return &port->gids[i];
	return NULL;
}

const struct roce_gid *roce_port_read_gid(const struct roce_port *port, int index)
{
	const struct roce_gid *g = roce_port_find_gid(port, index);
	return g && roce_reading_ok(&g->read) && !g->empty ? g : NULL;
}

struct roce_netdev *roce_node_find_netdev(const struct roce_node *node, const char *name)
{
	for (size_t i = 0; i < node->n_netdevs; i++)
		if (strcmp(node->netdevs[i].name, name) == 0)
			return &node->netdevs[i];
	return NULL;
}

size_t roce_node_qos_netdevs(const struct roce_node *node, const struct roce_netdev *nd,
                             const struct roce_netdev *out[ROCE_BOND_MEMBERS_MAX])
{
	size_t n = 0;
	if (roce_reading_ok(&nd->members_read))
		for (size_t i = 0; i < nd->n_members && i < ROCE_BOND_MEMBERS_MAX; i++) {
			const struct roce_netdev *m = roce_node_find_netdev(node, nd->members[i]);
			if (m)
				out[n++] = m;
		}
	if (n == 0)
		out[n++] = nd;
	return n;
}

struct roce_netdev *roce_node_add_netdev(struct roce_node *node, const char *name)
{
	struct roce_netdev *nd = roce_node_find_netdev(node, name);
	if (nd)
		return nd;
	nd = realloc(node->netdevs, (node->n_netdevs + 1) * sizeof(*nd));
	if (!nd)
		return NULL;
	node->netdevs = nd;
	nd = &node->netdevs[node->n_netdevs++];
	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->ifindex = -1;
	for (int i = 0; i < ROCE_DSCP_MAX; i++)
		nd->dscp.prio[i] = -1;
	return nd;
}

int roce_ib_mtu_for_netdev_mtu(unsigned netdev_mtu)
{
	/* drivers/infiniband/core: iboe_get_mtu() subtracts IB_GRH_BYTES(40) +
	 * IB_BTH_BYTES(12) + IB_DETH_BYTES(8) + IB_ICRC_BYTES(4) + ... = 96 in
	 * practice, then rounds down to an IB MTU. */
	static const int ib_mtus[] = { 4096, 2048, 1024, 512, 256 };
	if (netdev_mtu < 96)
		return 0;
	unsigned avail = netdev_mtu - 96;
	for (size_t i = 0; i < sizeof(ib_mtus) / sizeof(ib_mtus[0]); i++)
		if (avail >= (unsigned)ib_mtus[i])
			return ib_mtus[i];
	return 0;
}

bool roce_gid_is_ipv4(const uint8_t raw[16])
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return memcmp(raw, prefix, sizeof(prefix)) == 0;
}

bool roce_gid_is_link_local(const uint8_t raw[16]) { return raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80; }

bool roce_gid_is_ipv4_link_local(const uint8_t raw[16])
{
	return roce_gid_is_ipv4(raw) && raw[12] == 169 && raw[13] == 254;
}

bool roce_gid_any_link_local(const uint8_t raw[16])
{
	return roce_gid_is_link_local(raw) || roce_gid_is_ipv4_link_local(raw);
}

/*
 * NCCL's own test (NVIDIA/nccl src/transport/net_ib/connect.cc, validGid() =
 * configuredGid() && !linkLocalGid()) refuses only all-zero GIDs, fe80:: with
 * a zero interface id and the fe80::/64 prefix; it takes an IPv4-mapped
 * 169.254.x.y GID as valid, and its auto scan (ncclIbGetGidIndex) would pick
 * one.  We match it for IPv6 (fe80::/10 covers fe80::/64) and go further for
 * IPv4 on purpose: a link-local address is not routed across an L3
 * spine-leaf fabric, so such a GID connects nothing beyond the leaf.
 * ::ffff:0.0.0.0 is refused too (no address at all).
 */
bool roce_gid_usable(const struct roce_gid *g, int addr_family)
{
	if (!roce_reading_ok(&g->read) || g->empty || g->type != ROCE_GID_TYPE_ROCE_V2)
		return false;
	if (roce_gid_any_link_local(g->raw))
		return false;
	if (addr_family == AF_INET)
		return roce_gid_is_ipv4(g->raw) && memcmp(g->raw + 12, "\0\0\0\0", 4) != 0;
	return !roce_gid_is_ipv4(g->raw);
}

bool roce_devices_listed(const struct roce_node *node)
{
	/* Listing never sets MALFORMED: only the collector's refusal of names does. */
	return roce_reading_ok(&node->devices_read) || node->devices_read.status == ROCE_MALFORMED;
}

bool roce_device_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= ROCE_NAME_MAX || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

bool roce_port_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 5 || strspn(s, "0123456789") != n)
		return false;
	return atoi(s) >= 1;
}

bool roce_netdev_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= IF_NAMESIZE || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	/* Linux allows ',' and '=' in names, but NCCL_SOCKET_IFNAME is a ','-list
	 * with '=' and '^' prefixes: such a name would read as other interfaces. */
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':' || s[i] == ',' || s[i] == '=' || s[i] == '^' ||
		    isspace((unsigned char)s[i]) || !isprint((unsigned char)s[i]))
			return false;
	return true;
}

void roce_gid_format_sysfs(const uint8_t raw[16], char out[40])
{
	for (int i = 0; i < 8; i++)
		snprintf(out + i * 5, 6, "%02x%02x%s", raw[2 * i], raw[2 * i + 1], i < 7 ? ":" : "");
}

void roce_gid_format_addr(const uint8_t raw[16], char *out, size_t outlen)
{
	if (roce_gid_is_ipv4(raw)) {
		if (!inet_ntop(AF_INET, raw + 12, out, outlen))
			snprintf(out, outlen, "?");
	} else if (!inet_ntop(AF_INET6, raw, out, outlen)) {
		snprintf(out, outlen, "?");
	}
}

const char *roce_gid_type_name(enum roce_gid_type t)
{
	switch (t) {
	case ROCE_GID_TYPE_IB_ROCE_V1: return "IB/RoCE v1";
	case ROCE_GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return "unknown";
	}
}

const char *roce_link_layer_name(enum roce_link_layer ll)
{
	switch (ll) {
	case ROCE_LL_ETHERNET: return "Ethernet";
	case ROCE_LL_INFINIBAND: return "InfiniBand";
	default: return "unknown";
	}
}
