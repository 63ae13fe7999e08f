/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verbs.h - optional cross-check with libibverbs where RDMA devices exist.
 * ibv_get_device_list() loads every provider plugin (milliseconds), so this
 * is only called when asked for (roce-check --verbs, VerbsCheck=yes).
 */
#ifndef ROCE_VERBS_H
#define ROCE_VERBS_H
#include "base/model.h"
/* Fill port->verbs_read (and verbs_active_mtu when OK) for every port of the
 * model.  0, or -1 if libibverbs has no devices at all (not an error on
 * machines without RDMA: the ports say why). */
int roce_verbs_collect(struct roce_node *node);
#endif
