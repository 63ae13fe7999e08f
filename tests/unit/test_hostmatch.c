/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_hostmatch.c - Slurm hostlist patterns against node names (lib/base/hostmatch.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/hostmatch.h"

static void t_ranges_as_slurm_expands_them(void **s)
{
	(void)s;
	assert_true(roce_hostmatch("node[01-64]", "node01"));
	assert_true(roce_hostmatch("node[01-64]", "node64"));
	assert_false(roce_hostmatch("node[01-64]", "node65"));
	assert_false(roce_hostmatch("node[01-64]", "node00"));
	/* zero padding is the low end's width: [01-64] is node01, never node1 */
	assert_false(roce_hostmatch("node[01-64]", "node1"));
	assert_false(roce_hostmatch("node[1-64]", "node01"));
	assert_true(roce_hostmatch("node[1-64]", "node9"));
	assert_true(roce_hostmatch("node[1-64]", "node10"));
	assert_true(roce_hostmatch("node[8-12]", "node11"));
	/* past the width, numbers are printed whole: [001-1000] has node999 and node1000 */
	assert_true(roce_hostmatch("node[001-1000]", "node999"));
	assert_true(roce_hostmatch("node[001-1000]", "node1000"));
	assert_true(roce_hostmatch("node[001-1000]", "node042"));
	assert_false(roce_hostmatch("node[001-1000]", "node0999"));
	assert_false(roce_hostmatch("node[001-1000]", "node42"));
	/* lists inside brackets, several brackets, suffixes */
	assert_true(roce_hostmatch("node[1,3,5-7]", "node6"));
	assert_false(roce_hostmatch("node[1,3,5-7]", "node4"));
	assert_true(roce_hostmatch("rack[1-2]-gpu[01-08]", "rack2-gpu08"));
	assert_false(roce_hostmatch("rack[1-2]-gpu[01-08]", "rack3-gpu08"));
	assert_true(roce_hostmatch("gpu[1-4]x", "gpu3x"));
	assert_false(roce_hostmatch("gpu[1-4]x", "gpu3"));
	/* a digit run may be split between a range and what follows */
	assert_true(roce_hostmatch("n[1-2]3", "n13"));
	assert_true(roce_hostmatch("n[1-20]", "n13"));
	assert_true(roce_hostmatch("[1-3]", "2"));
	assert_true(roce_hostmatch("node[7]", "node7"));
}

static void t_globs_lists_and_all(void **s)
{
	(void)s;
	assert_true(roce_hostmatch("gpu-a*", "gpu-a17"));
	assert_true(roce_hostmatch("gpu-a*", "gpu-a"));
	assert_false(roce_hostmatch("gpu-a*", "gpu-b17"));
	assert_true(roce_hostmatch("gpu-?1", "gpu-a1"));
	assert_false(roce_hostmatch("gpu-?1", "gpu-1"));
	assert_true(roce_hostmatch("*[1-3]", "anything2"));
	assert_true(roce_hostmatch("node[01-64],gpu-a*", "gpu-a3"));
	assert_true(roce_hostmatch("node[01-64],gpu-a*", "node17"));
	assert_false(roce_hostmatch("node[01-64],gpu-a*", "login1"));
	assert_true(roce_hostmatch("node[01-04,10],login1", "node10"));
	assert_true(roce_hostmatch("node[01-04,10],login1", "login1"));
	/* exact, case-sensitive (as Slurm node names), the whole name */
	assert_true(roce_hostmatch("login1", "login1"));
	assert_false(roce_hostmatch("login1", "Login1"));
	assert_false(roce_hostmatch("login1", "login10"));
	assert_false(roce_hostmatch("login", "login1"));
	assert_true(roce_hostmatch("ALL", "anything"));
	assert_true(roce_hostmatch("*", "x"));
	assert_false(roce_hostmatch("ALL", ""));
	assert_false(roce_hostmatch("*", ""));
}

static void t_malformed_patterns_are_refused_and_match_nothing(void **s)
{
	(void)s;
	static const struct {
		const char *pattern, *why;
	} bad[] = {
		{ "", "an empty element (at character 1)" },
		{ "a,,b", "an empty element (at character 3)" },
		{ "a,", "an empty element (at character 3)" },
		{ ",a", "an empty element (at character 1)" },
		{ "node[1-3", "a '[' is not closed (at character 9)" },
		{ "node[", "a range needs a number" },
		{ "node[]", "a range needs a number" },
		{ "node[1-]", "after its '-'" },
		{ "node[-3]", "a range needs a number" },
		{ "node[1,]", "a range needs a number" },
		{ "node[9-1]", "a range runs downwards" },
		{ "node[[1]]", "a range needs a number" },
		{ "node[a-c]", "a range needs a number" },
		{ "node[1-3]]", "a ']' without its '['" },
		{ "node1]", "a ']' without its '['" },
		{ "node[1234567890123456789]", "1 to 18 digits" },
		{ "node[1-1234567890123456789]", "1 to 18 digits" },
		{ "node 1", "a character no node name has (at character 5)" },
		{ "node/1", "a character no node name has" },
		{ "node\x1b[2J", "node\\x1b" },
		{ "n\xc3\xa9ud", "a character no node name has" },
		{ "$(reboot)", "a character no node name has (at character 1)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct roce_error err = { "" };
		if (roce_hostmatch_check(bad[i].pattern, &err) != -1 || !strstr(err.msg, bad[i].why))
			print_error("pattern %zu: \"%s\", want \"%s\"\n", i, err.msg, bad[i].why);
		assert_int_equal(roce_hostmatch_check(bad[i].pattern, &err), -1);
		assert_non_null(strstr(err.msg, bad[i].why));
		assert_false(roce_hostmatch(bad[i].pattern, "node1"));
		assert_false(roce_hostmatch(bad[i].pattern, "node"));
	}
	struct roce_error err = { "" };
	assert_int_equal(roce_hostmatch_check("node[01-64],gpu-a*", &err), 0);
	assert_int_equal(roce_hostmatch_check("ALL", &err), 0);
	assert_int_equal(roce_hostmatch_check("node[123456789012345678]", &err), 0);
	assert_true(roce_hostmatch("node[999999999999999990-999999999999999999]", "node999999999999999995"));

	char big[ROCE_HOSTMATCH_PATTERN_MAX + 2];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(roce_hostmatch_check(big, &err), -1);
	assert_non_null(strstr(err.msg, "longer than 1024 bytes"));
	big[ROCE_HOSTMATCH_PATTERN_MAX] = '\0';
	assert_int_equal(roce_hostmatch_check(big, &err), 0);
}

/* Patterns built to make a backtracking matcher take exponential time, and
 * names too long to be node names: bounded, and right. */
static void t_hostile_patterns_cost_little(void **s)
{
	(void)s;
	char pat[ROCE_HOSTMATCH_PATTERN_MAX + 1], name[ROCE_HOSTMATCH_NAME_MAX + 2];
	size_t n = 0;
	while (n + 2 <= ROCE_HOSTMATCH_PATTERN_MAX - 1) {
		pat[n++] = 'a';
		pat[n++] = '*';
	}
	pat[n++] = 'b';
	pat[n] = '\0';
	memset(name, 'a', ROCE_HOSTMATCH_NAME_MAX);
	name[ROCE_HOSTMATCH_NAME_MAX] = '\0';
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 20; i++)
		assert_false(roce_hostmatch(pat, name));
	/* 1,000 digits-only ranges against a name of digits: each position tries 18 runs */
	n = 0;
	n += (size_t)snprintf(pat, sizeof(pat), "*");
	while (n + 12 < ROCE_HOSTMATCH_PATTERN_MAX)
		n += (size_t)snprintf(pat + n, sizeof(pat) - n, "[0-99999]*");
	memset(name, '7', ROCE_HOSTMATCH_NAME_MAX);
	for (int i = 0; i < 20; i++)
		assert_true(roce_hostmatch(pat, name)); /* ~100 ranges of 1-5 digits fit 255 digits */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	print_message("40 hostile matches in %.1f ms\n", ms);
	assert_true(ms < 5000);

	/* a name longer than any node name matches nothing, not even '*' */
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_false(roce_hostmatch("*", name));
	name[ROCE_HOSTMATCH_NAME_MAX] = '\0';
	assert_true(roce_hostmatch("*", name));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ranges_as_slurm_expands_them),
		cmocka_unit_test(t_globs_lists_and_all),
		cmocka_unit_test(t_malformed_patterns_are_refused_and_match_nothing),
		cmocka_unit_test(t_hostile_patterns_cost_little),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
