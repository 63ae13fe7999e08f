/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_link.c - the link rate of every RoCE port.  Pure.
 *
 * A port that trained below its speed (a bad cable or transceiver, a switch
 * port forced down) still passes every other check and then slows every
 * collective of the job to its pace: a hardware fault, drained with a short
 * reason.  LinkRate=N is a minimum in Gb/s; auto compares a port only with
 * the ports of its role on the node, and a rate uniform within its role is
 * never a fault.  A role is:
 *   - the adapter model (hca_type + board_id): a 25G management adapter
 *     beside 100G adapters is another role;
 *   - and its place: a GPU's rail (a PCIe switch below its root port is
 *     shared with an NVIDIA GPU, and no faster RoCE port shares it: the
 *     port NCCL gives that GPU) or a host port (no GPU behind its switch, on
 *     a root port of its own, or beside a faster port under a GPU's switch:
 *     storage, front-end).  A rail-optimised node's eight 400G compute
 *     ports and two 100G storage ports of the same model are two roles; a
 *     compute port that trained at 100G is still a rail, and fails.
 * The place is read (pcie.c) only when two ports of one model differ; a
 * port whose place cannot be read is not judged as a fault (a warning).
 * Hca= narrows the ports compared, as it narrows every check.  Ports that
 * are not ACTIVE are port_state's business and are skipped.
 *
 * New in 0.2.0, so released at warn (NEWS): LinkRateAction=warn (the
 * default) says a slow port and keeps it; fail leaves it out and drains.
 * A rate that cannot be read is then a warning too, unknown under fail.
 *
 * The place also decides what a port that is DOWN means (check.c asks
 * roce_check_link_host_port): a host port of a node whose GPU rails are
 * other ports is an unplugged storage or front-end port more often than a
 * fault.
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

static bool same_model(const struct roce_device *a, const struct roce_device *b)
{
	return model_known(a) && model_known(b) && !strcmp(a->hca_type, b->hca_type) &&
	       !strcmp(a->board_id, b->board_id);
}

/* Where a device sits, for its role. */
enum place { PLACE_UNKNOWN, PLACE_RAIL, PLACE_HOST };

/* Do a and b share a PCIe switch (the same root port, a switch between it
 * and each of them)? */
static bool share_switch(const struct roce_device *a, const struct roce_device *b)
{
	const struct roce_pcie_path *p = &a->pcie, *q = &b->pcie;
	return roce_reading_ok(&p->read) && roce_reading_ok(&q->read) && p->n >= 3 && q->n >= 3 &&
	       !strcmp(p->fn[p->n - 1].bdf, q->fn[q->n - 1].bdf);
}

/* The fastest ACTIVE RoCE port on the node that keep() accepts (mbps, 0 none). */
static unsigned fastest(const struct roce_check_result *r, const struct roce_node *node, const struct roce_device *d,
                        bool (*keep)(const struct roce_check_result *, const struct roce_node *,
                                     const struct roce_device *, const struct roce_device *))
{
	unsigned best = 0;
	for (size_t i = 0; i < r->n_ports; i++) {
		struct link_port o = find_port(node, &r->ports[i]);
		if (!r->ports[i].roce || !o.port || !active_with_rate(o.port) || !keep(r, node, d, o.dev))
			continue;
		if (o.port->rate_mbps > best)
			best = o.port->rate_mbps;
	}
	return best;
}

static bool keep_model(const struct roce_check_result *r, const struct roce_node *node, const struct roce_device *d,
                       const struct roce_device *o)
{
	(void)r;
	(void)node;
	return same_model(d, o);
}

static bool keep_beside(const struct roce_check_result *r, const struct roce_node *node, const struct roce_device *d,
                        const struct roce_device *o)
{
	(void)r;
	(void)node;
	return share_switch(d, o);
}

/* The rate of d's ACTIVE RoCE port (its first), 0 none. */
static unsigned device_rate(const struct roce_check_result *r, const struct roce_node *node,
                            const struct roce_device *d)
{
	for (size_t i = 0; i < r->n_ports; i++) {
		struct link_port o = find_port(node, &r->ports[i]);
		if (r->ports[i].roce && o.dev == d && o.port && active_with_rate(o.port))
			return o.port->rate_mbps;
	}
	return 0;
}

static enum place place_of(const struct roce_check_result *r, const struct roce_node *node, const struct roce_device *d)
{
	if (!roce_reading_ok(&d->gpu_near_read))
		return PLACE_UNKNOWN;
	if (!d->gpu_near[0])
		return PLACE_HOST;
	/* Beside a faster port under the GPU's switch: the GPU's rail is that one. */
	return fastest(r, node, d, keep_beside) > device_rate(r, node, d) ? PLACE_HOST : PLACE_RAIL;
}

static bool keep_role(const struct roce_check_result *r, const struct roce_node *node, const struct roce_device *d,
                      const struct roce_device *o)
{
	enum place pd = place_of(r, node, d);
	return same_model(d, o) && pd != PLACE_UNKNOWN && place_of(r, node, o) == pd;
}

/* "a GPU's rail (beside GPU 0000:19:00.0)", "a host port (no GPU behind its PCIe switch)". */
static void role_name(const struct roce_check_result *r, const struct roce_node *node, const struct roce_device *d,
                      char *out, size_t len)
{
	enum place p = place_of(r, node, d);
	if (p == PLACE_RAIL)
		snprintf(out, len, "a GPU's rail, beside GPU %s", d->gpu_near);
	else if (d->gpu_near[0])
		snprintf(out, len, "a host port, beside a faster port under GPU %s's switch", d->gpu_near);
	else
		snprintf(out, len, "a host port, no GPU behind its PCIe switch");
}

static int slow(struct roce_check_result *r, const struct roce_policy *pol, struct roce_port_result *pr,
                const struct link_port *lp, const char *why)
{
	char have[16], reason[128];
	bool fail = pol->link_rate_action == ROCE_ACTION_FAIL;
	gbps(lp->port->rate_mbps, have, sizeof(have));
	snprintf(reason, sizeof(reason), "%s port %u at %s Gb/s", pr->device, pr->port, have);
	if (fail)
		pr->healthy = false;
	return roce_finding_addf(r, "link_rate", pr->device, pr->port, fail ? ROCE_FAIL : ROCE_WARN, "slow",
	                         fail ? ROCE_FINDING_HARDWARE : 0, reason,
	                         "%s port %u runs at %s Gb/s (%s), %s: reseat or replace the cable or transceiver "
	                         "and check the switch port's speed (`ethtool %s`); %s",
	                         pr->device, pr->port, have, lp->port->rate, why,
	                         pr->netdev[0] ? pr->netdev : "<netdev>",
	                         fail ? "the port is left out"
	                              : "the port is kept (LinkRateAction=fail leaves it out and drains the node)");
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
	return roce_finding_pass(r, "link_rate", pr->device, pr->port, "%s port %u at %s Gb/s%s%s", pr->device,
	                         pr->port, have, model_note, speed);
}

/* Slower than another port of its model whose role it may not share. */
static int judge_role(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol,
                      struct roce_port_result *pr, const struct link_port *lp, unsigned model_best)
{
	char why[320], want[16], role[96];
	gbps(model_best, want, sizeof(want));
	if (place_of(r, node, lp->dev) == PLACE_UNKNOWN) {
		char have[16];
		gbps(lp->port->rate_mbps, have, sizeof(have));
		return roce_finding_addf(r, "link_rate", pr->device, pr->port, ROCE_WARN, "slower (role unknown)", 0,
		                         NULL,
		                         "%s port %u runs at %s Gb/s while other %s (%s) ports on this node run at %s "
		                         "Gb/s, and whether it is a GPU's rail or a host port (storage, front-end) "
		                         "cannot be told (%s): not judged as a fault; `LinkRate=N` or `Hca=` says what "
		                         "to expect",
		                         pr->device, pr->port, have, lp->dev->hca_type, lp->dev->board_id, want,
		                         lp->dev->gpu_near_read.why[0] ? lp->dev->gpu_near_read.why
		                                                       : "its PCIe neighbourhood was not read");
	}
	unsigned role_best = fastest(r, node, lp->dev, keep_role);
	role_name(r, node, lp->dev, role, sizeof(role));
	if (lp->port->rate_mbps < role_best) {
		gbps(role_best, want, sizeof(want));
		snprintf(why, sizeof(why), "while other %s (%s) ports of its role on this node run at %s Gb/s (%s)",
		         lp->dev->hca_type, lp->dev->board_id, want, role);
		return slow(r, pol, pr, lp, why);
	}
	snprintf(why, sizeof(why), " (%s: compared with its role's ports; other %s ports run at %s Gb/s)", role,
	         lp->dev->hca_type, want);
	return passed(r, node, pr, lp, why);
}

static int check_one(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol,
                     struct roce_port_result *pr)
{
	struct link_port lp = find_port(node, pr);
	if (!lp.port || !roce_reading_ok(&lp.port->state_read) || lp.port->state != PORT_ACTIVE)
		return 0;
	if (!roce_reading_ok(&lp.port->rate_read))
		return roce_finding_addf(r, "link_rate", pr->device, pr->port,
		                         pol->link_rate_action == ROCE_ACTION_FAIL ? ROCE_UNKNOWN : ROCE_WARN,
		                         "unknown", 0, NULL,
		                         "%s port %u link rate is unknown (%s: %s): the rate is not judged; "
		                         "check the mlx5_ib driver (dmesg)",
		                         pr->device, pr->port, roce_status_name(lp.port->rate_read.status),
		                         lp.port->rate_read.why);
	char why[256];
	if (pol->link_rate > 0 && lp.port->rate_mbps < (unsigned)pol->link_rate * 1000) {
		snprintf(why, sizeof(why), "below LinkRate=%d", pol->link_rate);
		return slow(r, pol, pr, &lp, why);
	}
	if (pol->link_rate != ROCE_LINK_RATE_AUTO)
		return passed(r, node, pr, &lp, "");
	if (!model_known(lp.dev))
		return passed(r, node, pr, &lp, " (adapter model unknown: not compared)");
	unsigned model_best = fastest(r, node, lp.dev, keep_model);
	if (lp.port->rate_mbps < model_best)
		return judge_role(r, node, pol, pr, &lp, model_best);
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

bool roce_check_link_host_port(const struct roce_node *node, const struct roce_device *d)
{
	/* Its own place read and no GPU behind its switch: a host port, if the
	 * node's GPU rails are other ports (a node whose places show no GPU at
	 * all, or were not read, is judged as before: every port a rail). */
	if (!roce_reading_ok(&d->gpu_near_read) || d->gpu_near[0])
		return false;
	for (size_t i = 0; i < node->n_devices; i++)
		if (roce_reading_ok(&node->devices[i].gpu_near_read) && node->devices[i].gpu_near[0])
			return true;
	return false;
}
