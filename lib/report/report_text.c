/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_text.c - the text report (report_text.h). */
#include "config.h"
#include "report/report_text.h"
#include "report/report_metric.h"
#include "report/report_ranwith.h"
#include "base/parprint.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One port per row; the header uses the same columns. */
/* Nodes a thread formats at a time (parprint.h): about 500 KB of rows. */
#define NODES_PER_CHUNK 256

#define ROW "%-16s %-12s %-8s %10s %10s %10s %10s %7s %7s %8s %8s %8s %7s %8s %8s %s\n"

static const char *human_bytes(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

static bool lower_bound(uint8_t status) { return status == ROCE_DELTA_RESET || status == ROCE_DELTA_SATURATED; }

/* A counter cell: exact number, ">=N" lower bound, or "-" unknown. */
static const char *cell(const struct roce_fragment_port *p, enum roce_counter_id id, char *buf, size_t len)
{
	if (p->cs[id] == ROCE_DELTA_UNREAD)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%" PRIu64, lower_bound(p->cs[id]) ? ">=" : "", p->c[id]);
	return buf;
}

/* The sum of the counters that were read, "-" when none was. */
static const char *sum_cell(const struct roce_fragment_port *p, const enum roce_counter_id *ids, size_t n, char *buf,
                            size_t len)
{
	uint64_t sum = 0;
	bool any = false, bound = false;
	for (size_t i = 0; i < n; i++) {
		if (p->cs[ids[i]] == ROCE_DELTA_UNREAD)
			continue;
		any = true;
		sum += p->c[ids[i]];
		bound |= lower_bound(p->cs[ids[i]]);
	}
	if (!any)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%" PRIu64, bound ? ">=" : "", sum);
	return buf;
}

/* Pause frames over all priorities, received (rx) or sent. */
static const char *pfc_cell(const struct roce_fragment_port *p, bool rx, char *buf, size_t len)
{
	if (p->pfc_status == ROCE_DELTA_UNREAD) {
		snprintf(buf, len, "-");
		return buf;
	}
	uint64_t sum = 0;
	for (int q = 0; q < ROCE_PRIOS; q++)
		sum += rx ? p->pfc_ind[q] : p->pfc_req[q];
	snprintf(buf, len, "%s%" PRIu64, p->pfc_status == ROCE_DELTA_RESET ? ">=" : "", sum);
	return buf;
}

/* Bytes moved and bytes per second (report_metric.h: "-" when unread or
 * the duration is unknown). */
static void data_cells(const struct roce_fragment *n, const struct roce_fragment_port *p, enum roce_counter_id id,
                       enum roce_report_metric m, char *total, char *rate, size_t len)
{
	double v;
	if (p->cs[id] == ROCE_DELTA_UNREAD) {
		snprintf(total, len, "-");
		snprintf(rate, len, "-");
		return;
	}
	human_bytes((double)p->c[id], total, len);
	if (roce_report_metric_value(n, p, m, &v) != ROCE_METRIC_UNREAD)
		human_bytes(v, rate, len);
	else
		snprintf(rate, len, "-");
}

static void print_port_row(FILE *out, const struct roce_fragment *n, const struct roce_fragment_port *p)
{
	static const enum roce_counter_id loss[] = { ROCE_C_OUT_OF_SEQUENCE, ROCE_C_PACKET_SEQ_ERR,
		                                     ROCE_C_IMPLIED_NAK_SEQ_ERR };
	char port[ROCE_REPORT_PORT_NAME_MAX], tx[24], rx[24], txr[24], rxr[24], l[24], to[24], ecn[24], cnps[24],
	        cnph[24], cnpi[24], prx[24], ptx[24];
	snprintf(port, sizeof(port), "%s:%u", p->device, p->port);
	const char *state = p->presence != ROCE_PORT_BOTH ? roce_delta_presence_name(p->presence)
	                    : p->reset                    ? "reset"
	                                                  : "";
	data_cells(n, p, ROCE_C_PORT_XMIT_DATA, ROCE_METRIC_TX_RATE, tx, txr, sizeof(tx));
	data_cells(n, p, ROCE_C_PORT_RCV_DATA, ROCE_METRIC_RX_RATE, rx, rxr, sizeof(rx));
	fprintf(out, ROW, n->name, port, p->netdev[0] ? p->netdev : "-", tx, rx, txr, rxr,
	        sum_cell(p, loss, 3, l, sizeof(l)), cell(p, ROCE_C_LOCAL_ACK_TIMEOUT_ERR, to, sizeof(to)),
	        cell(p, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS, ecn, sizeof(ecn)),
	        cell(p, ROCE_C_NP_CNP_SENT, cnps, sizeof(cnps)), cell(p, ROCE_C_RP_CNP_HANDLED, cnph, sizeof(cnph)),
	        cell(p, ROCE_C_RP_CNP_IGNORED, cnpi, sizeof(cnpi)), pfc_cell(p, true, prx, sizeof(prx)),
	        pfc_cell(p, false, ptx, sizeof(ptx)), state);
}

/* The rows of nodes [begin, end) (roce_parprint_fn). */
static int node_rows(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	for (size_t i = begin; i < end; i++) {
		for (size_t j = 0; j < r->nodes[i].n_ports; j++)
			print_port_row(out, &r->nodes[i], &r->nodes[i].ports[j]);
		if (!r->nodes[i].n_ports)
			fprintf(out, "%-16s (no RoCE ports)\n", r->nodes[i].name);
	}
	return ferror(out) ? -1 : 0;
}

static int print_ports(FILE *out, const struct roce_job_report *r)
{
	fprintf(out, ROW, "NODE", "PORT", "NETDEV", "TX", "RX", "TX/s", "RX/s", "LOSS", "TIMEOUT", "ECN_MARK",
	        "CNP_SENT", "CNP_HNDL", "CNP_IGN", "PAUSE_RX", "PAUSE_TX", "STATE");
	if (roce_parprint(out, r->n_nodes, NODES_PER_CHUNK, node_rows, r) < 0)
		return -1;
	fprintf(out, "LOSS = out_of_sequence + packet_seq_err + implied_nak_seq_err; \">=\" = lower bound "
	             "(counter reset or saturated); \"-\" = not read\n");
	return 0;
}

static int print_job_verdicts(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	struct roce_report_groups gs = { 0 };
	int rc = roce_report_verdict_groups(r, &gs);
	fprintf(out, "\nJob verdicts:\n");
	for (size_t i = 0; i < gs.n; i++) {
		char *nl = roce_report_group_nodelist(&gs.g[i], nodelist);
		fprintf(out, "  %-4s %s on %zu node(s): %s\n", roce_verdict_severity_name(gs.g[i].severity),
		        gs.g[i].key, gs.g[i].n, nl ? nl : "");
		free(nl);
	}
	if (!gs.n)
		fprintf(out, "  none: no loss, congestion or link problems seen\n");
	roce_report_groups_free(&gs);
	return rc;
}

/* " v1 on nodes; v2 on nodes" and the line's end. */
static void print_groups(FILE *out, const struct roce_report_groups *gs, roce_nodelist_fn nodelist)
{
	for (size_t i = 0; i < gs->n; i++) {
		char *nl = roce_report_group_nodelist(&gs->g[i], nodelist);
		fprintf(out, "%s %s on %s", i ? ";" : "", gs->g[i].key, nl ? nl : "");
		free(nl);
	}
	fprintf(out, "\n");
}

static int print_consistency(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	int rc = 0;
	fprintf(out, "\nConsistency across nodes:\n");
	for (int k = 0; k < ROCE_CONS_N; k++) {
		struct roce_report_groups gs = { 0 };
		const char *title = roce_report_consistency_title((enum roce_report_consistency)k);
		if (roce_report_consistency_groups(r, (enum roce_report_consistency)k, &gs) < 0)
			rc = -1;
		if (gs.n == 1) {
			fprintf(out, "  %-18s %s on every node\n", title, gs.g[0].key);
		} else if (gs.n > 1) {
			fprintf(out, "  %-18s DIFFERS:", title);
			print_groups(out, &gs, nodelist);
		}
		roce_report_groups_free(&gs);
	}
	return rc;
}

/* The NCCL values the nodes ran with (none recorded: nothing printed). */
static int print_ran_with(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	const char *names[ROCE_RANWITH_VARS * 2];
	size_t n = roce_report_ranwith_names(r, names, sizeof(names) / sizeof(names[0]));
	int rc = 0;
	if (n)
		fprintf(out, "\nRan with:\n");
	for (size_t i = 0; i < n; i++) {
		struct roce_report_groups gs = { 0 };
		if (roce_report_ranwith_groups(r, names[i], &gs) < 0)
			rc = -1;
		fprintf(out, "  %-18s", names[i]);
		print_groups(out, &gs, nodelist);
		roce_report_groups_free(&gs);
	}
	return rc;
}

/* Every node's verdicts with their fixes (no header on a clean job), then
 * notes and unusable fragments. */
static void print_nodes(FILE *out, const struct roce_job_report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_nodes; i++)
		n += r->nodes[i].n_verdicts;
	if (n)
		fprintf(out, "\nNode verdicts:\n");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts; j++) {
			const struct roce_fragment_verdict *v = &r->nodes[i].verdicts[j];
			fprintf(out, "  %-4s %s %s %s: %s\n       fix: %s\n", roce_verdict_severity_name(v->severity),
			        r->nodes[i].name, v->subject, v->code, v->message, v->fix);
		}
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].note)
			fprintf(out, "note: %s: %s\n", r->nodes[i].name, r->nodes[i].note);
	for (size_t i = 0; i < r->n_errors; i++)
		fprintf(out, "error: fragment %s\n", r->errors[i]);
}

int roce_report_text_print(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	char *list = roce_report_nodelist(r, nodelist);
	char dur[32] = "unknown duration";
	double secs = roce_report_seconds(r);
	if (secs >= 0)
		snprintf(dur, sizeof(dur), "%.1f s", secs);
	fprintf(out, "RoCE fabric report for job %s: %zu node(s) %s, %s\n\n", r->job_id, r->n_nodes, list ? list : "",
	        dur);
	free(list);
	int rc = print_ports(out, r);
	if (print_job_verdicts(out, r, nodelist) < 0)
		rc = -1;
	if (print_consistency(out, r, nodelist) < 0 || print_ran_with(out, r, nodelist) < 0)
		rc = -1;
	print_nodes(out, r);
	return rc;
}
