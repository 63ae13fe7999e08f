/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counter.c - the table of the counters we read (counter.h). */
#include "config.h"
#include "base/counter.h"

#include <string.h>

/*
 * Widths.  How we decide, counter by counter:
 *  - counters/ is the IB PMA view (drivers/infiniband/core/sysfs.c).  The
 *    data and packet counters come from PortCountersExtended when the device
 *    advertises IB_PMA_CLASS_CAP_EXT_WIDTH, which mlx5 does: 64-bit.  The
 *    error counters only exist in PortCounters, with the PMA field widths
 *    (symbol_error 16, link_error_recovery 8, link_downed 8, port_rcv_errors
 *    16, port_xmit_discards 16), and PMA counters saturate at their maximum
 *    instead of wrapping (IBA 16.1.3.5).
 *  - hw_counters/ Q counters (mlx5 QUERY_Q_COUNTER: out_of_sequence, the
 *    *_err retransmission counters, out_of_buffer, roce_adp_*, roce_slow_*)
 *    are 32-bit big-endian fields that the driver widens to u64: they wrap.
 *  - Congestion counters (QUERY_CONG_STATISTICS) and the PPCNT counter
 *    rx_icrc_encapsulated are 64-bit fields.
 */
#define C(n, hw, w, sat, kind)              \
	{                                   \
#n, #n, hw, w, sat, 1, kind \
	}
const struct roce_counter_def roce_counter_defs[ROCE_N_COUNTERS] = {
	[ROCE_C_PORT_XMIT_DATA] = { "port_xmit_data", "port_xmit_bytes", false, 64, false, 4, ROCE_KIND_TRAFFIC },
	[ROCE_C_PORT_RCV_DATA] = { "port_rcv_data", "port_rcv_bytes", false, 64, false, 4, ROCE_KIND_TRAFFIC },
	[ROCE_C_PORT_XMIT_PACKETS] = C(port_xmit_packets, false, 64, false, ROCE_KIND_TRAFFIC),
	[ROCE_C_PORT_RCV_PACKETS] = C(port_rcv_packets, false, 64, false, ROCE_KIND_TRAFFIC),
	[ROCE_C_PORT_RCV_ERRORS] = C(port_rcv_errors, false, 16, true, ROCE_KIND_LINK),
	[ROCE_C_PORT_XMIT_DISCARDS] = C(port_xmit_discards, false, 16, true, ROCE_KIND_LOSS),
	[ROCE_C_SYMBOL_ERROR] = C(symbol_error, false, 16, true, ROCE_KIND_LINK),
	[ROCE_C_LINK_DOWNED] = C(link_downed, false, 8, true, ROCE_KIND_LINK),
	[ROCE_C_LINK_ERROR_RECOVERY] = C(link_error_recovery, false, 8, true, ROCE_KIND_LINK),
	[ROCE_C_OUT_OF_SEQUENCE] = C(out_of_sequence, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_PACKET_SEQ_ERR] = C(packet_seq_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_IMPLIED_NAK_SEQ_ERR] = C(implied_nak_seq_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_LOCAL_ACK_TIMEOUT_ERR] = C(local_ack_timeout_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_DUPLICATE_REQUEST] = C(duplicate_request, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_RNR_NAK_RETRY_ERR] = C(rnr_nak_retry_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_OUT_OF_BUFFER] = C(out_of_buffer, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_REQ_TRANSPORT_RETRIES_EXCEEDED] = C(req_transport_retries_exceeded, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_ROCE_ADP_RETRANS] = C(roce_adp_retrans, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_ROCE_ADP_RETRANS_TO] = C(roce_adp_retrans_to, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_ROCE_SLOW_RESTART] = C(roce_slow_restart, true, 32, false, ROCE_KIND_CONGESTION),
	[ROCE_C_ROCE_SLOW_RESTART_CNPS] = C(roce_slow_restart_cnps, true, 32, false, ROCE_KIND_CONGESTION),
	[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS] = C(np_ecn_marked_roce_packets, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_NP_CNP_SENT] = C(np_cnp_sent, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_RP_CNP_HANDLED] = C(rp_cnp_handled, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_RP_CNP_IGNORED] = C(rp_cnp_ignored, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_RX_ICRC_ENCAPSULATED] = C(rx_icrc_encapsulated, true, 64, false, ROCE_KIND_LINK),
};
#undef C

int roce_counter_lookup(const char *name)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (strcmp(roce_counter_defs[i].name, name) == 0 || strcmp(roce_counter_defs[i].report_name, name) == 0)
			return i;
	return -1;
}
