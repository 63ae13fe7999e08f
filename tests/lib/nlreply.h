/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nlreply.h - netlink replies byte-exact as the kernel builds them, from the
 * uapi structs with libmnl: the one builder for the unit tests of lib/nl*.c,
 * rtlink.c, dcb*.c and collect.c, the fuzz seeds and fuzz/netlink_transport,
 * and tests/fault/faultprobe's misbehaving kernel.
 *
 * Each builder writes one message at the start of buf (NLREPLY_BUFSZ bytes,
 * 8-byte aligned; zeroed first) and returns it, from the kernel (nlmsg_pid
 * 0).  To make a reply wrong, change its fields afterwards.
 */
#ifndef ROCE_TESTS_NLREPLY_H
#define ROCE_TESTS_NLREPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>     /* before linux/if.h: glibc's and the uapi's must not clash */
#include <linux/dcbnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "base/model.h"

#define NLREPLY_BUFSZ 16384

/* A netdev as the collector has it before asking: named, nothing read
 * (ifindex -1, no DSCP entry). */
void nlreply_netdev(struct roce_netdev *nd, const char *name);

/* The netlink header alone, for messages made by hand. */
struct nlmsghdr *nlreply_header(void *buf, uint16_t type, uint32_t seq);

/* RTM_NEWLINK as rtnl_fill_ifinfo() starts it: ifinfomsg, IFNAME, TXQLEN,
 * OPERSTATE, LINKMODE, MTU, MIN_MTU, MAX_MTU. */
struct nlmsghdr *nlreply_link(void *buf, uint32_t seq, const char *name, int ifindex, unsigned flags,
                              uint32_t mtu, uint8_t oper);

/* Append to an RTM_NEWLINK the IFLA_LINKINFO a VLAN device carries, as
 * rtnl_link_info_fill() and vlan_fill_info() put it: KIND "vlan", DATA { ID,
 * FLAGS, PROTOCOL 802.1Q, EGRESS_QOS { QOS_MAPPING {from, to}... } } (the
 * EGRESS_QOS nest only when n_egress > 0, as the kernel leaves an empty map out).
 * egress holds from,to pairs. */
void nlreply_link_vlan(struct nlmsghdr *nlh, uint16_t id, const uint32_t (*egress)[2], size_t n_egress);

/* One RTM_NEWADDR of an RTM_GETADDR dump (NLM_F_MULTI), as
 * inet_fill_ifaddr() (family AF_INET: ADDRESS, LOCAL, BROADCAST below /31,
 * LABEL, FLAGS, CACHEINFO) or inet6_fill_ifaddr() (AF_INET6: ADDRESS,
 * CACHEINFO, FLAGS) builds it for a permanent address (`ip addr add`):
 * addr is 4 or 16 bytes, scope 0 (global) or 253 (link). */
struct nlmsghdr *nlreply_addr(void *buf, uint32_t seq, int family, const void *addr, unsigned prefix, int ifindex,
                              const char *label, uint8_t scope);
/* NLMSG_DONE ending a dump, as netlink_dump_done() puts it: NLM_F_MULTI and
 * the dump's int status (0, or -errno). */
struct nlmsghdr *nlreply_done(void *buf, uint32_t seq, int status);
/* Copy message nlh to dgram + *off (a datagram of several messages, as a
 * dump sends them) and advance *off. */
void nlreply_append(void *dgram, size_t *off, const struct nlmsghdr *nlh);

/* NLMSG_ERROR as netlink_ack() sends it under NETLINK_CAP_ACK: the error
 * code and the request's header only (36 bytes). */
struct nlmsghdr *nlreply_error(void *buf, uint32_t seq, int error, uint16_t req_type);

/* What an RTM_GETDCB DCB_CMD_IEEE_GET reply holds, in the order
 * dcbnl_ieee_fill() puts it: IFNAME, IEEE { ETS, MAXRATE, QCN, QCN_STATS,
 * PFC, DCB_BUFFER, APP_TABLE { APP... }, peer objects }, DCBX.  NULL or
 * false leaves a part out, as a driver without that op does. */
struct nlreply_dcb {
	const char *name;             /* DCB_ATTR_IFNAME */
	bool ieee;                    /* the DCB_ATTR_IEEE nest */
	const struct ieee_ets *ets;
	size_t ets_len;               /* 0 = sizeof(struct ieee_ets); less cuts it short */
	const struct ieee_pfc *pfc;
	size_t pfc_len;               /* 0 = sizeof(struct ieee_pfc); less cuts it short */
	const struct dcbnl_buffer *buffer;   /* DCB_ATTR_DCB_BUFFER (driver with dcbnl_getbuffer) */
	size_t buffer_len;            /* 0 = sizeof(struct dcbnl_buffer); less cuts it short */
	bool app_table;               /* the nest, also when n_app is 0 */
	const struct dcb_app *app;
	size_t n_app;
	bool dcbx;                    /* DCB_ATTR_DCBX: host, IEEE */
};
struct nlmsghdr *nlreply_dcb(void *buf, uint32_t seq, const struct nlreply_dcb *d);

/* The first attribute of type at the top level of nlh (after hdrlen bytes
 * of family header) or inside nest, to make a built reply wrong; NULL when
 * there is none. */
struct nlattr *nlreply_attr(struct nlmsghdr *nlh, size_t hdrlen, uint16_t type);
struct nlattr *nlreply_nested(struct nlattr *nest, uint16_t type);

/* The sample DCB reply of a ConnectX-like driver, parts as asked:
 * NLREPLY_IEEE the nest with an ETS of ets_cap 8 and nothing set (every
 * priority on TC 0, strict), or NLREPLY_ETS nlreply_sample_ets();
 * NLREPLY_PFC nlreply_sample_pfc() (or NLREPLY_SHORT_PFC: 8 bytes short),
 * NLREPLY_BUFFER nlreply_sample_buffer(), NLREPLY_APP nlreply_sample_app;
 * IFNAME and DCBX always. */
enum { NLREPLY_IEEE = 1, NLREPLY_PFC = 2, NLREPLY_SHORT_PFC = 4, NLREPLY_APP = 8, NLREPLY_ETS = 16,
       NLREPLY_BUFFER = 32 };
struct nlmsghdr *nlreply_dcb_sample(void *buf, uint32_t seq, const char *name, unsigned parts);
/* PFC on priority 3 (pfc_en 0x08) of 8, delay 0x1234, requests[i]
 * 0x100000000 * i + 1000 + i (high words used), indications[i] 2000 + i. */
struct ieee_pfc nlreply_sample_pfc(void);
/* mlnx_qos's RoCE setup: priority 3 on TC 3, the others on TC 0; TSA ETS
 * on every TC, TC 0 and TC 3 50 % each, the others 0 %. */
struct ieee_ets nlreply_sample_ets(void);
/* Priority 3 alone in buffer 1 (lossless), the others in buffer 0;
 * buffers 0 and 1 of 130944 bytes, total 524288. */
struct dcbnl_buffer nlreply_sample_buffer(void);
/* DSCP 26 -> 3 and 48 -> 6 among entries of other selectors that share
 * numbers with real protocols (FCoE ethertype, RoCE v2 UDP port 4791). */
#define NLREPLY_SAMPLE_APPS 6
extern const struct dcb_app nlreply_sample_app[NLREPLY_SAMPLE_APPS];

#endif
