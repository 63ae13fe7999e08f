/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counter.h - the RoCE counters a snapshot reads: for each, its sysfs file,
 * its name in reports, its width and whether it saturates.  Pure data.
 *
 * The standard counters/ and the mlx5 hw_counters/ that say something about
 * loss and congestion; how each width was decided is in counter.c.
 */
#ifndef ROCE_COUNTER_H
#define ROCE_COUNTER_H

#include <stdbool.h>

/* The counters we read, in table order (counter.c has names and widths). */
enum roce_counter_id {
	/* standard counters/ */
	ROCE_C_PORT_XMIT_DATA = 0,
	ROCE_C_PORT_RCV_DATA,
	ROCE_C_PORT_XMIT_PACKETS,
	ROCE_C_PORT_RCV_PACKETS,
	ROCE_C_PORT_RCV_ERRORS,
	ROCE_C_PORT_XMIT_DISCARDS,
	ROCE_C_SYMBOL_ERROR,
	ROCE_C_LINK_DOWNED,
	ROCE_C_LINK_ERROR_RECOVERY,
	/* mlx5 hw_counters/: Q counters (32-bit) */
	ROCE_C_OUT_OF_SEQUENCE,
	ROCE_C_PACKET_SEQ_ERR,
	ROCE_C_IMPLIED_NAK_SEQ_ERR,
	ROCE_C_LOCAL_ACK_TIMEOUT_ERR,
	ROCE_C_DUPLICATE_REQUEST,
	ROCE_C_RNR_NAK_RETRY_ERR,
	ROCE_C_OUT_OF_BUFFER,
	ROCE_C_REQ_TRANSPORT_RETRIES_EXCEEDED,
	ROCE_C_ROCE_ADP_RETRANS,
	ROCE_C_ROCE_ADP_RETRANS_TO,
	ROCE_C_ROCE_SLOW_RESTART,
	ROCE_C_ROCE_SLOW_RESTART_CNPS,
	/* mlx5 hw_counters/: congestion and PPCNT (64-bit) */
	ROCE_C_NP_ECN_MARKED_ROCE_PACKETS,
	ROCE_C_NP_CNP_SENT,
	ROCE_C_RP_CNP_HANDLED,
	ROCE_C_RP_CNP_IGNORED,
	ROCE_C_RX_ICRC_ENCAPSULATED,
	ROCE_N_COUNTERS
};

enum roce_counter_kind { ROCE_KIND_TRAFFIC, ROCE_KIND_LINK, ROCE_KIND_LOSS, ROCE_KIND_CONGESTION };

struct roce_counter_def {
	const char *name;        /* sysfs file name */
	const char *report_name; /* key in reports: the sysfs name, or *_bytes for the word counters */
	bool hw;                 /* hw_counters/ (else counters/) */
	unsigned width;          /* bits: 64, 32, 16 or 8 */
	bool saturates;          /* IB PMA counters stop at their maximum instead of wrapping */
	unsigned scale;          /* multiply to get the reported unit (4 for data words) */
	enum roce_counter_kind kind;
};

extern const struct roce_counter_def roce_counter_defs[ROCE_N_COUNTERS];
/* Index of a counter by sysfs or report name, -1 when unknown. */
int roce_counter_lookup(const char *name);

#endif
