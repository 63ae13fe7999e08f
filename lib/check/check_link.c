/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_link.c - the link rate of every RoCE port.  Pure.
 *
 * A port that trained below its speed (a bad cable or transceiver, a switch
 * port forced down) still passes every other check and then slows every
 * collective of the job to its pace: a hardware fault, drained with a short
 * reason.  LinkRate=N is a minimum in Gb/s; auto compares a port with the
 * other ports of the same adapter model (hca_type + board_id) on the node,
 * so a node of 100G adapters beside a 25G management adapter is not flagged.
 * Ports that are not ACTIVE are port_state's business and are skipped.
 */
#include "config.h"
#include "check/check.h"

#include <stdio.h>
#include <string.h>

#define PORT_ACTIVE 4

struct link_port {
	const struct roce_device *dev;
	const struct roce_port *port;
};

static void gbps(unsigned mbps, char *buf, size_t len)
{
	if (mbps % 1000)
		snprintf(buf, len, "%u.%u", mbps / 1000, mbps % 1000 / 100);
	else
		snprintf(buf, len, "%u", mbps / 1000);
}

static struct link_port find_port(const struct roce_node *node, const struct roce_port_result *pr)
{
	struct link_port lp = { NULL, NULL };
	const struct roce_device *d = roce_node_find_device(node, pr->device);
	for (size_t i = 0; d && i < d->n_ports; i++)
		if (d->ports[i].num == pr->port)
			lp = (struct link_port){ d, &d->ports[i] };
	return lp;
}

static bool active_with_rate(const struct roce_port *p)
{
	return roce_reading_ok(&p->state_read) && p->state == PORT_ACTIVE && roce_reading_ok(&p->rate_read);
}

static bool model_known(const struct roce_device *d)
{
	return roce_reading_ok(&d->hca_type_read) && roce_reading_ok(&d->board_id_read);
}

/* The fastest ACTIVE RoCE port of d's adapter model on the node (mbps, 0 none). */
static unsigned model_fastest(const struct roce_check_result *r, const struct roce_node *node,
                              const struct roce_device *d)
{
	unsigned best = 0;
	for (size_t i = 0; i < r->n_ports; i++) {
		struct link_port o = find_port(node, &r->ports[i]);
		if (!r->ports[i].roce || !o.port || !active_with_rate(o.port) || !model_known(o.dev) ||
		    strcmp(o.dev->hca_type, d->hca_type) || strcmp(o.dev->board_id, d->board_id))
			continue;
		if (o.port->rate_mbps > best)
			best = o.port->rate_mbps;
	}
	return best;
}

static int slow(struct roce_check_result *r, struct roce_port_result *pr, const struct link_port *lp, const char *why)
{
	char have[16], reason[128];
	gbps(lp->port->rate_mbps, have, sizeof(have));
	snprintf(reason, sizeof(reason), "%s port %u at %s Gb/s", pr->device, pr->port, have);
	pr->healthy = false;
	return roce_finding_addf(r, "link_rate", pr->device, pr->port, ROCE_FAIL, true, reason,
	                         "%s port %u runs at %s Gb/s (%s), %s: reseat or replace the cable or transceiver "
	                         "and check the switch port's speed (`ethtool %s`); the port is left out",
	                         pr->device, pr->port, have, lp->port->rate, why,
	                         pr->netdev[0] ? pr->netdev : "<netdev>");
}

/* The netdev's speed beside the port's rate.  The kernel derives a RoCE
 * port's rate from its netdev's ethtool speed, so they differ only for a
 * moment (a link retraining), for a bond (its netdev reports the sum of its
 * links) or where the netdev is not the port's (a test's veth): said in the
 * message, never a verdict of its own, and the rate is what is judged. */
static int passed(struct roce_check_result *r, const struct roce_node *node, const struct roce_port_result *pr,
                  const struct link_port *lp, const char *model_note)
{
	const struct roce_netdev *nd = pr->netdev[0] ? roce_node_find_netdev(node, pr->netdev) : NULL;
	char have[16], speed[96] = "";
	gbps(lp->port->rate_mbps, have, sizeof(have));
	if (nd && roce_reading_ok(&nd->speed_read) && nd->speed_mbps > 0 &&
	    (unsigned)nd->speed_mbps != lp->port->rate_mbps)
		snprintf(speed, sizeof(speed), " (%s says %d Mb/s: the RDMA port's rate is judged)", nd->name,
		         nd->speed_mbps);
	return roce_finding_addf(r, "link_rate", pr->device, pr->port, ROCE_PASS, false, NULL,
	                         "%s port %u at %s Gb/s%s%s", pr->device, pr->port, have, model_note, speed);
}

static int check_one(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol,
                     struct roce_port_result *pr)
{
	struct link_port lp = find_port(node, pr);
	if (!lp.port || !roce_reading_ok(&lp.port->state_read) || lp.port->state != PORT_ACTIVE)
		return 0;
	if (!roce_reading_ok(&lp.port->rate_read))
		return roce_finding_addf(r, "link_rate", pr->device, pr->port, ROCE_UNKNOWN, false, NULL,
		                         "%s port %u link rate is unknown (%s: %s): the rate is not judged; "
		                         "check the mlx5_ib driver (dmesg)",
		                         pr->device, pr->port, roce_status_name(lp.port->rate_read.status),
		                         lp.port->rate_read.why);
	char why[256], want[16];
	if (pol->link_rate > 0 && lp.port->rate_mbps < (unsigned)pol->link_rate * 1000) {
		snprintf(why, sizeof(why), "below LinkRate=%d", pol->link_rate);
		return slow(r, pr, &lp, why);
	}
	if (pol->link_rate != ROCE_LINK_RATE_AUTO)
		return passed(r, node, pr, &lp, "");
	if (!model_known(lp.dev))
		return passed(r, node, pr, &lp, " (adapter model unknown: not compared)");
	unsigned fastest = model_fastest(r, node, lp.dev);
	if (lp.port->rate_mbps < fastest) {
		gbps(fastest, want, sizeof(want));
		snprintf(why, sizeof(why), "while other %s (%s) ports on this node run at %s Gb/s", lp.dev->hca_type,
		         lp.dev->board_id, want);
		return slow(r, pr, &lp, why);
	}
	return passed(r, node, pr, &lp, "");
}

int roce_check_link(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	if (pol->link_rate == ROCE_LINK_RATE_NONE)
		return 0;
	for (size_t i = 0; i < r->n_ports; i++)
		if (r->ports[i].roce && check_one(r, node, pol, &r->ports[i]) < 0)
			return -1;
	return 0;
}
