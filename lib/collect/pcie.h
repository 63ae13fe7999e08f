/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie.h - the PCIe collector: each RDMA device's (and job GPU's) path up to
 * its root port and the link attributes of every function on it, from
 * /sys/bus/pci/devices/<bdf>/ (current_link_speed, current_link_width,
 * max_link_speed, max_link_width), and the ACS registers of every bridge
 * on it from its config space (pcicap.h walks it), and the device's IOMMU
 * group type (iommu_group -> /sys/kernel/iommu_groups/<n>/type).  Not pure: it reads sysfs.  The checks
 * over what it reads are pciecheck.c's.
 */
#ifndef ROCE_PCIE_H
#define ROCE_PCIE_H

#include <stdbool.h>
#include "base/model.h"
#include "read/policy.h"

#define ROCE_PCIE_VENDOR_NVIDIA 0x10de

/* The bridges already read in one run, so that a bridge on several paths
 * (a switch's ports, shared by its GPUs and HCAs; a root port) is read
 * once: pointers into paths the caller keeps while it uses this. */
#define ROCE_PCIE_SEEN_MAX 256
struct roce_pcie_seen {
	size_t n;
	const struct roce_pcie_fn *fn[ROCE_PCIE_SEEN_MAX];
};
/* Remember path's bridges (fn[1..n-1]) in seen (beyond its size: not remembered). */
void roce_pcie_seen_path(struct roce_pcie_seen *seen, const struct roce_pcie_path *path);

/* What of a path is read: the link attributes of its functions, its
 * bridges' config space (ACS, port type, vendor, Link Control 2), the
 * device's IOMMU group.  roce_pcie_want_of: what the policy judges
 * (PcieDegraded=, Acs=, Iommu=; pciecheck.c looks at none of what is
 * ignored, the GPU-HCA pairs included) and, when a GPU choice follows
 * (locality), what it weighs: each HCA's link bandwidth (NCCL's tie-break),
 * and for a GPU's own link verdict its port's config space. */
struct roce_pcie_want {
	bool links, config, iommu;
};
struct roce_pcie_want roce_pcie_want_of(const struct roce_policy *p, bool locality);

/* The path of bdf (a canonical PCI address) under root: the functions named
 * by the bus/pci/devices/<bdf> link (the kernel's
 * "../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0"), each one's link
 * attributes read, and each bridge's config space; a bridge in seen (may be
 * NULL) is copied from there, not read again, and path's bridges are added
 * to it.  Every outcome is a reading in path. */
void roce_pcie_collect_path(const char *root, const char *bdf, struct roce_pcie_path *path,
                            struct roce_pcie_seen *seen);
/* The same for every device of the model whose PCI address was read, each
 * shared bridge read once. */
void roce_pcie_collect_node(struct roce_node *node, const char *root);
/* Both, reading only what want says (the rest stays NOT_READ; a seen bridge
 * is only ever read with the same want). */
void roce_pcie_collect_path_wanted(const char *root, const char *bdf, const struct roce_pcie_want *want,
                                   struct roce_pcie_path *path, struct roce_pcie_seen *seen);
void roce_pcie_collect_node_wanted(struct roce_node *node, const char *root, const struct roce_pcie_want *want);

/* Each device's GPU neighbourhood (struct roce_device's gpu_near): an
 * NVIDIA GPU below its root port when a PCIe switch is between them (the
 * functions under that root port, their vendor and class files; each root
 * port walked once).  A device whose path was not read gets its reading. */
void roce_pcie_collect_gpu_near(struct roce_node *node, const char *root);

/* sysfs link attribute formats.  Speed: "16.0 GT/s PCIe", older kernels
 * "8 GT/s" or "2.5 GT/s", in tenths of GT/s; "Unknown" and "Unknown speed"
 * give 0.  Width: a decimal lane count 0-32.  0, or -1 on anything else. */
int roce_pcie_parse_speed(const char *s, unsigned *tenths);
int roce_pcie_parse_width(const char *s, unsigned *lanes);

/* Does the link between fn[i] and fn[i + 1] of a path exist?  Below the
 * host bridge, ports alternate: a root port or switch downstream port, then
 * the upstream port of a switch (or an endpoint) under it; the link between
 * a switch's upstream and downstream ports is inside the switch. */
bool roce_pcie_link_above(const struct roce_pcie_path *path, size_t i);

/* The bandwidth of fn[0]'s own link as NCCL counts it (src/graph/xml.cc,
 * topo.cc: the lower of both ends' maximum speed and width, each lane at
 * NCCL's kvDictPciGen rate: 1500 Mb/s at 2.5 GT/s, 3000, 6000, 12000,
 * 24000, 48000 at 64 GT/s), in Mb/s; 0 when the path or a value is unknown
 * or fn[0] has no link of its own. */
unsigned roce_pcie_link_mbps(const struct roce_pcie_path *path);

#endif
