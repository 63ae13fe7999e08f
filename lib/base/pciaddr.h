/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciaddr.h - PCI addresses as sysfs and the NVIDIA driver write them,
 * "DDDD:BB:DD.F".  Pure.
 *
 * One parser for the two places that read an address from outside: an RDMA
 * device's address from the model (locality.c) and a GPU's "Bus Location:"
 * from the driver (gpuset.c); both compare with the canonical form hwloc's
 * objects are printed in.
 */
#ifndef ROCE_PCIADDR_H
#define ROCE_PCIADDR_H

#include <stddef.h>

struct roce_pciaddr {
	unsigned domain, bus, dev, func;
};

/* Strict "DDDD:BB:DD.F": a domain of 4 to 8 hex digits, device <= 0x1f,
 * function <= 7, nothing after.  0, or -1 when s is anything else. */
int roce_pciaddr_parse(const char *s, struct roce_pciaddr *a);
/* The canonical form, lower-case hex: "0000:03:00.0" (ROCE_PCI_MAX fits it). */
void roce_pciaddr_format(const struct roce_pciaddr *a, char *out, size_t len);

#endif
