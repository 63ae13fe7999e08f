/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_app.h - the DSCP -> priority map from DCB_ATTR_IEEE_APP_TABLE, a nest
 * of struct dcb_app entries (selector 5 = DSCP; other selectors are not
 * ours).  Pure.
 */
#ifndef ROCE_DCB_APP_H
#define ROCE_DCB_APP_H

#include <libmnl/libmnl.h>
#include "base/model.h"

/* attr: DCB_ATTR_IEEE_APP_TABLE from the IEEE nest, NULL when the reply has
 * none; what ("RTM_GETDCB eth0") starts every why.  Fills dscp (read
 * included); 0 = ROCE_OK. */
int roce_dcb_app_parse(const struct nlattr *attr, struct roce_dscp_map *dscp, const char *what);

#endif
