/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_heatmap.c - a metric's node-by-port heat map as inline SVG
 * (report_heatmap.h).  At most HEAT_ROWS rows: every node when the job has
 * no more, else the nodes whose worst port is highest (for the rates: the
 * slowest) and one line on the rest.  Colour is one hue, light to dark on a
 * log scale from the job's maximum (it reads in grey and for colour-blind
 * readers), and every cell also carries its value as text.
 */
#include "config.h"
#include "report/report_heatmap.h"
#include "base/printable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEAT_ROWS 48
#define HEAT_COLS 32
#define WORST_LABELLED 5 /* cells outlined as the worst */

/* A node's score for metric m: its worst port's value (the highest), or
 * for a rate the node's total (ranked lowest first: the node that moved
 * least is the suspect); -1 when nothing was read. */
static double node_score(const struct roce_fragment *n, enum roce_report_metric m)
{
	double score = -1;
	bool rate = roce_report_metric_is_rate(m);
	for (size_t j = 0; j < n->n_ports; j++) {
		double v;
		if (roce_report_metric_value(n, &n->ports[j], m, &v) == ROCE_METRIC_UNREAD)
			continue;
		if (score < 0)
			score = v;
		else
			score = rate ? score + v : v > score ? v : score;
	}
	return score;
}

struct ranked {
	size_t node;
	double score;
};

/* Unread (-1) last either way; ties in node order. */
static int by_score(const struct ranked *x, const struct ranked *y, bool low_first)
{
	if ((x->score < 0) != (y->score < 0))
		return x->score < 0 ? 1 : -1;
	if (x->score != y->score)
		return (x->score < y->score) == low_first ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int highest_first(const void *a, const void *b) { return by_score(a, b, false); }

static int lowest_first(const void *a, const void *b) { return by_score(a, b, true); }

/* The rows of metric m's map into rows (n_rows of them, node order when all fit). */
static struct ranked *heat_rows(const struct roce_job_report *r, enum roce_report_metric m, size_t *n_rows)
{
	struct ranked *all = malloc((r->n_nodes ? r->n_nodes : 1) * sizeof(*all));
	if (!all)
		return NULL;
	for (size_t i = 0; i < r->n_nodes; i++)
		all[i] = (struct ranked){ i, node_score(&r->nodes[i], m) };
	*n_rows = r->n_nodes;
	if (r->n_nodes > HEAT_ROWS) {
		qsort(all, r->n_nodes, sizeof(*all), roce_report_metric_is_rate(m) ? lowest_first : highest_first);
		*n_rows = HEAT_ROWS;
	}
	return all;
}

/* The columns: the "device:port" names of the shown rows, in order of first appearance. */
struct columns {
	char names[HEAT_COLS][ROCE_REPORT_PORT_NAME_MAX];
	size_t n;
};

static int column_of(struct columns *c, const struct roce_fragment_port *p, bool add)
{
	char name[ROCE_REPORT_PORT_NAME_MAX];
	roce_report_metric_port(p, name, sizeof(name));
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return (int)i;
	if (!add || c->n == HEAT_COLS)
		return -1;
	snprintf(c->names[c->n], sizeof(c->names[0]), "%s", name);
	return (int)c->n++;
}

#define LEVELS 5 /* l0-l4 */

/* A rate's levels span RATE_DECADES decades below the job's maximum: a
 * log scale from 0 put 1.4 and 8.1 GiB/s in one level.  A count's run on a
 * log scale from 1 (log1p) up to the maximum. */
#define RATE_DECADES 2.0

/* Where level l (1-4) of max begins: it holds [from(l), from(l + 1)). */
static double level_from(double max, int l, bool rate)
{
	if (rate)
		return l == 1 ? 0 : max * pow(10, -RATE_DECADES * (5 - l) / 4);
	return expm1(log1p(max) * (l - 1) / 4);
}

/* Level 1-4 of v > 0 up to max; 0 for 0.  Clamped before the conversion:
 * a double out of int's range (NaN, infinity) has no int. */
static int level(double v, double max, bool rate)
{
	if (!(v > 0) || !(max > 0) || !isfinite(v) || !isfinite(max))
		return 0;
	if (rate) {
		int l = 4;
		while (l > 1 && v < level_from(max, l, true))
			l--;
		return l;
	}
	double l = 1 + 4 * log1p(v) / log1p(max);
	return l >= 1 && l < LEVELS - 1 ? (int)l : LEVELS - 1;
}

/* The job-wide maximum of m, the threshold of the WORST_LABELLED-th value among the rows. */
static double metric_max(const struct roce_job_report *r, enum roce_report_metric m)
{
	double max = 0, v;
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++)
			if (roce_report_metric_value(&r->nodes[i], &r->nodes[i].ports[j], m, &v) !=
			            ROCE_METRIC_UNREAD &&
			    v > max)
				max = v;
	return max;
}

static int by_value_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Cells at or above this value are outlined as the worst (0: none). */
static double worst_threshold(const struct roce_job_report *r, const struct ranked *rows, size_t n_rows,
                              enum roce_report_metric m)
{
	double top[WORST_LABELLED * 8] = { 0 }, v;
	size_t n = 0;
	if (roce_report_metric_is_rate(m))
		return 0; /* a high rate is not worse */
	for (size_t i = 0; i < n_rows; i++) {
		const struct roce_fragment *nd = &r->nodes[rows[i].node];
		for (size_t j = 0; j < nd->n_ports && n < sizeof(top) / sizeof(top[0]); j++)
			if (roce_report_metric_value(nd, &nd->ports[j], m, &v) != ROCE_METRIC_UNREAD && v > 0)
				top[n++] = v;
	}
	qsort(top, n, sizeof(top[0]), by_value_desc);
	return n ? top[n < WORST_LABELLED ? n - 1 : WORST_LABELLED - 1] : 0;
}

#define CELL_W 64
#define CELL_H 18
#define HEAD_H 18
#define COL_CHARS 8 /* of a column heading, in 11px monospace */

static void heat_cell(FILE *out, const struct roce_fragment *n, const struct roce_fragment_port *p,
                      enum roce_report_metric m, double max, double worst, int x, int y)
{
	double v;
	char label[32], name[ROCE_REPORT_PORT_NAME_MAX];
	enum roce_report_metric_status st = roce_report_metric_value(n, p, m, &v);
	int l = level(v, max, roce_report_metric_is_rate(m));
	bool is_worst = st != ROCE_METRIC_UNREAD && worst > 0 && v >= worst;
	roce_report_metric_port(p, name, sizeof(name));
	if (st == ROCE_METRIC_UNREAD)
		snprintf(label, sizeof(label), "-");
	else
		roce_report_metric_short(v, roce_report_metric_is_rate(m), label, sizeof(label));
	static const char *const levels[LEVELS] = { "l0", "l1", "l2", "l3", "l4" };
	bool shown = st != ROCE_METRIC_UNREAD && l >= 0 && l < LEVELS; /* checked before it indexes */
	fprintf(out, "<rect class=\"cell %s %s%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" data-node=\"",
	        roce_report_metric_key(m), shown ? levels[l] : "na", is_worst ? " worst" : "", x, y, CELL_W - 2,
	        CELL_H - 2);
	roce_printable_html(out, n->name);
	fputs("\" data-port=\"", out);
	roce_printable_html(out, name);
	if (st == ROCE_METRIC_UNREAD)
		fputs("\" data-v=\"\"><title>", out);
	else
		fprintf(out, "\" data-v=\"%.17g\"><title>", v);
	roce_printable_html(out, n->name);
	fputc(' ', out);
	roce_printable_html(out, name);
	fprintf(out, ": %s%s %s</title></rect>", st == ROCE_METRIC_LOWER_BOUND ? "at least " : "",
	        st == ROCE_METRIC_UNREAD ? "not read" : label, roce_report_metric_title(m));
	if (l > 0 || st == ROCE_METRIC_UNREAD)
		fprintf(out, "<text class=\"v l%d\" x=\"%d\" y=\"%d\">%s%s</text>", l, x + CELL_W / 2 - 1,
		        y + CELL_H - 6, st == ROCE_METRIC_LOWER_BOUND ? "&#8805;" : "", label);
	fputc('\n', out);
}

static void heat_svg(FILE *out, const struct roce_job_report *r, const struct ranked *rows, size_t n_rows,
                     enum roce_report_metric m, double max)
{
	struct columns cols = { .n = 0 };
	size_t name_len = 4;
	for (size_t i = 0; i < n_rows; i++) {
		const struct roce_fragment *n = &r->nodes[rows[i].node];
		for (size_t j = 0; j < n->n_ports; j++)
			column_of(&cols, &n->ports[j], true);
		name_len = strlen(n->name) > name_len ? strlen(n->name) : name_len;
	}
	int lw = (int)(name_len > 24 ? 24 : name_len) * 7 + 10;
	double worst = worst_threshold(r, rows, n_rows, m);
	fprintf(out, "<svg class=\"hm\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s by node and port\">\n",
	        lw + (int)cols.n * CELL_W, HEAD_H + (int)n_rows * CELL_H, roce_report_metric_title(m));
	for (size_t c = 0; c < cols.n; c++) {
		/* a longer name is cut (to fit the cell) and whole in the tooltip */
		char cut[COL_CHARS + 1];
		snprintf(cut, sizeof(cut), "%s", cols.names[c]);
		fprintf(out, "<text class=\"col\" x=\"%d\" y=\"%d\"><title>", lw + (int)c * CELL_W + CELL_W / 2,
		        HEAD_H - 5);
		roce_printable_html(out, cols.names[c]);
		fputs("</title>", out);
		roce_printable_html(out, cut);
		fputs(strlen(cols.names[c]) > COL_CHARS ? "&#8230;</text>" : "</text>", out);
	}
	fputc('\n', out);
	for (size_t i = 0; i < n_rows; i++) {
		const struct roce_fragment *n = &r->nodes[rows[i].node];
		int y = HEAD_H + (int)i * CELL_H;
		fprintf(out, "<g class=\"row\"><text class=\"node\" x=\"0\" y=\"%d\">", y + CELL_H - 6);
		roce_printable_html(out, n->name);
		fputs("</text>\n", out);
		for (size_t j = 0; j < n->n_ports; j++) {
			int c = column_of(&cols, &n->ports[j], false);
			if (c >= 0)
				heat_cell(out, n, &n->ports[j], m, max, worst, lw + c * CELL_W, y);
		}
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
}

/* The scale: 0, the four levels of level() up to the maximum
 * (for counts, the whole numbers each holds; a level that holds none is
 * left out), not read. */
static void legend(FILE *out, enum roce_report_metric m, double max)
{
	char lo[32], hi[80];
	bool rate = roce_report_metric_is_rate(m);
	int x = 50;
	fputs("<svg class=\"legend\" width=\"640\" height=\"22\" role=\"img\" aria-label=\"scale\">"
	      "<rect class=\"cell l0\" x=\"0\" y=\"2\" width=\"16\" height=\"16\"/><text x=\"20\" y=\"15\">0</text>",
	      out);
	for (int l = 1; l <= 4 && max > 0; l++) {
		double from = level_from(max, l, rate), to = l == 4 ? max : level_from(max, l + 1, rate);
		if (rate) {
			snprintf(hi, sizeof(hi), "%s%s", l == 4 ? "&#8804;" : "&lt;",
			         roce_report_metric_short(to, true, lo, sizeof(lo)));
		} else {
			double first = from < 1 ? 1 : ceil(from), last = l == 4 ? max : ceil(to) - 1;
			if (first > last)
				continue;
			char b[32];
			roce_report_metric_short(first, false, lo, sizeof(lo));
			if (last > first)
				snprintf(hi, sizeof(hi), "%s-%s", lo,
				         roce_report_metric_short(last, false, b, sizeof(b)));
			else
				snprintf(hi, sizeof(hi), "%s", lo);
		}
		fprintf(out,
		        "<rect class=\"cell l%d\" x=\"%d\" y=\"2\" width=\"16\" height=\"16\"/>"
		        "<text x=\"%d\" y=\"15\">%s</text>",
		        l, x, x + 20, hi);
		x += 120;
	}
	fprintf(out,
	        "<rect class=\"cell na\" x=\"%d\" y=\"2\" width=\"16\" height=\"16\"/>"
	        "<text x=\"%d\" y=\"15\">not read</text></svg>\n",
	        x, x + 20);
}

/* One line on the nodes the map leaves out: how many, and their range. */
static void rest_summary(FILE *out, const struct ranked *all, size_t n_all, size_t n_rows, enum roce_report_metric m)
{
	double lo = -1, hi = -1;
	size_t unread = 0;
	char a[32], b[32];
	for (size_t i = n_rows; i < n_all; i++) {
		if (all[i].score < 0) {
			unread++;
			continue;
		}
		lo = lo < 0 || all[i].score < lo ? all[i].score : lo;
		hi = all[i].score > hi ? all[i].score : hi;
	}
	fprintf(out, "<p class=\"summary\">%zu more node(s) not drawn", n_all - n_rows);
	if (hi >= 0)
		fprintf(out, ": %s from %s to %s", roce_report_metric_is_rate(m) ? "their total" : "their worst port",
		        roce_report_metric_short(lo, roce_report_metric_is_rate(m), a, sizeof(a)),
		        roce_report_metric_short(hi, roce_report_metric_is_rate(m), b, sizeof(b)));
	if (unread)
		fprintf(out, "; %zu with nothing read", unread);
	fputs("</p>\n", out);
}

int roce_report_heatmap_print(FILE *out, const struct roce_job_report *r, enum roce_report_metric m)
{
	size_t n_rows;
	double max = metric_max(r, m);
	const char *key = roce_report_metric_key(m);
	fprintf(out, "<figure class=\"heatmap\" id=\"hm-%s\"><figcaption><h3>%s</h3><span class=\"muted\">%s.", key,
	        roce_report_metric_title(m), roce_report_metric_about(m));
	struct ranked *rows = heat_rows(r, m, &n_rows);
	if (!rows)
		return -1;
	if (n_rows < r->n_nodes && max > 0)
		fprintf(out, " The %zu of %zu nodes %s.", n_rows, r->n_nodes,
		        roce_report_metric_is_rate(m) ? "that moved the least (all their ports)"
		                                      : "whose worst port is highest");
	fputs("</span></figcaption>\n", out);
	if (max > 0) {
		legend(out, m, max);
		heat_svg(out, r, rows, n_rows, m, max);
		if (n_rows < r->n_nodes)
			rest_summary(out, rows, r->n_nodes, n_rows, m);
	} else {
		bool read = false;
		for (size_t i = 0; i < r->n_nodes && !read; i++)
			read = rows[i].score >= 0;
		fprintf(out, "<p class=\"zero\" data-metric=\"%s\">%s.</p>\n", key,
		        read ? "0 on every port that was read" : "Not read on any port");
	}
	fputs("</figure>\n", out);
	free(rows);
	return 0;
}
