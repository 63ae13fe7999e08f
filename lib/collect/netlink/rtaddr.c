/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtaddr.c - RTM_GETADDR: every address of the node, filed under its
 * netdevs.  roce_rtaddr_parse() is pure; roce_rtaddr_collect() asks
 * through nl.c.
 */
#include "config.h"
#include "collect/netlink/rtaddr.h"
#include "collect/netlink/nlmsg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#define WHAT "RTM_GETADDR"

/* The address of an ifaddrmsg: IFA_LOCAL where there is one (IPv4 gives
 * both, IFA_ADDRESS being the peer on a point-to-point link), else
 * IFA_ADDRESS, as iproute2 reads them. */
static const struct nlattr *addr_attr(const struct nlattr *const *tb)
{
	return tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
}

int roce_rtaddr_parse(const struct nlmsghdr *nlh, struct roce_ifaddr *a, int *ifindex, char *why)
{
	const struct nlattr *tb[IFA_MAX + 1];
	int rc = roce_nlmsg_envelope(nlh, RTM_NEWADDR, sizeof(struct ifaddrmsg), WHAT, why, ROCE_WHY_MAX);
	if (rc > 0) {
		snprintf(why, ROCE_WHY_MAX, WHAT ": %s", strerror(rc));
		return -1;
	}
	if (rc < 0)
		return -1;
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	size_t len = ifa->ifa_family == AF_INET ? 4 : ifa->ifa_family == AF_INET6 ? 16 : 0;
	if (!len)
		return 0;
	if (roce_nlmsg_table(nlh, sizeof(*ifa), tb, IFA_MAX) < 0) {
		snprintf(why, ROCE_WHY_MAX, WHAT ": attribute overruns the %u-byte message", nlh->nlmsg_len);
		return -1;
	}
	const struct nlattr *at = addr_attr(tb);
	if (!at || mnl_attr_get_payload_len(at) != len) {
		snprintf(why, ROCE_WHY_MAX, WHAT ": an %s address of %u bytes", len == 4 ? "IPv4" : "IPv6",
		         at ? (unsigned)mnl_attr_get_payload_len(at) : 0);
		return -1;
	}
	if (ifa->ifa_prefixlen > len * 8 || ifa->ifa_index == 0 || ifa->ifa_index > INT32_MAX) {
		snprintf(why, ROCE_WHY_MAX, WHAT ": prefix length %u or ifindex %u out of range", ifa->ifa_prefixlen,
		         ifa->ifa_index);
		return -1;
	}
	memset(a, 0, sizeof(*a));
	a->family = ifa->ifa_family;
	a->prefix = ifa->ifa_prefixlen;
	memcpy(a->addr, mnl_attr_get_payload(at), len);
	*ifindex = (int)ifa->ifa_index;
	return 1;
}

static struct roce_netdev *by_ifindex(struct roce_node *node, int ifindex)
{
	for (size_t i = 0; i < node->n_netdevs; i++)
		if (node->netdevs[i].ifindex == ifindex)
			return &node->netdevs[i];
	return NULL;
}

static int file_address(const struct nlmsghdr *nlh, void *data, char *why)
{
	struct roce_ifaddr a;
	int ifindex;
	int rc = roce_rtaddr_parse(nlh, &a, &ifindex, why);
	if (rc < 0)
		return MNL_CB_ERROR;
	struct roce_netdev *nd = rc ? by_ifindex(data, ifindex) : NULL;
	if (!nd)
		return MNL_CB_OK;
	if (nd->n_addrs < ROCE_NETDEV_ADDRS)
		nd->addrs[nd->n_addrs++] = a;
	else
		nd->addrs_more++;
	return MNL_CB_OK;
}

int roce_rtaddr_collect(struct roce_nl *nl, struct roce_node *node)
{
	struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC };
	struct roce_nl_result res;
	for (size_t i = 0; i < node->n_netdevs; i++) {
		node->netdevs[i].n_addrs = 0;
		node->netdevs[i].addrs_more = 0;
	}
	roce_nl_dump(nl, RTM_GETADDR, &ifa, sizeof(ifa), WHAT, file_address, node, &res);
	for (size_t i = 0; i < node->n_netdevs; i++) {
		struct roce_netdev *nd = &node->netdevs[i];
		if (nd->ifindex <= 0) /* its link was not read: say why */
			roce_reading_set(&nd->addr_read,
			                 nd->link_read.status == ROCE_OK ? ROCE_UNREADABLE : nd->link_read.status,
			                 nd->link_read.err, "%s", nd->link_read.why);
		else if (res.status == ROCE_OK)
			roce_reading_set(&nd->addr_read, ROCE_OK, 0, NULL);
		else
			roce_reading_set(&nd->addr_read, res.status, res.err, "%s", res.why);
		if (res.status != ROCE_OK)
			nd->n_addrs = nd->addrs_more = 0; /* half a dump is no answer */
	}
	return res.status == ROCE_OK ? 0 : -1;
}
