/* SPDX-License-Identifier: GPL-2.0-or-later */
/* livereport_text.c - roce-report --live as text (livereport_text.h). */
#include "config.h"
#include "report/livereport_text.h"
#include "base/timearg.h"
#include "fragment/verdicts.h"
#include "report/report_metric.h"

#include <inttypes.h>
#include <string.h>

/* A port per row: where it is, then since the job started, then since the
 * node's sample before (LAST: how long that was). */
#define ROW "%-16s %-12s %-8s %-8s %7s  %10s %10s %8s %8s %8s %8s %8s  %6s %10s %10s %8s %8s\n"

/* The metrics of each half of a row, in column order. */
static const enum roce_report_metric since_start[] = { ROCE_METRIC_TX_RATE,  ROCE_METRIC_RX_RATE, ROCE_METRIC_LOSS,
	                                               ROCE_METRIC_TIMEOUT,  ROCE_METRIC_ECN,     ROCE_METRIC_PAUSE,
	                                               ROCE_METRIC_LINK_DOWN };
static const enum roce_report_metric since_last[] = { ROCE_METRIC_TX_RATE, ROCE_METRIC_RX_RATE, ROCE_METRIC_LOSS,
	                                              ROCE_METRIC_TIMEOUT };
#define N_START (sizeof(since_start) / sizeof(since_start[0]))
#define N_LAST (sizeof(since_last) / sizeof(since_last[0]))

/* A metric's cell: a rate in binary units, a count (">=" a lower bound), "-" not read. */
static void cell(const struct roce_fragment *n, const struct roce_fragment_port *p, enum roce_report_metric m,
                 char *buf, size_t len)
{
	double v;
	enum roce_report_metric_status s = roce_report_metric_value(n, p, m, &v);
	if (s == ROCE_METRIC_UNREAD)
		snprintf(buf, len, "-");
	else if (roce_report_metric_is_rate(m))
		roce_report_metric_short(v, true, buf, len);
	else
		snprintf(buf, len, "%s%.0f", s == ROCE_METRIC_LOWER_BOUND ? ">=" : "", v);
}

static void cells(const struct roce_live *l, const struct roce_live_port *p, const struct roce_live_interval *iv,
                  const enum roce_report_metric *ms, size_t n, char (*out)[24])
{
	struct roce_fragment fn;
	struct roce_fragment_port fp;
	roce_livereport_metric_port(l, p, iv, &fn, &fp);
	for (size_t i = 0; i < n; i++)
		cell(&fn, &fp, ms[i], out[i], sizeof(out[i]));
}

static void port_row(FILE *out, const struct roce_livereport *r, const struct roce_live *l,
                     const struct roce_live_port *p)
{
	char port[ROCE_NAME_MAX + 16], age[16], last[16], s[N_START][24], t[N_LAST][24];
	const char *state = p->presence == ROCE_PORT_VANISHED ? "gone" : p->state_now[0] ? p->state_now : "-";
	snprintf(port, sizeof(port), "%s:%u", p->device, p->port);
	roce_livereport_age(r, l->now_ns, age, sizeof(age));
	cells(l, p, &p->since_start, since_start, N_START, s);
	cells(l, p, &p->since_last, since_last, N_LAST, t);
	if (l->now_ns > p->since_last.from_ns && p->since_last.from_ns > 0)
		snprintf(last, sizeof(last), "%" PRId64 "s", (l->now_ns - p->since_last.from_ns) / 1000000000);
	else
		snprintf(last, sizeof(last), "-");
	fprintf(out, ROW, l->node, port, p->netdev[0] ? p->netdev : "-", state, age, s[0], s[1], s[2], s[3], s[4], s[5],
	        s[6], last, t[0], t[1], t[2], t[3]);
}

/* The span the view covers: the earliest start, the oldest and newest sample. */
static void header(FILE *out, const struct roce_livereport *r)
{
	int64_t start = 0, oldest = 0, newest = 0;
	char started[32], old_age[16], new_age[16];
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_live *l = &r->nodes[i];
		if (l->start_ns > 0 && (!start || l->start_ns < start))
			start = l->start_ns;
		if (!oldest || l->now_ns < oldest)
			oldest = l->now_ns;
		if (l->now_ns > newest)
			newest = l->now_ns;
	}
	fprintf(out, "RoCE live view of job %s: %zu node(s), started %s; samples taken %s to %s ago\n", r->job_id,
	        r->n_nodes, roce_timearg_iso(start, started, sizeof(started)),
	        roce_livereport_age(r, newest, new_age, sizeof(new_age)),
	        roce_livereport_age(r, oldest, old_age, sizeof(old_age)));
	fprintf(out, "Each node's health check samples it (HealthCheckInterval): TX/s .. LINKDOWN since the job "
	             "started, LAST and what follows since the node's sample before.\n");
}

static void events(FILE *out, const struct roce_livereport *r)
{
	char a[32], b[32];
	size_t n = 0;
	for (size_t i = 0; i < r->n_nodes; i++)
		n += r->nodes[i].n_events;
	if (!n)
		return;
	fprintf(out, "Seen while the job runs:\n");
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_live *l = &r->nodes[i];
		for (size_t k = 0; k < l->n_events; k++) {
			const struct roce_live_event *e = &l->events[k];
			int sev = roce_live_event_severity(e->code);
			const char *fix = roce_live_event_fix(e->code);
			fprintf(out, "  %s %s %s %s: %s (seen from %s, %s%s)\n",
			        roce_verdict_severity_name((enum roce_severity)sev), l->node, e->subject, e->code,
			        e->message, roce_timearg_iso(e->first_ns, a, sizeof(a)),
			        e->last_ns == l->now_ns ? "still at the latest sample" : "last at ",
			        e->last_ns == l->now_ns ? "" : roce_timearg_iso(e->last_ns, b, sizeof(b)));
			fprintf(out, "       fix: %s\n", fix ? fix : "");
		}
	}
}

/* At most this many names in a line; the rest counted. */
#define NAMES_SHOWN 32

static void ended(FILE *out, const struct roce_livereport *r)
{
	if (!r->n_ended)
		return;
	fprintf(out, "The job has ended on %zu node(s) (roce-report %s shows their report): ", r->n_ended, r->job_id);
	for (size_t i = 0; i < r->n_ended && i < NAMES_SHOWN; i++)
		fprintf(out, "%s%s", i ? ", " : "", r->ended[i]);
	if (r->n_ended > NAMES_SHOWN)
		fprintf(out, " and %zu more", r->n_ended - NAMES_SHOWN);
	fputc('\n', out);
}

int roce_livereport_text_print(FILE *out, const struct roce_livereport *r)
{
	header(out, r);
	fprintf(out, ROW, "NODE", "PORT", "NETDEV", "STATE", "SAMPLED", "TX/s", "RX/s", "LOSS", "TIMEOUT", "ECN_MARK",
	        "PAUSE", "LINKDOWN", "LAST", "TX/s", "RX/s", "LOSS", "TIMEOUT");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t k = 0; k < r->nodes[i].n_ports; k++)
			port_row(out, r, &r->nodes[i], &r->nodes[i].ports[k]);
	events(out, r);
	ended(out, r);
	if (r->n_errors)
		fprintf(out, "%zu live file(s) could not be used (listed on stderr)\n", r->n_errors);
	if (r->skipped)
		fprintf(out, "%zu more live file(s) not read (at most %d)\n", r->skipped, ROCE_LIVEREPORT_NODES_MAX);
	return ferror(out) ? -1 : 0;
}
