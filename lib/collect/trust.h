/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trust.h - the priority trust of each port netdev, as MLNX_OFED shows it:
 * class/net/<if>/qos/trust ("pcp" or "dscp") and qos/dscp2prio.  A VLAN
 * netdev has no qos/: its lower device's (the lower_<name> link the kernel
 * makes) is read.  Every file is hostile: missing, unreadable, garbage and
 * out-of-range values each become a reading naming the file.
 */
#ifndef ROCE_TRUST_H
#define ROCE_TRUST_H

#include "base/model.h"

/* Fill nd->trust of every entry of node->netdevs. */
void roce_trust_collect(struct roce_node *node, const char *sysfs_root);

/* qos/trust's text ("pcp", "dscp") -> mode; 0, or -1 for anything else. */
int roce_trust_parse_mode(const char *s, enum roce_trust_mode *mode);
/* qos/dscp2prio's text: a header line, then one "DSCP PRIO" pair per line
 * (DSCP 0-63, each at most once; PRIO 0-7).  0, or -1 with why (the line
 * and what is wrong with it); m->prio is -1 where no line names the DSCP.
 * m->read is left alone.  Exposed for tests and fuzzing. */
int roce_trust_parse_dscp2prio(const char *s, struct roce_dscp_map *m, char *why, size_t whylen);

/* "pcp", "dscp", "unknown" (an int: also roce_jin_enum's name function) */
const char *roce_trust_mode_name(int m);

#endif
