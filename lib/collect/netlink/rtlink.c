/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtlink.c - RTM_GETLINK: a netdev's ifindex, MTU and operstate.
 * roce_rtlink_parse() is pure; roce_rtlink_get() asks through nl.c.
 */
#include "config.h"
#include "collect/netlink/rtlink.h"
#include "collect/netlink/nlmsg.h"
#include "base/printable.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

static const char *const operstate_names[] = {
	[IF_OPER_UNKNOWN] = "UNKNOWN", [IF_OPER_NOTPRESENT] = "NOTPRESENT",
	[IF_OPER_DOWN] = "DOWN",       [IF_OPER_LOWERLAYERDOWN] = "LOWERLAYERDOWN",
	[IF_OPER_TESTING] = "TESTING", [IF_OPER_DORMANT] = "DORMANT",
	[IF_OPER_UP] = "UP",
};

/* "UP", "DOWN", ... as `ip link` prints IF_OPER_*; a value newer than this
 * table is shown by number, never taken for one we know. */
static void operstate_name(unsigned oper, char *out, size_t len)
{
	if (oper < sizeof(operstate_names) / sizeof(operstate_names[0]) && operstate_names[oper])
		snprintf(out, len, "%s", operstate_names[oper]);
	else
		snprintf(out, len, "UNKNOWN(%u)", oper);
}

/* Usable for traffic: administratively up and operationally up.  Drivers
 * that do not report carrier (loopback, some virtual and tunnel devices)
 * leave operstate UNKNOWN forever; for them IFF_UP|IFF_RUNNING is the best
 * the kernel knows, as `ip link` and NetworkManager also assume. */
static bool link_is_up(unsigned flags, unsigned operstate)
{
	if (!(flags & IFF_UP))
		return false;
	if (operstate == IF_OPER_UP)
		return true;
	return operstate == IF_OPER_UNKNOWN && (flags & IFF_RUNNING);
}

static int link_error(struct roce_netdev *nd, int err)
{
	char shown[ROCE_NLMSG_SHOWN_MAX];
	roce_printable(nd->name, shown, sizeof(shown));
	if (err == ENODEV)
		roce_reading_set(&nd->link_read, ROCE_MISSING, err,
		                 "netdev %s does not exist in this network namespace", shown);
	else
		roce_reading_set(&nd->link_read, ROCE_UNREADABLE, err, "RTM_GETLINK %s: %s", shown, strerror(err));
	return -1;
}

/* The attributes we use, each present and of its type.  0, or -1 with why. */
static int check_attrs(const struct nlattr *const *tb, const struct roce_netdev *nd, const char *what, char *why,
                       size_t whylen)
{
	if (roce_nlmsg_name(tb[IFLA_IFNAME], nd->name, what, why, whylen) < 0)
		return -1;
	if (!tb[IFLA_MTU] || mnl_attr_validate(tb[IFLA_MTU], MNL_TYPE_U32) < 0) {
		snprintf(why, whylen, "%s: IFLA_MTU %s", what, tb[IFLA_MTU] ? "is not a u32" : "missing");
		return -1;
	}
	if (!tb[IFLA_OPERSTATE] || mnl_attr_validate(tb[IFLA_OPERSTATE], MNL_TYPE_U8) < 0) {
		snprintf(why, whylen, "%s: IFLA_OPERSTATE %s", what, tb[IFLA_OPERSTATE] ? "is not a u8" : "missing");
		return -1;
	}
	return 0;
}

/* IFLA_VLAN_EGRESS_QOS: IFLA_VLAN_QOS_MAPPING entries {from skb priority, to PCP}. */
static int egress_cb(const struct nlattr *a, void *data)
{
	struct roce_vlan *v = data;
	if (mnl_attr_get_type(a) != IFLA_VLAN_QOS_MAPPING)
		return MNL_CB_OK;
	if (mnl_attr_validate2(a, MNL_TYPE_UNSPEC, sizeof(struct ifla_vlan_qos_mapping)) < 0)
		return MNL_CB_ERROR;
	const struct ifla_vlan_qos_mapping *m = mnl_attr_get_payload(a);
	if (m->to > 7)
		return MNL_CB_ERROR;
	v->egress_pcps |= (uint8_t)(1u << m->to);
	return MNL_CB_OK;
}

/* IFLA_LINKINFO of a VLAN device (`ip -d link`: "vlan ... id 10 egress-qos-map
 * { 0:3 }"); any other kind leaves nd->vlan zero.  0, or -1 with why. */
static int parse_vlan(const struct nlattr *linkinfo, struct roce_vlan *v, const char *what, char *why, size_t whylen)
{
	const struct nlattr *info[IFLA_INFO_MAX + 1], *data[IFLA_VLAN_MAX + 1];
	memset(v, 0, sizeof(*v));
	if (!linkinfo)
		return 0;
	if (roce_nlmsg_table_nest(linkinfo, info, IFLA_INFO_MAX) < 0)
		goto bad;
	if (!info[IFLA_INFO_KIND] || mnl_attr_validate(info[IFLA_INFO_KIND], MNL_TYPE_NUL_STRING) < 0)
		return 0; /* a physical device carries no kind */
	if (strcmp(mnl_attr_get_str(info[IFLA_INFO_KIND]), "vlan") != 0)
		return 0;
	if (!info[IFLA_INFO_DATA] || roce_nlmsg_table_nest(info[IFLA_INFO_DATA], data, IFLA_VLAN_MAX) < 0 ||
	    !data[IFLA_VLAN_ID] || mnl_attr_validate(data[IFLA_VLAN_ID], MNL_TYPE_U16) < 0)
		goto bad;
	v->is_vlan = true;
	v->id = mnl_attr_get_u16(data[IFLA_VLAN_ID]);
	if (data[IFLA_VLAN_EGRESS_QOS] &&
	    roce_nlmsg_walk_nest(data[IFLA_VLAN_EGRESS_QOS], egress_cb, v) != ROCE_NLMSG_WALKED)
		goto bad;
	return 0;
bad:
	memset(v, 0, sizeof(*v));
	snprintf(why, whylen, "%s: IFLA_LINKINFO of a vlan is not id and egress QoS mappings", what);
	return -1;
}

int roce_rtlink_parse(const struct nlmsghdr *nlh, struct roce_netdev *nd)
{
	char what[ROCE_NLMSG_WHAT_MAX], why[ROCE_WHY_MAX];
	const struct nlattr *tb[IFLA_MAX + 1];

	roce_nlmsg_what(what, sizeof(what), "RTM_GETLINK", nd->name);
	int rc = roce_nlmsg_envelope(nlh, RTM_NEWLINK, sizeof(struct ifinfomsg), what, why, sizeof(why));
	if (rc > 0)
		return link_error(nd, rc);
	if (rc < 0)
		goto malformed;

	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	if (roce_nlmsg_table(nlh, sizeof(*ifi), tb, IFLA_MAX) < 0) {
		snprintf(why, sizeof(why), "%s: attribute overruns the %u-byte message", what, nlh->nlmsg_len);
		goto malformed;
	}
	if (check_attrs(tb, nd, what, why, sizeof(why)) < 0)
		goto malformed;
	if (ifi->ifi_index <= 0) {
		snprintf(why, sizeof(why), "%s: ifindex %d", what, ifi->ifi_index);
		goto malformed;
	}
	if (parse_vlan(tb[IFLA_LINKINFO], &nd->vlan, what, why, sizeof(why)) < 0)
		goto malformed;

	unsigned oper = mnl_attr_get_u8(tb[IFLA_OPERSTATE]);
	nd->ifindex = ifi->ifi_index;
	nd->mtu = mnl_attr_get_u32(tb[IFLA_MTU]);
	operstate_name(oper, nd->operstate, sizeof(nd->operstate));
	nd->up = link_is_up(ifi->ifi_flags, oper);
	roce_reading_set(&nd->link_read, ROCE_OK, 0, NULL);
	return 0;
malformed:
	roce_reading_set(&nd->link_read, ROCE_MALFORMED, EPROTO, "%s", why);
	return -1;
}

int roce_rtlink_get(struct roce_nl *nl, struct roce_netdev *nd)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = 0 }; /* index 0: look up by IFLA_IFNAME */
	char what[ROCE_NLMSG_WHAT_MAX];
	struct roce_nl_result res;

	roce_nlmsg_what(what, sizeof(what), "RTM_GETLINK", nd->name);
	roce_nl_ask(nl, RTM_GETLINK, &ifi, sizeof(ifi), IFLA_IFNAME, nd->name, what, &res);
	if (res.status != ROCE_OK) {
		roce_reading_set(&nd->link_read, res.status, res.err, "%s", res.why);
		return -1;
	}
	return roce_rtlink_parse(res.reply, nd);
}
