/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.c - the step's nodes compared beyond their rails (compare.h). */
#include "config.h"
#include "agree/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VAL_MAX 96
#define GROUPS_MAX 8  /* values named in one line; more are counted */
#define VALUES_MAX 64 /* values told apart; more are one */
#define MODELS_MAX 8  /* adapter models whose firmware is compared */

#define HEAD_MUST "the step's nodes differ where NCCL needs the same: "
#define HEAD_SHOULD "the step's nodes differ: "

struct cmp {
	const struct roce_compare_in *in;
	char (*val)[VAL_MAX]; /* per distinct fingerprint */
	bool *has;            /* it has a value (a node without the adapter model has none) */
	int *grp;             /* its group */
	const char **sel;     /* n names */
	struct roce_lines *l;
	unsigned *found;
};

/* The groups of equal values, in the order of the nodes; a line when there
 * are two or more, naming the first GROUPS_MAX and counting the others (up
 * to VALUES_MAX: all-different values cost no more than that).  -1 on ENOMEM. */
static int group_line(struct cmp *c, enum roce_line_kind kind, const char *label)
{
	const struct roce_compare_in *in = c->in;
	const char *value[VALUES_MAX];
	size_t ng = 0;
	bool lumped = false;
	for (size_t d = 0; d < in->nd; d++)
		c->grp[d] = -2;
	for (size_t i = 0; i < in->n; i++) {
		int d = in->didx[i];
		if (d < 0 || !c->has[d] || c->grp[d] != -2)
			continue;
		size_t g = 0;
		while (g < ng && strcmp(value[g], c->val[d]) != 0)
			g++;
		if (g == ng && ng < VALUES_MAX)
			value[ng++] = c->val[d];
		lumped |= g == ng;
		c->grp[d] = g < ng ? (int)g : -1;
	}
	if (ng + lumped < 2)
		return 0;
	struct roce_line_build b;
	roce_lines_start(&b, "%s%s ", kind == ROCE_LINE_MUST ? HEAD_MUST : HEAD_SHOULD, label);
	for (size_t g = 0; g < ng && g < GROUPS_MAX; g++) {
		size_t m = 0;
		for (size_t i = 0; i < in->n; i++)
			if (in->didx[i] >= 0 && c->grp[in->didx[i]] == (int)g)
				c->sel[m++] = in->nodes[i];
		if (!roce_lines_group(&b, in->fn, value[g], c->sel, m))
			return -1;
	}
	b.more += (ng > GROUPS_MAX ? ng - GROUPS_MAX : 0) + lumped;
	roce_lines_end(c->l, kind, &b);
	*c->found |= kind == ROCE_LINE_MUST ? ROCE_COMPARE_MUST : ROCE_COMPARE_SHOULD;
	return 0;
}

/* ---------------------------------------------------------------- values */

static const struct roce_fp_port *rail_port(const struct cmp *c, size_t d, size_t k)
{
	int i = c->in->port_of[d][c->in->cols[k]];
	return i >= 0 ? &c->in->fp[d]->ports[i] : NULL;
}

static void show_int(char *out, int v) { snprintf(out, VAL_MAX, v < 0 ? "none" : "%d", v); }

/* Over the agreed rails: "4096" when one value, else "4096/1024" in rail order. */
static void per_rail(struct cmp *c, size_t d, int (*get)(const struct roce_fp_port *), const char *unit)
{
	char *out = c->val[d];
	size_t used = 0;
	bool same = true;
	int first = 0;
	out[0] = '\0';
	c->has[d] = c->in->n_rails > 0;
	if (!c->has[d])
		return;
	for (size_t k = 0; k < c->in->n_rails; k++) {
		const struct roce_fp_port *p = rail_port(c, d, k);
		int v = p ? get(p) : 0;
		same &= k == 0 || v == first;
		first = k ? first : v;
	}
	for (size_t k = 0; k < (same ? 1 : c->in->n_rails) && used < VAL_MAX; k++) {
		const struct roce_fp_port *p = rail_port(c, d, k);
		int v = p ? get(p) : 0;
		used += (size_t)snprintf(out + used, VAL_MAX - used, v ? "%s%d" : "%sunknown", k ? "/" : "", v);
	}
	if (used < VAL_MAX)
		snprintf(out + used, VAL_MAX - used, "%s", unit);
}

static int get_mtu(const struct roce_fp_port *p) { return p->active_mtu; }
static int get_rate(const struct roce_fp_port *p) { return (int)p->rate_gbps; }

/* ECN on the agreed rails' ports: "on", "roce_np off", "roce_rp off", "off", "unknown". */
static void ecn_word(struct cmp *c, size_t d)
{
	bool np_off = false, rp_off = false, unknown = false;
	for (size_t k = 0; k < c->in->n_rails; k++) {
		const struct roce_fp_port *p = rail_port(c, d, k);
		if (!p)
			continue;
		np_off |= p->ecn_np == 0;
		rp_off |= p->ecn_rp == 0;
		unknown |= p->ecn_np < 0 || p->ecn_rp < 0;
	}
	snprintf(c->val[d], VAL_MAX, "%s",
	         np_off && rp_off ? "off"
	         : np_off         ? "roce_np off"
	         : rp_off         ? "roce_rp off"
	         : unknown        ? "unknown"
	                          : "on");
	c->has[d] = c->in->n_rails > 0;
}

/* The model of the adapter of rail k's port, "" unknown. */
static void model_of(const struct cmp *c, size_t d, size_t k, char *out)
{
	const struct roce_fp_port *p = rail_port(c, d, k);
	const struct roce_fp_device *dev = p ? roce_fingerprint_device(c->in->fp[d], p->device) : NULL;
	out[0] = '\0';
	if (dev && dev->hca_type[0])
		snprintf(out, 2 * ROCE_FP_WORD_MAX + 4, "%s%s%s%s", dev->hca_type, dev->board_id[0] ? " (" : "",
		         dev->board_id, dev->board_id[0] ? ")" : "");
}

/* Per adapter model on the agreed rails: its firmware versions on each node. */
static int firmware(struct cmp *c)
{
	char models[MODELS_MAX][2 * ROCE_FP_WORD_MAX + 4], m[2 * ROCE_FP_WORD_MAX + 4],
	        label[2 * ROCE_FP_WORD_MAX + 24];
	size_t nm = 0;
	for (size_t d = 0; d < c->in->nd; d++)
		for (size_t k = 0; k < c->in->n_rails; k++) {
			model_of(c, d, k, m);
			size_t j = 0;
			while (j < nm && strcmp(models[j], m) != 0)
				j++;
			if (m[0] && j == nm && nm < MODELS_MAX)
				snprintf(models[nm++], sizeof(models[0]), "%s", m);
		}
	for (size_t j = 0; j < nm; j++) {
		for (size_t d = 0; d < c->in->nd; d++) {
			size_t used = 0;
			c->val[d][0] = '\0';
			c->has[d] = false;
			for (size_t k = 0; k < c->in->n_rails; k++) {
				model_of(c, d, k, m);
				if (strcmp(m, models[j]) != 0)
					continue;
				const struct roce_fp_device *dev =
				        roce_fingerprint_device(c->in->fp[d], rail_port(c, d, k)->device);
				const char *fw = dev->fw_ver[0] ? dev->fw_ver : "unknown";
				c->has[d] = true;
				if (!strstr(c->val[d], fw) && used < VAL_MAX) /* each version once */
					used += (size_t)snprintf(c->val[d] + used, VAL_MAX - used, "%s%s",
					                         used ? "+" : "", fw);
			}
		}
		snprintf(label, sizeof(label), "firmware of %.131s", models[j]);
		if (group_line(c, ROCE_LINE_SHOULD, label) < 0)
			return -1;
	}
	return 0;
}

/* A node's own values (not per rail). */
typedef void (*node_value_fn)(const struct roce_fingerprint *f, char *out);

static void val_family(const struct roce_fingerprint *f, char *out)
{
	snprintf(out, VAL_MAX, "%s", f->addr_family == 6 ? "ipv6" : "ipv4");
}
static void val_tc(const struct roce_fingerprint *f, char *out) { show_int(out, f->traffic_class); }
static void val_driver(const struct roce_fingerprint *f, char *out)
{
	snprintf(out, VAL_MAX, "%s", f->driver[0] ? f->driver : "(no version)");
}
static void val_pfc(const struct roce_fingerprint *f, char *out) { show_int(out, f->pfc_priority); }
static void val_trust(const struct roce_fingerprint *f, char *out)
{
	snprintf(out, VAL_MAX, "%s", roce_fingerprint_trust_name(f->trust));
}
static void val_gid(const struct roce_fingerprint *f, char *out) { show_int(out, f->gid_index); }

static int node_line(struct cmp *c, enum roce_line_kind kind, const char *label, node_value_fn fn)
{
	for (size_t d = 0; d < c->in->nd; d++) {
		fn(c->in->fp[d], c->val[d]);
		c->has[d] = true;
	}
	return group_line(c, kind, label);
}

/* One per-rail value for each distinct fingerprint, then its line. */
static int rail_line(struct cmp *c, enum roce_line_kind kind, const char *label,
                     int (*get)(const struct roce_fp_port *), const char *unit)
{
	for (size_t d = 0; d < c->in->nd; d++)
		per_rail(c, d, get, unit);
	return group_line(c, kind, label);
}

static int compare_all(struct cmp *c)
{
	/* what NCCL needs the same */
	if (node_line(c, ROCE_LINE_MUST, "GID family", val_family) < 0 ||
	    rail_line(c, ROCE_LINE_MUST, "RDMA MTU", get_mtu, "") < 0 ||
	    node_line(c, ROCE_LINE_MUST, "traffic class", val_tc) < 0)
		return -1;
	/* what should be */
	if (rail_line(c, ROCE_LINE_SHOULD, "link rate", get_rate, " Gb/s") < 0 || firmware(c) < 0 ||
	    node_line(c, ROCE_LINE_SHOULD, "mlx5_core", val_driver) < 0 ||
	    node_line(c, ROCE_LINE_SHOULD, "PFC priority", val_pfc) < 0 ||
	    node_line(c, ROCE_LINE_SHOULD, "priority trust", val_trust) < 0)
		return -1;
	for (size_t d = 0; d < c->in->nd; d++)
		ecn_word(c, d);
	if (group_line(c, ROCE_LINE_SHOULD, "ECN") < 0)
		return -1;
	return node_line(c, ROCE_LINE_SHOULD, "GID index", val_gid);
}

int roce_compare(const struct roce_compare_in *in, struct roce_lines *l, unsigned *found)
{
	size_t nd = in->nd ? in->nd : 1;
	struct cmp c = { .in = in, .l = l, .found = found };
	c.val = malloc(nd * sizeof(*c.val));
	c.has = calloc(nd, sizeof(*c.has));
	c.grp = malloc(nd * sizeof(*c.grp));
	c.sel = malloc((in->n ? in->n : 1) * sizeof(*c.sel));
	int rc = c.val && c.has && c.grp && c.sel ? compare_all(&c) : -1;
	free(c.val);
	free(c.has);
	free(c.grp);
	free(c.sel);
	return rc;
}
