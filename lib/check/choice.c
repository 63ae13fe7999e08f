/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * choice.c - the job's NCCL_IB_HCA order and GDR level from the node's
 * locality, the job's GPUs and the healthy HCAs.  Pure.
 *
 * NCCL gives each GPU the nearest NIC by path type and uses GPUDirect RDMA
 * only up to NCCL_NET_GDR_LEVEL; listing just the near HCAs keeps it from
 * picking a far one, and the level is what those paths need, never more
 * than the site's GdrLevel allows.
 */
#include "config.h"
#include "check/choice.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A warning and its cause (what a job's output says of it). */
static void warn(struct roce_choice *c, const char *cause, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn(struct roce_choice *c, const char *cause, const char *fmt, ...)
{
	va_list ap;
	if (c->n_warnings >= sizeof(c->warnings) / sizeof(c->warnings[0]))
		return;
	snprintf(c->causes[c->n_warnings], ROCE_CAUSE_MAX, "%s", cause);
	va_start(ap, fmt);
	vsnprintf(c->warnings[c->n_warnings++], ROCE_CHOICE_WARN_LEN, fmt, ap);
	va_end(ap);
}

static void add_hca(struct roce_choice *c, const char *name)
{
	for (size_t i = 0; i < c->n_hca; i++)
		if (!strcmp(c->hca[i], name))
			return;
	if (c->n_hca < ROCE_HCA_MAX)
		snprintf(c->hca[c->n_hca++], ROCE_NAME_MAX, "%s", name);
}

static void all_hcas(struct roce_choice *c, const char *const healthy[], size_t n, enum roce_gdr_level cap)
{
	c->n_hca = 0;
	c->by_locality = false;
	c->gdr_level = cap;
	for (size_t i = 0; i < n; i++)
		add_hca(c, healthy[i]);
}

/* Path from GPU g to a healthy HCA, UNKNOWN when the HCA is not in the topology. */
static enum roce_sysfs_path gpu_to(const struct roce_locality *loc, unsigned g, const char *hca)
{
	size_t j;
	const struct roce_locality_hca *h = roce_locality_find_hca(loc, hca, &j);
	if (!h || !roce_reading_ok(&h->found))
		return ROCE_PATH_UNKNOWN;
	return (enum roce_sysfs_path)loc->gpu_hca[g][j];
}

/* ACS redirect between GPU g and a chosen HCA: GPUDirect RDMA cannot go
 * peer to peer there, so the level is lowered below that path (once per GPU). */
static void acs_on_pair(const struct roce_locality *loc, unsigned g, const char *hca, struct roce_choice *c,
                        struct roce_choice_gpu *gc)
{
	size_t j;
	if (gc->acs || !roce_locality_find_hca(loc, hca, &j) || !(loc->gpu_hca_block[g][j] & ROCE_LOCALITY_BLOCK_ACS))
		return;
	const char *bridge = roce_locality_bridge(loc, g, j);
	enum roce_sysfs_path below = gc->best > ROCE_PATH_LOC ? (enum roce_sysfs_path)(gc->best - 1) : ROCE_PATH_LOC;
	gc->acs = true;
	gc->gdr = false;
	warn(c, "GDR lowered (ACS)",
	     "GPU %u (%s): ACS redirect on bridge %s between it and %s: NCCL_NET_GDR_LEVEL lowered to %s so that "
	     "NCCL does not try GPUDirect RDMA over that path (see the acs finding for the fix)",
	     g, loc->gpus[g].pci_addr, bridge ? bridge : "(not named: too many)", hca, roce_locality_path_name(below));
}

/* The bandwidth NCCL ranks an HCA by (0 unknown), and its bit in the GPU's masks. */
static unsigned hca_bw(const struct roce_locality *loc, const char *hca, uint64_t *bit)
{
	size_t j;
	const struct roce_locality_hca *h = roce_locality_find_hca(loc, hca, &j);
	*bit = h && j < 64 ? (uint64_t)1 << j : 0;
	return h ? roce_locality_hca_bw(h) : 0;
}

/* The most bandwidth among the HCAs at path best from GPU g; 0 when one of
 * them is unknown (then none is left out). */
static unsigned top_bw(const struct roce_locality *loc, unsigned g, const char *const healthy[], size_t n,
                       enum roce_sysfs_path best)
{
	unsigned top = 0;
	uint64_t bit;
	for (size_t i = 0; i < n; i++) {
		if (gpu_to(loc, g, healthy[i]) != best)
			continue;
		unsigned bw = hca_bw(loc, healthy[i], &bit);
		if (!bw)
			return 0;
		if (bw > top)
			top = bw;
	}
	return top;
}

/* One GPU: record its best path; add its nearest HCAs when within the cap. */
static bool choose_gpu(const struct roce_locality *loc, unsigned g, const char *const healthy[], size_t n,
                       enum roce_gdr_level cap, enum roce_hca_ties ties, struct roce_choice *c)
{
	struct roce_choice_gpu *gc = &c->gpus[c->n_gpus++];
	enum roce_sysfs_path best = ROCE_PATH_UNKNOWN;
	const char *nearest = NULL;
	gc->gpu = g;
	for (size_t i = 0; i < n; i++) {
		enum roce_sysfs_path p = gpu_to(loc, g, healthy[i]);
		if (p < best) {
			best = p;
			nearest = healthy[i];
		}
	}
	gc->best = best;
	if (best == ROCE_PATH_UNKNOWN) {
		warn(c, "GPU without HCA",
		     "GPU %u (%s) has no RoCE HCA in the topology: GPUDirect RDMA will not be used for it", g,
		     loc->gpus[g].pci_addr);
		return false;
	}
	if ((int)best > (int)cap) {
		warn(c, "GPU without near HCA",
		     "GPU %u (%s) has no RoCE HCA within %s: GPUDirect RDMA will not be used for it "
		     "(nearest: %s, %s)",
		     g, loc->gpus[g].pci_addr, roce_locality_path_name((enum roce_sysfs_path)cap), nearest,
		     roce_locality_path_name(best));
		return false;
	}
	gc->gdr = true;
	unsigned top = top_bw(loc, g, healthy, n, best);
	gc->bw_unknown = top == 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t bit;
		if (gpu_to(loc, g, healthy[i]) != best)
			continue;
		if (ties == ROCE_TIES_BANDWIDTH && top && hca_bw(loc, healthy[i], &bit) < top) {
			gc->slower |= bit;
			continue;
		}
		hca_bw(loc, healthy[i], &bit);
		gc->chosen |= bit;
		add_hca(c, healthy[i]);
		acs_on_pair(loc, g, healthy[i], c, gc);
	}
	return true;
}


/* Every GPU of the set, in index order; the worst best path among those
 * within the cap, or UNKNOWN when no GPU has an HCA within it. */
static enum roce_sysfs_path choose_gpus(const struct roce_locality *loc, const struct roce_gpuset *gpus,
                                        const char *const healthy[], size_t n, enum roce_gdr_level cap,
                                        enum roce_hca_ties ties, struct roce_choice *c, enum roce_sysfs_path *acs_limit)
{
	enum roce_sysfs_path worst = ROCE_PATH_LOC;
	*acs_limit = ROCE_PATH_SYS;
	bool any = false;
	for (size_t i = 0; i < gpus->n; i++) {
		unsigned g = gpus->idx[i];
		if (g >= loc->n_gpus) {
			warn(c, "unknown GPU", "GPU %u is not among the %zu NVIDIA GPUs of the topology", g,
			     loc->n_gpus);
			continue;
		}
		if (choose_gpu(loc, g, healthy, n, cap, ties, c)) {
			any = true;
			const struct roce_choice_gpu *gc = &c->gpus[c->n_gpus - 1];
			if (gc->best > worst)
				worst = gc->best;
			if (gc->acs && gc->best > ROCE_PATH_LOC && (int)gc->best - 1 < (int)*acs_limit)
				*acs_limit = (enum roce_sysfs_path)(gc->best - 1);
		}
	}
	return any ? worst : ROCE_PATH_UNKNOWN;
}

int roce_choice_make(const struct roce_locality *loc, const struct roce_gpuset *gpus, const char *const healthy[],
                     size_t n_healthy, enum roce_gdr_level cap, enum roce_hca_ties ties, struct roce_choice *out,
                     struct roce_error *err)
{
	memset(out, 0, sizeof(*out));
	if (n_healthy > ROCE_HCA_MAX) {
		roce_error_set(err, "%zu healthy HCAs: NCCL_IB_HCA takes at most %d", n_healthy, ROCE_HCA_MAX);
		return -1;
	}
	all_hcas(out, healthy, n_healthy, cap);
	if (!gpus || gpus->status == ROCE_GPUS_NONE || n_healthy == 0)
		return 0;
	if (gpus->status != ROCE_GPUS_OK) {
		const char *what = gpus->status == ROCE_GPUS_INVALID ? "GPU list rejected" : "GPU mapping unknown";
		warn(out, what, "%s: %s; NCCL_IB_HCA lists every healthy HCA", what, gpus->why);
		return 0;
	}
	if (!loc) {
		warn(out, "no topology", "no topology: GPU locality unknown; NCCL_IB_HCA lists every healthy HCA");
		return 0;
	}
	out->n_hca = 0;
	enum roce_sysfs_path acs_limit;
	enum roce_sysfs_path worst = choose_gpus(loc, gpus, healthy, n_healthy, cap, ties, out, &acs_limit);
	if (worst == ROCE_PATH_UNKNOWN) {
		all_hcas(out, healthy, n_healthy, cap);
		return 0;
	}
	out->by_locality = true;
	/* <= cap: only paths within it count; below any path crossing ACS redirect */
	out->gdr_level = (enum roce_gdr_level)(acs_limit < worst ? acs_limit : worst);
	return 0;
}

int roce_choice_for_check(struct roce_check_result *check, const struct roce_policy *policy,
                          const struct roce_locality *loc, const struct roce_gpuset *gpus, struct roce_choice *out,
                          struct roce_error *err)
{
	const char *healthy[ROCE_HCA_MAX];
	size_t n = 0;
	/* a device's ports are next to each other in the check's results */
	for (size_t i = 0; i < check->n_ports && n < ROCE_HCA_MAX; i++) {
		const struct roce_port_result *pr = &check->ports[i];
		if (!pr->healthy || (n && strcmp(healthy[n - 1], pr->device) == 0))
			continue;
		healthy[n++] = pr->device;
	}
	if (roce_choice_make(loc, gpus, healthy, n, policy->gdr_level, policy->hca_ties, out, err) < 0)
		return -1;
	for (size_t i = 0; i < out->n_warnings; i++)
		if (roce_finding_addf(check, "locality", NULL, 0, ROCE_WARN, out->causes[i], 0, NULL, "%s",
		                      out->warnings[i]) < 0) {
			roce_error_set(err, "out of memory");
			return -1;
		}
	return 0;
}

/* The names of the HCAs of mask, as a JSON array. */
static json_object *hca_names(const struct roce_locality *loc, uint64_t mask)
{
	json_object *a = json_object_new_array();
	for (size_t j = 0; loc && j < loc->n_hcas && j < 64; j++)
		if (mask & (uint64_t)1 << j)
			json_object_array_add(a, json_object_new_string(loc->hcas[j].name));
	return a;
}

json_object *roce_choice_json(const struct roce_choice *c, const struct roce_locality *loc)
{
	json_object *o = json_object_new_object(), *h = json_object_new_array(), *g = json_object_new_array();
	json_object *w = json_object_new_array();
	for (size_t i = 0; i < c->n_hca; i++)
		json_object_array_add(h, json_object_new_string(c->hca[i]));
	for (size_t i = 0; i < c->n_gpus; i++) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "gpu", json_object_new_int((int)c->gpus[i].gpu));
		json_object_object_add(e, "best", json_object_new_string(roce_locality_path_name(c->gpus[i].best)));
		json_object_object_add(e, "gdr", json_object_new_boolean(c->gpus[i].gdr));
		json_object_object_add(e, "acs", json_object_new_boolean(c->gpus[i].acs));
		json_object_object_add(e, "hcas", hca_names(loc, c->gpus[i].chosen));
		json_object_object_add(e, "slower", hca_names(loc, c->gpus[i].slower));
		json_object_array_add(g, e);
	}
	for (size_t i = 0; i < c->n_warnings; i++)
		json_object_array_add(w, json_object_new_string(c->warnings[i]));
	json_object_object_add(o, "hca", h);
	json_object_object_add(o, "gdr_level", json_object_new_string(roce_gdr_level_name(c->gdr_level)));
	json_object_object_add(o, "by_locality", json_object_new_boolean(c->by_locality));
	json_object_object_add(o, "gpus", g);
	json_object_object_add(o, "warnings", w);
	return o;
}

/* "400 Gb/s" (port 400 Gb/s, PCIe 384 Gb/s), "? Gb/s" unknown. */
static void print_bw(const struct roce_locality_hca *h, FILE *out)
{
	unsigned bw = roce_locality_hca_bw(h);
	if (!bw)
		fprintf(out, "bandwidth unknown (port rate not read)");
	else
		fprintf(out, "%u Gb/s", bw / 1000);
}

/* "mlx5_0 (400 Gb/s), mlx5_8 (100 Gb/s)" for the HCAs of mask. */
static void print_hcas(const struct roce_locality *loc, uint64_t mask, FILE *out)
{
	const char *sep = "";
	for (size_t j = 0; j < loc->n_hcas && j < 64; j++)
		if (mask & (uint64_t)1 << j) {
			fprintf(out, "%s%s (", sep, loc->hcas[j].name);
			print_bw(&loc->hcas[j], out);
			fprintf(out, ")");
			sep = ", ";
		}
}

void roce_choice_print(const struct roce_choice *c, const struct roce_locality *loc, FILE *out)
{
	if (!loc || loc->n_hcas == 0)
		return;
	fprintf(out, "\nHCA bandwidth (the lower of the port's rate and its PCIe link's, as NCCL weighs NICs):\n");
	for (size_t j = 0; j < loc->n_hcas; j++) {
		const struct roce_locality_hca *h = &loc->hcas[j];
		fprintf(out, "  %-10s ", h->name);
		print_bw(h, out);
		fprintf(out, " (port ");
		if (h->rate_mbps)
			fprintf(out, "%u Gb/s", h->rate_mbps / 1000);
		else
			fprintf(out, "unknown");
		if (h->pcie_mbps)
			fprintf(out, ", PCIe %u Gb/s%s)\n", h->pcie_mbps / 1000,
			        h->pcie_from_topology ? " from the topology's link speed" : "");
		else
			fprintf(out, ", PCIe unknown)\n");
	}
	if (!c->by_locality || c->n_gpus == 0)
		return;
	fprintf(out, "\nNCCL_IB_HCA by GPU (its nearest HCAs; of those equally near, the ones with the most "
	             "bandwidth, unless HcaTies=all):\n");
	for (size_t i = 0; i < c->n_gpus; i++) {
		const struct roce_choice_gpu *g = &c->gpus[i];
		fprintf(out, "  GPU%u  %s: ", g->gpu, roce_locality_path_name(g->best));
		if (!g->chosen)
			fprintf(out, "none within the GDR level");
		print_hcas(loc, g->chosen, out);
		if (g->slower) {
			fprintf(out, "; as near, less bandwidth, left out: ");
			print_hcas(loc, g->slower, out);
		} else if (g->bw_unknown && g->chosen & (g->chosen - 1)) {
			fprintf(out, "; a bandwidth is unknown: every equally near HCA kept");
		}
		fprintf(out, "\n");
	}
}
