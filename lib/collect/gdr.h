/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gdr.h - the GPUDirect RDMA collector: which path GPU memory can take to
 * the HCA, by NCCL's own signals (src/transport/net_ib/gdr.cc).  Not pure:
 * it reads sysfs and /proc.
 *
 *   peer memory  a peer-memory client is registered:
 *                kernel/mm/memory_peers/nv_mem/version, .../nv_mem_nc/version
 *                or module/nvidia_peermem/version exists (a module directory
 *                alone is not enough: nvidia_peermem can be loaded without
 *                a client registered)
 *   DMA-BUF      Linux >= 5.12 (/proc/sys/kernel/osrelease) and an NVIDIA
 *                driver that exports DMA-BUF, the open kernel modules
 *                (/proc/driver/nvidia/version says "Open Kernel Module")
 */
#ifndef ROCE_GDR_H
#define ROCE_GDR_H

#include "base/model.h"

/* Fill node->gdr.  proc_root NULL = "/proc".  Every outcome is a reading. */
void roce_gdr_collect(struct roce_node *node, const char *sysfs_root, const char *proc_root);

#endif
