/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_ets.c - ETS from DCB_ATTR_IEEE_ETS.  Pure.
 */
#include "config.h"
#include "collect/netlink/dcb_ets.h"
#include "collect/netlink/nlmsg.h"

#include <errno.h>
#include <string.h>
#include <linux/dcbnl.h>

int roce_dcb_ets_parse(const struct nlattr *attr, struct roce_ets *ets, const char *what)
{
	struct ieee_ets raw;
	char why[ROCE_WHY_MAX];
	if (!attr) {
		/* dcbnl_ieee_fill() adds DCB_ATTR_IEEE_ETS only when the driver
		 * has an ieee_getets op and it succeeded: not reported. */
		roce_reading_set(&ets->read, ROCE_UNSUPPORTED, EOPNOTSUPP,
		                 "%s: driver reports no ETS (no DCB_ATTR_IEEE_ETS)", what);
		return 0;
	}
	if (roce_nlmsg_struct(attr, &raw, sizeof(raw), what, "DCB_ATTR_IEEE_ETS", "ieee_ets", why, sizeof(why)) < 0) {
		roce_reading_set(&ets->read, ROCE_MALFORMED, EPROTO, "%s", why);
		return -1;
	}
	for (int i = 0; i < ROCE_PRIOS; i++) {
		/* The kernel's own ieee_setets refuses these; a driver that
		 * reports them is not telling us where traffic goes. */
		if (raw.prio_tc[i] >= IEEE_8021QAZ_MAX_TCS || raw.tc_tx_bw[i] > 100) {
			roce_reading_set(&ets->read, ROCE_MALFORMED, EPROTO,
			                 "%s: DCB_ATTR_IEEE_ETS has priority %d -> traffic class %u, bandwidth %u%% "
			                 "(out of range)",
			                 what, i, raw.prio_tc[i], raw.tc_tx_bw[i]);
			return -1;
		}
	}
	memcpy(ets->prio_tc, raw.prio_tc, sizeof(ets->prio_tc));
	memcpy(ets->tc_tx_bw, raw.tc_tx_bw, sizeof(ets->tc_tx_bw));
	memcpy(ets->tc_tsa, raw.tc_tsa, sizeof(ets->tc_tsa));
	roce_reading_set(&ets->read, ROCE_OK, 0, NULL);
	return 0;
}
