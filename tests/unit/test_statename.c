/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_statename.c - the names of a job's files in StateDir (lib/base/statename.h). */
#include "config.h"
#include "unit.h"

#include <string.h>

#include "base/statename.h"

/* Every name written is read back as what it is, also for node names that
 * hold the words that end other names. */
static void t_round_trip(void **state)
{
	(void)state;
	static const char *const nodes[] = { "gpu01", "n.with.5", "ranwith", "x.snapshot", "json", "a.shared", "with" };
	static const enum roce_statename_kind kinds[] = { ROCE_STATENAME_SNAPSHOT, ROCE_STATENAME_RANWITH,
		                                          ROCE_STATENAME_MARKER, ROCE_STATENAME_SHARED };
	char buf[ROCE_STATENAME_MAX];
	struct roce_statename n;
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			roce_statename_format(buf, kinds[k], "4711", nodes[i], "4712");
			if (!roce_statename_parse(buf, &n) || n.kind != kinds[k] || strcmp(n.job, "4711") != 0 ||
			    strcmp(n.node, nodes[i]) != 0 ||
			    strcmp(n.other, kinds[k] == ROCE_STATENAME_MARKER ? "4712" : "") != 0)
				fail_msg("\"%s\": kind %d job %s node %s other %s", buf, n.kind, n.job, n.node,
				         n.other);
		}
	roce_statename_format(buf, ROCE_STATENAME_SNAPSHOT, "4711", "gpu01", NULL);
	assert_string_equal(buf, "4711.gpu01.snapshot.json");
	roce_statename_format(buf, ROCE_STATENAME_MARKER, "4711", "gpu01", "4712");
	assert_string_equal(buf, "4711.gpu01.with.4712");
}

/* The names from before per-node names: still read, with no node. */
static void t_old_names(void **state)
{
	(void)state;
	char buf[ROCE_STATENAME_MAX];
	struct roce_statename n;
	roce_statename_format(buf, ROCE_STATENAME_SNAPSHOT, "4711", NULL, NULL);
	assert_string_equal(buf, "4711.json");
	assert_true(roce_statename_parse(buf, &n));
	assert_int_equal(n.kind, ROCE_STATENAME_SNAPSHOT);
	assert_string_equal(n.node, "");
	roce_statename_format(buf, ROCE_STATENAME_RANWITH, "4711", NULL, NULL);
	assert_string_equal(buf, "4711.ranwith.json");
	assert_true(roce_statename_parse(buf, &n));
	assert_int_equal(n.kind, ROCE_STATENAME_RANWITH);
	assert_string_equal(n.node, "");
	roce_statename_format(buf, ROCE_STATENAME_MARKER, "4711", NULL, "4712");
	assert_string_equal(buf, "4711.with.4712");
	assert_true(roce_statename_parse(buf, &n));
	assert_int_equal(n.kind, ROCE_STATENAME_MARKER);
	assert_string_equal(n.node, "");
	assert_string_equal(n.other, "4712");
}

/* Anything else is none of ours. */
static void t_others(void **state)
{
	(void)state;
	static const char *const names[] = {
		"policy-0123abcd.conf",
		"collector.stuck",
		".4711.json.0123456789abcdef",
		"4711",
		"4711.",
		"0711.json",
		"4711.with.",
		"4711.with.x",
		"4711..snapshot.json",
		"4711.-n.snapshot.json",
		"4711.gpu01.with.07",
		"4711.gpu/01.shared",
		"x.json",
		"4711.gpu01.snapshot.json.tmp",
		"4711.gpu01.json",
	};
	struct roce_statename n;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (roce_statename_parse(names[i], &n) || n.kind != ROCE_STATENAME_OTHER || n.job[0])
			fail_msg("\"%s\" taken for one of ours (kind %d)", names[i], n.kind);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_round_trip),
		cmocka_unit_test(t_old_names),
		cmocka_unit_test(t_others),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
