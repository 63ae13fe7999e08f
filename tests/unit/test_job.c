/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_job.c - which jobs' prologs gate the node (lib/job/job.c,
 * roce_job_gates).  What fails the gate is the drain rule
 * (roce_check_drain_reason, test_check.c); the gate itself runs in a real
 * Slurm in tests/e2e/spank-gate.sh. */
#include "config.h"
#include "unit.h"
#include "job/job.h"

static void gates(void **s)
{
	(void)s;
	struct roce_policy p;
	roce_policy_defaults(&p);
	assert_false(p.gate); /* Gate=no by default */
	assert_true(roce_job_gates(ROCE_MODE_STRICT, &p));
	assert_false(roce_job_gates(ROCE_MODE_WARN, &p));
	assert_false(roce_job_gates(ROCE_MODE_OFF, &p));
	/* Mode=strict in roce.conf is what --roce alone means, not a gate by itself */
	p.mode = ROCE_MODE_STRICT;
	assert_false(roce_job_gates(ROCE_MODE_WARN, &p));
	/* Gate=yes: every job, also those that asked for nothing */
	p.gate = true;
	assert_true(roce_job_gates(ROCE_MODE_OFF, &p));
	assert_true(roce_job_gates(ROCE_MODE_WARN, &p));
	assert_true(roce_job_gates(ROCE_MODE_STRICT, &p));
}

/* The prolog parts: the report needs no gate, the gate no report; arguments are checked first. */
static void prolog_arguments(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	roce_policy_defaults(&p);
	assert_int_equal(roce_job_prolog(&p, "/nonexistent", "12x", "node1", 0, ROCE_JOB_GATE, NULL, &err), -1);
	assert_int_equal(roce_job_prolog(&p, "/nonexistent", "12", "../x", 0, ROCE_JOB_GATE, NULL, &err), -1);
	/* neither part: nothing to do, nothing read */
	assert_int_equal(roce_job_prolog(&p, "/nonexistent", "12", "node1", 0, 0, NULL, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gates),
		cmocka_unit_test(prolog_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
