/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agreed.h - the agreement (agree.h) as a step's nodes get it: srun writes
 * the verdict into ROCE_AGREE_ENV, each node reads it back strictly (the
 * user can set the variable) and keeps only its own ports on the agreed
 * rails.  Pure: no I/O.
 */
#ifndef ROCE_AGREED_H
#define ROCE_AGREED_H

#include "agree/agree.h"

/* "2;<step>;<verdict>[;<rail>,...;<col>@<mtu>,...]" into buf: every rail of
 * the reference, then the agreed ones in order; -1 when it does not fit. */
int roce_agreed_encode(const struct roce_agreement *a, enum roce_agree_verdict v, const char *step, char *buf,
                       size_t len);
/* The value back; -1 with err when it is not one roce_agreed_encode wrote. */
int roce_agreed_decode(const char *s, struct roce_agreed *d, struct roce_error *err);

/* Restrict plan (built from self's check) to self's ports on d's rails
 * (rails.h's fit), with the same RDMA MTU (any, where d says 0), in d's
 * order: NCCL_IB_HCA and NCCL_SOCKET_IFNAME are rewritten (plan.h's
 * roce_plan_setf); with none left the plan becomes invalid.  Returns how
 * many agreed rails this node could not take (0: all), naming them in why
 * (len bytes). */
int roce_agreed_apply(const struct roce_agreed *d, const struct roce_fingerprint *self, struct roce_plan *plan,
                      char *why, size_t len);

#endif
