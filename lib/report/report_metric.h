/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_metric.h - what a report shows of a port as one number per metric:
 * the RDMA data rates, loss (the three sequence-error counters summed),
 * timeouts, ECN marks, CNPs, PFC pause frames and link downs, each with
 * whether it is exact, a lower bound (counter reset or saturated) or not
 * read.  The heat maps of the HTML report rank and colour by these.  Pure.
 */
#ifndef ROCE_REPORT_METRIC_H
#define ROCE_REPORT_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include "fragment/fragment.h"

enum roce_report_metric {
	ROCE_METRIC_TX_RATE,
	ROCE_METRIC_RX_RATE,
	ROCE_METRIC_LOSS,
	ROCE_METRIC_TIMEOUT,
	ROCE_METRIC_ECN,
	ROCE_METRIC_CNP,
	ROCE_METRIC_PAUSE,
	ROCE_METRIC_LINK_DOWN,
	ROCE_METRIC_N
};

/* How much a value can be trusted. */
enum roce_report_metric_status { ROCE_METRIC_EXACT, ROCE_METRIC_LOWER_BOUND, ROCE_METRIC_UNREAD };

/* "loss": a short identifier (CSS class, URL fragment, JSON key). */
const char *roce_report_metric_key(enum roce_report_metric m);
/* "Packet loss": the heading. */
const char *roce_report_metric_title(enum roce_report_metric m);
/* What the number counts, in a sentence. */
const char *roce_report_metric_about(enum roce_report_metric m);
/* Bytes per second (shown with binary units) rather than a count. */
bool roce_report_metric_is_rate(enum roce_report_metric m);

/* Port p of node n: its value of m into *v and how sure it is.  A rate
 * needs the node's duration: without one it is UNREAD, as is any value
 * that is not finite (*v is then 0): the printers only see numbers. */
enum roce_report_metric_status roce_report_metric_value(const struct roce_fragment *n,
                                                        const struct roce_fragment_port *p, enum roce_report_metric m,
                                                        double *v);

/* Room for any port's name, NUL included: the longest device a fragment
 * keeps, ':' and the port number. */
#define ROCE_REPORT_PORT_NAME_MAX (ROCE_FRAGMENT_DEVICE_MAX + 11)

/* "mlx5_0:1": how reports name a port (a verdict's subject too). */
const char *roce_report_metric_port(const struct roce_fragment_port *p, char *buf, size_t len);
/* v as a cell's label: 1234 -> "1.2k"; a rate in binary units, "2.0GiB/s". */
const char *roce_report_metric_short(double v, bool rate, char *buf, size_t len);

#endif
