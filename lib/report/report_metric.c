/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_metric.c - one number per port and metric (report_metric.h). */
#include "config.h"
#include "report/report_metric.h"

#include <math.h>
#include <stdio.h>

/* The counters summed into each metric (none: computed otherwise). */
#define MAX_SUMMED 3
static const struct metric_def {
	const char *key, *title, *about;
	bool rate;
	enum roce_counter_id ids[MAX_SUMMED];
	int n_ids; /* 0: PFC pause frames */
} defs[ROCE_METRIC_N] = {
	[ROCE_METRIC_TX_RATE] = { "tx",
	                          "RDMA TX rate",
	                          "bytes sent through RDMA per second of the job (port_xmit_data)",
	                          true,
	                          { ROCE_C_PORT_XMIT_DATA },
	                          1 },
	[ROCE_METRIC_RX_RATE] = { "rx",
	                          "RDMA RX rate",
	                          "bytes received through RDMA per second of the job (port_rcv_data)",
	                          true,
	                          { ROCE_C_PORT_RCV_DATA },
	                          1 },
	[ROCE_METRIC_LOSS] = { "loss",
	                       "Packet loss",
	                       "out_of_sequence + packet_seq_err + implied_nak_seq_err: 0 on a lossless fabric",
	                       false,
	                       { ROCE_C_OUT_OF_SEQUENCE, ROCE_C_PACKET_SEQ_ERR, ROCE_C_IMPLIED_NAK_SEQ_ERR },
	                       3 },
	[ROCE_METRIC_TIMEOUT] = { "timeout",
	                          "RDMA timeouts",
	                          "local_ack_timeout_err: no ACK within the QP timeout",
	                          false,
	                          { ROCE_C_LOCAL_ACK_TIMEOUT_ERR },
	                          1 },
	[ROCE_METRIC_ECN] = { "ecn",
	                      "ECN marks",
	                      "np_ecn_marked_roce_packets: packets a switch marked as congested",
	                      false,
	                      { ROCE_C_NP_ECN_MARKED_ROCE_PACKETS },
	                      1 },
	[ROCE_METRIC_CNP] = { "cnp",
	                      "CNPs",
	                      "np_cnp_sent + rp_cnp_handled: congestion notifications sent and acted on",
	                      false,
	                      { ROCE_C_NP_CNP_SENT, ROCE_C_RP_CNP_HANDLED },
	                      2 },
	[ROCE_METRIC_PAUSE] = { "pause",
	                        "PFC pauses",
	                        "PFC pause frames received and sent, all priorities",
	                        false,
	                        { 0 },
	                        0 },
	[ROCE_METRIC_LINK_DOWN] = { "linkdown",
	                            "Link downs",
	                            "link_downed: the link went down during the job",
	                            false,
	                            { ROCE_C_LINK_DOWNED },
	                            1 },
};

const char *roce_report_metric_key(enum roce_report_metric m) { return m < ROCE_METRIC_N ? defs[m].key : "?"; }

const char *roce_report_metric_title(enum roce_report_metric m) { return m < ROCE_METRIC_N ? defs[m].title : "?"; }

const char *roce_report_metric_about(enum roce_report_metric m) { return m < ROCE_METRIC_N ? defs[m].about : ""; }

bool roce_report_metric_is_rate(enum roce_report_metric m) { return m < ROCE_METRIC_N && defs[m].rate; }

static bool lower_bound(uint8_t status) { return status == ROCE_DELTA_RESET || status == ROCE_DELTA_SATURATED; }

static enum roce_report_metric_status pauses(const struct roce_fragment_port *p, double *v)
{
	if (p->pfc_status == ROCE_DELTA_UNREAD)
		return ROCE_METRIC_UNREAD;
	for (int q = 0; q < ROCE_PRIOS; q++)
		*v += (double)p->pfc_ind[q] + (double)p->pfc_req[q];
	return lower_bound(p->pfc_status) ? ROCE_METRIC_LOWER_BOUND : ROCE_METRIC_EXACT;
}

enum roce_report_metric_status roce_report_metric_value(const struct roce_fragment *n,
                                                        const struct roce_fragment_port *p, enum roce_report_metric m,
                                                        double *v)
{
	*v = 0;
	if (m >= ROCE_METRIC_N)
		return ROCE_METRIC_UNREAD;
	const struct metric_def *d = &defs[m];
	if (!d->n_ids) {
		enum roce_report_metric_status st = pauses(p, v);
		if (st != ROCE_METRIC_UNREAD && !isfinite(*v)) {
			*v = 0;
			return ROCE_METRIC_UNREAD;
		}
		return st;
	}
	bool any = false, bound = false;
	for (int i = 0; i < d->n_ids; i++) {
		if (p->cs[d->ids[i]] == ROCE_DELTA_UNREAD)
			continue;
		any = true;
		*v += (double)p->c[d->ids[i]];
		bound |= lower_bound(p->cs[d->ids[i]]);
	}
	if (!any || (d->rate && !(n->seconds > 0))) {
		*v = 0;
		return ROCE_METRIC_UNREAD;
	}
	if (d->rate)
		*v /= n->seconds;
	/* a number or not read: never infinite or NaN, whatever a fragment says */
	if (!isfinite(*v)) {
		*v = 0;
		return ROCE_METRIC_UNREAD;
	}
	return bound ? ROCE_METRIC_LOWER_BOUND : ROCE_METRIC_EXACT;
}

const char *roce_report_metric_short(double v, bool rate, char *buf, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	double base = rate ? 1024 : 1000;
	int u = 0;
	while (v >= base && u < 6) {
		v /= base;
		u++;
	}
	snprintf(buf, len, u && v < 10 ? "%.1f%s%s" : "%.0f%s%s", v, rate ? bin[u] : si[u], rate ? "B/s" : "");
	return buf;
}

const char *roce_report_metric_port(const struct roce_fragment_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", p->device, p->port);
	return buf;
}
