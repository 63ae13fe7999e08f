/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topofix.h - topologies for the unit tests of topo.c, locality.c,
 * gpuset.c and choice.c: the project's own (tests/fixtures/topo, see the
 * README there) and real machines' ($top_srcdir/../shared/topologies: the
 * test is skipped when that directory is absent), loaded with hwloc into a
 * struct roce_locality.  Every helper fails the test on error.
 */
#ifndef ROCE_TOPOFIX_H
#define ROCE_TOPOFIX_H

#include <stddef.h>

#include "check/gpuset.h"
#include "check/locality.h"

/* tests/fixtures/topo/<name> */
void topofix_own(char *out, size_t len, const char *name);
/* ../shared/topologies/<name>, or skip the test. */
void topofix_shared(char *out, size_t len, const char *name);
/* Load an XML file and its locality for these HCAs (calloc'd: free it). */
struct roce_locality *topofix_load(const char *path, const struct roce_locality_hca_in *hcas, size_t n);

/*
 * A machine with its RDMA devices at their PCI addresses, HCAs in the
 * model's (name) order: "two-socket.xml" (own: 4 GPUs, mlx5_0/1 one dual-port
 * NIC on socket 0, mlx5_3 then mlx5_2 on socket 1), and the real
 * "topo.jwb0001.xml", "topo.jwb0004.xml" (same model, numbered
 * differently), "ipa20.xml", "topo.mel2001.xml", "coral-lassen.xml"; and
 * the own "xe9680-like.xml" (the captured Dell XE9680: mlx5_0-7 ConnectX-7
 * at 400 Gb/s, one per GPU; mlx5_8-11 ConnectX-6 Dx at 100 Gb/s beside
 * GPU 0 and GPU 4: its HCAs carry their port rates).
 */
struct roce_locality *topofix_machine(const char *name);
extern const char *const topofix_all4[4];   /* "mlx5_0" ... "mlx5_3" */

/* The job's GPUs as roce_gpuset_parse reads them, with no NVIDIA driver. */
struct roce_gpuset topofix_gpus(const char *list, const struct roce_locality *loc);

#endif
