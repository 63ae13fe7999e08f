/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_html.c - the HTML report (the page in a browser: tests/e2e/report-html.sh). */
#include "config.h"
#include "unit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "report/report_html.h"
#include "report/report_verdicts.h"

static char *page_of(const struct roce_job_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(roce_report_html_print(out, r, fx_nodelist), 0);
	fclose(out);
	return text;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static void t_page(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	char *page = page_of(&r);
	assert_non_null(strstr(page, "<title>RoCE fabric report for job 4242</title>"));
	assert_non_null(strstr(page, "<li class=\"verdict sev-warn\" data-code=\"packet_loss\">"));
	assert_non_null(strstr(page, "<tr data-key=\"active_mtu\" class=\"differs\">"));
	/* n2's port with loss: the darkest level (the job's maximum) and its value */
	assert_non_null(strstr(page, "<rect class=\"cell loss l4 worst\""));
	assert_non_null(
	        strstr(page, "data-node=\"n2\" data-port=\"mlx5_0:1\" data-v=\"3\"><title>n2 mlx5_0:1: 3 Packet loss"));
	assert_int_equal(count(page, "<tr><td class=\"t\">"), 8); /* 4 nodes x 2 ports */
	assert_int_equal(count(page, "<script"), 1);
	assert_non_null(strstr(page, "error: fragment n9.json: fragment of job 7, not 4242</p>"));
	assert_non_null(strstr(page, "<section id=\"node-verdicts\"><h2>Node verdicts</h2>"));
	assert_non_null(strstr(page, "<a href=\"#node-verdicts\">Node verdicts</a>"));
	free(page);
	roce_report_free(&r);
}

/* A report the reader would refuse (its fragment's "seconds" is 5e-324,
 * its rates infinite) but that got here: every cell of a rate is "not
 * read", no level is computed from infinity (UBSan: the heat map indexed
 * its levels with INT_MIN + 1), no number is inf or nan. */
static void t_infinite_rate(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	for (size_t i = 0; i < r.n_nodes; i++) {
		r.nodes[i].seconds = 5e-324;
		for (size_t j = 0; j < r.nodes[i].n_ports; j++)
			r.nodes[i].ports[j].c[ROCE_C_PORT_XMIT_DATA] = 1000 + j;
	}
	char *page = page_of(&r);
	assert_non_null(strstr(page, "<p class=\"zero\" data-metric=\"tx\">Not read on any port.</p>"));
	assert_null(strstr(page, "=\"inf"));
	assert_null(strstr(page, "infEiB/s"));
	assert_null(strstr(page, "nan\""));
	free(page);
	roce_report_free(&r);
}

/* Every string from a fragment is text, never markup. */
static void t_hostile(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	r.nodes[1].verdicts[0].message = roce_arena_strdup(&r.nodes[1].arena, "<script>alert(1)</script>");
	r.nodes[0].ports[0].device = roce_arena_strdup(&r.nodes[0].arena, "x\"><img src=y onerror=z>");
	roce_report_error(&r, "<b>'q'", "&");
	char *page = page_of(&r);
	assert_null(strstr(page, "<script>alert"));
	assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_null(strstr(page, "<img"));
	assert_non_null(strstr(page, "x&quot;&gt;&lt;img src=y onerror=z&gt;:1"));
	assert_non_null(strstr(page, "&lt;b&gt;&#39;q&#39;: &amp;"));
	free(page);
	roce_report_free(&r);
}

/* What the job ran with: the user's own value marked, hostile text escaped. */
static void t_ran_with(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	for (size_t i = 0; i < 2; i++) {
		/* in the node's arena, as all a fragment holds (fragment.h): zeroed, freed with it */
		r.nodes[i].ran_with = roce_arena_grow(&r.nodes[i].arena, NULL, 0, sizeof(*r.nodes[i].ran_with));
		assert_non_null(r.nodes[i].ran_with);
		roce_ranwith_set(r.nodes[i].ran_with, "NCCL_IB_HCA", i ? "<i>x</i>" : "=mlx5_0:1", "=mlx5_0:1", i == 1);
	}
	char *page = page_of(&r);
	assert_non_null(strstr(page, "<section id=\"ran-with\">"));
	assert_non_null(strstr(page, "<span class=\"checked\">=mlx5_0:1</span> on <span class=\"mono\">n1..n1(1)"));
	assert_non_null(
	        strstr(page,
	               "<span class=\"user differs\">&lt;i&gt;x&lt;/i&gt; (the job&#39;s own; checked: =mlx5_0:1)"));
	free(page);
	roce_report_free(&r);
}

/* A clean job: no empty Node verdicts section, no link to it (as the text). */
static void t_clean_job(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, NULL);
	assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	assert_int_equal(r.nodes[0].n_verdicts, 0);
	char *page = page_of(&r);
	assert_non_null(strstr(page, "none: no loss, congestion or link problems seen"));
	assert_null(strstr(page, "Node verdicts"));
	assert_null(strstr(page, "node-verdicts"));
	free(page);
	roce_report_free(&r);
}

/* The rate heat map tells 1.4 GiB/s from 8.1 GiB/s (a log scale from 0
 * put every rate of a busy job in one level); a rate two decades below the
 * maximum is in the lightest. */
static void t_rate_levels(void **state)
{
	(void)state;
	static const struct {
		const char *node;
		double gib_s;
		const char *cls;
	} nodes[] = { { "a", 8.1, "cell tx l4" }, { "b", 1.4, "cell tx l3" }, { "c", 0.05, "cell tx l1" } };
	struct roce_job_report r;
	struct roce_error err;
	roce_report_init(&r, "4242");
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		struct roce_delta d;
		fx_delta(&d, 1, 10);
		/* port_xmit_data counts 4-byte words: 10 s at the node's rate */
		d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = (uint64_t)(nodes[i].gib_s * 10 * 1073741824.0 / 4);
		json_object *f = fx_fragment(nodes[i].node, &d, NULL);
		assert_int_equal(fx_report_add(&r, f, nodes[i].node, &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
	}
	roce_report_sort(&r);
	assert_int_equal(roce_report_verdicts(&r), 0);
	char *page = page_of(&r);
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		char cell[160];
		snprintf(cell, sizeof(cell), "<rect class=\"%s", nodes[i].cls);
		const char *at = strstr(page, cell);
		char node[32];
		snprintf(node, sizeof(node), "data-node=\"%s\"", nodes[i].node);
		if (!at || !strstr(at, node) || strstr(at, node) - at > 120)
			fail_msg("%s at %.1f GiB/s: no %s cell", nodes[i].node, nodes[i].gib_s, nodes[i].cls);
	}
	free(page);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_page),    cmocka_unit_test(t_rate_levels), cmocka_unit_test(t_infinite_rate),
		cmocka_unit_test(t_hostile), cmocka_unit_test(t_ran_with),    cmocka_unit_test(t_clean_job),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
