/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodehealth_text.c - node health across jobs as text (nodehealth_text.h). */
#include "config.h"
#include "report/nodehealth_text.h"
#include "report/report_metric.h"
#include "base/timearg.h"

#include <stdlib.h>
#include <string.h>

/* One node port per row; the header uses the same columns. */
#define ROW "%-16s %-12s %6s %6s %6s %8s %11s %9s %9s %5s  %s\n"

/* Which jobs were read: every user's or one user's, since when, over what span. */
static void scope(FILE *out, const struct roce_nodehealth *h)
{
	char a[32], b[32];
	fprintf(out, "RoCE node health across %zu job(s) (%zu with a problem)", h->jobs, h->jobs_bad);
	if (h->uid >= 0)
		fprintf(out, ", yours only (uid %ld)", h->uid);
	if (h->jobs)
		fprintf(out, ", ended %s .. %s", roce_timearg_iso(h->first_ns, a, sizeof(a)),
		        roce_timearg_iso(h->last_ns, b, sizeof(b)));
	fputc('\n', out);
	if (h->since_ns)
		fprintf(out, "Jobs that ended since %s\n", roce_timearg_iso(h->since_ns, a, sizeof(a)));
	if (h->unusable)
		fprintf(out, "%zu fragment(s) could not be used (listed on stderr)\n", h->unusable);
}

static void row(FILE *out, const struct roce_nodehealth_row *r)
{
	char port[ROCE_REPORT_PORT_NAME_MAX], seen[16], bad[16], n[ROCE_NH_N][16], last[96], when[32];
	roce_nodehealth_port_name(r, port, sizeof(port));
	snprintf(seen, sizeof(seen), "%u", r->seen);
	snprintf(bad, sizeof(bad), "%u", r->bad);
	for (int p = 0; p < ROCE_NH_N; p++)
		snprintf(n[p], sizeof(n[p]), "%u", r->jobs[p]);
	snprintf(last, sizeof(last), "job %s, %s", r->last_job, roce_timearg_iso(r->last_ns, when, sizeof(when)));
	fprintf(out, ROW, r->node, port, seen, bad, n[ROCE_NH_LOSS], n[ROCE_NH_TIMEOUT], n[ROCE_NH_PAUSE_STORM],
	        n[ROCE_NH_LINK_DOWN], n[ROCE_NH_SLOW_LINK], n[ROCE_NH_TREND], last);
}

int roce_nodehealth_text_print(FILE *out, const struct roce_nodehealth *h)
{
	size_t sick = 0, ports = 0;
	scope(out, h);
	for (size_t i = 0; i < h->n; i++) {
		sick += h->rows[i].bad > 0;
		ports += h->rows[i].device[0] != '\0';
	}
	if (!sick) {
		fprintf(out, "\nNo problem in any job on %zu node port(s).\n", ports);
		return ferror(out) ? -1 : 0;
	}
	fprintf(out, "\nNode ports by jobs with a problem (columns: jobs that saw each):\n");
	fprintf(out, ROW, "NODE", "PORT", "JOBS", "BAD", "LOSS", "TIMEOUTS", "PAUSE_STORM", "LINK_DOWN", "SLOW_LINK",
	        "TREND", "LAST PROBLEM");
	for (size_t i = 0; i < h->n; i++)
		if (h->rows[i].bad)
			row(out, &h->rows[i]);
	size_t fine = 0;
	for (size_t i = 0; i < h->n; i++)
		fine += !h->rows[i].bad && h->rows[i].device[0];
	if (fine)
		fprintf(out, "\n%zu other node port(s): no problem in any job.\n", fine);
	return ferror(out) ? -1 : 0;
}
