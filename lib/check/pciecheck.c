/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciecheck.c - the PCIe checks over the model (pcie.c fills it).
 *
 * A link trains to the lower capability of its two ends: a Gen5 NIC under
 * a Gen4 port at 16 GT/s is not degraded, the same NIC at 8 GT/s is.
 */
#include "config.h"
#include "check/pciecheck.h"
#include "collect/pcie.h"
#include "base/pcicap.h"
#include "check/locality.h"

#include "base/printable.h"

#include <stdbool.h>
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

static const char link_fix[] = "reseat the card, check its slot and riser and the BIOS PCIe speed setting (`lspci -vv "
                               "-s %s`: LnkSta against LnkCap)";

/* Which PCIe checks the policy asks for, and whether a path this sysfs
 * does not show is said in a job's output (PcieUnknown=). */
struct policy_looks {
	bool links, acs, iommu;
	bool quiet_unknown;
};

static struct policy_looks looks_of(const struct roce_policy *pol)
{
	return (struct policy_looks){ .links = pol->pcie_degraded != ROCE_ACTION_IGNORE,
		                      .acs = pol->acs != ROCE_ACTION_IGNORE,
		                      .iommu = pol->iommu != ROCE_ACTION_IGNORE,
		                      .quiet_unknown = pol->pcie_unknown == ROCE_UNKNOWN_QUIET };
}

/* The PcieDegraded= action taken on a device's ports: a failing link leaves
 * them out of NCCL_IB_HCA, as any failing port finding does. */
static void mark_unhealthy(struct roce_check_result *r, const char *device)
{
	for (size_t i = 0; i < r->n_ports; i++)
		if (strcmp(r->ports[i].device, device) == 0)
			r->ports[i].healthy = false;
}

/* Whose PCIe path a check looks at: an RDMA device (a failing link takes
 * its ports out of NCCL_IB_HCA) or one of the job's GPUs (issue 13: a GPU
 * at x8 slows every transfer it makes, GPUDirect RDMA's included). */
struct subject {
	const char *device;  /* the finding's device: "mlx5_1", "GPU3" */
	const char *name;    /* in messages: "mlx5_1", "GPU 3" */
	const char *bdf;     /* its PCI address, for a path that could not be read */
	const char *traffic; /* what a slow link limits */
	const struct roce_pcie_path *path;
	bool hca;
	unsigned device_id; /* a GPU's PCI device id, 0 unknown */
};

static struct subject hca_subject(const struct roce_device *d)
{
	return (struct subject){ .device = d->name,
		                 .name = d->name,
		                 .bdf = d->pci_addr,
		                 .path = &d->pcie,
		                 .traffic = "RDMA and GPUDirect traffic",
		                 .hca = true };
}

/* Which link of the path: the subject's own, or one further up. */
static void link_name(const struct subject *s, size_t i, char *out, size_t len)
{
	const struct roce_pcie_path *p = s->path;
	if (i == 0)
		snprintf(out, len, "%s (%s)", s->name, p->fn[0].bdf);
	else
		snprintf(out, len, "%s: the link %s - %s on its path", s->name, p->fn[i + 1].bdf, p->fn[i].bdf);
}

/* The PCIe link-shortfall rule, for the pcie_link findings and the pair
 * marks alike: is the link above fn[i] of p known (both ends read, a
 * current speed and width) to run below the lower of both ends' maxima, in
 * speed or in width?  (An end whose maximum sysfs says is unknown, 0, holds
 * nothing back: pcie_link says such a link is unknown before it asks.) */
static bool link_below_ends_max(const struct roce_pcie_path *p, size_t i)
{
	const struct roce_pcie_fn *lo = &p->fn[i], *up = &p->fn[i + 1];
	if (!roce_reading_ok(&lo->link_read) || !roce_reading_ok(&up->link_read) || !lo->cur_speed || !lo->cur_width)
		return false;
	return lo->cur_speed < lower(lo->max_speed, up->max_speed) ||
	       lo->cur_width < lower(lo->max_width, up->max_width);
}

/* Is fn[i] of p a port of a PCIe switch?  ACS matters there: with it on,
 * peer traffic between two devices below the switch goes up to the root
 * complex instead of across the switch (NCCL's PIX/PXB paths).  A root
 * port's ACS does not: traffic through it crosses the root complex anyway
 * (NCCL's PHB), and Linux turns ACS on in every port that has it,
 * root ports included, whenever an IOMMU is on (pci_std_enable_acs), so
 * flagging root ports would warn on every such host.  The config space says the port type; without it (a short read, no
 * PCI Express capability) the top of the path is the root port. */
static bool switch_port(const struct roce_pcie_path *p, size_t i)
{
	const struct roce_pcie_fn *f = &p->fn[i];
	if (i == 0)
		return false;
	if (f->port_type_known)
		return f->port_type == ROCE_PCIE_TYPE_UPSTREAM || f->port_type == ROCE_PCIE_TYPE_DOWNSTREAM;
	return i + 1 < p->n;
}

/* One side of a pair's path: the functions of p below index top (the
 * common ancestor, or p->n when there is none). */
static unsigned side(const struct roce_pcie_path *p, size_t top, bool acs, const char **bridge)
{
	unsigned bits = 0;
	for (size_t i = 0; i + 1 < p->n && i < top; i++)
		if (roce_pcie_link_above(p, i) && link_below_ends_max(p, i))
			bits |= ROCE_LOCALITY_BLOCK_LINK;
	/* ACS only between the device and the common ancestor: a pair with
	 * none goes through the root complex anyway. */
	for (size_t i = 1; acs && i < top && i < p->n; i++) {
		const struct roce_pcie_fn *b = &p->fn[i];
		if (switch_port(p, i) && roce_reading_ok(&b->acs_read) && b->acs_present &&
		    (b->acs_ctrl & ROCE_ACS_P2P_BLOCKING)) {
			bits |= ROCE_LOCALITY_BLOCK_ACS;
			if (!*bridge)
				*bridge = b->bdf;
		}
	}
	return bits;
}

unsigned roce_pciecheck_pair(const struct roce_pcie_path *gpu, const struct roce_pcie_path *hca,
                             const struct roce_policy *pol, const char **bridge)
{
	*bridge = NULL;
	if (!roce_reading_ok(&gpu->read) || !roce_reading_ok(&hca->read))
		return 0;
	size_t tg = gpu->n, th = hca->n;
	for (size_t i = 0; i < gpu->n && tg == gpu->n; i++)
		for (size_t j = 0; j < hca->n; j++)
			if (!strcmp(gpu->fn[i].bdf, hca->fn[j].bdf)) {
				tg = i;
				th = j;
				break;
			}
	bool common = tg < gpu->n;
	bool acs = common && pol->acs != ROCE_ACTION_IGNORE;
	unsigned bits = side(gpu, tg, acs, bridge) | side(hca, th, acs, bridge);
	if (pol->pcie_degraded == ROCE_ACTION_IGNORE)
		bits &= ~(unsigned)ROCE_LOCALITY_BLOCK_LINK;
	return bits;
}

/*
 * A GPU's own link (between it and its port) as an admin judges it:
 *   - a width below both ends' maxima is a fault or a slot wired narrow
 *     (power management never drops lanes on any capture we have): a
 *     hardware finding, as for a NIC;
 *   - a speed below both ends' maxima at full width is what an idle NVIDIA
 *     GPU does in a power-saving state (P8: 2.5 GT/s, retrained within
 *     milliseconds under load; NVIDIA/open-gpu-kernel-modules#731) and
 *     sysfs cannot tell it from a fault, so it is not judged: said in a
 *     pass, never a warning, never a drain;
 *   - unless the port above has its Link Control 2 target below that
 *     (a BIOS "PCIe generation" setting, setpci) or Hardware Autonomous
 *     Speed Disable set: a configuration cap, PcieDegraded='s verdict
 *     without a drain;
 *   - a port whose maximum is below the GPU's is the platform's cap, said
 *     in the pass (check_path_links).
 * 1 a finding added, 0 the link is at both ends' maxima, -1 ENOMEM.
 */
static int judge_gpu_link(struct roce_check_result *r, const struct roce_policy *pol, const struct subject *s)
{
	const struct roce_pcie_fn *lo = &s->path->fn[0], *up = &s->path->fn[1];
	unsigned speed = lower(lo->max_speed, up->max_speed), width = lower(lo->max_width, up->max_width);
	bool narrow = lo->cur_width < width, slow = lo->cur_speed < speed;
	char what[160], cur[24], cap[24], fix[200];
	if (!narrow && !slow)
		return 0;
	link_name(s, 0, what, sizeof(what));
	roce_pciecheck_speed(lo->cur_speed, cur, sizeof(cur));
	roce_pciecheck_speed(speed, cap, sizeof(cap));
	enum roce_verdict v = pol->pcie_degraded == ROCE_ACTION_FAIL ? ROCE_FAIL : ROCE_WARN;
	if (narrow) {
		snprintf(fix, sizeof(fix), link_fix, lo->bdf);
		return roce_finding_addf(r, "pcie_link", s->device, 0, v, "narrow", ROCE_FINDING_HARDWARE, NULL,
		                         "%s at %s x%u, capable of %s x%u (the lower of both ends' maxima): it runs on "
		                         "%u of %u lanes, which a GPU's power management never does%s: %s is limited "
		                         "to that rate; %s",
		                         what, cur, lo->cur_width, cap, width, lo->cur_width, width,
		                         slow ? " (its lower speed may be its idle power state; its width is not)" : "",
		                         s->traffic, fix) < 0
		               ? -1
		               : 1;
	}
	if (up->target_known && (up->target_speed < speed || up->hasd)) {
		char target[24];
		roce_pciecheck_speed(up->target_speed, target, sizeof(target));
		if (up->target_speed < speed)
			return roce_finding_addf(
			               r, "pcie_link", s->device, 0, v, "speed capped", 0, NULL,
			               "%s at %s x%u, capable of %s x%u: the target link speed of its port %s "
			               "is %s (Link Control 2), so it cannot train faster: a configuration "
			               "cap (the BIOS PCIe speed setting, or setpci), not a fault of the card; "
			               "set the slot's PCIe speed to Auto in the BIOS (`lspci -vv -s %s`: "
			               "LnkCtl2)",
			               what, cur, lo->cur_width, cap, width, up->bdf, target, up->bdf) < 0
			               ? -1
			               : 1;
		return roce_finding_addf(r, "pcie_link", s->device, 0, v, "speed held", 0, NULL,
		                         "%s at %s x%u, capable of %s x%u: its port %s has Hardware Autonomous Speed "
		                         "Disable set (Link Control 2), so the link stays at the speed it trained "
		                         "to: a configuration cap, not a fault of the card; clear it (the BIOS, or "
		                         "`setpci -s %s CAP_EXP+0x30.w=0:0020`)",
		                         what, cur, lo->cur_width, cap, width, up->bdf, up->bdf) < 0
		               ? -1
		               : 1;
	}
	return roce_finding_pass(r, "pcie_link", s->device, 0,
	                         "%s at %s x%u, capable of %s x%u: full width at a lower speed, which is how an "
	                         "idle NVIDIA GPU saves power (it retrains under load) and which sysfs cannot tell "
	                         "from a fault: the speed is not judged, the width is (`nvidia-smi -q -d "
	                         "PERFORMANCE,PCIE` under load shows the speed it trains to)",
	                         what, cur, lo->cur_width, cap, width) < 0
	               ? -1
	               : 1;
}

/* One link's pcie_link finding: 1 degraded or unknown (a finding added), 0 fine, -1 ENOMEM. */
static int judge_pcie_link(struct roce_check_result *r, const struct roce_policy *pol, const struct subject *s,
                           size_t i)
{
	const struct roce_pcie_fn *lo = &s->path->fn[i], *up = &s->path->fn[i + 1];
	char what[160], cur[24], cap[24];
	link_name(s, i, what, sizeof(what));
	const struct roce_pcie_fn *bad = !roce_reading_ok(&lo->link_read)   ? lo
	                                 : !roce_reading_ok(&up->link_read) ? up
	                                                                    : NULL;
	if (bad)
		return roce_finding_addf(r, "pcie_link", s->device, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "%s: link state unknown (%s)", what, bad->link_read.why) < 0
		               ? -1
		               : 1;
	if (lo->cur_speed == 0 || lo->cur_width == 0 || lo->max_speed == 0 || up->max_speed == 0)
		return roce_finding_addf(r, "pcie_link", s->device, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "%s: link state unknown (sysfs says the speed is unknown or the width 0: "
		                         "the link is down or in training)",
		                         what) < 0
		               ? -1
		               : 1;
	if (!s->hca && i == 0)
		return judge_gpu_link(r, pol, s);
	if (!link_below_ends_max(s->path, i))
		return 0;
	unsigned speed = lower(lo->max_speed, up->max_speed), width = lower(lo->max_width, up->max_width);
	enum roce_verdict v = pol->pcie_degraded == ROCE_ACTION_FAIL ? ROCE_FAIL : ROCE_WARN;
	if (v == ROCE_FAIL && s->hca)
		mark_unhealthy(r, s->device);
	roce_pciecheck_speed(lo->cur_speed, cur, sizeof(cur));
	roce_pciecheck_speed(speed, cap, sizeof(cap));
	char fix[200];
	snprintf(fix, sizeof(fix), link_fix, lo->bdf);
	return roce_finding_addf(r, "pcie_link", s->device, 0, v, "degraded", ROCE_FINDING_HARDWARE, NULL,
	                         "%s at %s x%u, capable of %s x%u (the lower of both ends' maxima): "
	                         "%s is limited to that rate; %s",
	                         what, cur, lo->cur_width, cap, width, s->traffic, fix) < 0
	               ? -1
	               : 1;
}

/* A device whose port cannot do what the device can: the platform's cap,
 * said in its pass ("" when none). */
static void platform_cap(const struct subject *s, char *out, size_t len)
{
	const struct roce_pcie_path *p = s->path;
	out[0] = '\0';
	if (p->n < 2 || !roce_pcie_link_above(p, 0))
		return;
	const struct roce_pcie_fn *lo = &p->fn[0], *up = &p->fn[1];
	if (up->max_speed >= lo->max_speed && up->max_width >= lo->max_width)
		return;
	char gpu[24], port[24];
	roce_pciecheck_speed(lo->max_speed, gpu, sizeof(gpu)); /* the device's, a GPU's or not */
	roce_pciecheck_speed(up->max_speed, port, sizeof(port));
	snprintf(out, len, "; its port %s can do %s x%u, the %s %s x%u: a cap of the platform, not a fault", up->bdf,
	         port, up->max_width, s->hca ? "device" : "GPU", gpu, lo->max_width);
}

static int check_path_links(struct roce_check_result *r, const struct roce_policy *pol, const struct subject *s)
{
	const struct roce_pcie_path *p = s->path;
	int bad = 0;
	size_t links = 0;
	for (size_t i = 0; i + 1 < p->n; i++) {
		if (!roce_pcie_link_above(p, i))
			continue;
		links++;
		int rc = judge_pcie_link(r, pol, s, i);
		if (rc < 0)
			return -1;
		bad += rc;
	}
	if (bad)
		return 0;
	char cur[24], cap[256]; /* fits platform_cap's longest: no cut */
	roce_pciecheck_speed(p->fn[0].cur_speed, cur, sizeof(cur));
	platform_cap(s, cap, sizeof(cap));
	if (links == 0)
		return roce_finding_pass(r, "pcie_link", s->device, 0,
		                         "%s (%s) is on the host bridge: no PCIe link to check", s->name, p->fn[0].bdf);
	return roce_finding_pass(r, "pcie_link", s->device, 0,
	                         "%s (%s): %zu PCIe link(s) up to root port %s at full rate (its own: %s x%u)%s",
	                         s->name, p->fn[0].bdf, links, p->fn[p->n - 1].bdf, cur, p->fn[0].cur_width, cap);
}

/* A path that cannot be read (no bus/pci/devices in a container's sysfs, a
 * topology's GPU this host does not show): said once per device as an
 * unknown set aside (never a pass, never a drain, the exit status as the
 * other findings make it); its links, ACS and IOMMU group are not looked
 * at.  1 said, 0 the path is read or there is none (not a PCI function:
 * rxe, siw), -1 ENOMEM. */
static int path_unknown(struct roce_check_result *r, const struct policy_looks *looks, const struct subject *s)
{
	const struct roce_pcie_path *p = s->path;
	if (p->read.status == ROCE_NOT_READ || roce_reading_ok(&p->read))
		return 0;
	if (!looks->links && !looks->acs && !looks->iommu)
		return 1;
	return roce_finding_unknown_aside(r, "pcie_link", s->device, looks->quiet_unknown ? ROCE_FINDING_QUIET : 0,
	                                  "%s (%s): PCIe path unknown (%s): its PCIe links%s are not checked "
	                                  "(a container's or partial sysfs shows no bus/pci/devices)",
	                                  s->name, s->bdf, p->read.why,
	                                  s->hca ? ", ACS and IOMMU group" : " and IOMMU group") < 0
	               ? -1
	               : 1;
}

/* One bridge: 1 ACS redirect or unknown (a finding added), 0 fine, -1 ENOMEM. */
static int check_bridge_acs(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_device *d,
                            const struct roce_pcie_fn *b)
{
	if (!roce_reading_ok(&b->acs_read))
		return roce_finding_addf(r, "acs", d->name, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "%s: ACS on switch port %s unknown (%s)", d->name, b->bdf, b->acs_read.why) < 0
		               ? -1
		               : 1;
	if (!b->acs_present || !(b->acs_ctrl & ROCE_ACS_P2P_BLOCKING))
		return 0;
	char bits[160];
	roce_pcicap_acs_names(b->acs_ctrl, ROCE_ACS_P2P_BLOCKING, bits, sizeof(bits));
	enum roce_verdict v = pol->acs == ROCE_ACTION_FAIL ? ROCE_FAIL : ROCE_WARN;
	return roce_finding_addf(r, "acs", d->name, 0, v, "redirect", ROCE_FINDING_HARDWARE, NULL,
	                         "%s: ACS on switch port %s has %s set (control 0x%04x): peer traffic between a GPU "
	                         "and "
	                         "%s is sent up to the root complex, so GPUDirect RDMA cannot go peer to peer; "
	                         "disable it (`setpci -s %s ECAP_ACS+6.w=0`, or ACS/IOMMU in the BIOS)",
	                         d->name, b->bdf, bits, b->acs_ctrl, d->name, b->bdf) < 0
	               ? -1
	               : 1;
}

/* Every switch port above the device (switch_port(): not its root port). */
static int check_device_acs(struct roce_check_result *r, const struct roce_policy *pol, const struct roce_device *d)
{
	const struct roce_pcie_path *p = &d->pcie;
	if (!roce_reading_ok(&p->read))
		return 0; /* said by pcie_link, or not a PCI function */
	int bad = 0;
	size_t ports = 0;
	for (size_t i = 1; i < p->n; i++) {
		if (!switch_port(p, i))
			continue;
		ports++;
		int rc = check_bridge_acs(r, pol, d, &p->fn[i]);
		if (rc < 0)
			return -1;
		bad += rc;
	}
	if (bad || p->n < 2)
		return 0;
	if (ports == 0)
		return roce_finding_pass(r, "acs", d->name, 0,
		                         "%s: no PCIe switch between it and root port %s (ACS on a root port does not "
		                         "matter: traffic through it crosses the root complex anyway)",
		                         d->name, p->fn[p->n - 1].bdf);
	return roce_finding_pass(r, "acs", d->name, 0,
	                         "%s: no ACS redirect on the %zu PCIe switch port(s) between it and root port %s",
	                         d->name, ports, p->fn[p->n - 1].bdf);
}

/* The IOMMU between the device and GPU memory: with DMA translation
 * (DMA, DMA-FQ) every peer access is remapped by the IOMMU, which costs
 * bandwidth and, with ACS on (Linux turns it on with the IOMMU), sends
 * GPU-NIC traffic up to the root complex; identity (passthrough) or no
 * IOMMU is what GPUDirect RDMA wants. */
static int check_path_iommu(struct roce_check_result *r, const struct roce_policy *pol, const char *root,
                            const struct subject *s)
{
	const struct roce_pcie_path *p = s->path;
	if (!roce_reading_ok(&p->read))
		return 0; /* said by pcie_link, or not a PCI function */
	const char *bdf = p->fn[0].bdf, *t = p->iommu_type;
	if (!roce_reading_ok(&p->iommu_read))
		return roce_finding_addf(r, "iommu", s->device, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "%s (%s): IOMMU group type unknown (%s)", s->name, bdf, p->iommu_read.why);
	if (!p->iommu_group[0])
		return roce_finding_pass(r, "iommu", s->device, 0,
		                         "%s (%s): no IOMMU group (no IOMMU translates its DMA)", s->name, bdf);
	if (!strcmp(t, "identity") || !strcmp(t, "unmanaged"))
		return roce_finding_pass(r, "iommu", s->device, 0, "%s (%s): IOMMU group %s is %s%s", s->name, bdf,
		                         p->iommu_group, t,
		                         t[0] == 'i' ? " (passthrough)" : " (a user-space driver's)");
	if (strcmp(t, "DMA") && strcmp(t, "DMA-FQ") && strcmp(t, "blocked")) {
		char shown[40];
		return roce_finding_addf(r, "iommu", s->device, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "%s (%s): IOMMU group %s has type \"%s\", not one the kernel writes "
		                         "(%s/kernel/iommu_groups/%s/type)",
		                         s->name, bdf, p->iommu_group, roce_printable(t, shown, sizeof(shown)), root,
		                         p->iommu_group);
	}
	enum roce_verdict v = pol->iommu == ROCE_ACTION_FAIL ? ROCE_FAIL : ROCE_WARN;
	return roce_finding_addf(r, "iommu", s->device, 0, v, "translated", 0, NULL,
	                         "%s (%s): IOMMU group %s has type %s: %s; boot with iommu=pt (Intel: "
	                         "`intel_iommu=on iommu=pt`, AMD: `iommu=pt`) so that the IOMMU passes device DMA "
	                         "through, or disable the IOMMU in the BIOS",
	                         s->name, bdf, p->iommu_group, t,
	                         t[0] == 'b' ? "the IOMMU blocks the device's DMA"
	                                     : "the IOMMU translates every DMA, GPUDirect RDMA's peer accesses "
	                                       "included (lower bandwidth, and NCCL may hang or fall back)");
}

/* What roce-check --verbs's DMA-BUF probe said (verbs.c): the device that
 * took it, else the first that refused it; NULL when none was probed. */
static const struct roce_device *dmabuf_probe(const struct roce_node *node)
{
	const struct roce_device *refused = NULL;
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		if (!roce_reading_ok(&dev->dmabuf_read))
			continue;
		if (dev->dmabuf_verbs)
			return dev;
		if (!refused)
			refused = dev;
	}
	return refused;
}

/* Which path GPUDirect RDMA takes: a peer-memory client, else DMA-BUF (the
 * kernel and driver allow it, and where --verbs probed, an HCA took it);
 * neither is a warning (RequireGdr=yes: a failure), quiet (GdrUnknown=) on
 * a node without the NVIDIA driver and without a peer-memory module: a
 * node without GPUs, where GPUDirect has nothing to serve. */
static int check_gdr(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	const struct roce_gdr *g = &node->gdr;
	const struct roce_device *probe = dmabuf_probe(node);
	bool dmabuf = g->dmabuf && (!probe || probe->dmabuf_verbs);
	char why[ROCE_WHY_MAX + 160];
	if (g->dmabuf && !dmabuf)
		snprintf(why, sizeof(why),
		         "ibv_reg_dmabuf_mr on %s fails with %s: the kernel or the RDMA provider "
		         "cannot register DMA-BUF memory",
		         probe->name, strerror(probe->dmabuf_read.err));
	else
		snprintf(why, sizeof(why), "%s", g->dmabuf_why);
	if (!roce_reading_ok(&g->read))
		return roce_finding_addf(r, "gdr", NULL, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
		                         "GPUDirect RDMA readiness unknown (%s)", g->read.why);
	if (g->peer_memory)
		return roce_finding_pass(r, "gdr", NULL, 0, "GPUDirect RDMA through a peer-memory client (%s/%s)%s",
		                         node->sysfs_root, g->peer_file, dmabuf ? "; DMA-BUF is possible too" : "");
	if (dmabuf)
		return roce_finding_pass(r, "gdr", NULL, 0,
		                         "GPUDirect RDMA through DMA-BUF (Linux %s, NVIDIA open kernel module): "
		                         "no peer-memory module needed%s%s%s",
		                         g->kernel, probe ? " (ibv_reg_dmabuf_mr probe: " : "",
		                         probe ? probe->name : "", probe ? " takes it)" : "");
	enum roce_verdict v = pol->require_gdr ? ROCE_FAIL : ROCE_WARN;
	if (g->loaded)
		return roce_finding_addf(r, "gdr", NULL, 0, v, "no peermem client", 0, NULL,
		                         "%s is loaded but no peer-memory client is registered (no "
		                         "kernel/mm/memory_peers/nv_mem/version): reload it (`modprobe -r %s; modprobe "
		                         "%s`, "
		                         "dmesg); DMA-BUF is not possible either (%s)",
		                         g->module, g->module, g->module, why);
	bool quiet = g->no_driver && pol->gdr_unknown == ROCE_UNKNOWN_QUIET;
	return roce_finding_addf(r, "gdr", NULL, 0, v, g->no_driver ? "none (no NVIDIA driver)" : "none",
	                         quiet ? ROCE_FINDING_QUIET : 0, NULL,
	                         "no GPUDirect RDMA path: no peer-memory client (`modprobe nvidia_peermem`) and no "
	                         "DMA-BUF "
	                         "(%s; it needs Linux >= 5.12 and the NVIDIA open kernel modules); "
	                         "NCCL stages GPU data through host memory",
	                         why);
}

int roce_pciecheck(struct roce_check_result *r, const struct roce_node *node, const struct roce_policy *pol)
{
	struct policy_looks looks = looks_of(pol);
	if (check_gdr(r, node, pol) < 0)
		return -1;
	for (size_t d = 0; d < node->n_devices; d++) {
		struct subject s = hca_subject(&node->devices[d]);
		int unknown = path_unknown(r, &looks, &s);
		if (unknown < 0)
			return -1;
		if (unknown)
			continue;
		if (looks.links && s.path->read.status != ROCE_NOT_READ && check_path_links(r, pol, &s) < 0)
			return -1;
		if (looks.acs && check_device_acs(r, pol, &node->devices[d]) < 0)
			return -1;
		if (looks.iommu && check_path_iommu(r, pol, node->sysfs_root, &s) < 0)
			return -1;
	}
	return 0;
}

/* NVIDIA GPUs attached over NVLink-C2C: their PCIe function is a narrow side
 * link (x1 on GH200), not the GPU's data path.  Known by device id (GH200
 * 10de:2342, GB200 10de:2941, GB10 10de:2e12), or by their place: alone on
 * a PCI domain of their own, right below an NVIDIA root port (Grace's),
 * as the GB200 tray shows them.  The part's name, or NULL. */
static const char *c2c_part(unsigned device_id, const struct roce_pcie_path *p)
{
	switch (device_id) {
	case 0x2342: return "GH200, 10de:2342";
	case 0x2941: return "GB200, 10de:2941";
	case 0x2e12: return "GB10, 10de:2e12";
	}
	if (roce_reading_ok(&p->read) && p->n == 2 && p->fn[1].vendor_known &&
	    p->fn[1].vendor == ROCE_PCIE_VENDOR_NVIDIA && p->host_fns == 1)
		return "alone on its PCI domain below an NVIDIA root port";
	return NULL;
}

int roce_pciecheck_gpu(struct roce_check_result *r, const struct roce_policy *pol, const char *root, unsigned index,
                       const char *bdf, unsigned device_id, const struct roce_pcie_path *path)
{
	struct policy_looks looks = looks_of(pol);
	char device[16], name[16];
	snprintf(device, sizeof(device), "GPU%u", index);
	snprintf(name, sizeof(name), "GPU %u", index);
	struct subject s = { .device = device,
		             .name = name,
		             .bdf = bdf,
		             .path = path,
		             .hca = false,
		             .device_id = device_id,
		             .traffic = "every transfer of the GPU (GPUDirect RDMA, peer and host copies)" };
	looks.acs = false; /* a GPU's switch ports are judged on its HCAs' paths */
	int unknown = path_unknown(r, &looks, &s);
	if (unknown)
		return unknown < 0 ? -1 : 0;
	const char *part = c2c_part(device_id, path);
	if (looks.links && part && path->read.status != ROCE_NOT_READ &&
	    roce_finding_pass(r, "pcie_link", device, 0,
	                      "%s (%s) is attached over NVLink-C2C (%s): its PCIe function is not its data path, so "
	                      "its PCIe link gets no verdict",
	                      name, bdf, part) < 0)
		return -1;
	if (looks.links && !part && path->read.status != ROCE_NOT_READ && check_path_links(r, pol, &s) < 0)
		return -1;
	if (looks.iommu && check_path_iommu(r, pol, root, &s) < 0)
		return -1;
	return 0;
}
