/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The step's nodes' problems said once (lib/agree/problems.c, issue 31). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "agree/problems.h"

static void problem(struct roce_fingerprint *f, enum roce_verdict v, const char *check, const char *cause,
                    const char *subjects)
{
	struct roce_brief *b = &f->problems[f->n_problems++];
	memset(b, 0, sizeof(*b));
	b->status = v;
	snprintf(b->check, sizeof(b->check), "%s", check);
	snprintf(b->cause, sizeof(b->cause), "%s", cause);
	snprintf(b->subjects, sizeof(b->subjects), "%s", subjects);
}

static const char *const names3[] = { "node1", "node2", "node3" };

/* Three nodes with one content lacking PFC: one line naming node[1-3]. */
static void test_one_line_for_all(void **state)
{
	(void)state;
	struct roce_fingerprint *f = calloc(1, sizeof(*f));
	struct roce_lines lines = { 0 };
	struct roce_problem_keys keys;
	assert_non_null(f);
	problem(f, ROCE_WARN, "pfc", "missing", "mlx5_0:1,mlx5_1:1");
	const struct roce_fingerprint *fp[3] = { f, f, f };
	assert_int_equal(roce_problems_say(fp, names3, 3, roce_nodelist_ranged, &lines, &keys), 0);
	assert_int_equal(lines.n, 1);
	assert_int_equal(lines.line[0].kind, ROCE_LINE_SHOULD);
	assert_string_equal(lines.line[0].text, "node[1-3]: pfc missing on mlx5_0:1,mlx5_1:1");
	assert_int_equal(keys.n, 1);
	assert_int_equal(keys.key[0], roce_brief_key(&f->problems[0]));
	free(f);
}

/* node3's port down beside everyone's PFC: the failure first, each once;
 * a node without a fingerprint is not named; healthy nodes say nothing. */
static void test_worst_first(void **state)
{
	(void)state;
	struct roce_fingerprint *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *ok = calloc(1, sizeof(*ok));
	struct roce_lines lines = { 0 };
	struct roce_problem_keys keys;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(ok);
	problem(a, ROCE_WARN, "pfc", "missing", "mlx5_0:1");
	problem(b, ROCE_FAIL, "port_state", "down", "mlx5_1:1");
	problem(b, ROCE_WARN, "pfc", "missing", "mlx5_0:1");
	const char *const names[] = { "node1", "node2", "node3", "node4", "node5" };
	const struct roce_fingerprint *fp[5] = { a, NULL, b, a, ok };
	assert_int_equal(roce_problems_say(fp, names, 5, roce_nodelist_ranged, &lines, &keys), 0);
	assert_int_equal(lines.n, 2);
	assert_string_equal(lines.line[0].text, "node3: port_state down on mlx5_1:1");
	assert_string_equal(lines.line[1].text, "node[1,3-4]: pfc missing on mlx5_0:1");
	assert_int_equal(keys.n, 2);
	/* nothing at all: no line, no key */
	const struct roce_fingerprint *none[2] = { ok, NULL };
	lines.n = 0;
	assert_int_equal(roce_problems_say(none, names, 2, roce_nodelist_ranged, &lines, &keys), 0);
	assert_int_equal(lines.n, 0);
	assert_int_equal(keys.n, 0);
	free(a);
	free(b);
	free(ok);
}

/* Many problems: a handful of lines whatever the step's size, the rest
 * counted (with those a fingerprint only counted); past 64 distinct ones
 * the keys overflow and the nodes say their own. */
static void test_a_handful(void **state)
{
	(void)state;
	enum { N = 4096 };
	struct roce_fingerprint *f = calloc(8, sizeof(*f));
	const struct roce_fingerprint **fp = calloc(N, sizeof(*fp));
	const char **names = calloc(N, sizeof(*names));
	char (*buf)[16] = calloc(N, 16);
	struct roce_lines lines = { 0 };
	struct roce_problem_keys keys;
	assert_non_null(f);
	assert_non_null(fp);
	assert_non_null(names);
	assert_non_null(buf);
	for (int k = 0; k < 8; k++) {
		char sub[16];
		snprintf(sub, sizeof(sub), "mlx5_%d:1", k);
		problem(&f[k], ROCE_WARN, "ecn", "off", sub);
	}
	f[7].problems_more = 2;
	for (int i = 0; i < N; i++) {
		snprintf(buf[i], 16, "gpu%04d", i);
		names[i] = buf[i];
		fp[i] = &f[i % 8];
	}
	assert_int_equal(roce_problems_say(fp, names, N, roce_nodelist_ranged, &lines, &keys), 0);
	assert_int_equal(lines.n, ROCE_PROBLEM_LINES + 1);
	for (size_t i = 0; i < lines.n; i++)
		assert_true(strlen(lines.line[i].text) < ROCE_LINE_MAX);
	assert_non_null(strstr(lines.line[ROCE_PROBLEM_LINES].text, "5 more problem(s)")); /* 3 lines + 2 counted */
	assert_int_equal(keys.n, 8);
	char text[ROCE_SAID_ENV_MAX];
	assert_true(roce_problem_keys_format(&keys, text, sizeof(text)));
	for (size_t i = 0; i < keys.n; i++)
		assert_true(roce_problem_keys_have(text, keys.key[i]));
	assert_false(roce_problem_keys_have(text, keys.key[0] ^ 1));
	assert_false(roce_problem_keys_have("", keys.key[0]));
	/* 70 distinct problems on 70 nodes */
	struct roce_fingerprint *many = calloc(70, sizeof(*many));
	assert_non_null(many);
	for (int i = 0; i < 70; i++) {
		char sub[16];
		snprintf(sub, sizeof(sub), "mlx5_%d:1", i);
		problem(&many[i], ROCE_WARN, "mtu", "mismatch", sub);
		fp[i] = &many[i];
	}
	lines.n = 0;
	assert_int_equal(roce_problems_say(fp, names, 70, roce_nodelist_ranged, &lines, &keys), 0);
	assert_true(keys.overflow);
	assert_false(roce_problem_keys_format(&keys, text, sizeof(text)));
	assert_non_null(strstr(lines.line[lines.n - 1].text, "over "));
	free(many);
	free(f);
	free(fp);
	free(names);
	free(buf);
}

/* The key tells problems apart by every field. */
static void test_key(void **state)
{
	(void)state;
	struct roce_fingerprint *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	problem(f, ROCE_WARN, "pfc", "missing", "mlx5_0:1");
	problem(f, ROCE_FAIL, "pfc", "missing", "mlx5_0:1");
	problem(f, ROCE_WARN, "pfc", "missin", "gmlx5_0:1");
	problem(f, ROCE_WARN, "pfc", "missing", "mlx5_0:2");
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			assert_int_not_equal(roce_brief_key(&f->problems[i]), roce_brief_key(&f->problems[j]));
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_line_for_all),
		cmocka_unit_test(test_worst_first),
		cmocka_unit_test(test_a_handful),
		cmocka_unit_test(test_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
