/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_pfc.c - PFC from DCB_ATTR_IEEE_PFC.  Pure.
 */
#include "config.h"
#include "collect/netlink/dcb_pfc.h"
#include "collect/netlink/nlmsg.h"

#include <errno.h>
#include <linux/dcbnl.h>

int roce_dcb_pfc_parse(const struct nlattr *attr, struct roce_pfc *pfc, const char *what)
{
	struct ieee_pfc raw;
	char why[ROCE_WHY_MAX];
	if (!attr) {
		/* The kernel adds DCB_ATTR_IEEE_PFC only when the driver has an
		 * ieee_getpfc op and it succeeded. */
		roce_reading_set(&pfc->read, ROCE_UNSUPPORTED, EOPNOTSUPP,
		                 "%s: driver reports no IEEE PFC (no DCB_ATTR_IEEE_PFC)", what);
		return -1;
	}
	if (roce_nlmsg_struct(attr, &raw, sizeof(raw), what, "DCB_ATTR_IEEE_PFC", "ieee_pfc", why, sizeof(why)) < 0) {
		roce_reading_set(&pfc->read, ROCE_MALFORMED, EPROTO, "%s", why);
		return -1;
	}
	pfc->cap = raw.pfc_cap;
	pfc->enabled = raw.pfc_en;
	pfc->mbc = raw.mbc;
	pfc->delay = raw.delay;
	for (int i = 0; i < ROCE_PRIOS; i++) {
		pfc->requests[i] = raw.requests[i];
		pfc->indications[i] = raw.indications[i];
	}
	roce_reading_set(&pfc->read, ROCE_OK, 0, NULL);
	return 0;
}
