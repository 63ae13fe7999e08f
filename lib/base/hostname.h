/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostname.h - the node name when Slurm did not give one. */
#ifndef ROCE_HOSTNAME_H
#define ROCE_HOSTNAME_H

#include <stddef.h>

/* node when it is set and not empty (SLURMD_NODENAME, an option), else the
 * short host name (up to the first '.') written into buf (len bytes).
 * NULL with errno set when gethostname() fails. */
const char *roce_hostname_node(const char *node, char *buf, size_t len);

#endif
