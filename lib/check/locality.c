/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * locality.c - GPUs, HCAs and NCCL's path type between them, from a loaded
 * hwloc topology; the matrix and its JSON form.
 *
 * The only code besides topo.c that speaks hwloc, and it only reads the
 * tree.  The rules are NCCL's (src/graph/xml.cc, paths.cc, topo.cc), as
 * ../shared/notes/topology.md lays them out.
 */
#include "config.h"
#include "check/locality.h"
#include "base/pciaddr.h"
#include "base/printable.h"
#include "collect/pcie.h"
#include "collect/topo.h"

#include <hwloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_MAX 32 /* PCI bridges between a device and its CPU */
#define SHOWN_MAX 44 /* hostile text in messages: 40 bytes and "..." */
#define PORT_ACTIVE 4

const char *roce_locality_path_name(enum roce_sysfs_path p)
{
	switch (p) {
	case ROCE_PATH_LOC: return "LOC";
	case ROCE_PATH_PIX: return "PIX";
	case ROCE_PATH_PXB: return "PXB";
	case ROCE_PATH_PHB: return "PHB";
	case ROCE_PATH_SYS: return "SYS";
	case ROCE_PATH_UNKNOWN: break;
	}
	return "?";
}

/* ------------------------------------------------------------------ NCCL's PCI switches */

/*
 * Where a PCI device hangs in NCCL's graph.  NCCL (xml.cc, "rewind two
 * '/'") attaches a device to the PCI function two sysfs levels up: with
 * b1, b2, b3... the PCI-to-PCI bridges above it (b1 its parent), its
 * switches are b2, b4, ...; a device with fewer bridges hangs off the CPU.
 */
struct place {
	hwloc_obj_t obj;
	hwloc_obj_t sw[CHAIN_MAX]; /* NCCL switch nodes, nearest first, after BCM flattening */
	int n_sw;
	hwloc_obj_t cpu; /* first non-I/O ancestor */
};

/* NCCL's 64-bit PCI id of a switch: vendor, device, subsystem vendor, subsystem device. */
static uint64_t bcm_id(hwloc_obj_t bridge)
{
	const struct hwloc_pcidev_attr_s *p = &bridge->attr->bridge.upstream.pci;
	return (uint64_t)p->vendor_id << 48 | (uint64_t)p->device_id << 32 | (uint64_t)p->subvendor_id << 16 |
	       p->subdevice_id;
}

/* NCCL's getBcmGen(): Broadcom Gen4/Gen5 switches that present two levels. */
static int bcm_gen(uint64_t id, int level)
{
	if ((id & 0xfffffffffffff000ULL) == 0x1000c0101000a000ULL)
		return 4;
	if ((id & 0xfffffffffffff000ULL) == (0x1000c03010000000ULL | (uint64_t)level * 0x1000))
		return 5;
	return 0;
}

/* NCCL's switches above dev (b2, b4, ...), nearest first; *cpu = its first
 * non-I/O ancestor.  Parent pointers are walked here because
 * hwloc_get_common_ancestor_obj() compares depths, which are negative for
 * I/O objects, and crashes (topology.md). */
static int raw_switches(hwloc_obj_t dev, hwloc_obj_t raw[CHAIN_MAX], hwloc_obj_t *cpu)
{
	hwloc_obj_t b[2 * CHAIN_MAX], p;
	int nb = 0, n = 0;
	for (p = dev->parent; p && p->type == HWLOC_OBJ_BRIDGE; p = p->parent)
		if (p->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI && nb < 2 * CHAIN_MAX)
			b[nb++] = p;
	while (p && !p->cpuset)
		p = p->parent;
	*cpu = p;
	for (int i = 1; i < nb; i += 2)
		raw[n++] = b[i];
	return n;
}

/*
 * ncclTopoFlattenBcmSwitches(), top-down as NCCL visits its nodes: a BCM
 * switch absorbs the switches directly below it of the same generation;
 * once processed it absorbs nothing more, so a switch that was absorbed
 * does not pass its own sub-switches up.
 */
static void place_of(hwloc_obj_t dev, struct place *pl)
{
	hwloc_obj_t raw[CHAIN_MAX], eff[CHAIN_MAX];
	bool merged[CHAIN_MAX] = { false };
	memset(pl, 0, sizeof(*pl));
	pl->obj = dev;
	int n = raw_switches(dev, raw, &pl->cpu);
	for (int k = n - 1; k >= 0; k--) {
		eff[k] = raw[k];
		if (k == n - 1 || merged[k + 1])
			continue;
		int gen = bcm_gen(bcm_id(raw[k + 1]), 0);
		if (gen && bcm_gen(bcm_id(raw[k]), 1) == gen) {
			merged[k] = true;
			eff[k] = eff[k + 1];
		}
	}
	for (int k = 0; k < n; k++)
		if (pl->n_sw == 0 || pl->sw[pl->n_sw - 1] != eff[k])
			pl->sw[pl->n_sw++] = eff[k];
}

/* The first rule that holds: same device, same first switch, any shared
 * switch, same CPU or NUMA node, else across NUMA nodes. */
static enum roce_sysfs_path path_between(const struct place *a, const struct place *b)
{
	if (a->obj == b->obj)
		return ROCE_PATH_LOC;
	if (a->n_sw && b->n_sw && a->sw[0] == b->sw[0])
		return ROCE_PATH_PIX;
	for (int i = 0; i < a->n_sw; i++)
		for (int j = 0; j < b->n_sw; j++)
			if (a->sw[i] == b->sw[j])
				return ROCE_PATH_PXB;
	if (a->cpu == b->cpu)
		return ROCE_PATH_PHB;
	if (a->cpu && b->cpu && a->cpu->nodeset && b->cpu->nodeset &&
	    hwloc_bitmap_isequal(a->cpu->nodeset, b->cpu->nodeset))
		return ROCE_PATH_PHB;
	return ROCE_PATH_SYS;
}

/* hwloc's list form of a set ("0-23,48-71"), cut with "..." when it does not fit. */
static void set_list(hwloc_const_bitmap_t set, char *out)
{
	out[0] = '\0';
	if (set && hwloc_bitmap_list_snprintf(out, ROCE_LOCALITY_AFFINITY_MAX, set) >= ROCE_LOCALITY_AFFINITY_MAX)
		memcpy(out + ROCE_LOCALITY_AFFINITY_MAX - 4, "...", 4);
}

static void affinity(hwloc_obj_t cpu, char *cpus, char *numa)
{
	set_list(cpu ? cpu->cpuset : NULL, cpus);
	set_list(cpu ? cpu->nodeset : NULL, numa);
}

/* ------------------------------------------------------------------ locality */

/* NVIDIA and PCI base class 0x03 (display: VGA 0x0300, 3D 0x0302, other
 * 0x0380...).  hwloc's class_id is base class << 8 | subclass (no prog-if).
 * NVIDIA's other functions (HD audio 0x0403, NVSwitch 0x0680) are not GPUs. */
static bool is_nvidia_gpu(hwloc_obj_t o)
{
	return o->attr->pcidev.vendor_id == 0x10de && (o->attr->pcidev.class_id >> 8) == 0x03;
}

static int cmp_busid(const void *x, const void *y)
{
	const struct hwloc_pcidev_attr_s *a = &(*(hwloc_obj_t const *)x)->attr->pcidev;
	const struct hwloc_pcidev_attr_s *b = &(*(hwloc_obj_t const *)y)->attr->pcidev;
	unsigned long ka = (unsigned long)a->domain << 20 | (unsigned long)a->bus << 8 | a->dev << 3 | a->func;
	unsigned long kb = (unsigned long)b->domain << 20 | (unsigned long)b->bus << 8 | b->dev << 3 | b->func;
	return ka < kb ? -1 : ka > kb;
}

/* The PCI address of an hwloc PCI object, in the canonical form. */
static void busid_of(hwloc_obj_t o, char *out, size_t len)
{
	struct roce_pciaddr a = { o->attr->pcidev.domain, o->attr->pcidev.bus, o->attr->pcidev.dev,
		                  o->attr->pcidev.func };
	roce_pciaddr_format(&a, out, len);
}

/* Every NVIDIA GPU, in PCI bus id order: Slurm's index order (topology.md). */
static size_t find_gpus(hwloc_topology_t h, hwloc_obj_t gpus[ROCE_LOCALITY_GPU_MAX], bool *truncated)
{
	hwloc_obj_t o = NULL;
	size_t n = 0;
	while ((o = hwloc_get_next_pcidev(h, o)))
		if (is_nvidia_gpu(o)) {
			if (n == ROCE_LOCALITY_GPU_MAX) {
				*truncated = true;
				break;
			}
			gpus[n++] = o;
		}
	qsort(gpus, n, sizeof(gpus[0]), cmp_busid);
	return n;
}

static void describe_gpu(hwloc_obj_t o, struct roce_locality_gpu *g, struct place *pl)
{
	busid_of(o, g->pci_addr, sizeof(g->pci_addr));
	g->device_id = o->attr->pcidev.device_id;
	place_of(o, pl);
	affinity(pl->cpu, g->cpus, g->numa);
}

/* The HCA's PCI device, or NULL with hca->found saying why (its address is
 * the model's, read from sysfs: shown escaped when it is not an address). */
static hwloc_obj_t hca_object(hwloc_topology_t h, const char *pci_addr, struct roce_locality_hca *hca)
{
	struct roce_pciaddr b;
	char s[SHOWN_MAX];
	if (!pci_addr || roce_pciaddr_parse(pci_addr, &b)) {
		roce_printable(pci_addr, s, sizeof(s));
		roce_reading_set(&hca->found, ROCE_MALFORMED, 0, "%s: PCI address \"%s\" is not DDDD:BB:DD.F",
		                 hca->name, s);
		return NULL;
	}
	/* hwloc's PCI domains are 16 bits */
	hwloc_obj_t o = b.domain > 0xffff ? NULL : hwloc_get_pcidev_by_busid(h, b.domain, b.bus, b.dev, b.func);
	if (!o)
		roce_reading_set(&hca->found, ROCE_MISSING, 0, "%s: PCI device %s is not in the topology", hca->name,
		                 hca->pci_addr);
	else
		roce_reading_set(&hca->found, ROCE_OK, 0, NULL);
	return o;
}

static void describe_hca(hwloc_topology_t h, const struct roce_locality_hca_in *in, struct roce_locality_hca *hca,
                         struct place *pl)
{
	snprintf(hca->name, sizeof(hca->name), "%s", in->name ? in->name : "");
	snprintf(hca->pci_addr, sizeof(hca->pci_addr), "%s", in->pci_addr ? in->pci_addr : "");
	hca->rate_mbps = in->rate_mbps;
	hca->pcie_mbps = in->pcie_mbps;
	hwloc_obj_t o = hca_object(h, in->pci_addr, hca);
	if (o) {
		place_of(o, pl);
		affinity(pl->cpu, hca->cpus, hca->numa);
		/* hwloc's link speed (GB/s, from the link status) when sysfs gave none */
		float gbs = o->attr->pcidev.linkspeed;
		if (!hca->pcie_mbps && gbs > 0 && gbs < 4096) {
			hca->pcie_mbps = (unsigned)(gbs * 8000.0f + 0.5f);
			hca->pcie_from_topology = true;
		}
	}
}

unsigned roce_locality_hca_bw(const struct roce_locality_hca *h)
{
	if (!h->rate_mbps)
		return 0;
	return h->pcie_mbps && h->pcie_mbps < h->rate_mbps ? h->pcie_mbps : h->rate_mbps;
}

/* Every pair's path type; a pair with an HCA that was not found is UNKNOWN. */
static void fill_paths(struct roce_locality *loc, const struct place *gp, const struct place *hp)
{
	for (size_t i = 0; i < loc->n_gpus; i++) {
		for (size_t j = 0; j < loc->n_gpus; j++)
			loc->gpu_gpu[i][j] = path_between(&gp[i], &gp[j]);
		for (size_t j = 0; j < loc->n_hcas; j++)
			loc->gpu_hca[i][j] =
			        roce_reading_ok(&loc->hcas[j].found) ? path_between(&gp[i], &hp[j]) : ROCE_PATH_UNKNOWN;
	}
	for (size_t i = 0; i < loc->n_hcas; i++)
		for (size_t j = 0; j < loc->n_hcas; j++)
			loc->hca_hca[i][j] =
			        roce_reading_ok(&loc->hcas[i].found) && roce_reading_ok(&loc->hcas[j].found)
			                ? path_between(&hp[i], &hp[j])
			                : ROCE_PATH_UNKNOWN;
}

int roce_locality_build(const struct roce_topo *t, const struct roce_locality_hca_in *hcas, size_t n,
                        struct roce_locality *loc, struct roce_error *err)
{
	hwloc_topology_t h = roce_topo_hwloc(t);
	hwloc_obj_t gpus[ROCE_LOCALITY_GPU_MAX];
	memset(loc, 0, sizeof(*loc));
	if (n > ROCE_LOCALITY_HCA_MAX) {
		roce_error_set(err, "%zu RDMA devices: at most %d are supported", n, ROCE_LOCALITY_HCA_MAX);
		return -1;
	}
	/* where each device hangs: only needed while the matrices are filled */
	struct place *gp = calloc(ROCE_LOCALITY_GPU_MAX, sizeof(*gp));
	struct place *hp = calloc(ROCE_LOCALITY_HCA_MAX, sizeof(*hp));
	if (!gp || !hp) {
		free(gp);
		free(hp);
		roce_error_set(err, "out of memory");
		return -1;
	}
	snprintf(loc->origin, sizeof(loc->origin), "%s", roce_topo_origin_name(roce_topo_origin(t)));
	loc->n_gpus = find_gpus(h, gpus, &loc->gpus_truncated);
	for (size_t i = 0; i < loc->n_gpus; i++)
		describe_gpu(gpus[i], &loc->gpus[i], &gp[i]);
	loc->n_hcas = n;
	for (size_t i = 0; i < n; i++)
		describe_hca(h, &hcas[i], &loc->hcas[i], &hp[i]);
	fill_paths(loc, gp, hp);
	free(gp);
	free(hp);
	return 0;
}

int roce_locality_build_node(const struct roce_topo *t, const struct roce_node *node, struct roce_locality *loc,
                             struct roce_error *err)
{
	struct roce_locality_hca_in in[ROCE_LOCALITY_HCA_MAX];
	size_t n = 0;
	for (size_t i = 0; i < node->n_devices; i++) {
		const struct roce_device *d = &node->devices[i];
		if (!roce_reading_ok(&d->pci_read))
			continue;
		if (n == ROCE_LOCALITY_HCA_MAX) {
			roce_error_set(err, "more than %d RDMA devices with a PCI address", ROCE_LOCALITY_HCA_MAX);
			return -1;
		}
		in[n].name = d->name;
		in[n].pci_addr = d->pci_addr;
		in[n].rate_mbps = 0;
		for (size_t p = 0; p < d->n_ports && !in[n].rate_mbps; p++)
			if (roce_reading_ok(&d->ports[p].state_read) && d->ports[p].state == PORT_ACTIVE &&
			    roce_reading_ok(&d->ports[p].rate_read))
				in[n].rate_mbps = d->ports[p].rate_mbps;
		in[n].pcie_mbps = roce_pcie_link_mbps(&d->pcie);
		n++;
	}
	return roce_locality_build(t, in, n, loc, err);
}

const struct roce_locality_hca *roce_locality_find_hca(const struct roce_locality *loc, const char *name, size_t *index)
{
	for (size_t i = 0; i < loc->n_hcas; i++)
		if (!strcmp(loc->hcas[i].name, name)) {
			if (index)
				*index = i;
			return &loc->hcas[i];
		}
	return NULL;
}

/* ------------------------------------------------------------------ output */

static const char *cell(unsigned char p)
{
	return p == ROCE_PATH_LOC ? " X " : roce_locality_path_name((enum roce_sysfs_path)p);
}

/* A GPU-HCA cell with its mark: "PIX!" ACS, "PIX~" a degraded link. */
static void print_pair(const struct roce_locality *loc, size_t g, size_t h, FILE *out)
{
	unsigned b = loc->gpu_hca_block[g][h];
	fprintf(out, "\t%s%s%s", cell(loc->gpu_hca[g][h]), b & ROCE_LOCALITY_BLOCK_ACS ? "!" : "",
	        b & ROCE_LOCALITY_BLOCK_LINK ? "~" : "");
}

void roce_locality_block(struct roce_locality *loc, size_t gpu, size_t hca, unsigned bits, const char *bridge)
{
	loc->gpu_hca_block[gpu][hca] |= (unsigned char)bits;
	if (!bridge || loc->gpu_hca_bridge[gpu][hca])
		return;
	size_t i = 0;
	while (i < loc->n_bridges && strcmp(loc->bridges[i], bridge) != 0)
		i++;
	if (i == ROCE_LOCALITY_BRIDGE_MAX)
		return;
	if (i == loc->n_bridges)
		snprintf(loc->bridges[loc->n_bridges++], ROCE_PCI_MAX, "%s", bridge);
	loc->gpu_hca_bridge[gpu][hca] = (unsigned char)(i + 1);
}

const char *roce_locality_bridge(const struct roce_locality *loc, size_t gpu, size_t hca)
{
	unsigned i = loc->gpu_hca_bridge[gpu][hca];
	return i && i <= loc->n_bridges ? loc->bridges[i - 1] : NULL;
}

static void print_cells(const unsigned char *row, size_t n, FILE *out)
{
	for (size_t j = 0; j < n; j++)
		fprintf(out, "\t%s", cell(row[j]));
}

static void print_legend(const struct roce_locality *loc, FILE *out)
{
	fprintf(out, "\nLegend:\n\n"
	             "  X    = Self\n"
	             "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., "
	             "QPI/UPI)\n"
	             "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU);\n"
	             "         nvidia-smi's NODE (another host bridge of the same NUMA node) is PHB here, as in NCCL\n"
	             "  PXB  = Connection traversing multiple PCIe switches (without traversing the PCIe Host Bridge)\n"
	             "  PIX  = Connection traversing a single PCIe switch\n");
	unsigned marks = 0;
	for (size_t g = 0; g < loc->n_gpus; g++)
		for (size_t h = 0; h < loc->n_hcas; h++)
			marks |= loc->gpu_hca_block[g][h];
	if (marks & ROCE_LOCALITY_BLOCK_ACS)
		fprintf(out, "  !    = (after a GPU-NIC path) ACS redirect on a bridge of the path: no GPUDirect RDMA "
		             "peer to peer\n");
	if (marks & ROCE_LOCALITY_BLOCK_LINK)
		fprintf(out, "  ~    = (after a GPU-NIC path) a PCIe link of the path runs below what both its ends "
		             "can do\n");
	bool unknown = false;
	for (size_t i = 0; i < loc->n_hcas; i++)
		if (!roce_reading_ok(&loc->hcas[i].found)) {
			if (!unknown)
				fprintf(out, "  ?    = not in the topology:\n");
			unknown = true;
			fprintf(out, "         %s\n", loc->hcas[i].found.why);
		}
	fprintf(out, "\nPaths are PCIe only (NVLink is not shown), with NCCL's switch rules.\n");
}

void roce_locality_print(const struct roce_locality *loc, FILE *out)
{
	for (size_t j = 0; j < loc->n_gpus; j++)
		fprintf(out, "\tGPU%zu", j);
	for (size_t j = 0; j < loc->n_hcas; j++)
		fprintf(out, "\t%s", loc->hcas[j].name);
	fprintf(out, "\tCPU Affinity\tNUMA Affinity\n");
	for (size_t i = 0; i < loc->n_gpus; i++) {
		fprintf(out, "GPU%zu", i);
		print_cells(loc->gpu_gpu[i], loc->n_gpus, out);
		for (size_t j = 0; j < loc->n_hcas; j++)
			print_pair(loc, i, j, out);
		fprintf(out, "\t%s\t%s\n", loc->gpus[i].cpus[0] ? loc->gpus[i].cpus : "N/A",
		        loc->gpus[i].numa[0] ? loc->gpus[i].numa : "N/A");
	}
	for (size_t i = 0; i < loc->n_hcas; i++) {
		fprintf(out, "%s", loc->hcas[i].name);
		for (size_t j = 0; j < loc->n_gpus; j++) /* a column of gpu_hca */
			print_pair(loc, j, i, out);
		print_cells(loc->hca_hca[i], loc->n_hcas, out);
		fprintf(out, "\n");
	}
	print_legend(loc, out);
}

static json_object *path_row(const unsigned char *row, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t j = 0; j < n; j++)
		json_object_array_add(a, json_object_new_string(roce_locality_path_name((enum roce_sysfs_path)row[j])));
	return a;
}

/* ["acs", "link"]: what blocks each pair of a GPU's row. */
static json_object *blocked_row(const unsigned char *row, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t j = 0; j < n; j++) {
		json_object *e = json_object_new_array();
		if (row[j] & ROCE_LOCALITY_BLOCK_ACS)
			json_object_array_add(e, json_object_new_string("acs"));
		if (row[j] & ROCE_LOCALITY_BLOCK_LINK)
			json_object_array_add(e, json_object_new_string("link"));
		json_object_array_add(a, e);
	}
	return a;
}

static json_object *gpu_json(const struct roce_locality_gpu *gpu, size_t index)
{
	json_object *g = json_object_new_object();
	json_object_object_add(g, "index", json_object_new_int((int)index));
	json_object_object_add(g, "pci", json_object_new_string(gpu->pci_addr));
	json_object_object_add(g, "cpus", json_object_new_string(gpu->cpus));
	json_object_object_add(g, "numa", json_object_new_string(gpu->numa));
	return g;
}

static json_object *hca_json(const struct roce_locality_hca *hca)
{
	json_object *h = json_object_new_object();
	json_object_object_add(h, "name", json_object_new_string(hca->name));
	json_object_object_add(h, "pci", json_object_new_string(hca->pci_addr));
	json_object_object_add(h, "found", json_object_new_boolean(roce_reading_ok(&hca->found)));
	if (!roce_reading_ok(&hca->found))
		json_object_object_add(h, "why", json_object_new_string(hca->found.why));
	json_object_object_add(h, "cpus", json_object_new_string(hca->cpus));
	json_object_object_add(h, "numa", json_object_new_string(hca->numa));
	json_object_object_add(h, "rate_mbps", json_object_new_int64(hca->rate_mbps));
	json_object_object_add(h, "pcie_mbps", json_object_new_int64(hca->pcie_mbps));
	json_object_object_add(h, "bw_mbps", json_object_new_int64(roce_locality_hca_bw(hca)));
	return h;
}

json_object *roce_locality_json(const struct roce_locality *loc)
{
	json_object *o = json_object_new_object(), *gpus = json_object_new_array(), *hcas = json_object_new_array();
	json_object *gg = json_object_new_array(), *gh = json_object_new_array(), *hh = json_object_new_array();
	json_object *gb = json_object_new_array();
	json_object_object_add(o, "origin", json_object_new_string(loc->origin));
	for (size_t i = 0; i < loc->n_gpus; i++) {
		json_object_array_add(gpus, gpu_json(&loc->gpus[i], i));
		json_object_array_add(gg, path_row(loc->gpu_gpu[i], loc->n_gpus));
		json_object_array_add(gh, path_row(loc->gpu_hca[i], loc->n_hcas));
		json_object_array_add(gb, blocked_row(loc->gpu_hca_block[i], loc->n_hcas));
	}
	for (size_t i = 0; i < loc->n_hcas; i++) {
		json_object_array_add(hcas, hca_json(&loc->hcas[i]));
		json_object_array_add(hh, path_row(loc->hca_hca[i], loc->n_hcas));
	}
	json_object_object_add(o, "gpus", gpus);
	json_object_object_add(o, "hcas", hcas);
	json_object_object_add(o, "gpu_hca", gh);
	json_object_object_add(o, "gpu_hca_blocked", gb);
	json_object_object_add(o, "gpu_gpu", gg);
	json_object_object_add(o, "hca_hca", hh);
	return o;
}
