/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_agree.c - the job-wide agreement (lib/agree/agree.c) over hand-built
 * fingerprints, the value srun passes to the step, and each node's
 * restriction of its own plan; and the fingerprint's strict parser
 * (lib/agree/fingerprint.c).
 */
#include "config.h"
#include "unit.h"
#include "agree/agree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A node with ports "mlx5_0:1@4096/eth0" ... (mtu given per port). */
static void fp_make(struct roce_fingerprint *f, const char *node, int n, const char *const *devs, const int *mtu)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->job_id, sizeof(f->job_id), "42");
	snprintf(f->node, sizeof(f->node), "%s", node);
	f->gid_index = 3;
	f->addr_family = 4;
	f->traffic_class = 104;
	f->pfc_priority = 3;
	for (int i = 0; i < n; i++) {
		snprintf(f->ports[i].device, sizeof(f->ports[i].device), "%s", devs[i]);
		f->ports[i].port = 1;
		snprintf(f->ports[i].netdev, sizeof(f->ports[i].netdev), "eth%c", devs[i][strlen(devs[i]) - 1]);
		f->ports[i].active_mtu = mtu ? mtu[i] : 4096;
		f->ports[i].netdev_mtu = 9000;
		f->ports[i].rate_gbps = 100;
	}
	f->n_ports = (size_t)n;
}

/* The compression a test can check: "n1+n3" (libslurm's is tested in the lab). */
static char *plus_list(const char *const *names, size_t n)
{
	char *s = calloc(1, 512);
	for (size_t i = 0; s && i < n; i++)
		snprintf(s + strlen(s), 512 - strlen(s), "%s%s", i ? "+" : "", names[i]);
	return s;
}

static const char *const two[] = { "mlx5_0", "mlx5_1" };
static const char *const one[] = { "mlx5_0" };
static const char *const nodes3[] = { "node1", "node2", "node3" };

static void test_all_same(void **state)
{
	(void)state;
	struct roce_fingerprint f[3];
	for (int i = 0; i < 3; i++)
		fp_make(&f[i], nodes3[i], 2, two, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 2);
	assert_string_equal(a.rails[1].device, "mlx5_1");
	assert_null(a.trimmed);
	assert_null(a.mismatch);
	assert_null(a.missing);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_RAILS);
	roce_agree_free(&a);
}

/* The scenario: node3 with mlx5_1 down. */
static void test_rail_missing(void **state)
{
	(void)state;
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 2, two, NULL);
	fp_make(&f[1], "node2", 2, two, NULL);
	fp_make(&f[2], "node3", 1, one, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED);
	assert_int_equal(a.n_rails, 1);
	assert_string_equal(a.rails[0].device, "mlx5_0");
	assert_string_equal(a.trimmed, "node3: mlx5_1:1 missing");
	assert_null(a.mismatch);
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_RAILS);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	roce_agree_free(&a);
}

/* A rail only node2 has is named as missing on the others; order is the first node's. */
static void test_order_and_extra(void **state)
{
	(void)state;
	static const char *const rev[] = { "mlx5_1", "mlx5_0", "mlx5_2" };
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 2, two, NULL);
	fp_make(&f[1], "node2", 3, rev, NULL);
	fp_make(&f[2], "node3", 2, two, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &a), 0);
	assert_int_equal(a.n_rails, 2);
	assert_string_equal(a.rails[0].device, "mlx5_0");
	assert_string_equal(a.rails[1].device, "mlx5_1");
	assert_string_equal(a.trimmed, "node1+node3: mlx5_2:1 missing");
	roce_agree_free(&a);
}

/* node2 at MTU 1500 on both netdevs: RDMA MTU 1024 there, named by groups. */
static void test_mtu_groups(void **state)
{
	(void)state;
	static const int small[] = { 1024, 1024 };
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 2, two, NULL);
	fp_make(&f[1], "node2", 2, two, small);
	fp_make(&f[2], "node3", 2, two, NULL);
	f[2].traffic_class = 96;
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_MISMATCH);
	assert_string_equal(a.mismatch, "mlx5_0:1 RDMA MTU 4096 on node1+node3; 1024 on node2; "
	                                "mlx5_1:1 RDMA MTU 4096 on node1+node3; 1024 on node2; "
	                                "traffic class 104 on node1+node2; 96 on node3");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_RAILS);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	/* warn runs with the rails: the MTU it warned about is not held against node2 */
	char buf[ROCE_AGREE_ENV_MAX], why[128];
	struct roce_agreed d;
	struct roce_error err;
	struct roce_plan plan = { .valid = true, .n_vars = 1, .vars = { { "NCCL_IB_HCA", "=mlx5_0:1" } } };
	assert_int_equal(roce_agree_encode(&a, ROCE_AGREED_RAILS, "42.1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1;42.1;rails;mlx5_0:1@0,mlx5_1:1@0");
	assert_int_equal(roce_agree_decode(buf, &d, &err), 0);
	assert_int_equal(roce_agree_apply(&d, &f[1], &plan, why, sizeof(why)), 0);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	roce_agree_free(&a);
	/* one rail: the label is not repeated; GID family named */
	fp_make(&f[0], "node1", 1, one, NULL);
	fp_make(&f[1], "node2", 1, one, small);
	fp_make(&f[2], "node3", 1, one, NULL);
	f[2].addr_family = 6;
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, &a), 0);
	assert_string_equal(a.mismatch, "RDMA MTU 4096 on node1,node3; 1024 on node2; GID family ipv4 on node1,node2; ipv6 on node3");
	roce_agree_free(&a);
}

static void test_empty_and_missing(void **state)
{
	(void)state;
	static const char *const other[] = { "mlx5_1" };
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 1, one, NULL);
	fp_make(&f[1], "node2", 1, other, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], NULL };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED | ROCE_AGREE_EMPTY | ROCE_AGREE_MISSING);
	assert_int_equal(a.n_rails, 0);
	assert_string_equal(a.missing, "node3");
	assert_string_equal(a.trimmed, "node2: mlx5_0:1 missing; node1: mlx5_1:1 missing");
	/* unknown is never a pass: warn goes per node, strict fails */
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_OWN);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	roce_agree_free(&a);
	/* no usable port on node2 (a failed node): empty, no NCCL variables */
	fp_make(&f[1], "node2", 0, NULL, NULL);
	fp_make(&f[2], "node3", 1, one, NULL);
	const struct roce_fingerprint *fps2[] = { &f[0], &f[1], &f[2] };
	assert_int_equal(roce_agree(fps2, nodes3, 3, plus_list, &a), 0);
	assert_true(a.flags & ROCE_AGREE_EMPTY);
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_EMPTY);
	roce_agree_free(&a);
	/* nothing read at all */
	const struct roce_fingerprint *none[] = { NULL, NULL, NULL };
	assert_int_equal(roce_agree(none, nodes3, 3, plus_list, &a), 0);
	assert_string_equal(a.missing, "node1+node2+node3");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_OWN);
	roce_agree_free(&a);
}

static void test_encode_decode(void **state)
{
	(void)state;
	struct roce_fingerprint f;
	fp_make(&f, "node1", 2, two, NULL);
	const struct roce_fingerprint *fps[] = { &f };
	struct roce_agreement a;
	struct roce_agreed d;
	struct roce_error err;
	char buf[ROCE_AGREE_ENV_MAX];
	assert_int_equal(roce_agree(fps, nodes3, 1, NULL, &a), 0);
	assert_int_equal(roce_agree_encode(&a, ROCE_AGREED_RAILS, "42.3", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1;42.3;rails;mlx5_0:1@4096,mlx5_1:1@4096");
	assert_int_equal(roce_agree_decode(buf, &d, &err), 0);
	assert_int_equal(d.verdict, ROCE_AGREED_RAILS);
	assert_string_equal(d.step, "42.3");
	assert_int_equal(d.n_rails, 2);
	assert_string_equal(d.rails[1].device, "mlx5_1");
	assert_int_equal(d.rails[1].active_mtu, 4096);
	assert_int_equal(roce_agree_encode(&a, ROCE_AGREED_FAIL, "42.3", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1;42.3;fail");
	assert_int_equal(roce_agree_decode(buf, &d, &err), 0);
	assert_int_equal(d.verdict, ROCE_AGREED_FAIL);
	assert_int_equal(roce_agree_encode(&a, ROCE_AGREED_RAILS, "42.3", buf, 10), -1);
	roce_agree_free(&a);
	/* forged or broken values are refused, never half-used */
	static const char *const bad[] = {
		"", "2;42.3;rails;mlx5_0:1@4096", "1;42.3;rails", "1;42.3;fail;mlx5_0:1@4096", "1;42.3;maybe",
		"1;4x;own", "1;42.3;rails;mlx5_0:0@4096", "1;42.3;rails;mlx5_0:1@9000", "1;42.3;rails;../x:1@4096",
		"1;42.3;rails;mlx5_0:1", "1;42.3;rails;mlx5_0@4096:1", "1;42.3;rails;mlx5_0:1@4096;x", "1;42.3;rails;,",
		"1;42.3;rails;mlx5_0:1@-1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(roce_agree_decode(bad[i], &d, &err), -1);
		assert_int_equal(d.n_rails, 0);
	}
	char longv[ROCE_AGREE_ENV_MAX + 10];
	memset(longv, 'a', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(roce_agree_decode(longv, &d, &err), -1);
}

static void plan_of(struct roce_plan *p, const char *hca, const char *ifs)
{
	memset(p, 0, sizeof(*p));
	p->valid = true;
	snprintf(p->vars[0].name, sizeof(p->vars[0].name), "NCCL_IB_HCA");
	snprintf(p->vars[0].value, sizeof(p->vars[0].value), "%s", hca);
	snprintf(p->vars[1].name, sizeof(p->vars[1].name), "NCCL_SOCKET_IFNAME");
	snprintf(p->vars[1].value, sizeof(p->vars[1].value), "%s", ifs);
	snprintf(p->vars[2].name, sizeof(p->vars[2].name), "NCCL_IB_GID_INDEX");
	snprintf(p->vars[2].value, sizeof(p->vars[2].value), "3");
	p->n_vars = 3;
}

/* A node can only remove: an agreed rail it does not have healthy is left out. */
static void test_apply(void **state)
{
	(void)state;
	struct roce_fingerprint self;
	struct roce_plan plan;
	struct roce_agreed d;
	struct roce_error err;
	char why[256];
	fp_make(&self, "node1", 2, two, NULL);

	/* the agreement's order wins; the node's own locality-narrowed list does not */
	assert_int_equal(roce_agree_decode("1;42.0;rails;mlx5_1:1@4096,mlx5_0:1@4096", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1", "=eth0");
	assert_int_equal(roce_agree_apply(&d, &self, &plan, why, sizeof(why)), 0);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_1:1,mlx5_0:1");
	assert_string_equal(roce_plan_get(&plan, "NCCL_SOCKET_IFNAME"), "=eth1,eth0");
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_GID_INDEX"), "3");

	/* forged: a rail this node does not have, or at another MTU, is never added */
	assert_int_equal(roce_agree_decode("1;42.0;rails;mlx5_0:1@4096,mlx5_7:1@4096,mlx5_1:1@1024", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	assert_int_equal(roce_agree_apply(&d, &self, &plan, why, sizeof(why)), 2);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	assert_string_equal(why, "mlx5_7:1 is not healthy here, mlx5_1:1 has another RDMA MTU");

	/* forged: a rail named twice is listed once; a plan that lacked the netdevs gets them */
	assert_int_equal(roce_agree_decode("1;42.0;rails;mlx5_1:1@4096,mlx5_0:1@4096,mlx5_1:1@4096", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	plan.vars[1] = plan.vars[2];
	plan.n_vars = 2;
	assert_int_equal(roce_agree_apply(&d, &self, &plan, why, sizeof(why)), 0);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_1:1,mlx5_0:1");
	assert_string_equal(roce_plan_get(&plan, "NCCL_SOCKET_IFNAME"), "=eth1,eth0");
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_GID_INDEX"), "3");
	assert_int_equal(plan.n_vars, 3);

	/* nothing left: no plan */
	assert_int_equal(roce_agree_decode("1;42.0;rails;mlx5_9:1@4096", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	assert_int_equal(roce_agree_apply(&d, &self, &plan, why, sizeof(why)), 1);
	assert_false(plan.valid);
}

/* ------------------------------------------------------------------ the parser */

static const char good[] =
	"{\"schema\":\"slurm-roce/fingerprint/2\",\"job_id\":\"42\",\"verdict\":\"warn\","
	"\"gid_index\":3,\"addr_family\":4,\"traffic_class\":104,\"pfc_priority\":3,\"ports\":["
	"{\"device\":\"mlx5_0\",\"port\":1,\"netdev\":\"eth0\",\"active_mtu\":4096,\"netdev_mtu\":9000,\"rate_gbps\":100}]}";

static int parse_with(const char *from, const char *to, struct roce_error *err)
{
	char text[2048];
	struct roce_fingerprint f;
	const char *at = strstr(good, from);
	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return roce_fingerprint_parse(text, strlen(text), "42", "node1", &f, err);
}

static void test_parse(void **state)
{
	(void)state;
	struct roce_fingerprint f, g;
	struct roce_error err;
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "42", "node1", &f, &err), 0);
	assert_int_equal(f.verdict, ROCE_FP_WARN);
	assert_int_equal(f.n_ports, 1);
	assert_int_equal(f.ports[0].active_mtu, 4096);
	/* round trip through the writer */
	json_object *o = roce_fingerprint_to_json(&f);
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_string_equal(t, good);
	assert_int_equal(roce_fingerprint_parse(t, strlen(t), NULL, NULL, &g, &err), 0);
	json_object_put(o);

	/* the node is the name it was filed under; another job's is refused */
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "42", "node2", &f, &err), 0);
	assert_string_equal(f.node, "node2");
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "43", "node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "job_id"));
	assert_int_equal(f.n_ports, 0);
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "42", "../node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "node name"));
	/* garbage, truncation, too big */
	assert_int_equal(roce_fingerprint_parse("garbage", 7, "42", "node1", &f, &err), -1);
	assert_int_equal(roce_fingerprint_parse(good, strlen(good) - 3, "42", "node1", &f, &err), -1);
	assert_int_equal(roce_fingerprint_parse(good, ROCE_FP_TEXT_MAX + 1, "42", "node1", &f, &err), -1);
	/* schema, unknown members, ranges, names */
	struct { const char *from, *to, *says; } cases[] = {
		{ "fingerprint/2", "fingerprint/1", "schema" },
		{ "\"verdict\"", "\"node\":\"node1\",\"verdict\"", "unknown member \"node\"" }, /* version 1's */
		{ "\"verdict\"", "\"sl\":3,\"verdict\"", "unknown member \"sl\"" },
		{ "\"rate_gbps\"", "\"trust\":1,\"rate_gbps\"", "unknown member \"trust\"" },
		{ "\"warn\"", "\"fine\"", "verdict" },
		{ "\"port\":1", "\"port\":0", "port" },
		{ "\"active_mtu\":4096", "\"active_mtu\":9000", "active_mtu" },
		{ "\"gid_index\":3", "\"gid_index\":256", "gid_index" },
		{ "\"addr_family\":4", "\"addr_family\":5", "addr_family" },
		{ "\"traffic_class\":104", "\"traffic_class\":\"104\"", "traffic_class" },
		{ "\"mlx5_0\"", "\"../../x\"", "device" },
		{ "\"eth0\"", "\"eth0\\u001b[31m\"", "netdev" },
		{ "\"job_id\":\"42\"", "\"job_id\":\"042\"", "job_id" },
		{ "]}", ",{\"device\":\"mlx5_0\",\"port\":1,\"netdev\":\"eth0\",\"active_mtu\":4096,\"netdev_mtu\":9000,\"rate_gbps\":100}]}", "twice" },
		{ "\"ports\":[", "\"ports\":{}, \"x\":[", "unknown member" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_with(cases[i].from, cases[i].to, &err), -1);
		if (!strstr(err.msg, cases[i].says))
			fail_msg("case %zu: \"%s\" does not name %s", i, err.msg, cases[i].says);
	}
	/* more than 32 ports */
	char big[8192] = "";
	snprintf(big, sizeof(big), "%.*s", (int)(strstr(good, "[{") - good + 1), good);
	for (int i = 0; i < 33; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s{\"device\":\"mlx5_%d\",\"port\":1,\"netdev\":\"eth0\","
		         "\"active_mtu\":4096,\"netdev_mtu\":9000,\"rate_gbps\":100}", i ? "," : "", i);
	strcat(big, "]}");
	assert_int_equal(roce_fingerprint_parse(big, strlen(big), "42", "node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "at most 32"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_same),
		cmocka_unit_test(test_rail_missing),
		cmocka_unit_test(test_order_and_extra),
		cmocka_unit_test(test_mtu_groups),
		cmocka_unit_test(test_empty_and_missing),
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
