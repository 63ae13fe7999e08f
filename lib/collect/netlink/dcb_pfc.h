/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_pfc.h - PFC (IEEE 802.1Qbb) from DCB_ATTR_IEEE_PFC, a struct
 * ieee_pfc: which priorities pause, and the pause frames counted.  Pure.
 */
#ifndef ROCE_DCB_PFC_H
#define ROCE_DCB_PFC_H

#include <libmnl/libmnl.h>
#include "base/model.h"

/* attr: DCB_ATTR_IEEE_PFC from the IEEE nest, NULL when the reply has none;
 * what ("RTM_GETDCB eth0") starts every why.  Fills pfc (read included);
 * 0 = ROCE_OK. */
int roce_dcb_pfc_parse(const struct nlattr *attr, struct roce_pfc *pfc, const char *what);

#endif
