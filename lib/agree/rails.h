/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rails.h - a node's ports placed on the step's rails.  Pure.
 *
 * A rail is the network a port's RoCE traffic lives on: its key is the
 * port's rail in the fingerprint (the subnet of its GID's address, or the
 * Rails= entry holding it), or, where that is unknown, the port's own name
 * "device:port" (then only a port of that name is on it).  The step's rails
 * are a reference: the keys of one node's ports in its PCI order (agree.h
 * picks the order most nodes have).  A node's ports are fitted to them: a
 * name key takes the port of that name; subnet keys take the node's ports
 * with those subnets in order, as many as fit in the same order (a longest
 * common subsequence), preferring a port whose place among the node's
 * ports is the rail's place in the reference.  So two nodes whose rails
 * carry the same subnets under other device names fit the same rails, a
 * node lacking a rail fits the others, and a port on another rail's subnet
 * (a crossed cable or address) is left over, in the place of the rail it
 * should be on.  srun (agree.c) and each node (applying the agreement to
 * its own ports) fit with this one function: the same fingerprint gets the
 * same ports.
 */
#ifndef ROCE_RAILS_H
#define ROCE_RAILS_H

#include <stdbool.h>
#include <stddef.h>
#include "agree/fingerprint.h"

/* A subnet (< ROCE_SUBNET_TEXT_MAX), or "device:port" */
#define ROCE_RAIL_KEY_MAX (ROCE_NAME_MAX + 8)

struct roce_rails {
	size_t n;
	char key[ROCE_FP_PORTS_MAX][ROCE_RAIL_KEY_MAX];
};

/* p's key: its rail, else "device:port". */
void roce_rails_key(const struct roce_fp_port *p, char out[ROCE_RAIL_KEY_MAX]);
/* Is key a subnet (else a port's name)? */
bool roce_rails_key_is_subnet(const char *key);
/* Is key one a rail may have: a canonical subnet, or a device name and a port 1-255? */
bool roce_rails_key_ok(const char *key);

/* port_of[c] for each rail c of ref: the index of f's port on it, -1 none.
 * No port is on two rails. */
void roce_rails_fit(const struct roce_rails *ref, const struct roce_fingerprint *f, int port_of[ROCE_FP_PORTS_MAX]);

#endif
