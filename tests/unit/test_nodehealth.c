/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_nodehealth.c - jobs' reports folded into node port rows and ranked (nodehealth.c), and its printers. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "pipeline/delta.h"
#include "report/nodehealth.h"
#include "report/nodehealth_html.h"
#include "report/nodehealth_json.h"
#include "report/nodehealth_prometheus.h"
#include "report/nodehealth_text.h"
#include "report/report_verdicts.h"

/* What happened to one node port in a job. */
enum sick { FINE, LOSS, TIMEOUT, LINK_DOWN, SLOW, LOSS_AND_DOWN, TREND };

/* Job id of nodes n1..n<nodes>, two ports each, ended at end_s; node
 * sick_node's port mlx5_<sick_port> had what. */
static void job(struct roce_job_report *r, const char *id, size_t nodes, int64_t end_s, size_t sick_node,
                size_t sick_port, enum sick what)
{
	struct roce_error err;
	roce_report_init(r, id);
	for (size_t i = 1; i <= nodes; i++) {
		struct roce_delta d;
		char name[16];
		snprintf(name, sizeof(name), "n%zu", i);
		fx_delta(&d, 2, 10);
		struct roce_port_delta *pd = &d.ports[sick_port];
		if (i == sick_node) {
			if (what == LOSS || what == LOSS_AND_DOWN)
				pd->c[ROCE_C_OUT_OF_SEQUENCE].value = 40;
			if (what == TIMEOUT)
				pd->c[ROCE_C_LOCAL_ACK_TIMEOUT_ERR].value = 3;
			if (what == LINK_DOWN || what == LOSS_AND_DOWN)
				pd->c[ROCE_C_LINK_DOWNED].value = 1;
			if (what == SLOW) {
				pd->check = ROCE_FAIL;
				char finding[64];
				/* as the epilog writes it: when, then the finding */
				snprintf(finding, sizeof(finding), "link_rate: mlx5_%zu port 1 runs at 25 Gb/s",
				         sick_port);
				roce_delta_check_why(pd->check_why, false, finding);
			}
		}
		struct roce_fragment_meta m = fx_meta(name);
		m.job_id = id;
		m.end_ns = end_s * 1000000000;
		m.start_ns = m.end_ns - 10000000000;
		/* the health check saw the port's symbol_error grow by 50 just before the job ended */
		uint64_t threshold[ROCE_N_COUNTERS] = { [ROCE_C_SYMBOL_ERROR] = 10 };
		struct roce_trend_port tp = { .port = 1 };
		struct roce_trend t = { end_s - 1, &tp, 1 };
		snprintf(tp.device, sizeof(tp.device), "mlx5_%zu", sick_port);
		tp.c[ROCE_C_SYMBOL_ERROR] = (struct roce_trend_counter){ true, 50, 50, end_s - 1 };
		if (i == sick_node && what == TREND) {
			m.trend_end = &t;
			m.trend_threshold = threshold;
			m.trend_window_s = 3600;
		}
		json_object *f = fx_fragment(name, &d, &m);
		assert_int_equal(fx_report_add(r, f, name, &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
	}
	roce_report_sort(r);
	assert_int_equal(roce_report_verdicts(r), 0);
}

static void add(struct roce_nodehealth *h, const char *id, size_t nodes, int64_t end_s, size_t sick_node,
                size_t sick_port, enum sick what)
{
	struct roce_job_report r;
	job(&r, id, nodes, end_s, sick_node, sick_port, what);
	assert_int_equal(roce_nodehealth_add(h, &r), 0);
	roce_report_free(&r);
}

static const struct roce_nodehealth_row *find(const struct roce_nodehealth *h, const char *node, const char *dev)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->rows[i].node, node) == 0 && strcmp(h->rows[i].device, dev) == 0)
			return &h->rows[i];
	return NULL;
}

static void t_rank(void **state)
{
	(void)state;
	struct roce_nodehealth h;
	roce_nodehealth_init(&h);
	/* n3 mlx5_1 loses packets in 3 of 4 jobs (the last one also a link
	 * down: one job, two kinds); n2 mlx5_0 times out once; n1 mlx5_0 is
	 * slow once; jobs 14 and 17 (n1 alone) are fine */
	add(&h, "11", 4, 1000, 3, 1, LOSS);
	add(&h, "12", 4, 3000, 3, 1, LOSS_AND_DOWN);
	add(&h, "13", 4, 2000, 3, 1, LOSS);
	add(&h, "14", 4, 4000, 0, 0, FINE);
	add(&h, "15", 2, 500, 2, 0, TIMEOUT);
	add(&h, "16", 2, 600, 1, 0, SLOW);
	add(&h, "17", 1, 700, 0, 0, FINE);
	add(&h, "18", 2, 800, 2, 1, TREND);
	assert_int_equal(h.jobs, 8);
	assert_int_equal(h.jobs_bad, 6);
	assert_int_equal(h.first_ns, 500 * 1000000000LL);
	assert_int_equal(h.last_ns, 4000 * 1000000000LL);
	/* 4 nodes x (2 ports + the node's own row) */
	assert_int_equal(h.n, 12);
	const struct roce_nodehealth_row *r = find(&h, "n3", "mlx5_1");
	assert_non_null(r);
	assert_int_equal(r->seen, 4);
	assert_int_equal(r->bad, 3);
	assert_int_equal(r->jobs[ROCE_NH_LOSS], 3);
	assert_int_equal(r->jobs[ROCE_NH_LINK_DOWN], 1);
	/* the latest by end time, not the last added */
	assert_string_equal(r->last_job, "12");
	assert_int_equal(r->last_ns, 3000 * 1000000000LL);
	assert_int_equal(find(&h, "n3", "mlx5_0")->bad, 0);
	assert_int_equal(find(&h, "n2", "mlx5_0")->jobs[ROCE_NH_TIMEOUT], 1);
	assert_int_equal(find(&h, "n1", "mlx5_0")->jobs[ROCE_NH_SLOW_LINK], 1);
	assert_int_equal(find(&h, "n1", "mlx5_0")->seen, 8);
	assert_int_equal(find(&h, "n4", "")->seen, 4);
	/* the health check's trend carried into job 18's fragment: its own kind */
	r = find(&h, "n2", "mlx5_1");
	assert_int_equal(r->jobs[ROCE_NH_TREND], 1);
	assert_int_equal(r->bad, 1);
	assert_string_equal(r->last_job, "18");
	assert_string_equal(roce_nodehealth_problem_key(ROCE_NH_TREND), "counter_trend");

	roce_nodehealth_rank(&h);
	assert_string_equal(h.rows[0].node, "n3");
	assert_string_equal(h.rows[0].device, "mlx5_1");
	/* one bad job each: n2's two (seen in 6 jobs; by device) before n1 (seen in 8) */
	assert_string_equal(h.rows[1].node, "n2");
	assert_string_equal(h.rows[1].device, "mlx5_0");
	assert_string_equal(h.rows[2].node, "n2");
	assert_string_equal(h.rows[2].device, "mlx5_1");
	assert_string_equal(h.rows[3].node, "n1");
	assert_int_equal(h.rows[4].bad, 0);
	roce_nodehealth_free(&h);
}

/* A verdict about no port counts for the node's own row; a job without nodes is not a job. */
static void t_node_verdict(void **state)
{
	(void)state;
	struct roce_nodehealth h;
	struct roce_job_report r, empty;
	struct roce_delta d;
	struct roce_error err;
	roce_nodehealth_init(&h);
	fx_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_LINK_DOWNED].value = 2;
	json_object *f = fx_fragment("gpu1", &d, NULL);
	json_object *v = json_object_array_get_idx(json_object_object_get(f, "verdicts"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "code")), "link_down");
	json_object_object_add(v, "subject", json_object_new_string("node"));
	roce_report_init(&r, "4242");
	assert_int_equal(fx_report_add(&r, f, "gpu1", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	roce_report_sort(&r);
	assert_int_equal(roce_nodehealth_add(&h, &r), 0);
	roce_report_init(&empty, "22");
	assert_int_equal(roce_nodehealth_add(&h, &empty), 0);
	assert_int_equal(h.jobs, 1);
	assert_int_equal(find(&h, "gpu1", "")->jobs[ROCE_NH_LINK_DOWN], 1);
	assert_int_equal(find(&h, "gpu1", "mlx5_0")->bad, 0);
	roce_report_free(&r);
	roce_nodehealth_free(&h);
}

/* The printers: each names the sick port first; hostile names escaped. */
static char *printed(int (*print)(FILE *, const struct roce_nodehealth *), const struct roce_nodehealth *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	assert_non_null(mem);
	assert_int_equal(print(mem, h), 0);
	fclose(mem);
	return text;
}

/* A device name of 63 control bytes, 252 once escaped: the row keeps it
 * whole, so the same node port is one row in every job (a row that cut it
 * to 63 bytes was never found again: a new row per job). */
static void t_long_device(void **state)
{
	(void)state;
	struct roce_nodehealth h;
	char escaped[ROCE_FRAGMENT_DEVICE_MAX];
	roce_nodehealth_init(&h);
	for (int k = 0; k < 3; k++) {
		struct roce_job_report r;
		struct roce_error err;
		struct roce_delta d;
		char id[8];
		snprintf(id, sizeof(id), "%d", 40 + k);
		roce_report_init(&r, id);
		fx_delta(&d, 2, 10);
		memset(d.ports[1].device, 1, ROCE_NAME_MAX - 1);
		d.ports[1].device[ROCE_NAME_MAX - 1] = '\0';
		d.ports[1].c[ROCE_C_OUT_OF_SEQUENCE].value = 40;
		struct roce_fragment_meta m = fx_meta("n1");
		m.job_id = id;
		json_object *f = fx_fragment("n1", &d, &m);
		assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
		roce_report_sort(&r);
		assert_int_equal(roce_report_verdicts(&r), 0);
		assert_int_equal(roce_nodehealth_add(&h, &r), 0);
		roce_report_free(&r);
	}
	assert_int_equal(h.n, 3); /* the node, mlx5_0:1 and the long one */
	for (size_t i = 0; i < ROCE_NAME_MAX - 1; i++)
		memcpy(escaped + 4 * i, "\\x01", 4);
	escaped[ROCE_FRAGMENT_DEVICE_MAX - 1] = '\0';
	const struct roce_nodehealth_row *row = find(&h, "n1", escaped);
	assert_non_null(row);
	assert_int_equal(row->seen, 3);
	assert_int_equal(row->jobs[ROCE_NH_LOSS], 3); /* its verdict found its port, by the whole name */
	roce_nodehealth_free(&h);
}

/* One job of node n1 with ports ports and verdicts packet_loss verdicts
 * spread over them, folded into an empty node health: CPU ms of
 * roce_nodehealth_add, the least of three runs. */
static double add_ms(size_t ports, size_t verdicts)
{
	double best = -1;
	for (int run = 0; run < 3; run++) {
		struct roce_job_report r;
		struct roce_nodehealth h;
		job(&r, "60", 1, 1000, 0, 0, FINE);
		struct roce_fragment *n = &r.nodes[0];
		struct roce_fragment_port *p = roce_arena_grow(&n->arena, NULL, 0, ports * sizeof(*p));
		struct roce_fragment_verdict *v = roce_arena_grow(&n->arena, NULL, 0, verdicts * sizeof(*v));
		assert_true(p && v);
		char name[32];
		for (size_t i = 0; i < ports; i++) {
			p[i] = n->ports[0];
			snprintf(name, sizeof(name), "mlx5_%zu", i);
			p[i].device = roce_arena_strdup(&n->arena, name);
		}
		for (size_t k = 0; k < verdicts; k++) {
			snprintf(name, sizeof(name), "mlx5_%zu:1", (k * 7919) % ports);
			v[k] = (struct roce_fragment_verdict){ "packet_loss", roce_arena_strdup(&n->arena, name), "m",
				                               "f", ROCE_SEV_WARN };
		}
		n->ports = p;
		n->n_ports = ports;
		n->verdicts = v;
		n->n_verdicts = verdicts;
		roce_nodehealth_init(&h);
		double t0 = fx_cpu_ms();
		assert_int_equal(roce_nodehealth_add(&h, &r), 0);
		double ms = fx_cpu_ms() - t0;
		best = best < 0 || ms < best ? ms : best;
		assert_int_equal(h.n, ports + 1);
		assert_int_equal(find(&h, "n1", "mlx5_0")->jobs[ROCE_NH_LOSS], 1);
		roce_nodehealth_free(&h);
		roce_report_free(&r);
	}
	return best;
}

/* Folding a job in is linear in its ports and verdicts: eight times both
 * cost about eight to sixteen times the CPU, not sixty-four (a search of
 * the ports per verdict made one 9 MB fragment take 10-24 s of roce-report
 * --nodes).  CPU time, as t_groups_linear in test_report.c. */
static void t_add_linear(void **state)
{
	(void)state;
	double small = add_ms(128, 1024), large = add_ms(1024, 8192);
	print_message("# CPU: 128 ports x 1,024 verdicts %.1f ms, 1,024 x 8,192 %.1f ms\n", small, large);
	if (!(large < 32 * small + 5))
		fail_msg("128 ports x 1,024 verdicts: %.1f ms, 1,024 x 8,192: %.1f ms (x%.1f): not linear", small,
		         large, large / small);
}

static void t_printers(void **state)
{
	(void)state;
	struct roce_nodehealth h;
	roce_nodehealth_init(&h);
	add(&h, "31", 3, 1000, 2, 1, LOSS);
	add(&h, "32", 3, 2000, 2, 1, TIMEOUT);
	/* a hostile node name, as a fragment could carry it (kept escaped by the parser) */
	snprintf(h.rows[0].node, sizeof(h.rows[0].node), "<b>\"x\\");
	h.rows[0].bad = 1;
	h.since_ns = 500 * 1000000000LL;
	roce_nodehealth_rank(&h);

	char *t = printed(roce_nodehealth_text_print, &h);
	assert_non_null(strstr(t, "RoCE node health across 2 job(s) (2 with a problem)"));
	assert_non_null(strstr(t, "since 1970-01-01T00:08:20Z"));
	char *first = strstr(t, "LAST PROBLEM\n");
	assert_non_null(first);
	assert_int_equal(strncmp(first + 13, "n2 ", 3), 0);
	assert_non_null(strstr(first, "job 32, 1970-01-01T00:33:20Z"));
	free(t);

	t = printed(roce_nodehealth_json_print, &h);
	json_object *o = json_tokener_parse(t);
	assert_non_null(o);
	json_object *p0 = json_object_array_get_idx(json_object_object_get(o, "ports"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(p0, "node")), "n2");
	assert_int_equal(json_object_get_int(
	                         json_object_object_get(json_object_object_get(p0, "problems"), "timeouts")),
	                 1);
	assert_string_equal(json_object_get_string(
	                            json_object_object_get(json_object_object_get(p0, "last_problem"), "job_id")),
	                    "32");
	json_object_put(o);
	free(t);

	t = printed(roce_nodehealth_prometheus_print, &h);
	assert_non_null(
	        strstr(t,
	               "roce_node_port_problem_jobs{node=\"n2\",device=\"mlx5_1\",port=\"1\",problem=\"loss\"} 1\n"));
	assert_non_null(strstr(t, "roce_node_port_jobs_with_problem{node=\"n2\",device=\"mlx5_1\",port=\"1\"} 2\n"));
	assert_non_null(strstr(t, "node=\"<b>\\\"x\\\\\""));
	free(t);

	t = printed(roce_nodehealth_html_print, &h);
	assert_null(strstr(t, "<b>\"x"));
	assert_non_null(strstr(t, "&lt;b&gt;"));
	assert_non_null(strstr(t, "<table id=\"ports\">"));
	free(t);
	roce_nodehealth_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_rank),       cmocka_unit_test(t_node_verdict), cmocka_unit_test(t_long_device),
		cmocka_unit_test(t_add_linear), cmocka_unit_test(t_printers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
