/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb.h - a netdev's DCB state from DCB netlink.  One RTM_GETDCB
 * DCB_CMD_IEEE_GET request answers for every DCB object (what iproute2's
 * `dcb pfc show` and `dcb app show` read); this file checks the reply and
 * hands each attribute of its DCB_ATTR_IEEE nest to the object's parser:
 * dcb_pfc.c (PFC), dcb_app.c (the DSCP APP table), dcb_ets.c (ETS),
 * dcb_buffer.c (the receive buffers).
 *
 * A new object is a new dcb_X.c beside them: its
 * reading in struct roce_netdev, one call in roce_dcb_parse(), one line in
 * roce_dcb_set_all(), and tests/unit/test_dcb_X.c.
 *
 * Every function records its outcome in the netdev's DCB readings; the
 * return value only summarises it (0 = all ROCE_OK, ETS and the buffers
 * also when not reported; -1 = look at the readings).  A driver without DCB is ROCE_UNSUPPORTED ("unknown"), never
 * "PFC disabled".
 */
#ifndef ROCE_DCB_H
#define ROCE_DCB_H

#include <linux/netlink.h>
#include "base/model.h"
#include "collect/netlink/nl.h"

/* Ask the kernel (nl.c) and fill nd->pfc, dscp, ets and buffer for nd->name. */
int roce_dcb_get(struct roce_nl *nl, struct roce_netdev *nd);
/* The reply alone, for byte-exact tests and fuzzing: nlh must point at a
 * whole message of nlh->nlmsg_len bytes (the RTM_GETDCB reply or an
 * NLMSG_ERROR); nothing outside it is read.  Pure. */
int roce_dcb_parse(const struct nlmsghdr *nlh, struct roce_netdev *nd);
/* The same outcome for every DCB reading of nd (the reply as a whole
 * failed, or was never asked for). */
void roce_dcb_set_all(struct roce_netdev *nd, enum roce_status s, int err, const char *why);

#endif
