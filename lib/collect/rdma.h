/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdma.h - the RDMA collector: devices, ports and GID tables from sysfs
 * (/sys/class/infiniband).
 * The predicates over what it reads (roce_gid_usable, name checks) are the
 * model's (model.h).
 */
#ifndef ROCE_RDMA_H
#define ROCE_RDMA_H

#include "base/model.h"

/* How much of each GID table to read.  NCCL scans from index 0 up; so do we
 * when the wanted entry is not the expected one. */
struct roce_gid_want {
	int index;       /* the policy's index, or -1 (auto: scan) */
	int addr_family; /* AF_INET / AF_INET6 */
	bool full;       /* read every entry (roce-check --gids) */
};

int roce_rdma_collect(struct roce_node *node, const char *sysfs_root, const struct roce_gid_want *want);
/* Versions of the modules on the RDMA path (mlx5_core, mlx5_ib, ib_core,
 * nvidia, nvidia_peermem) where sysfs shows one (out-of-tree builds: MLNX_OFED, NVIDIA). */
int roce_rdma_collect_modules(struct roce_node *node, const char *sysfs_root);

/* Parsers of single sysfs values (exposed for tests and fuzzing). */
int roce_rdma_parse_port_state(const char *s, int *num, char *name, size_t namelen); /* "4: ACTIVE" */
int roce_rdma_parse_gid(const char *s, uint8_t raw[16]);                             /* "0000:...:a424" */
int roce_rdma_parse_gid_type(const char *s, enum roce_gid_type *t);                  /* "RoCE v2" */
int roce_rdma_parse_link_layer(const char *s, enum roce_link_layer *ll);             /* "Ethernet" */
int roce_rdma_parse_rate(const char *s, unsigned *mbps);                             /* "100 Gb/sec (4X EDR)" */

#endif
