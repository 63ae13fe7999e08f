/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check_drain.c - when the health check resumes a drain of ours
 * (lib/check/check_drain.c): sinfo's state words, whose drain it is, what
 * a run looked at, and the count of passing runs in a row, run by run.
 * (The drain reason and leave_alone are in test_check.c, beside the
 * checks that give them.) */
#include "config.h"
#include "unit.h"
#include "check/check.h"

#include <stdlib.h>
#include <string.h>

#define DRAIN ROCE_DRAIN_STATE_DRAIN
#define DOWN ROCE_DRAIN_STATE_DOWN
#define FAIL ROCE_DRAIN_STATE_FAIL

static const char *const ours = "roce: mlx5_1 port 1 DOWN";
static const char *const seen = "mlx5_0 mlx5_1";

/* sinfo -o %T words as 22.05 to 26.05 print them */
static void state_words(void **s)
{
	(void)s;
	assert_int_equal(roce_check_drain_state_word("idle"), 0);
	assert_int_equal(roce_check_drain_state_word("mixed"), 0);
	assert_int_equal(roce_check_drain_state_word("allocated"), 0);
	assert_int_equal(roce_check_drain_state_word("drained"), DRAIN);
	assert_int_equal(roce_check_drain_state_word("draining"), DRAIN);
	assert_int_equal(roce_check_drain_state_word("drained*"), DRAIN);
	assert_int_equal(roce_check_drain_state_word("down*"), DOWN);
	assert_int_equal(roce_check_drain_state_word("down+drain"), DOWN | DRAIN);
	assert_int_equal(roce_check_drain_state_word("failing"), FAIL);
	assert_int_equal(roce_check_drain_state_word(""), 0);
	assert_int_equal(roce_check_drain_state_word(NULL), 0);
}

static void whose_drain(void **s)
{
	(void)s;
	assert_true(roce_check_drain_ours(DRAIN, ours));
	assert_true(roce_check_drain_ours(DRAIN, "roce: mlx5_0 missing (+1 more)"));
	/* an admin's or Slurm's */
	assert_false(roce_check_drain_ours(DRAIN, "admin: firmware update"));
	assert_false(roce_check_drain_ours(DRAIN, "Prolog error"));
	assert_false(roce_check_drain_ours(DRAIN, "roce:no space"));
	assert_false(roce_check_drain_ours(DRAIN, ""));
	assert_false(roce_check_drain_ours(DRAIN, NULL));
	/* not drained: an idle node may keep an old reason after a resume (24.11) */
	assert_false(roce_check_drain_ours(0, ours));
	/* down or failing: Slurm's business, whatever the reason says */
	assert_false(roce_check_drain_ours(DRAIN | DOWN, ours));
	assert_false(roce_check_drain_ours(DRAIN | FAIL, ours));
}

/* Every finding's device once ("node" for none), in order. */
static void seen_subjects(void **s)
{
	(void)s;
	struct roce_check_result r;
	char buf[64];
	memset(&r, 0, sizeof(r));
	assert_string_equal(roce_check_drain_seen(&r, buf, sizeof(buf)), "");
	assert_int_equal(roce_finding_addf(&r, "port_state", "mlx5_0", 1, ROCE_PASS, NULL, 0, NULL, "up"), 0);
	assert_int_equal(roce_finding_addf(&r, "gid", "mlx5_0", 1, ROCE_PASS, NULL, 0, NULL, "ok"), 0);
	assert_int_equal(roce_finding_addf(&r, "port_state", "mlx5_1", 1, ROCE_PASS, NULL, 0, NULL, "up"), 0);
	assert_int_equal(roce_finding_addf(&r, "gdr", NULL, 0, ROCE_WARN, NULL, 0, NULL, "none"), 0);
	assert_int_equal(roce_finding_addf(&r, "pcie_link", "GPU3", 0, ROCE_PASS, NULL, 0, NULL, "ok"), 0);
	assert_string_equal(roce_check_drain_seen(&r, buf, sizeof(buf)), "mlx5_0 mlx5_1 node GPU3");
	/* what does not fit is left out, the rest stays whole */
	assert_string_equal(roce_check_drain_seen(&r, buf, 14), "mlx5_0 mlx5_1");
	assert_string_equal(roce_check_drain_seen(&r, buf, 10), "mlx5_0");
	free(r.findings);
}

#define NEXT(run, state, reason, seen_, passes, after) \
	roce_check_drain_next(ROCE_DRAIN_RUN_##run, state, reason, seen_, passes, after)

static void expect(struct roce_check_drain_next n, enum roce_check_drain_act act, unsigned passes)
{
	assert_int_equal(n.act, act);
	assert_int_equal(n.passes, passes);
}

/* A fault drains, or leaves someone else's drain alone; the count is gone either way. */
static void next_fault(void **s)
{
	(void)s;
	expect(NEXT(FAULT, 0, "", seen, 0, 3), ROCE_DRAIN_ACT_DRAIN, 0);
	expect(NEXT(FAULT, DRAIN, ours, seen, 2, 3), ROCE_DRAIN_ACT_DRAIN, 0);
	expect(NEXT(FAULT, DRAIN, "admin: firmware update", seen, 0, 3), ROCE_DRAIN_ACT_LEAVE, 0);
	expect(NEXT(FAULT, DOWN, "Not responding", seen, 0, 3), ROCE_DRAIN_ACT_LEAVE, 0);
	expect(NEXT(FAULT, 0, ours, seen, 0, 0), ROCE_DRAIN_ACT_DRAIN, 0); /* ResumeAfter=0 drains all the same */
}

/* No answer is no pass: the row starts again. */
static void next_unknown(void **s)
{
	(void)s;
	expect(NEXT(UNKNOWN, DRAIN, ours, seen, 2, 3), ROCE_DRAIN_ACT_NONE, 0);
	expect(NEXT(UNKNOWN, 0, "", "", 0, 3), ROCE_DRAIN_ACT_NONE, 0);
}

/* Passes count only under a drain of ours, up to ResumeAfter. */
static void next_pass(void **s)
{
	(void)s;
	expect(NEXT(PASS, DRAIN, ours, seen, 0, 3), ROCE_DRAIN_ACT_COUNT, 1);
	expect(NEXT(PASS, DRAIN, ours, seen, 1, 3), ROCE_DRAIN_ACT_COUNT, 2);
	expect(NEXT(PASS, DRAIN, ours, seen, 2, 3), ROCE_DRAIN_ACT_RESUME, 3);
	/* the resume failed (slurmctld busy): tried again on the next pass */
	expect(NEXT(PASS, DRAIN, ours, seen, 3, 3), ROCE_DRAIN_ACT_RESUME, 3);
	expect(NEXT(PASS, DRAIN, ours, seen, 999, 3), ROCE_DRAIN_ACT_RESUME, 3);
	expect(NEXT(PASS, DRAIN, ours, seen, 0, 1), ROCE_DRAIN_ACT_RESUME, 1);
	/* ResumeAfter=0: never */
	expect(NEXT(PASS, DRAIN, ours, seen, 5, 0), ROCE_DRAIN_ACT_NONE, 0);
	/* someone else's drain is never counted, never resumed */
	expect(NEXT(PASS, DRAIN, "admin: firmware update", seen, 2, 3), ROCE_DRAIN_ACT_NONE, 0);
	expect(NEXT(PASS, DRAIN, "Prolog error", seen, 2, 3), ROCE_DRAIN_ACT_NONE, 0);
	/* not drained (resumed by hand, or an old reason on an idle node): the count is over */
	expect(NEXT(PASS, 0, ours, seen, 2, 3), ROCE_DRAIN_ACT_NONE, 0);
	expect(NEXT(PASS, 0, "", seen, 3, 3), ROCE_DRAIN_ACT_NONE, 0);
	/* ours but down: Slurm's */
	expect(NEXT(PASS, DRAIN | DOWN, ours, seen, 2, 3), ROCE_DRAIN_ACT_NONE, 0);
}

/* A drain for what this run did not look at (a job GPU's PCIe link, seen
 * only with the job's GPUs) is not judged by it. */
static void next_not_seen(void **s)
{
	(void)s;
	expect(NEXT(PASS, DRAIN, "roce: GPU3 pcie_link", seen, 2, 3), ROCE_DRAIN_ACT_NOT_SEEN, 0);
	expect(NEXT(PASS, DRAIN, "roce: mlx5_1 port 1 DOWN", "mlx5_0 mlx5_10", 0, 3), ROCE_DRAIN_ACT_NOT_SEEN, 0);
	expect(NEXT(PASS, DRAIN, "roce: mlx5_1 port 1 DOWN", NULL, 0, 3), ROCE_DRAIN_ACT_NOT_SEEN, 0);
	expect(NEXT(PASS, DRAIN, "roce: ", seen, 0, 3), ROCE_DRAIN_ACT_NOT_SEEN, 0);
	expect(NEXT(PASS, DRAIN, "roce: GPU3 pcie_link", "mlx5_0 GPU3", 0, 3), ROCE_DRAIN_ACT_COUNT, 1);
}

/* Run by run, as the health check keeps the count between runs: passes,
 * a fault in between, then three passes in a row resume; then the node is
 * free and the count is over. */
static void sequence(void **s)
{
	(void)s;
	struct step {
		enum roce_check_drain_run run;
		unsigned state;
		const char *reason;
		enum roce_check_drain_act act;
		unsigned passes;
	} steps[] = {
		{ ROCE_DRAIN_RUN_FAULT, 0, "", ROCE_DRAIN_ACT_DRAIN, 0 },
		{ ROCE_DRAIN_RUN_PASS, DRAIN, ours, ROCE_DRAIN_ACT_COUNT, 1 },
		{ ROCE_DRAIN_RUN_PASS, DRAIN, ours, ROCE_DRAIN_ACT_COUNT, 2 },
		{ ROCE_DRAIN_RUN_FAULT, DRAIN, ours, ROCE_DRAIN_ACT_DRAIN, 0 }, /* the cable flapped */
		{ ROCE_DRAIN_RUN_PASS, DRAIN, ours, ROCE_DRAIN_ACT_COUNT, 1 },
		{ ROCE_DRAIN_RUN_UNKNOWN, DRAIN, ours, ROCE_DRAIN_ACT_NONE, 0 }, /* timed out */
		{ ROCE_DRAIN_RUN_PASS, DRAIN, ours, ROCE_DRAIN_ACT_COUNT, 1 },
		{ ROCE_DRAIN_RUN_PASS, DRAIN, ours, ROCE_DRAIN_ACT_COUNT, 2 },
		{ ROCE_DRAIN_RUN_PASS, DRAIN, ours, ROCE_DRAIN_ACT_RESUME, 3 },
		{ ROCE_DRAIN_RUN_PASS, 0, "", ROCE_DRAIN_ACT_NONE, 0 },
	};
	unsigned passes = 0;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct roce_check_drain_next n =
		        roce_check_drain_next(steps[i].run, steps[i].state, steps[i].reason, seen, passes, 3);
		assert_int_equal(n.act, steps[i].act);
		assert_int_equal(n.passes, steps[i].passes);
		passes = n.passes;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(state_words),   cmocka_unit_test(whose_drain), cmocka_unit_test(seen_subjects),
		cmocka_unit_test(next_fault),    cmocka_unit_test(next_unknown), cmocka_unit_test(next_pass),
		cmocka_unit_test(next_not_seen), cmocka_unit_test(sequence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
