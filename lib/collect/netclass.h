/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netclass.h - what sysfs says about each port netdev (class/net/<if>/): the link speed the netdev
 * negotiated, cross-checked with the RDMA port's rate, and MLNX_OFED's ECN/DCQCN files
 * (ecn/roce_np, ecn/roce_rp). Every file is hostile: missing, unreadable, garbage and out-of-range
 * values each become a reading naming the file.
 */
#ifndef ROCE_NETCLASS_H
#define ROCE_NETCLASS_H

#include <stdbool.h>
#include "base/model.h"

/* Fill the class/net readings of every entry of node->netdevs; the ECN
 * files only when ecn (Ecn=ignore judges none: their readings stay NOT_READ). */
void roce_netclass_collect(struct roce_node *node, const char *sysfs_root, bool ecn);

/* class/net/<if>/speed: Mb/s, or -1 (SPEED_UNKNOWN, a link that is down).
 * 0, or -1 for anything else (exposed for tests and fuzzing). */
#define ROCE_SPEED_MAX_MBPS 10000000
int roce_netclass_parse_speed(const char *s, int *mbps);
/* A decimal 0..max with nothing around it ("1", "48"): ecn/ files.  0 or -1. */
int roce_netclass_parse_uint(const char *s, int max, int *v);

#endif
