/* SPDX-License-Identifier: GPL-2.0-or-later */
/* agree.c - the job-wide agreement of a step's nodes (agree.h). */
#include "config.h"
#include "agree/agree.h"
#include "agree/probeagree.h"
#include "agree/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIG_MAX (ROCE_FP_PORTS_MAX * ROCE_RAIL_KEY_MAX)
#define LABEL_MAX (ROCE_RAIL_NAME_MAX + ROCE_RAIL_KEY_MAX + 8)

/* One distinct fingerprint of the step (nodes that offer the same share one). */
struct dist {
	const struct roce_fingerprint *f;
	size_t count, first;         /* its nodes, the first of them */
	bool off[ROCE_FP_PORTS_MAX]; /* ports on no Rails= subnet: left out */
	int port_of[ROCE_FP_PORTS_MAX];
	int crossed_at[ROCE_FP_PORTS_MAX]; /* per port: the rail whose place it takes, -1 */
	int astray[ROCE_FP_PORTS_MAX];     /* per port: on this rail (d lacks it), out of the rails' order, -1 */
	bool extra[ROCE_FP_PORTS_MAX];     /* per port: on a rail not every node has */
	bool mark;                         /* scratch: a line is about it */
};

struct ctx {
	const char *const *nodes;
	size_t n;
	roce_nodelist_fn fn;
	const struct roce_policy *p;
	struct dist *d;
	size_t nd;
	int *didx;        /* per node: its dist, -1 none */
	size_t n_present; /* nodes with a dist */
	const char **sel; /* scratch: n names */
	struct roce_agreement *a;
};

/* ---------------------------------------------------------------- the nodes' fingerprints */

struct ref_ptr {
	const struct roce_fingerprint *f;
	size_t node;
};

static int by_ptr(const void *x, const void *y)
{
	const struct ref_ptr *a = x, *b = y;
	if (a->f != b->f)
		return a->f < b->f ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* The distinct fingerprints of the nodes that have one they checked with. */
static int distinct(struct ctx *c, const struct roce_fingerprint *const *fps)
{
	struct ref_ptr *r = malloc((c->n ? c->n : 1) * sizeof(*r));
	size_t m = 0;
	if (!r)
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		c->didx[i] = -1;
		if (fps[i] && fps[i]->verdict != ROCE_FP_UNCHECKED)
			r[m++] = (struct ref_ptr){ fps[i], i };
	}
	qsort(r, m, sizeof(*r), by_ptr);
	for (size_t k = 0; k < m; k++) {
		if (!k || r[k].f != r[k - 1].f)
			c->d[c->nd++] = (struct dist){ .f = r[k].f, .first = r[k].node };
		c->d[c->nd - 1].count++;
		c->didx[r[k].node] = (int)c->nd - 1;
	}
	c->n_present = m;
	free(r);
	return 0;
}

/* Is the subnet key one of Rails= (or is there no Rails=)? */
static bool on_site_rail(const struct roce_policy *p, const char *key)
{
	char net[ROCE_SUBNET_TEXT_MAX];
	if (!p || !p->n_rails || !roce_rails_key_is_subnet(key))
		return true;
	for (size_t k = 0; k < p->n_rails; k++) {
		roce_subnet_format(&p->rails[k].net, net);
		if (strcmp(net, key) == 0)
			return true;
	}
	return false;
}

/* d's rails' keys, in order, off-rail ports left out: "k1,k2,..." */
static void signature(const struct ctx *c, struct dist *d, char *sig)
{
	char key[ROCE_RAIL_KEY_MAX];
	size_t used = 0;
	sig[0] = '\0';
	for (size_t i = 0; i < d->f->n_ports; i++) {
		roce_rails_key(&d->f->ports[i], key);
		d->off[i] = !on_site_rail(c->p, key);
		if (!d->off[i])
			used += (size_t)snprintf(sig + used, SIG_MAX - used, "%s%s", used ? "," : "", key);
	}
}

/* The reference: the rails in the order most nodes have them (a tie: the
 * one with more distinct rails, then the first node's). */
static int reference(struct ctx *c)
{
	char *sigs = malloc((c->nd ? c->nd : 1) * (size_t)SIG_MAX);
	size_t best = 0, best_w = 0;
	if (!sigs)
		return -1;
	for (size_t k = 0; k < c->nd; k++)
		signature(c, &c->d[k], sigs + k * SIG_MAX);
	for (size_t k = 0; k < c->nd; k++) {
		size_t w = 0;
		for (size_t j = 0; j < c->nd; j++)
			w += strcmp(sigs + j * SIG_MAX, sigs + k * SIG_MAX) == 0 ? c->d[j].count : 0;
		const struct dist *b = &c->d[best], *x = &c->d[k];
		if (k == 0 || w > best_w ||
		    (w == best_w &&
		     (x->f->n_ports > b->f->n_ports || (x->f->n_ports == b->f->n_ports && x->first < b->first)))) {
			best = k;
			best_w = w;
		}
	}
	struct roce_rails *ref = &c->a->ref;
	const struct dist *b = c->nd ? &c->d[best] : NULL;
	for (size_t i = 0; b && i < b->f->n_ports; i++)
		if (!b->off[i])
			roce_rails_key(&b->f->ports[i], ref->key[ref->n++]);
	free(sigs);
	return 0;
}

/* ---------------------------------------------------------------- fitting */

static int first_col(const struct roce_rails *ref, const char *key)
{
	for (size_t k = 0; k < ref->n; k++)
		if (strcmp(ref->key[k], key) == 0)
			return (int)k;
	return -1;
}

/* A port left over: in the place of a rail d lacks (between the rails of
 * its neighbours), it is crossed; on a rail d lacks but out of the rails'
 * order, astray (of two swapped cables, one); else it is on a rail not
 * every node has. */
static void place_leftover(const struct roce_rails *ref, struct dist *d, const int *col_of, size_t i, bool *taken)
{
	char key[ROCE_RAIL_KEY_MAX];
	int lo = -1, hi = (int)ref->n;
	roce_rails_key(&d->f->ports[i], key);
	if (!roce_rails_key_is_subnet(key)) {
		d->extra[i] = true;
		return;
	}
	for (size_t j = i; j-- > 0;)
		if (col_of[j] >= 0) {
			lo = col_of[j];
			break;
		}
	for (size_t j = i + 1; j < d->f->n_ports; j++)
		if (col_of[j] >= 0) {
			hi = col_of[j];
			break;
		}
	for (int k = lo + 1; k < hi; k++)
		if (d->port_of[k] < 0 && !taken[k] && roce_rails_key_is_subnet(ref->key[k])) {
			taken[k] = true;
			d->crossed_at[i] = k;
			return;
		}
	for (size_t k = 0; k < ref->n; k++)
		if (d->port_of[k] < 0 && !taken[k] && strcmp(ref->key[k], key) == 0) {
			taken[k] = true;
			d->astray[i] = (int)k;
			return;
		}
	d->extra[i] = true;
}

static void fit(const struct roce_rails *ref, struct dist *d)
{
	int col_of[ROCE_FP_PORTS_MAX];
	bool taken[ROCE_FP_PORTS_MAX] = { false };
	roce_rails_fit(ref, d->f, d->port_of);
	for (size_t i = 0; i < ROCE_FP_PORTS_MAX; i++)
		col_of[i] = -1;
	for (size_t k = 0; k < ref->n; k++)
		if (d->port_of[k] >= 0)
			col_of[d->port_of[k]] = (int)k;
	for (size_t i = 0; i < d->f->n_ports; i++) {
		d->crossed_at[i] = d->astray[i] = -1;
		d->extra[i] = false;
		if (col_of[i] < 0 && !d->off[i])
			place_leftover(ref, d, col_of, i, taken);
	}
}

/* ---------------------------------------------------------------- what is agreed */

static int site_index(const struct roce_policy *p, const char *key)
{
	char net[ROCE_SUBNET_TEXT_MAX];
	for (size_t k = 0; p && k < p->n_rails; k++) {
		roce_subnet_format(&p->rails[k].net, net);
		if (strcmp(net, key) == 0)
			return (int)k;
	}
	return ROCE_RAILS_MAX; /* after the site's rails, in the reference's order */
}

/* The rails every node has, in Rails= order (else the reference's), with
 * the RDMA MTU when it is the same everywhere. */
static void agreed(struct ctx *c)
{
	struct roce_agreement *a = c->a;
	for (int pass = 0; pass <= ROCE_RAILS_MAX; pass++)
		for (size_t k = 0; k < a->ref.n && c->n_present; k++) {
			if (site_index(c->p, a->ref.key[k]) != pass)
				continue;
			size_t on = 0;
			int mtu = -1;
			for (size_t j = 0; j < c->nd; j++) {
				int i = c->d[j].port_of[k];
				if (i < 0)
					continue;
				on += c->d[j].count;
				int m = c->d[j].f->ports[i].active_mtu;
				mtu = mtu == -1 || mtu == m ? m : 0;
			}
			if (on == c->n_present)
				a->rails[a->n_rails++] = (struct roce_agree_rail){ (int)k, mtu > 0 ? mtu : 0 };
		}
}

/* ---------------------------------------------------------------- lines */

/* "192.0.2.64/26", "rail1 (192.0.2.64/26)", "mlx5_1:1"; "#2" for a key the reference has twice. */
static void label(const struct ctx *c, int col, char *out)
{
	const char *key = c->a->ref.key[col];
	int site = site_index(c->p, key), nth = 1, of = 0;
	for (size_t k = 0; k < c->a->ref.n; k++)
		if (strcmp(c->a->ref.key[k], key) == 0) {
			of++;
			nth += (int)k < col;
		}
	if (site < ROCE_RAILS_MAX && c->p->rails[site].name[0])
		snprintf(out, LABEL_MAX, "%s (%s)", c->p->rails[site].name, key);
	else
		snprintf(out, LABEL_MAX, "%s", key);
	if (of > 1)
		snprintf(out + strlen(out), LABEL_MAX - strlen(out), " #%d", nth);
}

/* The nodes of the marked dists (those with ports when with_ports). */
static size_t marked_nodes(const struct ctx *c)
{
	size_t m = 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->didx[i] >= 0 && c->d[c->didx[i]].mark)
			c->sel[m++] = c->nodes[i];
	return m;
}

static void unmark(struct ctx *c)
{
	for (size_t j = 0; j < c->nd; j++)
		c->d[j].mark = false;
}

static int nodes_line(struct ctx *c, enum roce_line_kind kind, const char *text)
{
	struct roce_line_build b;
	size_t m = marked_nodes(c);
	unmark(c);
	if (!m)
		return 0;
	roce_lines_start(&b, "%s", "");
	if (!roce_lines_nodes_first(&b, c->fn, c->sel, m, text))
		return -1;
	roce_lines_end(&c->a->lines, kind, &b);
	c->a->flags |= kind == ROCE_LINE_TRIM ? ROCE_AGREE_TRIMMED : 0;
	return 0;
}

/* Nodes without a usable port: one line, not one per rail. */
static int no_port_line(struct ctx *c)
{
	for (size_t j = 0; j < c->nd; j++)
		c->d[j].mark = c->d[j].f->n_ports == 0;
	return nodes_line(c, ROCE_LINE_TRIM, "no usable RoCE port");
}

static bool explained(const struct dist *d, int col)
{
	for (size_t i = 0; i < d->f->n_ports; i++)
		if (d->crossed_at[i] == col || d->astray[i] == col)
			return true;
	return false;
}

/* Append s to buf (size bytes), cut when it does not fit. */
static size_t append_text(char *buf, size_t size, size_t used, const char *s)
{
	size_t n = strlen(s);
	if (used + 1 >= size)
		return used;
	if (n > size - used - 1)
		n = size - used - 1;
	memcpy(buf + used, s, n);
	buf[used + n] = '\0';
	return used + n;
}

/* A rail some nodes lack (not those whose crossed port takes its place):
 * "node3: 192.0.2.64/26 missing"; rails lacked by the same dists share a line. */
static int missing_lines(struct ctx *c)
{
	bool done[ROCE_FP_PORTS_MAX] = { false };
	char text[ROCE_LINE_MAX], one[LABEL_MAX];
	for (size_t k = 0; k < c->a->ref.n; k++) {
		if (done[k])
			continue;
		size_t used = 0;
		text[0] = '\0';
		for (size_t k2 = k; k2 < c->a->ref.n; k2++) {
			bool same = true, any = false;
			for (size_t j = 0; j < c->nd; j++) {
				const struct dist *d = &c->d[j];
				bool lacks = d->f->n_ports && d->port_of[k2] < 0 && !explained(d, (int)k2);
				bool lacks0 = d->f->n_ports && d->port_of[k] < 0 && !explained(d, (int)k);
				same &= lacks == lacks0;
				any |= lacks;
			}
			if (!same || !any)
				continue;
			done[k2] = true;
			label(c, (int)k2, one);
			used = append_text(text, sizeof(text), used, used ? ", " : "");
			used = append_text(text, sizeof(text), used, one);
		}
		if (!used)
			continue;
		for (size_t j = 0; j < c->nd; j++)
			c->d[j].mark = c->d[j].f->n_ports && c->d[j].port_of[k] < 0 && !explained(&c->d[j], (int)k);
		append_text(text, sizeof(text), used, " missing");
		if (nodes_line(c, ROCE_LINE_TRIM, text) < 0)
			return -1;
	}
	return 0;
}

/* What a left-over port of d is: "mlx5_1:1 is on 192.0.2.0/26 at 192.0.2.64/26's place (...)" */
static bool any_subnet(const struct roce_rails *ref)
{
	for (size_t k = 0; k < ref->n; k++)
		if (roce_rails_key_is_subnet(ref->key[k]))
			return true;
	return false;
}

static bool leftover_text(const struct ctx *c, const struct dist *d, size_t i, char *out, size_t len)
{
	const struct roce_fp_port *p = &d->f->ports[i];
	char key[ROCE_RAIL_KEY_MAX], at[LABEL_MAX], of[LABEL_MAX], text[2 * ROCE_NAME_MAX + 3 * LABEL_MAX];
	roce_rails_key(p, key);
	if (d->crossed_at[i] >= 0) {
		int o = first_col(&c->a->ref, key);
		label(c, d->crossed_at[i], at);
		if (o >= 0)
			label(c, o, of);
		snprintf(text, sizeof(text), "%s:%u is on %s at %s's place (a crossed cable or address)", p->device,
		         p->port, o >= 0 ? of : key, at);
	} else if (d->astray[i] >= 0) {
		label(c, d->astray[i], of);
		snprintf(text, sizeof(text), "%s:%u is on %s out of the rails' order (a crossed cable or address)",
		         p->device, p->port, of);
	} else if (!d->extra[i]) {
		return false;
	} else if (roce_rails_key_is_subnet(key)) {
		snprintf(text, sizeof(text), "%s:%u (%s) is on a rail not every node has", p->device, p->port, key);
	} else if (any_subnet(&c->a->ref)) {
		snprintf(text, sizeof(text), "%s:%u is on no known rail (its address was not read)", p->device,
		         p->port);
	} else {
		snprintf(text, sizeof(text), "%s:%u is not on every node", p->device, p->port);
	}
	append_text(out, len, 0, text);
	return true;
}

/* Left-over ports, the nodes of dists with the same text on one line. */
static int leftover_lines(struct ctx *c)
{
	char text[ROCE_LINE_MAX], other[ROCE_LINE_MAX];
	for (size_t j = 0; j < c->nd; j++)
		for (size_t i = 0; i < c->d[j].f->n_ports; i++) {
			if (!leftover_text(c, &c->d[j], i, text, sizeof(text)))
				continue;
			bool said = false;
			for (size_t j0 = 0; j0 < j && !said; j0++)
				for (size_t i0 = 0; i0 < c->d[j0].f->n_ports && !said; i0++)
					said = leftover_text(c, &c->d[j0], i0, other, sizeof(other)) &&
					       strcmp(text, other) == 0;
			if (said)
				continue;
			for (size_t j2 = j; j2 < c->nd; j2++)
				for (size_t i2 = 0; i2 < c->d[j2].f->n_ports; i2++)
					c->d[j2].mark |= leftover_text(c, &c->d[j2], i2, other, sizeof(other)) &&
					                 strcmp(text, other) == 0;
			if (nodes_line(c, ROCE_LINE_TRIM, text) < 0)
				return -1;
		}
	return 0;
}

static int unchecked_line(struct ctx *c, const struct roce_fingerprint *const *fps)
{
	struct roce_line_build b;
	size_t m = 0;
	for (size_t i = 0; i < c->n; i++)
		if (fps[i] && fps[i]->verdict == ROCE_FP_UNCHECKED)
			c->sel[m++] = c->nodes[i];
	if (!m)
		return 0;
	c->a->flags |= ROCE_AGREE_MISSING;
	roce_lines_start(&b, "%s", "");
	if (!roce_lines_nodes_first(&b, c->fn, c->sel, m,
	                            "the job prolog could not check the fabric (slurmd's log there): unknown"))
		return -1;
	roce_lines_end(&c->a->lines, ROCE_LINE_UNKNOWN, &b);
	return 0;
}

/* What every node uses: its names when they are the same everywhere, else the rails. */
static void uses_text(struct ctx *c)
{
	struct roce_agreement *a = c->a;
	char lbl[LABEL_MAX];
	size_t used = 0;
	bool same = true;
	for (size_t k = 0; k < a->n_rails && c->nd; k++) {
		const struct dist *d0 = &c->d[0];
		const struct roce_fp_port *p0 = &d0->f->ports[d0->port_of[a->rails[k].col]];
		for (size_t j = 1; j < c->nd; j++) {
			const struct roce_fp_port *p = &c->d[j].f->ports[c->d[j].port_of[a->rails[k].col]];
			same &= p->port == p0->port && strcmp(p->device, p0->device) == 0;
		}
	}
	for (size_t k = 0; k < a->n_rails && used < sizeof(a->uses); k++) {
		int col = a->rails[k].col;
		const struct dist *d0 = &c->d[0];
		const struct roce_fp_port *p0 = &d0->f->ports[d0->port_of[col]];
		if (same)
			used += (size_t)snprintf(a->uses + used, sizeof(a->uses) - used, "%s%s:%u", k ? "," : "=",
			                         p0->device, p0->port);
		else {
			label(c, col, lbl);
			used += (size_t)snprintf(a->uses + used, sizeof(a->uses) - used, "%s%s",
			                         k ? ", " : "the rails ", lbl);
		}
	}
}

static int missing_list(struct ctx *c, const struct roce_fingerprint *const *fps)
{
	size_t m = 0;
	for (size_t i = 0; i < c->n; i++)
		if (!fps[i])
			c->sel[m++] = c->nodes[i];
	if (!m)
		return 0;
	c->a->flags |= ROCE_AGREE_MISSING;
	c->a->n_missing = m;
	return (c->a->missing = roce_nodelist(c->fn, c->sel, m)) ? 0 : -1;
}

/* Rails whose path probe failed between two of the step's nodes: left out. */
static void probe_drop(struct ctx *c, const struct roce_fingerprint *const *fps)
{
	bool agreed[ROCE_FP_PORTS_MAX] = { false }, drop[ROCE_FP_PORTS_MAX];
	size_t kept = 0;
	for (size_t k = 0; k < c->a->n_rails; k++)
		agreed[c->a->rails[k].col] = true;
	if (!roce_probeagree_failed(&c->a->ref, agreed, fps, c->nodes, c->n, &c->a->lines, drop))
		return;
	for (size_t k = 0; k < c->a->n_rails; k++)
		if (!drop[c->a->rails[k].col])
			c->a->rails[kept++] = c->a->rails[k];
	c->a->n_rails = kept;
	c->a->flags |= ROCE_AGREE_TRIMMED;
}

static int compare(struct ctx *c)
{
	const struct roce_fingerprint **fp = malloc((c->nd ? c->nd : 1) * sizeof(*fp));
	int(*port_of)[ROCE_FP_PORTS_MAX] = malloc((c->nd ? c->nd : 1) * sizeof(*port_of));
	int *didx = malloc((c->n ? c->n : 1) * sizeof(*didx)), cols[ROCE_FP_PORTS_MAX];
	unsigned found = 0;
	int rc = -1;
	if (fp && port_of && didx) {
		for (size_t j = 0; j < c->nd; j++) {
			fp[j] = c->d[j].f;
			memcpy(port_of[j], c->d[j].port_of, sizeof(port_of[j]));
		}
		/* nodes without a port were said: not compared */
		for (size_t i = 0; i < c->n; i++)
			didx[i] = c->didx[i] >= 0 && c->d[c->didx[i]].f->n_ports ? c->didx[i] : -1;
		for (size_t k = 0; k < c->a->n_rails; k++)
			cols[k] = c->a->rails[k].col;
		struct roce_compare_in in = {
			c->nodes, c->n, didx,          fp,   (const int(*)[ROCE_FP_PORTS_MAX])port_of,
			c->nd,    cols, c->a->n_rails, c->fn
		};
		rc = roce_compare(&in, &c->a->lines, &found);
	}
	c->a->flags |= (found & ROCE_COMPARE_MUST ? ROCE_AGREE_MISMATCH : 0) |
	               (found & ROCE_COMPARE_SHOULD ? ROCE_AGREE_DRIFT : 0);
	free(fp);
	free(port_of);
	free(didx);
	return rc;
}

int roce_agree(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n, roce_nodelist_fn fn,
               const struct roce_policy *p, struct roce_agreement *out)
{
	struct ctx c = { .nodes = nodes, .n = n, .fn = fn, .p = p, .a = out };
	int rc = -1;
	memset(out, 0, sizeof(*out));
	c.d = malloc((n ? n : 1) * sizeof(*c.d));
	c.didx = malloc((n ? n : 1) * sizeof(*c.didx));
	c.sel = malloc((n ? n : 1) * sizeof(*c.sel));
	if (!c.d || !c.didx || !c.sel || distinct(&c, fps) < 0 || missing_list(&c, fps) < 0 ||
	    unchecked_line(&c, fps) < 0 || reference(&c) < 0)
		goto out;
	for (size_t j = 0; j < c.nd; j++)
		fit(&out->ref, &c.d[j]);
	agreed(&c);
	if (no_port_line(&c) < 0 || missing_lines(&c) < 0 || leftover_lines(&c) < 0)
		goto out;
	probe_drop(&c, fps);
	if (compare(&c) < 0)
		goto out;
	if (!out->n_rails)
		out->flags |= ROCE_AGREE_EMPTY;
	uses_text(&c);
	rc = 0;
out:
	free(c.d);
	free(c.didx);
	free(c.sel);
	if (rc < 0)
		roce_agree_free(out);
	return rc;
}

void roce_agree_free(struct roce_agreement *a)
{
	free(a->missing);
	memset(a, 0, sizeof(*a));
}

/* ---------------------------------------------------------------- the verdict */

enum roce_agree_verdict roce_agree_verdict(const struct roce_agreement *a, bool strict)
{
	if (strict && (a->flags & ~(unsigned)ROCE_AGREE_DRIFT))
		return ROCE_AGREED_FAIL;
	if (a->flags & ROCE_AGREE_MISSING)
		return ROCE_AGREED_OWN;
	return a->flags & ROCE_AGREE_EMPTY ? ROCE_AGREED_EMPTY : ROCE_AGREED_RAILS;
}
