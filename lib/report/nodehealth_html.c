/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth_html.c - node health across jobs as one HTML page
 * (nodehealth_html.h), in the job report's style and with its sorting
 * script (report_html.c).  The table holds the node ports with a problem,
 * at most TABLE_ROWS of them (the worst: rows come ranked); the rest are
 * counted.  Node names come from fragments: each goes through
 * roce_printable_html().
 */
#include "config.h"
#include "report/nodehealth_html.h"
#include "base/printable.h"
#include "report/report_html.h"
#include "report/report_metric.h"
#include "base/timearg.h"

#define TABLE_ROWS 2048

static void page_head(FILE *out, const struct roce_nodehealth *h)
{
	char a[32], b[32];
	fprintf(out,
	        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	        "<meta name=\"viewport\" content=\"width=device-width\">"
	        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
	        "<title>RoCE node health</title>\n<style>%s</style></head>\n<body>\n"
	        "<header><h1>RoCE node health across jobs</h1>\n<p id=\"summary\">%zu job(s), %zu with a problem",
	        roce_report_html_style(), h->jobs, h->jobs_bad);
	if (h->uid >= 0)
		fprintf(out, "; yours only (uid %ld)", h->uid);
	if (h->jobs)
		fprintf(out, "; ended %s .. %s", roce_timearg_iso(h->first_ns, a, sizeof(a)),
		        roce_timearg_iso(h->last_ns, b, sizeof(b)));
	if (h->since_ns)
		fprintf(out, "; since %s", roce_timearg_iso(h->since_ns, a, sizeof(a)));
	if (h->unusable)
		fprintf(out, "; %zu fragment(s) could not be used", h->unusable);
	fputs("</p></header>\n", out);
}

static void text_cell(FILE *out, const char *s)
{
	fputs("<td class=\"t\">", out);
	roce_printable_html(out, s);
	fputs("</td>", out);
}

static void row(FILE *out, const struct roce_nodehealth_row *r)
{
	char port[ROCE_REPORT_PORT_NAME_MAX], when[32];
	fputs("<tr>", out);
	text_cell(out, r->node);
	text_cell(out, roce_nodehealth_port_name(r, port, sizeof(port)));
	fprintf(out, "<td data-v=\"%u\">%u</td><td data-v=\"%u\">%u</td>", r->seen, r->seen, r->bad, r->bad);
	for (int k = 0; k < ROCE_NH_N; k++)
		fprintf(out, "<td class=\"%s\" data-v=\"%u\">%u</td>",
		        roce_nodehealth_problem_key((enum roce_nodehealth_problem)k), r->jobs[k], r->jobs[k]);
	text_cell(out, r->last_job);
	fprintf(out, "<td class=\"t\" data-v=\"%lld\">%s</td></tr>\n", (long long)(r->last_ns / 1000000000),
	        roce_timearg_iso(r->last_ns, when, sizeof(when)));
}

static void table(FILE *out, const struct roce_nodehealth *h)
{
	size_t sick = 0, ports = 0, fine = 0, shown = 0;
	for (size_t i = 0; i < h->n; i++) {
		sick += h->rows[i].bad > 0;
		ports += h->rows[i].device[0] != '\0';
		fine += !h->rows[i].bad && h->rows[i].device[0];
	}
	fputs("<section id=\"nodes\"><h2>Node ports by jobs with a problem</h2>\n", out);
	if (!sick) {
		fprintf(out, "<p class=\"summary\">No problem in any job on %zu node port(s).</p></section>\n", ports);
		return;
	}
	fputs("<p class=\"muted\">Each number counts jobs.  Click a heading to sort (again: the other way); link a "
	      "sorted view with #sort=-loss.</p>\n<table id=\"ports\"><thead><tr><th class=\"t\" "
	      "data-key=\"node\">node</th>"
	      "<th class=\"t\" data-key=\"port\">port</th><th data-key=\"jobs\">jobs</th>"
	      "<th data-key=\"bad\">with a problem</th>",
	      out);
	for (int k = 0; k < ROCE_NH_N; k++)
		fprintf(out, "<th data-key=\"%s\">%s</th>",
		        roce_nodehealth_problem_key((enum roce_nodehealth_problem)k),
		        roce_nodehealth_problem_title((enum roce_nodehealth_problem)k));
	fputs("<th class=\"t\" data-key=\"last_job\">last job with a problem</th>"
	      "<th class=\"t\" data-key=\"last_end\">its end</th></tr></thead>\n<tbody>\n",
	      out);
	for (size_t i = 0; i < h->n && shown < TABLE_ROWS; i++)
		if (h->rows[i].bad) {
			row(out, &h->rows[i]);
			shown++;
		}
	fputs("</tbody></table>\n", out);
	if (shown < sick)
		fprintf(out,
		        "<p class=\"summary\">The %zu worst of %zu node ports with a problem; roce-report --nodes "
		        "--format json has them all.</p>\n",
		        shown, sick);
	fprintf(out, "<p class=\"summary\">%zu other node port(s): no problem in any job.</p>\n</section>\n", fine);
}

int roce_nodehealth_html_print(FILE *out, const struct roce_nodehealth *h)
{
	page_head(out, h);
	table(out, h);
	fprintf(out, "<script>%s</script>\n</body></html>\n", roce_report_html_script());
	return ferror(out) ? -1 : 0;
}
