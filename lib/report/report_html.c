/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_html.c - the HTML report (report_html.h): one self-contained page,
 * inline CSS and SVG and a few lines of plain JavaScript (table sorting),
 * nothing fetched, so it opens from a mail attachment or an air-gapped
 * cluster.  Every string from a fragment is hostile: each goes through
 * roce_printable_html().
 *
 * Size at 4,096 nodes: a heat map is bounded (report_heatmap.c); the port table at most
 * TABLE_ROWS rows (the worst ports first: the node's worst verdict, then
 * loss + timeouts + link downs, then pauses), node verdicts at most
 * VERDICT_ROWS; what is left out is counted.
 */
#include "config.h"
#include "report/report_html.h"
#include "base/printable.h"
#include "report/report_heatmap.h"
#include "report/report_metric.h"
#include "report/report_ports.h"
#include "report/report_ranwith.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_ROWS 1024
#define VERDICT_ROWS 256

/* ---------------------------------------------------------------- page */

static const char STYLE[] =
        "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#111;background:#fff}"
        "h1{font-size:1.5em;margin:0 0 .2em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}"
        "h3{margin:.2em 0}nav a{margin-right:1em}code,.mono{font-family:ui-monospace,monospace}"
        ".sev{display:inline-block;min-width:3em;font-weight:bold;text-transform:uppercase}"
        ".sev-fail .sev{color:#000;text-decoration:underline double}.sev-warn .sev{color:#333}"
        ".sev-info .sev{color:#666;font-weight:normal}"
        "ul.verdicts{list-style:none;padding:0}ul.verdicts li{margin:.5em 0;padding:.3em .6em;border-left:6px solid "
        "#999}"
        "ul.verdicts li.sev-fail{border-left:6px double #000}ul.verdicts li.sev-warn{border-left-style:dashed}"
        ".fix{margin-left:3.4em;color:#333}.differs{font-weight:bold}"
        "table{border-collapse:collapse}td,th{padding:2px 6px;border-bottom:1px solid #e4e4e4;text-align:right}"
        "td.t,th.t{text-align:left}th{position:sticky;top:0;background:#f3f3f3;cursor:pointer;user-select:none}"
        "th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after{content:' \\25BC'}"
        "figure.heatmap{margin:1em 0 2em}figcaption{margin-bottom:.4em}svg text{font:11px ui-monospace,monospace}"
        ".cell{stroke:#fff;stroke-width:1}.l0{fill:#f7fbff;stroke:#d0d7de}.l1{fill:#c6dbef}.l2{fill:#6baed6}"
        ".l3{fill:#2171b5}.l4{fill:#08306b}.na{fill:#fff;stroke:#888;stroke-dasharray:2 2}"
        ".worst{stroke:#e6550d;stroke-width:3}text.v{fill:#000;text-anchor:middle}text.v.l3,text.v.l4{fill:#fff}"
        "svg.legend{display:block;margin:.3em "
        "0}svg.hm{display:block}text.col{text-anchor:middle;fill:#333}.summary{color:#444}.muted{color:#666}";

/* Sorting: click a heading (again: the other way), or open the page with
 * #sort=KEY or #sort=-KEY (descending).  Numbers sort by data-v. */
static const char SCRIPT[] =
        "(function(){var t=document.getElementById('ports');if(!t)return;var h=t.tHead.rows[0].cells;"
        "function val(c){var v=c.getAttribute('data-v');return v===null?c.textContent:parseFloat(v);}"
        "function sortBy(k,desc){var col=-1,i;for(i=0;i<h.length;i++){if(h[i].getAttribute('data-key')===k)col=i;"
        "h[i].removeAttribute('aria-sort');}if(col<0)return;var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows);"
        "r.sort(function(x,y){var a=val(x.cells[col]),c=val(y.cells[col]);var d=(typeof a==='number'&&typeof "
        "c==='number')"
        "?a-c:String(a).localeCompare(String(c),undefined,{numeric:true});return desc?-d:d;});"
        "for(i=0;i<r.length;i++)b.appendChild(r[i]);h[col].setAttribute('aria-sort',desc?'descending':'ascending');"
        "t.setAttribute('data-sorted',(desc?'-':'')+k);}"
        "function fromHash(){var m=/^#sort=(-?)([a-z_]+)$/.exec(location.hash);if(m)sortBy(m[2],m[1]==='-');}"
        "for(var i=0;i<h.length;i++)h[i].addEventListener('click',function(){var k=this.getAttribute('data-key');"
        "var desc=t.getAttribute('data-sorted')!=='-'+k;location.hash='sort='+(desc?'-':'')+k;});"
        "window.addEventListener('hashchange',fromHash);fromHash();})();";

/* Anything for the Node verdicts section: a verdict, a node's note or a
 * fragment's error.  A clean job gets no empty section (as the text). */
static bool node_section(const struct roce_job_report *r)
{
	if (r->n_errors)
		return true;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].n_verdicts || r->nodes[i].note)
			return true;
	return false;
}

static void page_head(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	char *list = roce_report_nodelist(r, nodelist);
	double secs = roce_report_seconds(r);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
	      "script-src 'unsafe-inline'; img-src data:\">\n<title>RoCE fabric report for job ",
	      out);
	roce_printable_html(out, r->job_id);
	fprintf(out, "</title>\n<style>%s</style></head>\n<body>\n<header><h1>RoCE fabric report for job ", STYLE);
	roce_printable_html(out, r->job_id);
	fprintf(out, "</h1>\n<p id=\"summary\">%zu node(s) <span class=\"mono\">", r->n_nodes);
	roce_printable_html(out, list);
	if (secs >= 0)
		fprintf(out, "</span>, %.1f s</p>\n", secs);
	else
		fputs("</span>, unknown duration</p>\n", out);
	fputs("<nav><a href=\"#verdicts\">Verdicts</a><a href=\"#consistency\">Consistency</a>"
	      "<a href=\"#heatmaps\">Heat maps</a><a href=\"#nodes\">Ports</a>",
	      out);
	if (node_section(r))
		fputs("<a href=\"#node-verdicts\">Node verdicts</a>", out);
	fputs("</nav></header>\n", out);
	free(list);
}

/* ---------------------------------------------------------------- verdicts, consistency */

static int job_verdicts(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	struct roce_report_groups gs = { 0 };
	int rc = roce_report_verdict_groups(r, &gs);
	fputs("<section id=\"verdicts\"><h2>Job verdicts</h2>\n<ul class=\"verdicts\">\n", out);
	for (size_t i = 0; i < gs.n; i++) {
		const char *sev = roce_verdict_severity_name(gs.g[i].severity);
		char *nl = roce_report_group_nodelist(&gs.g[i], nodelist);
		fprintf(out, "<li class=\"verdict sev-%s\" data-code=\"", sev);
		roce_printable_html(out, gs.g[i].key);
		fprintf(out, "\"><span class=\"sev\">%s</span> <code class=\"code\">", sev);
		roce_printable_html(out, gs.g[i].key);
		fprintf(out, "</code> on %zu node(s): <span class=\"nodes mono\">", gs.g[i].n);
		roce_printable_html(out, nl);
		fputs("</span><div class=\"fix\">fix: ", out);
		roce_printable_html(out, gs.g[i].fix ? gs.g[i].fix : "");
		fputs("</div></li>\n", out);
		free(nl);
	}
	if (!gs.n)
		fputs("<li class=\"none\">none: no loss, congestion or link problems seen</li>\n", out);
	fputs("</ul></section>\n", out);
	roce_report_groups_free(&gs);
	return rc;
}

static int consistency(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	int rc = 0;
	fputs("<section id=\"consistency\"><h2>Consistency across nodes</h2>\n<table class=\"consistency\">\n", out);
	for (int k = 0; k < ROCE_CONS_N; k++) {
		struct roce_report_groups gs = { 0 };
		if (roce_report_consistency_groups(r, (enum roce_report_consistency)k, &gs) < 0)
			rc = -1;
		fprintf(out, "<tr data-key=\"%s\"%s><th class=\"t\" scope=\"row\">",
		        roce_report_consistency_name((enum roce_report_consistency)k),
		        gs.n > 1 ? " class=\"differs\"" : "");
		roce_printable_html(out, roce_report_consistency_title((enum roce_report_consistency)k));
		fputs("</th><td class=\"t\">", out);
		if (gs.n == 1) {
			roce_printable_html(out, gs.g[0].key);
			fputs(" on every node", out);
		} else if (gs.n > 1) {
			fputs("DIFFERS: ", out);
			for (size_t i = 0; i < gs.n; i++) {
				char *nl = roce_report_group_nodelist(&gs.g[i], nodelist);
				fputs(i ? "; " : "", out);
				roce_printable_html(out, gs.g[i].key);
				fputs(" on <span class=\"mono\">", out);
				roce_printable_html(out, nl);
				fputs("</span>", out);
				free(nl);
			}
		} else {
			fputs("<span class=\"muted\">not known</span>", out);
		}
		fputs("</td></tr>\n", out);
		roce_report_groups_free(&gs);
	}
	fputs("</table></section>\n", out);
	return rc;
}

/* The NCCL values the nodes ran with; a user's own value is marked. */
static int ran_with(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	const char *names[ROCE_RANWITH_VARS * 2];
	size_t n = roce_report_ranwith_names(r, names, sizeof(names) / sizeof(names[0]));
	int rc = 0;
	if (!n)
		return 0;
	fputs("<section id=\"ran-with\"><h2>Ran with</h2>\n<table class=\"ranwith\">\n", out);
	for (size_t i = 0; i < n; i++) {
		struct roce_report_groups gs = { 0 };
		if (roce_report_ranwith_groups(r, names[i], &gs) < 0)
			rc = -1;
		fputs("<tr><th class=\"t\" scope=\"row\">", out);
		roce_printable_html(out, names[i]);
		fputs("</th><td class=\"t\">", out);
		for (size_t k = 0; k < gs.n; k++) {
			char *nl = roce_report_group_nodelist(&gs.g[k], nodelist);
			fprintf(out, "%s<span class=\"%s\">", k ? "; " : "",
			        gs.g[k].severity ? "user differs" : "checked");
			roce_printable_html(out, gs.g[k].key);
			fputs("</span> on <span class=\"mono\">", out);
			roce_printable_html(out, nl);
			fputs("</span>", out);
			free(nl);
		}
		fputs("</td></tr>\n", out);
		roce_report_groups_free(&gs);
	}
	fputs("</table></section>\n", out);
	return rc;
}

static int heat_maps(FILE *out, const struct roce_job_report *r)
{
	int rc = 0;
	fputs("<section id=\"heatmaps\"><h2>Heat maps</h2>\n<p class=\"muted\">One row per node, one column per "
	      "port; darker is more (a log scale from the job's maximum), every value written in its cell, the "
	      "worst cells outlined; hover a cell for its node and port.</p>\n",
	      out);
	for (int m = 0; m < ROCE_METRIC_N; m++)
		if (roce_report_heatmap_print(out, r, (enum roce_report_metric)m) < 0)
			rc = -1;
	fputs("</section>\n", out);
	return rc;
}

/* ---------------------------------------------------------------- the port table */

struct port_row {
	size_t node, port;
	int sev; /* the node's worst verdict + 1, 0 none */
	double bad, pause;
};

static int by_badness(const void *a, const void *b)
{
	const struct port_row *x = a, *y = b;
	if (x->sev != y->sev)
		return y->sev - x->sev;
	if (x->bad != y->bad)
		return x->bad < y->bad ? 1 : -1;
	if (x->pause != y->pause)
		return x->pause < y->pause ? 1 : -1;
	return x->node != y->node ? (x->node < y->node ? -1 : 1) : (x->port < y->port ? -1 : x->port > y->port);
}

static double metric_or_zero(const struct roce_fragment *n, const struct roce_fragment_port *p,
                             enum roce_report_metric m)
{
	double v;
	return roce_report_metric_value(n, p, m, &v) == ROCE_METRIC_UNREAD ? 0 : v;
}

static struct port_row *port_rows(const struct roce_job_report *r, size_t *n_rows, size_t *n_all)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_nodes; i++)
		n += r->nodes[i].n_ports;
	struct port_row *rows = malloc((n ? n : 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	n = 0;
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_fragment *nd = &r->nodes[i];
		int sev = 0;
		for (size_t k = 0; k < nd->n_verdicts; k++)
			sev = nd->verdicts[k].severity + 1 > sev ? nd->verdicts[k].severity + 1 : sev;
		for (size_t j = 0; j < nd->n_ports; j++) {
			const struct roce_fragment_port *p = &nd->ports[j];
			rows[n++] = (struct port_row){ i, j, sev,
				                       metric_or_zero(nd, p, ROCE_METRIC_LOSS) +
				                               metric_or_zero(nd, p, ROCE_METRIC_TIMEOUT) +
				                               metric_or_zero(nd, p, ROCE_METRIC_LINK_DOWN),
				                       metric_or_zero(nd, p, ROCE_METRIC_PAUSE) };
		}
	}
	*n_all = *n_rows = n;
	if (n > TABLE_ROWS) {
		qsort(rows, n, sizeof(*rows), by_badness);
		*n_rows = TABLE_ROWS;
	}
	return rows;
}

static void text_cell(FILE *out, const char *s)
{
	fputs("<td class=\"t\">", out);
	roce_printable_html(out, s);
	fputs("</td>", out);
}

static void metric_cell(FILE *out, const struct roce_fragment *n, const struct roce_fragment_port *p,
                        enum roce_report_metric m)
{
	double v;
	char buf[32];
	enum roce_report_metric_status st = roce_report_metric_value(n, p, m, &v);
	if (st == ROCE_METRIC_UNREAD) {
		fputs("<td data-v=\"-1\">-</td>", out);
		return;
	}
	if (roce_report_metric_is_rate(m))
		roce_report_metric_short(v, true, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%.0f", v);
	fprintf(out, "<td class=\"%s\" data-v=\"%.17g\">%s%s</td>", roce_report_metric_key(m), v,
	        st == ROCE_METRIC_LOWER_BOUND ? "&#8805;" : "", buf);
}

/* A shown node's verdicts by port (report_ports.h), made at its first row:
 * a search of the node's verdicts per row cost rows x verdicts. */
struct by_port {
	size_t *first, *by;
};

static int node_by_port(struct by_port *b, struct roce_report_ports *scratch, const struct roce_fragment *n)
{
	if (b->first)
		return 0;
	if (roce_report_ports_index(scratch, n) < 0 || roce_report_ports_verdicts(scratch) < 0)
		return -1;
	size_t nf = n->n_ports + 1, nb = scratch->first[n->n_ports];
	b->first = malloc(nf * sizeof(*b->first));
	b->by = malloc((nb ? nb : 1) * sizeof(*b->by));
	if (!b->first || !b->by)
		return -1;
	memcpy(b->first, scratch->first, nf * sizeof(*b->first));
	memcpy(b->by, scratch->by, nb * sizeof(*b->by));
	return 0;
}

/* The port's own verdict codes (those whose subject is the port's name),
 * each with its message as a tooltip. */
static void verdicts_cell(FILE *out, const struct roce_fragment *n, const struct by_port *b, size_t j)
{
	fputs("<td class=\"t\">", out);
	for (size_t i = b->first[j]; i < b->first[j + 1]; i++) {
		const struct roce_fragment_verdict *v = &n->verdicts[b->by[i]];
		fprintf(out, "<span class=\"sev-%s\" title=\"", roce_verdict_severity_name(v->severity));
		roce_printable_html(out, v->message);
		fputs("\">", out);
		roce_printable_html(out, v->code);
		fputs("</span> ", out);
	}
	fputs("</td>", out);
}

static void port_row(FILE *out, const struct roce_fragment *n, const struct by_port *b, size_t j)
{
	const struct roce_fragment_port *p = &n->ports[j];
	char name[ROCE_REPORT_PORT_NAME_MAX];
	roce_report_metric_port(p, name, sizeof(name));
	fputs("<tr>", out);
	text_cell(out, n->name);
	text_cell(out, name);
	text_cell(out, p->netdev[0] ? p->netdev : "-");
	for (int m = 0; m < ROCE_METRIC_N; m++)
		metric_cell(out, n, p, (enum roce_report_metric)m);
	text_cell(out, p->presence != ROCE_PORT_BOTH ? roce_delta_presence_name(p->presence) : p->reset ? "reset" : "");
	verdicts_cell(out, n, b, j);
	fputs("</tr>\n", out);
}

static int port_table(FILE *out, const struct roce_job_report *r)
{
	size_t n_rows, n_all;
	struct port_row *rows = port_rows(r, &n_rows, &n_all);
	if (!rows)
		return -1;
	fputs("<section id=\"nodes\"><h2>Ports</h2>\n", out);
	if (n_rows < n_all)
		fprintf(out,
		        "<p class=\"summary\">The %zu worst of %zu ports (the node's worst verdict, then loss + "
		        "timeouts + link downs, then pauses); roce-report --format json has them all.</p>\n",
		        n_rows, n_all);
	fputs("<p class=\"muted\">Click a heading to sort (again: the other way); link a sorted view with "
	      "#sort=loss or #sort=-loss.  &#8805; = lower bound (counter reset or saturated), - = not read.</p>\n"
	      "<table id=\"ports\"><thead><tr><th class=\"t\" data-key=\"node\">node</th>"
	      "<th class=\"t\" data-key=\"port\">port</th><th class=\"t\" data-key=\"netdev\">netdev</th>",
	      out);
	for (int m = 0; m < ROCE_METRIC_N; m++)
		fprintf(out, "<th data-key=\"%s\" title=\"%s\">%s</th>", roce_report_metric_key(m),
		        roce_report_metric_about(m), roce_report_metric_title(m));
	fputs("<th class=\"t\" data-key=\"state\">state</th><th class=\"t\" data-key=\"verdicts\">verdicts</th>"
	      "</tr></thead>\n<tbody>\n",
	      out);
	struct roce_report_ports scratch = { 0 };
	struct by_port *b = calloc(r->n_nodes ? r->n_nodes : 1, sizeof(*b));
	int rc = b ? 0 : -1;
	for (size_t i = 0; i < n_rows && rc == 0; i++) {
		const struct roce_fragment *n = &r->nodes[rows[i].node];
		if ((rc = node_by_port(&b[rows[i].node], &scratch, n)) == 0)
			port_row(out, n, &b[rows[i].node], rows[i].port);
	}
	for (size_t i = 0; b && i < r->n_nodes; i++) {
		free(b[i].first);
		free(b[i].by);
	}
	free(b);
	roce_report_ports_free(&scratch);
	fputs("</tbody></table>\n", out);
	for (size_t i = 0; i < r->n_nodes; i++)
		if (!r->nodes[i].n_ports) {
			fputs("<p class=\"noports\">", out);
			roce_printable_html(out, r->nodes[i].name);
			fputs(": no RoCE ports</p>\n", out);
		}
	fputs("</section>\n", out);
	free(rows);
	return rc;
}

/* ---------------------------------------------------------------- node verdicts, notes, errors */

struct vref {
	const struct roce_fragment *node;
	const struct roce_fragment_verdict *v;
	size_t order;
};

static int by_severity(const void *a, const void *b)
{
	const struct vref *x = a, *y = b;
	if (x->v->severity != y->v->severity)
		return y->v->severity - x->v->severity;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void verdict_item(FILE *out, const struct vref *e)
{
	const char *sev = roce_verdict_severity_name(e->v->severity);
	fprintf(out, "<li class=\"sev-%s\"><span class=\"sev\">%s</span> <span class=\"mono\">", sev, sev);
	roce_printable_html(out, e->node->name);
	fputc(' ', out);
	roce_printable_html(out, e->v->subject);
	fputs("</span> <code>", out);
	roce_printable_html(out, e->v->code);
	fputs("</code>: ", out);
	roce_printable_html(out, e->v->message);
	fputs("<div class=\"fix\">fix: ", out);
	roce_printable_html(out, e->v->fix);
	fputs("</div></li>\n", out);
}

static int node_verdicts(FILE *out, const struct roce_job_report *r)
{
	size_t n = 0;
	if (!node_section(r))
		return 0;
	for (size_t i = 0; i < r->n_nodes; i++)
		n += r->nodes[i].n_verdicts;
	struct vref *all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return -1;
	n = 0;
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t k = 0; k < r->nodes[i].n_verdicts; k++, n++)
			all[n] = (struct vref){ &r->nodes[i], &r->nodes[i].verdicts[k], n };
	qsort(all, n, sizeof(*all), by_severity);
	fputs("<section id=\"node-verdicts\"><h2>Node verdicts</h2>\n<ul class=\"verdicts\">\n", out);
	for (size_t i = 0; i < n && i < VERDICT_ROWS; i++)
		verdict_item(out, &all[i]);
	fputs("</ul>\n", out);
	if (n > VERDICT_ROWS)
		fprintf(out,
		        "<p class=\"summary\">%zu more node verdict(s), none worse than %s: the job verdicts above "
		        "name every node.</p>\n",
		        n - VERDICT_ROWS, roce_verdict_severity_name(all[VERDICT_ROWS].v->severity));
	free(all);
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].note) {
			fputs("<p class=\"note\">note: ", out);
			roce_printable_html(out, r->nodes[i].name);
			fputs(": ", out);
			roce_printable_html(out, r->nodes[i].note);
			fputs("</p>\n", out);
		}
	for (size_t i = 0; i < r->n_errors; i++) {
		fputs("<p class=\"error\">error: fragment ", out);
		roce_printable_html(out, r->errors[i]);
		fputs("</p>\n", out);
	}
	fputs("</section>\n", out);
	return 0;
}

int roce_report_html_print(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	int rc = 0;
	page_head(out, r, nodelist);
	if (job_verdicts(out, r, nodelist) < 0)
		rc = -1;
	if (consistency(out, r, nodelist) < 0 || ran_with(out, r, nodelist) < 0)
		rc = -1;
	if (heat_maps(out, r) < 0 || port_table(out, r) < 0 || node_verdicts(out, r) < 0)
		rc = -1;
	fprintf(out, "<script>%s</script>\n</body></html>\n", SCRIPT);
	return rc < 0 || ferror(out) ? -1 : 0;
}

const char *roce_report_html_style(void) { return STYLE; }

const char *roce_report_html_script(void) { return SCRIPT; }
