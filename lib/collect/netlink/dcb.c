/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb.c - RTM_GETDCB DCB_CMD_IEEE_GET: the reply's checks, then one parser
 * per object of its IEEE nest.  roce_dcb_parse() is pure; roce_dcb_get()
 * asks through nl.c.
 */
#include "config.h"
#include "collect/netlink/dcb.h"
#include "collect/netlink/dcb_app.h"
#include "collect/netlink/dcb_buffer.h"
#include "collect/netlink/dcb_ets.h"
#include "collect/netlink/dcb_pfc.h"
#include "collect/netlink/nlmsg.h"
#include "base/printable.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

void roce_dcb_set_all(struct roce_netdev *nd, enum roce_status s, int err, const char *why)
{
	roce_reading_set(&nd->pfc.read, s, err, "%s", why);
	roce_reading_set(&nd->dscp.read, s, err, "%s", why);
	roce_reading_set(&nd->ets.read, s, err, "%s", why);
	roce_reading_set(&nd->buffer.read, s, err, "%s", why);
}

static int dcb_error(struct roce_netdev *nd, int err, const char *what)
{
	char why[ROCE_WHY_MAX];
	char shown[ROCE_NLMSG_SHOWN_MAX];
	roce_printable(nd->name, shown, sizeof(shown));
	if (err == EOPNOTSUPP) {
		/* veth, virtio, loopback: no dcbnl_ops (or a kernel without
		 * CONFIG_DCB).  PFC state is unknown, not off. */
		snprintf(why, sizeof(why), "%s: driver has no DCB support (%s)", what, strerror(err));
		roce_dcb_set_all(nd, ROCE_UNSUPPORTED, err, why);
	} else if (err == ENODEV) {
		snprintf(why, sizeof(why), "netdev %s does not exist in this network namespace", shown);
		roce_dcb_set_all(nd, ROCE_MISSING, err, why);
	} else {
		snprintf(why, sizeof(why), "%s: %s", what, strerror(err));
		roce_dcb_set_all(nd, ROCE_UNREADABLE, err, why);
	}
	return -1;
}

/* The reply as a whole, before any object: 0 with tb filled, the errno of
 * an NLMSG_ERROR (> 0), or -1 with why. */
static int check_reply(const struct nlmsghdr *nlh, const struct roce_netdev *nd, const struct nlattr **tb,
                       const char *what, char *why, size_t whylen)
{
	int rc = roce_nlmsg_envelope(nlh, RTM_GETDCB, sizeof(struct dcbmsg), what, why, whylen);
	if (rc != 0)
		return rc;
	const struct dcbmsg *dcb = mnl_nlmsg_get_payload(nlh);
	if (dcb->cmd != DCB_CMD_IEEE_GET) {
		snprintf(why, whylen, "%s: reply is for DCB command %u, not IEEE_GET", what, dcb->cmd);
		return -1;
	}
	if (roce_nlmsg_table(nlh, sizeof(*dcb), tb, DCB_ATTR_MAX) < 0) {
		snprintf(why, whylen, "%s: attribute overruns the %u-byte message", what, nlh->nlmsg_len);
		return -1;
	}
	return roce_nlmsg_name(tb[DCB_ATTR_IFNAME], nd->name, what, why, whylen);
}

int roce_dcb_parse(const struct nlmsghdr *nlh, struct roce_netdev *nd)
{
	char what[ROCE_NLMSG_WHAT_MAX], why[ROCE_WHY_MAX];
	const struct nlattr *tb[DCB_ATTR_MAX + 1], *ieee[DCB_ATTR_IEEE_MAX + 1];

	roce_nlmsg_what(what, sizeof(what), "RTM_GETDCB", nd->name);
	int rc = check_reply(nlh, nd, tb, what, why, sizeof(why));
	if (rc > 0)
		return dcb_error(nd, rc, what);
	if (rc < 0)
		goto malformed;
	if (!tb[DCB_ATTR_IEEE]) {
		snprintf(why, sizeof(why), "%s: reply has no DCB_ATTR_IEEE (driver has no IEEE DCB)", what);
		roce_dcb_set_all(nd, ROCE_UNSUPPORTED, EOPNOTSUPP, why);
		return -1;
	}
	if (mnl_attr_validate(tb[DCB_ATTR_IEEE], MNL_TYPE_NESTED) < 0 ||
	    roce_nlmsg_table_nest(tb[DCB_ATTR_IEEE], ieee, DCB_ATTR_IEEE_MAX) < 0) {
		snprintf(why, sizeof(why), "%s: DCB_ATTR_IEEE nest is garbled", what);
		goto malformed;
	}
	/* Each object is its own reading: a bad PFC attribute leaves the APP
	 * table readable, and the other way round. */
	int pfc_rc = roce_dcb_pfc_parse(ieee[DCB_ATTR_IEEE_PFC], &nd->pfc, what);
	int app_rc = roce_dcb_app_parse(ieee[DCB_ATTR_IEEE_APP_TABLE], &nd->dscp, what);
	/* ETS and the buffers are optional objects: absent is not reported
	 * (not -1), only a garbled one counts. */
	int ets_rc = roce_dcb_ets_parse(ieee[DCB_ATTR_IEEE_ETS], &nd->ets, what);
	int buf_rc = roce_dcb_buffer_parse(ieee[DCB_ATTR_DCB_BUFFER], &nd->buffer, what);
	return pfc_rc == 0 && app_rc == 0 && ets_rc == 0 && buf_rc == 0 ? 0 : -1;
malformed:
	roce_dcb_set_all(nd, ROCE_MALFORMED, EPROTO, why);
	return -1;
}

int roce_dcb_get(struct roce_nl *nl, struct roce_netdev *nd)
{
	struct dcbmsg dcb = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_IEEE_GET };
	char what[ROCE_NLMSG_WHAT_MAX];
	struct roce_nl_result res;

	roce_nlmsg_what(what, sizeof(what), "RTM_GETDCB", nd->name);
	roce_nl_ask(nl, RTM_GETDCB, &dcb, sizeof(dcb), DCB_ATTR_IFNAME, nd->name, what, &res);
	if (res.status != ROCE_OK) {
		roce_dcb_set_all(nd, res.status, res.err, res.why);
		return -1;
	}
	return roce_dcb_parse(res.reply, nd);
}
