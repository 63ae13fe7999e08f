/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciecheck.c - the PCIe checks over the model (pcie.c fills it).
 *
 * A link trains to the lower capability of its two ends: a Gen5 NIC under
 * a Gen4 port at 16 GT/s is not degraded, the same NIC at 8 GT/s is.
 */
#include "config.h"
#include "pciecheck.h"
#include "pcie.h"

#include <stdio.h>
#include <string.h>

static unsigned lower(unsigned a, unsigned b) { return a < b ? a : b; }

void roce_pciecheck_speed(unsigned tenths, char *out, size_t len)
{
	if (tenths == 0)
		snprintf(out, len, "unknown");
	else
		snprintf(out, len, "%u.%u GT/s", tenths / 10, tenths % 10);
}

static const char link_fix[] =
	"reseat the card, check its slot and riser and the BIOS PCIe speed setting (`lspci -vv -s %s`: LnkSta against LnkCap)";

/* The PcieDegraded= action taken on a device's ports: a failing link leaves
 * them out of NCCL_IB_HCA, as any failing port finding does. */
static void mark_unhealthy(struct roce_check_result *r, const char *device)
{
	for (size_t i = 0; i < r->n_ports; i++)
		if (strcmp(r->ports[i].device, device) == 0)
			r->ports[i].healthy = false;
}

/* Which link of the path: the device's own, or one further up. */
static void link_name(const struct roce_device *d, size_t i, char *out, size_t len)
{
	const struct roce_pcie_path *p = &d->pcie;
	if (i == 0)
		snprintf(out, len, "%s (%s)", d->name, p->fn[0].bdf);
	else
		snprintf(out, len, "%s: the link %s - %s on its path", d->name, p->fn[i + 1].bdf, p->fn[i].bdf);
}

/* One link: 1 degraded or unknown (a finding added), 0 fine, -1 ENOMEM. */
static int check_link(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_device *d, size_t i)
{
	const struct roce_pcie_fn *lo = &d->pcie.fn[i], *up = &d->pcie.fn[i + 1];
	char what[160], cur[24], cap[24];
	link_name(d, i, what, sizeof(what));
	const struct roce_pcie_fn *bad = !roce_reading_ok(&lo->link_read) ? lo : !roce_reading_ok(&up->link_read) ? up : NULL;
	if (bad)
		return roce_check_addf(r, "pcie_link", d->name, 0, ROCE_UNKNOWN, false, "%s: link state unknown (%s)", what,
		                       bad->link_read.why) < 0 ? -1 : 1;
	if (lo->cur_speed == 0 || lo->cur_width == 0 || lo->max_speed == 0 || up->max_speed == 0)
		return roce_check_addf(r, "pcie_link", d->name, 0, ROCE_UNKNOWN, false,
		                       "%s: link state unknown (sysfs says the speed is unknown or the width 0: "
		                       "the link is down or in training)", what) < 0 ? -1 : 1;
	unsigned speed = lower(lo->max_speed, up->max_speed), width = lower(lo->max_width, up->max_width);
	if (lo->cur_speed >= speed && lo->cur_width >= width)
		return 0;
	enum roce_verdict v = pol->pcie_degraded == ROCE_ACTION_FAIL ? ROCE_FAIL : ROCE_WARN;
	if (v == ROCE_FAIL)
		mark_unhealthy(r, d->name);
	roce_pciecheck_speed(lo->cur_speed, cur, sizeof(cur));
	roce_pciecheck_speed(speed, cap, sizeof(cap));
	char fix[200];
	snprintf(fix, sizeof(fix), link_fix, lo->bdf);
	return roce_check_addf(r, "pcie_link", d->name, 0, v, true,
	                       "%s at %s x%u, capable of %s x%u (the lower of both ends' maxima): "
	                       "RDMA and GPUDirect traffic is limited to that rate; %s",
	                       what, cur, lo->cur_width, cap, width, fix) < 0 ? -1 : 1;
}

static int check_device_links(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_device *d)
{
	const struct roce_pcie_path *p = &d->pcie;
	if (p->read.status == ROCE_NOT_READ)
		return 0;    /* not a PCI function (rxe, siw) */
	if (!roce_reading_ok(&p->read))
		return roce_check_addf(r, "pcie_link", d->name, 0, ROCE_UNKNOWN, false, "%s (%s): PCIe path unknown (%s)",
		                       d->name, d->pci_addr, p->read.why);
	int bad = 0;
	size_t links = 0;
	for (size_t i = 0; i + 1 < p->n; i++) {
		if (!roce_pcie_link_above(p, i))
			continue;
		links++;
		int rc = check_link(r, pol, d, i);
		if (rc < 0)
			return -1;
		bad += rc;
	}
	if (bad)
		return 0;
	char cur[24];
	roce_pciecheck_speed(p->fn[0].cur_speed, cur, sizeof(cur));
	if (links == 0)
		return roce_check_addf(r, "pcie_link", d->name, 0, ROCE_PASS, false,
		                       "%s (%s) is on the host bridge: no PCIe link to check", d->name, p->fn[0].bdf);
	return roce_check_addf(r, "pcie_link", d->name, 0, ROCE_PASS, false,
	                       "%s (%s): %zu PCIe link(s) up to root port %s at full rate (its own: %s x%u)", d->name,
	                       p->fn[0].bdf, links, p->fn[p->n - 1].bdf, cur, p->fn[0].cur_width);
}

int roce_pciecheck(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	if (pol->pcie_degraded == ROCE_ACTION_IGNORE)
		return 0;
	for (size_t d = 0; d < node->n_devices; d++)
		if (check_device_links(r, pol, &node->devices[d]) < 0)
			return -1;
	return 0;
}
