/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nlreply.c - netlink replies byte-exact as the kernel builds them (see
 * nlreply.h).
 */
#include "config.h"
#include "nlreply.h"
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/if_addr.h>
#include <linux/if_vlan.h>

#include <stdio.h>
#include <string.h>

void nlreply_netdev(struct roce_netdev *nd, const char *name)
{
	memset(nd, 0, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->ifindex = -1;
	memset(nd->dscp.prio, -1, sizeof(nd->dscp.prio));
}

struct nlmsghdr *nlreply_header(void *buf, uint16_t type, uint32_t seq)
{
	memset(buf, 0, NLREPLY_BUFSZ);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	return nlh;
}

struct nlmsghdr *nlreply_link(void *buf, uint32_t seq, const char *name, int ifindex, unsigned flags,
                              uint32_t mtu, uint8_t oper)
{
	struct nlmsghdr *nlh = nlreply_header(buf, RTM_NEWLINK, seq);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_type = 1; /* ARPHRD_ETHER */
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = flags;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_TXQLEN, 1000);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, oper);
	mnl_attr_put_u8(nlh, IFLA_LINKMODE, 0);
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	mnl_attr_put_u32(nlh, IFLA_MIN_MTU, 68);
	mnl_attr_put_u32(nlh, IFLA_MAX_MTU, 65535);
	return nlh;
}

void nlreply_link_vlan(struct nlmsghdr *nlh, uint16_t id, const uint32_t (*egress)[2], size_t n_egress)
{
	struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "vlan");
	struct nlattr *data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u16(nlh, IFLA_VLAN_ID, id);
	struct ifla_vlan_flags fl = { .flags = VLAN_FLAG_REORDER_HDR, .mask = 0xffffffff };
	mnl_attr_put(nlh, IFLA_VLAN_FLAGS, sizeof(fl), &fl);
	mnl_attr_put_u16(nlh, IFLA_VLAN_PROTOCOL, htons(0x8100));
	if (n_egress) {
		struct nlattr *eg = mnl_attr_nest_start(nlh, IFLA_VLAN_EGRESS_QOS);
		for (size_t i = 0; i < n_egress; i++) {
			struct ifla_vlan_qos_mapping m = { .from = egress[i][0], .to = egress[i][1] };
			mnl_attr_put(nlh, IFLA_VLAN_QOS_MAPPING, sizeof(m), &m);
		}
		mnl_attr_nest_end(nlh, eg);
	}
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
}

struct nlmsghdr *nlreply_addr(void *buf, uint32_t seq, int family, const void *addr, unsigned prefix, int ifindex,
                              const char *label, uint8_t scope)
{
	struct nlmsghdr *nlh = nlreply_header(buf, RTM_NEWADDR, seq);
	nlh->nlmsg_flags = NLM_F_MULTI;
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	struct ifa_cacheinfo ci = { .ifa_prefered = 0xffffffff, .ifa_valid = 0xffffffff, .cstamp = 1234, .tstamp = 1234 };
	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_prefixlen = (uint8_t)prefix;
	ifa->ifa_flags = IFA_F_PERMANENT;
	ifa->ifa_scope = scope;
	ifa->ifa_index = (uint32_t)ifindex;
	if (family == AF_INET) {
		uint32_t a, mask = prefix ? htonl(0xffffffffu << (32 - prefix)) : 0;
		memcpy(&a, addr, 4);
		mnl_attr_put(nlh, IFA_ADDRESS, 4, addr);
		mnl_attr_put(nlh, IFA_LOCAL, 4, addr);
		if (prefix < 31) {
			uint32_t bcast = a | ~mask;
			mnl_attr_put(nlh, IFA_BROADCAST, 4, &bcast);
		}
		mnl_attr_put_strz(nlh, IFA_LABEL, label);
		mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_PERMANENT);
		mnl_attr_put(nlh, IFA_CACHEINFO, sizeof(ci), &ci);
	} else {
		mnl_attr_put(nlh, IFA_ADDRESS, 16, addr);
		mnl_attr_put(nlh, IFA_CACHEINFO, sizeof(ci), &ci);
		mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_PERMANENT);
	}
	return nlh;
}

struct nlmsghdr *nlreply_done(void *buf, uint32_t seq, int status)
{
	struct nlmsghdr *nlh = nlreply_header(buf, NLMSG_DONE, seq);
	nlh->nlmsg_flags = NLM_F_MULTI;
	int32_t *st = mnl_nlmsg_put_extra_header(nlh, sizeof(*st));
	*st = status;
	return nlh;
}

void nlreply_append(void *dgram, size_t *off, const struct nlmsghdr *nlh)
{
	memcpy((char *)dgram + *off, nlh, nlh->nlmsg_len);
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
}

struct nlmsghdr *nlreply_error(void *buf, uint32_t seq, int error, uint16_t req_type)
{
	struct nlmsghdr *nlh = nlreply_header(buf, NLMSG_ERROR, seq);
	nlh->nlmsg_flags = NLM_F_CAPPED;
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg.nlmsg_len = 28;
	e->msg.nlmsg_type = req_type;
	e->msg.nlmsg_flags = NLM_F_REQUEST;
	e->msg.nlmsg_seq = seq;
	return nlh;
}

struct nlattr *nlreply_attr(struct nlmsghdr *nlh, size_t hdrlen, uint16_t type)
{
	struct nlattr *attr;
	mnl_attr_for_each(attr, nlh, hdrlen)
		if (mnl_attr_get_type(attr) == type)
			return attr;
	return NULL;
}

struct nlattr *nlreply_nested(struct nlattr *nest, uint16_t type)
{
	struct nlattr *attr;
	mnl_attr_for_each_nested(attr, nest)
		if (mnl_attr_get_type(attr) == type)
			return attr;
	return NULL;
}

static void put_app_table(struct nlmsghdr *nlh, const struct dcb_app *app, size_t n)
{
	struct nlattr *table = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < n; i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(app[i]), &app[i]);
	mnl_attr_nest_end(nlh, table);
}

static void put_ieee(struct nlmsghdr *nlh, const struct nlreply_dcb *d)
{
	struct nlattr *ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	if (d->ets)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, d->ets_len ? d->ets_len : sizeof(*d->ets), d->ets);
	if (d->pfc)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, d->pfc_len ? d->pfc_len : sizeof(*d->pfc), d->pfc);
	if (d->buffer)
		mnl_attr_put(nlh, DCB_ATTR_DCB_BUFFER, d->buffer_len ? d->buffer_len : sizeof(*d->buffer), d->buffer);
	if (d->app_table)
		put_app_table(nlh, d->app, d->n_app);
	mnl_attr_nest_end(nlh, ieee);
}

struct nlmsghdr *nlreply_dcb(void *buf, uint32_t seq, const struct nlreply_dcb *d)
{
	struct nlmsghdr *nlh = nlreply_header(buf, RTM_GETDCB, seq);
	struct dcbmsg *dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->dcb_family = AF_UNSPEC;
	dcb->cmd = DCB_CMD_IEEE_GET;
	if (d->name)
		mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, d->name);
	if (d->ieee)
		put_ieee(nlh, d);
	if (d->dcbx)
		mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	return nlh;
}

struct ieee_pfc nlreply_sample_pfc(void)
{
	struct ieee_pfc pfc;
	memset(&pfc, 0, sizeof(pfc));
	pfc.pfc_cap = 8;
	pfc.pfc_en = 0x08;
	pfc.mbc = 0;
	pfc.delay = 0x1234;
	for (int i = 0; i < 8; i++) {
		pfc.requests[i] = 0x100000000ULL * (uint64_t)i + 1000 + (uint64_t)i;
		pfc.indications[i] = 2000 + (uint64_t)i;
	}
	return pfc;
}

struct ieee_ets nlreply_sample_ets(void)
{
	struct ieee_ets ets;
	memset(&ets, 0, sizeof(ets));
	ets.ets_cap = 8;
	for (int i = 0; i < 8; i++)
		ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
	ets.tc_tx_bw[0] = 50;
	ets.tc_tx_bw[3] = 50;
	ets.prio_tc[3] = 3;
	return ets;
}

struct dcbnl_buffer nlreply_sample_buffer(void)
{
	struct dcbnl_buffer b;
	memset(&b, 0, sizeof(b));
	b.prio2buffer[3] = 1;
	b.buffer_size[0] = 130944;
	b.buffer_size[1] = 130944;
	b.total_size = 524288;
	return b;
}

const struct dcb_app nlreply_sample_app[NLREPLY_SAMPLE_APPS] = {
	{ .selector = IEEE_8021QAZ_APP_SEL_ETHERTYPE, .priority = 4, .protocol = 0x8906 },
	{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26 },
	{ .selector = IEEE_8021QAZ_APP_SEL_DGRAM, .priority = 7, .protocol = 4791 },
	{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 6, .protocol = 48 },
	{ .selector = IEEE_8021QAZ_APP_SEL_STREAM, .priority = 5, .protocol = 26 },
	{ .selector = IEEE_8021QAZ_APP_SEL_ANY, .priority = 2, .protocol = 48 },
};

struct nlmsghdr *nlreply_dcb_sample(void *buf, uint32_t seq, const char *name, unsigned parts)
{
	struct ieee_ets ets;
	struct ieee_pfc pfc = nlreply_sample_pfc();
	struct dcbnl_buffer buffer = nlreply_sample_buffer();
	memset(&ets, 0, sizeof(ets));
	ets.ets_cap = 8;
	if (parts & NLREPLY_ETS)
		ets = nlreply_sample_ets();
	struct nlreply_dcb d = {
		.name = name,
		.ieee = parts & NLREPLY_IEEE,
		.ets = &ets,
		.pfc = parts & (NLREPLY_PFC | NLREPLY_SHORT_PFC) ? &pfc : NULL,
		.pfc_len = parts & NLREPLY_SHORT_PFC ? sizeof(pfc) - 8 : 0,
		.buffer = parts & NLREPLY_BUFFER ? &buffer : NULL,
		.app_table = parts & NLREPLY_APP,
		.app = nlreply_sample_app,
		.n_app = parts & NLREPLY_APP ? NLREPLY_SAMPLE_APPS : 0,
		.dcbx = true,
	};
	return nlreply_dcb(buf, seq, &d);
}
