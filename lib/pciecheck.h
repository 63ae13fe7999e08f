/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciecheck.h - the PCIe checks: policy x model -> findings, as check.c's
 * are (roce_check() runs them).  Pure: reads the model, never the system.
 *
 *   pcie_link  every link on an RDMA device's path to its root port runs at
 *              the rate both of its ends can do (PcieDegraded=)
 */
#ifndef ROCE_PCIECHECK_H
#define ROCE_PCIECHECK_H

#include "check.h"
#include "model.h"
#include "policy.h"

/* Append the PCIe findings of node to r.  0, or -1 on ENOMEM. */
int roce_pciecheck(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);

/* "16.0 GT/s" from tenths of GT/s ("unknown" for 0). */
void roce_pciecheck_speed(unsigned tenths, char *out, size_t len);

#endif
