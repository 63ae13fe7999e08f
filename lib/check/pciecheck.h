/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciecheck.h - the PCIe checks: policy x model -> findings, as check.c's
 * are (roce_check() runs them; they add through finding.h, as every check
 * does).  Pure: reads the model, never the system.
 *
 *   pcie_link  every link on an RDMA device's path to its root port runs at
 *              the rate both of its ends can do (PcieDegraded=)
 *   gdr        which path GPUDirect RDMA takes: a peer-memory client, DMA-BUF
 *              or neither (RequireGdr=)
 *   acs        no port of a PCIe switch above an RDMA device has ACS
 *              redirect on (Acs=; root ports are not looked at: see
 *              switch_port() in pciecheck.c)
 *   iommu      the RDMA device's IOMMU group does not translate DMA
 *              (identity or no IOMMU; Iommu=)
 *
 * roce_pciecheck_gpu() judges a GPU's own path the same way (pcie_link and
 * iommu; the pipeline calls it for the job's GPUs once a topology names them).
 */
#ifndef ROCE_PCIECHECK_H
#define ROCE_PCIECHECK_H

#include "check/finding.h"
#include "base/model.h"
#include "read/policy.h"

/* Append the PCIe findings of node to r.  0, or -1 on ENOMEM. */
int roce_pciecheck(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol);

/* pcie_link and iommu for GPU index (its Slurm index, = its CUDA index in
 * PCI bus order) of PCI device id device_id (0 unknown) at bdf whose path
 * pcie.c read: findings with device "GPU<index>", messages naming "GPU
 * <index> (<bdf>)".  Its own link is judged as an admin would (pciecheck.c,
 * judge_gpu_link: the width always, the speed not, an idle GPU lowers it);
 * a GPU attached over NVLink-C2C gets no link verdict, a line says why; a
 * path sysfs does not have (a TopologyFile from another host, no
 * bus/pci/devices) is one unknown set aside.  A failing link may fail the
 * node: the caller decides again (roce_check_decide).  0, or -1 on ENOMEM. */
int roce_pciecheck_gpu(struct roce_check_result *r, const struct roce_policy *pol, const char *root, unsigned index,
                       const char *bdf, unsigned device_id, const struct roce_pcie_path *path);

/* What on the PCIe path between a GPU and an HCA keeps GPUDirect RDMA from
 * going peer to peer: ROCE_LOCALITY_BLOCK_ACS (ACS redirect on a bridge
 * below their common ancestor; *bridge names the first), _LINK (a degraded
 * link on the path; with no common ancestor, anywhere up to the root
 * ports).  The policy's ignore leaves a kind out.  0 when either path is
 * unknown. */
unsigned roce_pciecheck_pair(const struct roce_pcie_path *gpu, const struct roce_pcie_path *hca,
                             const struct roce_policy *pol, const char **bridge);

/* "16.0 GT/s" from tenths of GT/s ("unknown" for 0). */
void roce_pciecheck_speed(unsigned tenths, char *out, size_t len);

#endif
