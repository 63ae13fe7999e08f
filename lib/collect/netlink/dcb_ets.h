/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_ets.h - ETS (IEEE 802.1Qaz) from DCB_ATTR_IEEE_ETS, a struct
 * ieee_ets: priority -> traffic class, and each class's share of the link
 * and transmission selection algorithm.  Pure.
 */
#ifndef ROCE_DCB_ETS_H
#define ROCE_DCB_ETS_H

#include <libmnl/libmnl.h>
#include "base/model.h"

/* attr: DCB_ATTR_IEEE_ETS from the IEEE nest, NULL when the reply has none
 * (ets->read UNSUPPORTED: not reported, not an error); what ("RTM_GETDCB
 * eth0") starts every why.  Fills ets (read included); 0 = ROCE_OK or not
 * reported, -1 = MALFORMED. */
int roce_dcb_ets_parse(const struct nlattr *attr, struct roce_ets *ets, const char *what);

#endif
