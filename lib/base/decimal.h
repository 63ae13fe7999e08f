/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decimal.h - an unsigned 64-bit number in decimal, without printf: the
 * report writers format millions of counter values (the JSON report's
 * nodes, the Prometheus exposition), and snprintf's format parsing was a
 * visible share of their time.  Pure.
 */
#ifndef ROCE_DECIMAL_H
#define ROCE_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

#define ROCE_DECIMAL_U64_MAX 20 /* digits of UINT64_MAX */

/* v's digits into dst (room for ROCE_DECIMAL_U64_MAX bytes; no NUL); their count. */
size_t roce_decimal_u64(char *dst, uint64_t v);

#endif
