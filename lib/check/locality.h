/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * locality.h - one node's GPUs and HCAs and the NCCL path type between
 * every pair: struct roce_locality, plain data, the way NCCL sees the node.
 *
 * roce_locality_build() computes it from a loaded topology (topo.h) with
 * NCCL's PCIe switch rules; it reads hwloc's tree in memory, no file.
 * Everything else here is pure over the plain data: the lookup, the
 * `nvidia-smi topo -m` matrix and the JSON form.  gpuset.h reads the job's
 * GPUs against it and choice.h picks the job's HCAs from it.
 */
#ifndef ROCE_LOCALITY_H
#define ROCE_LOCALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "base/error.h"
#include "base/model.h"
#include "read/policy.h"

struct roce_topo; /* topo.h: a loaded topology */

#define ROCE_LOCALITY_GPU_MAX 64      /* NVIDIA PCI functions per node we look at */
#define ROCE_LOCALITY_HCA_MAX 64      /* RDMA devices per node we look at */
#define ROCE_LOCALITY_AFFINITY_MAX 96 /* "0-23,48-71": longer lists end in "..." */
#define ROCE_LOCALITY_BRIDGE_MAX 64   /* bridges with ACS redirect named in gpu_hca_bridge */
#define ROCE_LOCALITY_BLOCK_ACS 0x1   /* ACS redirect on a bridge between them */
#define ROCE_LOCALITY_BLOCK_LINK 0x2  /* a degraded PCIe link between them */

/*
 * NCCL's path types (src/graph/topo.h), same order and values as
 * enum roce_gdr_level so that a path type is directly a GDR level.
 * NCCL does not tell nvidia-smi's NODE from PHB: both are PHB here.
 */
enum roce_sysfs_path {
	ROCE_PATH_LOC = ROCE_GDR_LOC, /* the same device */
	ROCE_PATH_PIX = ROCE_GDR_PIX, /* behind the same PCIe switch */
	ROCE_PATH_PXB = ROCE_GDR_PXB, /* behind switches that share a switch */
	ROCE_PATH_PHB = ROCE_GDR_PHB, /* through the CPU, same NUMA node */
	ROCE_PATH_SYS = ROCE_GDR_SYS, /* across NUMA nodes */
	ROCE_PATH_UNKNOWN,            /* a device is not in the topology */
};
const char *roce_locality_path_name(enum roce_sysfs_path p); /* "PIX", ...; "?" for UNKNOWN */

struct roce_locality_gpu {
	char pci_addr[ROCE_PCI_MAX];           /* "0000:03:00.0" */
	unsigned device_id;                    /* PCI device id, e.g. 0x20b0 */
	char cpus[ROCE_LOCALITY_AFFINITY_MAX]; /* CPU affinity list "0-23,48-71" */
	char numa[ROCE_LOCALITY_AFFINITY_MAX]; /* NUMA affinity list "0" */
};

struct roce_locality_hca {
	char name[ROCE_NAME_MAX]; /* "mlx5_0" */
	char pci_addr[ROCE_PCI_MAX];
	struct roce_reading found; /* OK, or why the PCI device is not in the topology */
	char cpus[ROCE_LOCALITY_AFFINITY_MAX];
	char numa[ROCE_LOCALITY_AFFINITY_MAX];
	/* What NCCL weighs between equally near HCAs: the port's rate and the
	 * PCIe link's bandwidth (Mb/s, 0 unknown; roce_locality_hca_bw). */
	unsigned rate_mbps, pcie_mbps;
	bool pcie_from_topology; /* pcie_mbps is the topology's link speed, not sysfs's maxima */
};

/* An HCA's bandwidth as NCCL ranks equally near NICs: the lower of its
 * port rate and its PCIe link bandwidth (the rate alone when the link is
 * unknown); 0 when the rate is unknown. */
unsigned roce_locality_hca_bw(const struct roce_locality_hca *h);

/*
 * The node's locality.  GPUs in Slurm index order (= array index = PCI bus
 * id order), HCAs in the caller's order, and the NCCL path type (enum
 * roce_sysfs_path) of every pair: gpu_gpu[i][i] is LOC; a pair with an HCA whose
 * found != OK is UNKNOWN.
 *
 * No pointers, on purpose: it can be copied, compared between nodes, and
 * built by hand in tests.  To extend it, keep that: a fact about one device
 * goes into its struct with a struct roce_reading beside it when it can be
 * unknown (model.h's rule); a fact about a pair goes into another array
 * indexed like gpu_hca.  About 60 KiB: allocate it, not on a small stack.
 */
struct roce_locality {
	char origin[16]; /* "xml", "cache", "live", or "" (built by hand) */
	size_t n_gpus;
	struct roce_locality_gpu gpus[ROCE_LOCALITY_GPU_MAX];
	bool gpus_truncated; /* more than ROCE_LOCALITY_GPU_MAX GPUs */
	size_t n_hcas;
	struct roce_locality_hca hcas[ROCE_LOCALITY_HCA_MAX];
	unsigned char gpu_gpu[ROCE_LOCALITY_GPU_MAX][ROCE_LOCALITY_GPU_MAX]; /* enum roce_sysfs_path */
	unsigned char gpu_hca[ROCE_LOCALITY_GPU_MAX][ROCE_LOCALITY_HCA_MAX];
	unsigned char hca_hca[ROCE_LOCALITY_HCA_MAX][ROCE_LOCALITY_HCA_MAX];
	/* What on a GPU-HCA pair's PCIe path keeps GPUDirect RDMA from going
	 * peer to peer (ROCE_LOCALITY_BLOCK_* bits; pipeline.c fills it from
	 * sysfs, pciecheck.c decides), and the first ACS bridge found there
	 * (1-based index into bridges, 0 none). */
	unsigned char gpu_hca_block[ROCE_LOCALITY_GPU_MAX][ROCE_LOCALITY_HCA_MAX];
	unsigned char gpu_hca_bridge[ROCE_LOCALITY_GPU_MAX][ROCE_LOCALITY_HCA_MAX];
	size_t n_bridges;
	char bridges[ROCE_LOCALITY_BRIDGE_MAX][ROCE_PCI_MAX];
};

/* Input to roce_locality_build(): an RDMA device and its PCI address (from
 * the model), its port's rate and its PCIe link's bandwidth (Mb/s, 0
 * unknown: the topology's link speed is used). */
struct roce_locality_hca_in {
	const char *name;
	const char *pci_addr;
	unsigned rate_mbps, pcie_mbps;
};

/*
 * Fill loc from the topology: every NVIDIA GPU (vendor 0x10de, class
 * 0x03xx: VGA, 3D, other display) and the given RDMA devices, matched by PCI bus id.
 * An HCA whose address is malformed or not in the topology is kept with
 * found != OK and path UNKNOWN.  Returns 0, or -1 (err) when
 * n > ROCE_LOCALITY_HCA_MAX or out of memory.
 */
int roce_locality_build(const struct roce_topo *t, const struct roce_locality_hca_in *hcas, size_t n,
                        struct roce_locality *loc, struct roce_error *err);
/* The same for every device of the model that has a PCI address (pci_read
 * OK), with its first ACTIVE port's rate and its PCIe link as sysfs gives
 * them (pcie.h, roce_pcie_link_mbps). */
int roce_locality_build_node(const struct roce_topo *t, const struct roce_node *node, struct roce_locality *loc,
                             struct roce_error *err);

/* The HCA called name and its index in loc->hcas, or NULL. */
const struct roce_locality_hca *roce_locality_find_hca(const struct roce_locality *loc, const char *name,
                                                       size_t *index);

/* Record what blocks the pair (ROCE_LOCALITY_BLOCK_* bits), and the ACS
 * bridge (may be NULL); a bridge beyond the table's size is not named. */
void roce_locality_block(struct roce_locality *loc, size_t gpu, size_t hca, unsigned bits, const char *bridge);
/* The ACS bridge recorded for the pair, or NULL. */
const char *roce_locality_bridge(const struct roce_locality *loc, size_t gpu, size_t hca);

/* The GPU-by-HCA matrix as `nvidia-smi topo -m` prints it, with its legend;
 * a blocked pair's path type ends in "!" (ACS) or "~" (degraded link). */
void roce_locality_print(const struct roce_locality *loc, FILE *out);
/* {"origin", "gpus":[{index,pci,cpus,numa}], "hcas":[{name,pci,found,why,cpus,numa}],
 *  "gpu_hca":[[...]], "gpu_hca_blocked":[[[ "acs", "link" ]...]], "gpu_gpu":[[...]],
 *  "hca_hca":[[...]]}, path names as NCCL's. */
json_object *roce_locality_json(const struct roce_locality *loc);

#endif
