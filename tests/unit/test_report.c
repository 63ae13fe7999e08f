/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report.c - the merge of a job's fragments and the groups the printers show. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "base/arena.h"
#include "fragment/fragment_read.h"
#include "report/report.h"
#include "report/report_verdicts.h"

static void t_merge(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	assert_int_equal(r.n_nodes, 4);
	assert_int_equal(r.n_errors, 2);
	assert_int_equal(roce_report_job_uid(&r), 1000);
	assert_string_equal(r.nodes[0].name, "n1");
	assert_string_equal(r.nodes[3].name, "n10");   /* natural order */
	assert_string_equal(r.errors[0], "n9.json: fragment of job 7, not 4242");
	assert_string_equal(r.errors[1], "n1: duplicate fragment for this node ignored");
	assert_true(roce_report_seconds(&r) == 10);
	char *list = roce_report_nodelist(&r, NULL);
	assert_string_equal(list, "n1,n2,n3,n10");
	free(list);
	list = roce_report_nodelist(&r, fx_nodelist);
	assert_string_equal(list, "n1..n10(4)");
	free(list);
	roce_report_free(&r);
}

/* Two loading threads' reports taken into one, their pools joined: every
 * node's later chunks (the job verdicts, added after the merge) still come
 * from a live pool the report owns.  Under ASan the growth below was a use
 * after free when the join freed the thread's pool (unstable's build,
 * without ASan, segfaulted in report-many.sh). */
static void t_take_pools(void **state)
{
	(void)state;
	struct roce_job_report r, part[2];
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
	fx_delta(&d, 2, 10);
	for (int i = 0; i < 2; i++) {
		roce_report_init(&part[i], "4242");
		assert_non_null(part[i].pool = roce_arena_pool_new());
		for (int j = 0; j < 2; j++) {
			char node[8];
			snprintf(node, sizeof(node), "n%d", 2 * i + j);
			json_object *o = fx_fragment(node, &d, NULL);
			size_t len;
			const char *t = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &len);
			char *text = strdup(t);
			struct roce_fragment f;
			assert_int_equal(roce_fragment_read(part[i].pool, text, len, "4242", &f, &err), 0);
			assert_ptr_equal(f.arena.pool, part[i].pool);
			assert_int_equal(roce_report_append(&part[i], &f, &err), 0);
			free(text);
			json_object_put(o);
		}
	}
	roce_delta_free(&d);
	for (int i = 0; i < 2; i++)
		assert_int_equal(roce_report_take(&r, &part[i], &err), 0);
	assert_int_equal(r.n_nodes, 4);
	assert_non_null(r.pool);
	for (int i = 0; i < 2; i++)
		assert_null(part[i].pool);
	unsigned char *more[4];
	for (size_t i = 0; i < r.n_nodes; i++) {
		assert_non_null(r.nodes[i].arena.pool);
		/* more than any chunk left: a new one, from the node's pool */
		more[i] = roce_arena_alloc(&r.nodes[i].arena, 64 << 10);
		assert_non_null(more[i]);
		memset(more[i], 0xa5, 64 << 10);
	}
	roce_report_sort(&r);
	assert_int_equal(roce_report_verdicts(&r), 0);
	/* nothing the verdicts took overlaps what was taken before them */
	for (size_t i = 0; i < r.n_nodes; i++)
		for (size_t k = 0; k < 64 << 10; k++)
			if (more[i][k] != 0xa5)
				fail_msg("block %zu: byte %zu overwritten", i, k);
	roce_report_free(&r);
}

static void t_instances(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	struct roce_fragment_meta m[3] = { fx_meta("n1"), fx_meta("n2"), fx_meta("n3") };
	m[1].job_uid = 2000;   /* the later user, on n2 and n3 */
	m[2].job_uid = 2000;
	m[1].end_ns = m[2].end_ns = 99000000000;
	roce_report_init(&r, "4242");
	fx_delta(&d, 1, 10);
	for (int i = 0; i < 3; i++) {
		json_object *f = fx_fragment(m[i].node, &d, &m[i]);
		assert_int_equal(fx_report_add(&r, f, m[i].node, &err), 0);
		json_object_put(f);
	}
	roce_delta_free(&d);
	assert_int_equal(roce_report_job_uid(&r), 2000);   /* the newest */
	roce_report_keep_uid(&r, 2000);
	roce_report_sort(&r);
	assert_int_equal(r.n_nodes, 2);
	assert_int_equal(r.n_errors, 1);
	assert_string_equal(r.errors[0], "n1.json: job_uid 1000 is not the job's (uid 2000)");
	roce_report_keep_uid(&r, 3000);   /* nobody's: all dropped, each named */
	assert_int_equal(r.n_nodes, 0);
	assert_int_equal(r.n_errors, 3);
	assert_int_equal(roce_report_job_uid(&r), -1);
	roce_report_free(&r);
}

static void t_non_finite(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, NULL);
	roce_delta_free(&d);
	const char *text = json_object_to_json_string_ext(f, JSON_C_TO_STRING_PLAIN);
	char *bad = malloc(strlen(text) + 32);
	const char *at = strstr(text, "\"seconds\":");
	assert_non_null(at);
	const char *end = at + strlen("\"seconds\":") + strspn(at + strlen("\"seconds\":"), "0123456789.e+-");
	sprintf(bad, "%.*s\"seconds\":Infinity%s", (int)(at - text), text, end);
	json_object_put(f);
	f = json_tokener_parse(bad);
	free(bad);
	assert_non_null(f);   /* json-c takes it ... */
	roce_report_init(&r, "4242");
	assert_int_equal(fx_report_add(&r, f, "n1.json", &err), -1);   /* ... we do not */
	if (!strstr(err.msg, "not valid JSON at byte"))
		fail_msg("%s", err.msg);
	assert_int_equal(r.n_nodes, 0);
	json_object_put(f);
	roce_report_free(&r);
}

static void t_verdict_groups(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	fx_merged_job(&r);
	assert_int_equal(roce_report_verdict_groups(&r, &gs), 0);
	assert_int_equal(gs.n, 1);
	assert_string_equal(gs.g[0].key, "packet_loss");
	assert_int_equal(gs.g[0].severity, ROCE_SEV_WARN);
	assert_int_equal(gs.g[0].n, 1);
	assert_string_equal(gs.g[0].names[0], "n2");
	assert_non_null(strstr(gs.g[0].fix, "PFC is on for priority 3"));   /* its first verdict's fix */
	roce_report_groups_free(&gs);
	/* a later node's verdict of the same code: the first fix stays */
	struct roce_fragment *last = &r.nodes[3];
	last->verdicts = roce_arena_grow(&last->arena, NULL, 0, sizeof(*last->verdicts));
	assert_non_null(last->verdicts);
	last->verdicts[0] = r.nodes[1].verdicts[0];
	last->verdicts[0].fix = "another fix";
	last->n_verdicts = 1;
	assert_int_equal(roce_report_verdict_groups(&r, &gs), 0);
	assert_int_equal(gs.g[0].n, 2);
	assert_non_null(strstr(gs.g[0].fix, "PFC is on for priority 3"));
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* Many distinct codes (a fragment may carry 65,536): each its own group,
 * found by hash, worst first, then by code. */
static void t_many_groups(void **state)
{
	(void)state;
	enum { CODES = 20000 };
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	static char codes[CODES][16];
	fx_merged_job(&r);
	struct roce_fragment *n = &r.nodes[0];
	n->verdicts = roce_arena_grow(&n->arena, NULL, 0, CODES * sizeof(*n->verdicts));
	assert_non_null(n->verdicts);
	for (size_t i = 0; i < CODES; i++) {
		snprintf(codes[i], sizeof(codes[i]), "c%05zu", CODES - 1 - i);
		n->verdicts[i] = (struct roce_fragment_verdict){ codes[i], "node", "m", "f", (uint8_t)(i % 3) };
	}
	n->n_verdicts = CODES;
	assert_int_equal(roce_report_verdict_groups(&r, &gs), 0);
	assert_int_equal(gs.n, CODES + 1);   /* and n2's packet_loss */
	for (size_t i = 1; i < gs.n; i++) {
		const struct roce_report_group *a = &gs.g[i - 1], *b = &gs.g[i];
		assert_true(a->severity > b->severity || (a->severity == b->severity && strcmp(a->key, b->key) < 0));
	}
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* codes distinct codes on node 0 of the merged job, grouped: CPU ms, the
 * least of three runs. */
static double group_ms(size_t codes)
{
	static char names[32768][16];
	double best = -1;
	assert_true(codes <= 32768);
	for (int run = 0; run < 3; run++) {
		struct roce_job_report r;
		struct roce_report_groups gs = { 0 };
		fx_merged_job(&r);
		struct roce_fragment *n = &r.nodes[0];
		n->verdicts = roce_arena_grow(&n->arena, NULL, 0, codes * sizeof(*n->verdicts));
		assert_non_null(n->verdicts);
		for (size_t i = 0; i < codes; i++) {
			snprintf(names[i], sizeof(names[i]), "c%zu", i);
			n->verdicts[i] = (struct roce_fragment_verdict){ names[i], "node", "m", "f", ROCE_SEV_INFO };
		}
		n->n_verdicts = codes;
		double t0 = fx_cpu_ms();
		assert_int_equal(roce_report_verdict_groups(&r, &gs), 0);
		double ms = fx_cpu_ms() - t0;
		best = best < 0 || ms < best ? ms : best;
		assert_int_equal(gs.n, codes + 1);
		roce_report_groups_free(&gs);
		roce_report_free(&r);
	}
	return best;
}

/* Grouping is linear in the codes: eight times the codes cost about eight
 * to sixteen times the CPU (the caches), not sixty-four (a search of the
 * groups per verdict made 65,536 codes take 10-17 s).  CPU time, so the
 * machine's load does not count; the line is drawn between (32x), with
 * 5 ms of slack for a timer's noise. */
static void t_groups_linear(void **state)
{
	(void)state;
	double small = group_ms(4096), large = group_ms(32768);
	print_message("# CPU: 4,096 codes %.1f ms, 32,768 codes %.1f ms\n", small, large);
	if (!(large < 32 * small + 5))
		fail_msg("4,096 codes: %.1f ms, 32,768: %.1f ms (x%.1f): not linear", small, large, large / small);
}

static void t_consistency_groups(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	fx_merged_job(&r);
	assert_string_equal(roce_report_consistency_name(ROCE_CONS_MTU), "active_mtu");
	assert_string_equal(roce_report_consistency_title(ROCE_CONS_MTU), "RDMA MTU");
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_MTU, &gs), 0);
	assert_int_equal(gs.n, 2);
	assert_string_equal(gs.g[0].key, "4096");
	assert_int_equal(gs.g[0].n, 3);
	assert_string_equal(gs.g[1].key, "4096,1024");
	assert_string_equal(gs.g[1].names[0], "n3");
	char *nl = roce_report_group_nodelist(&gs.g[0], NULL);
	assert_string_equal(nl, "n1,n2,n10");
	free(nl);
	roce_report_groups_free(&gs);
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_GID, &gs), 0);
	assert_int_equal(gs.n, 2);
	assert_string_equal(gs.g[1].key, "5");
	roce_report_groups_free(&gs);
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_PFC, &gs), 0);
	assert_int_equal(gs.n, 1);
	assert_string_equal(gs.g[0].key, "3");
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* Issue 12's rows: link rate and firmware per port, the traffic class per node. */
static void t_consistency_rate_fw_tc(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	fx_merged_job(&r);
	for (size_t i = 0; i < r.n_nodes; i++)
		for (size_t j = 0; j < r.nodes[i].n_ports; j++) {
			r.nodes[i].ports[j].rate_mbps = 100000;
			r.nodes[i].ports[j].fw_ver = roce_arena_strdup(&r.nodes[i].arena, "20.39.1002");
		}
	r.nodes[1].ports[1].rate_mbps = 25000;   /* n2's mlx5_1 */
	r.nodes[3].ports[0].fw_ver = roce_arena_strdup(&r.nodes[3].arena, "20.35.1012");   /* n10's mlx5_0 */
	r.nodes[2].ports[0].rate_mbps = 0;     /* n3's mlx5_0: a fragment without it */
	assert_string_equal(roce_report_consistency_name(ROCE_CONS_RATE), "link_rate");
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_RATE, &gs), 0);
	assert_int_equal(gs.n, 3);
	assert_string_equal(gs.g[0].key, "100");
	assert_string_equal(gs.g[1].key, "100,25");
	assert_string_equal(gs.g[1].names[0], "n2");
	assert_string_equal(gs.g[2].key, "unknown,100");
	roce_report_groups_free(&gs);
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_FW, &gs), 0);
	assert_int_equal(gs.n, 2);
	assert_string_equal(gs.g[1].key, "20.35.1012,20.39.1002");
	assert_string_equal(gs.g[1].names[0], "n10");
	roce_report_groups_free(&gs);
	assert_string_equal(roce_report_consistency_title(ROCE_CONS_TC), "Traffic class");
	r.nodes[0].traffic_class = 104;
	r.nodes[1].traffic_class = 104;
	r.nodes[2].traffic_class = 104;
	r.nodes[3].traffic_class = -1;
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_TC, &gs), 0);
	assert_int_equal(gs.n, 2);
	assert_string_equal(gs.g[0].key, "104");
	assert_string_equal(gs.g[1].key, "none");
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* The values as text, at their edges: a fractional rate, a firmware string
 * longer than a value's 39 bytes (cut), an empty one after it (listed as
 * an empty value), and a 100 Gb/s port that agrees with its neighbour. */
static void t_consistency_value_edges(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	fx_merged_job(&r);
	struct roce_fragment *n = &r.nodes[0];
	assert_true(n->n_ports >= 2);
	for (size_t i = 0; i < r.n_nodes; i++)
		for (size_t j = 0; j < r.nodes[i].n_ports; j++) {
			r.nodes[i].ports[j].rate_mbps = 100000;
			r.nodes[i].ports[j].fw_ver = roce_arena_strdup(&r.nodes[i].arena, "20.39.1002");
		}
	n->ports[0].rate_mbps = 2500;
	n->ports[0].fw_ver = roce_arena_strdup(&n->arena, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ");
	n->ports[1].fw_ver = roce_arena_strdup(&n->arena, "");
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_RATE, &gs), 0);
	assert_string_equal(gs.g[0].key, "2.5,100");
	assert_string_equal(gs.g[0].names[0], n->name);
	roce_report_groups_free(&gs);
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_FW, &gs), 0);
	assert_string_equal(gs.g[0].key, "0123456789abcdefghijklmnopqrstuvwxyzABC,");
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* Issue 12's trust row: one node on PCP trust among DSCP ones, one from an older release. */
static void t_consistency_trust(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	fx_merged_job(&r);
	r.nodes[0].trust = ROCE_TRUST_DSCP;
	r.nodes[1].trust = ROCE_TRUST_PCP;
	r.nodes[2].trust = ROCE_TRUST_DSCP;
	r.nodes[3].trust = ROCE_TRUST_UNKNOWN;
	assert_string_equal(roce_report_consistency_name(ROCE_CONS_TRUST), "trust");
	assert_string_equal(roce_report_consistency_title(ROCE_CONS_TRUST), "Priority trust");
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_TRUST, &gs), 0);
	assert_int_equal(gs.n, 3);
	assert_string_equal(gs.g[0].key, "dscp");
	assert_int_equal(gs.g[0].n, 2);
	assert_string_equal(gs.g[1].key, "pcp");
	assert_string_equal(gs.g[1].names[0], "n2");
	assert_string_equal(gs.g[2].key, "unknown");
	assert_string_equal(gs.g[2].names[0], "n10");
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* Per-port values: distinct, in port order; vanished ports have none. */
static void t_port_values(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_report_groups gs = { 0 };
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
	fx_delta(&d, 3, 10);
	d.ports[0].active_mtu = 0;
	d.ports[1].pfc_enabled = (1u << 3) | (1u << 4);
	d.ports[2].presence = ROCE_PORT_VANISHED;
	d.ports[2].active_mtu = 1024;
	json_object *f = fx_fragment("n1", &d, NULL);
	assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	d.n_ports = 1;
	d.ports[0].pfc_status = ROCE_DELTA_UNREAD;
	d.ports[0].pfc_enabled = 0;
	f = fx_fragment("n2", &d, NULL);
	assert_int_equal(fx_report_add(&r, f, "n2", &err), 0);
	json_object_put(f);
	d.n_ports = 0;
	f = fx_fragment("n3", &d, NULL);
	assert_int_equal(fx_report_add(&r, f, "n3", &err), 0);
	json_object_put(f);
	d.n_ports = 3;
	roce_delta_free(&d);
	roce_report_sort(&r);
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_MTU, &gs), 0);
	assert_int_equal(gs.n, 3);
	assert_string_equal(gs.g[0].key, "unknown,4096");
	assert_string_equal(gs.g[1].key, "unknown");
	assert_string_equal(gs.g[2].key, "no ports");
	roce_report_groups_free(&gs);
	assert_int_equal(roce_report_consistency_groups(&r, ROCE_CONS_PFC, &gs), 0);
	assert_int_equal(gs.n, 3);
	assert_string_equal(gs.g[0].key, "3,3+4");
	assert_string_equal(gs.g[1].key, "unknown");
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_merge),
		cmocka_unit_test(t_take_pools),
		cmocka_unit_test(t_instances),
		cmocka_unit_test(t_non_finite),
		cmocka_unit_test(t_verdict_groups),
		cmocka_unit_test(t_many_groups),
		cmocka_unit_test(t_groups_linear),
		cmocka_unit_test(t_consistency_groups),
		cmocka_unit_test(t_consistency_rate_fw_tc),
		cmocka_unit_test(t_consistency_value_edges),
		cmocka_unit_test(t_consistency_trust),
		cmocka_unit_test(t_port_values),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
