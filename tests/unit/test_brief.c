/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_brief.c - the short form of a node's findings in a job's output (brief.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/brief.h"
#include "check/check.h"
#include "fixtures.h"

#define MAXB 16

/* The line brief.c makes of r's findings, shown as which says. */
static size_t line_of(const struct roce_check_result *r, enum roce_brief_which which, char *buf, size_t len)
{
	struct roce_brief b[MAXB];
	size_t total = roce_brief_of(r->findings, r->n_findings, which, b, MAXB);
	if (!total) {
		buf[0] = '\0';
		return 0;
	}
	roce_brief_join(b, total < MAXB ? total : MAXB, total, buf, len);
	return total;
}

/* The lab of issue 31: no DCB, no ecn/, no NVIDIA driver: every finding is
 * quiet, so a job's output gets nothing; with a port down, that port alone. */
static void t_quiet_node(void **state)
{
	struct fx_check *f = *state;
	char line[ROCE_BRIEF_LINE_MAX + 1];
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		roce_reading_set(&f->node.netdevs[i].pfc.read, ROCE_UNSUPPORTED, 95, "RTM_GETDCB: not supported");
		roce_reading_set(&f->node.netdevs[i].ecn.read, ROCE_MISSING, 2, "ecn does not exist");
	}
	fx_check_run(f);
	assert_true(f->check.n_warn >= 2); /* said by roce-check: never a pass */
	assert_int_equal(line_of(&f->check, ROCE_BRIEF_SAID, line, sizeof(line)), 0);

	f->node.devices[1].ports[0].state = 1; /* DOWN, as sysfs numbers it */
	snprintf(f->node.devices[1].ports[0].state_name, sizeof(f->node.devices[1].ports[0].state_name), "DOWN");
	fx_check_run(f);
	assert_int_equal(line_of(&f->check, ROCE_BRIEF_SAID, line, sizeof(line)), 1);
	assert_string_equal(line, "port_state down on mlx5_1:1");
	assert_int_equal(line_of(&f->check, ROCE_BRIEF_FAILING, line, sizeof(line)), 1);

	/* the site asks: the unknowns are said again, grouped, after the failure */
	f->policy.pfc_unknown = ROCE_UNKNOWN_WARN;
	f->policy.ecn_unknown = ROCE_UNKNOWN_WARN;
	fx_check_run(f);
	assert_int_equal(line_of(&f->check, ROCE_BRIEF_SAID, line, sizeof(line)), 3);
	assert_string_equal(line, "port_state down on mlx5_1:1; pfc unknown (no DCB) on mlx5_0:1,mlx5_1:1; "
	                          "ecn unknown (no ecn/) on mlx5_0:1,mlx5_1:1");
	/* strict shows what fails it only */
	assert_int_equal(line_of(&f->check, ROCE_BRIEF_FAILING, line, sizeof(line)), 1);
	assert_string_equal(line, "port_state down on mlx5_1:1");
}

static void add(struct roce_check_result *r, const char *check, const char *dev, unsigned port, enum roce_verdict v,
                const char *cause, unsigned flags)
{
	assert_int_equal(roce_finding_addf(r, check, dev, port, v, cause, flags, NULL, "a long message with the fix"), 0);
}

/* Worst first, then in order; about the node: no subject; passes never. */
static void t_order(void **state)
{
	(void)state;
	struct roce_check_result r = { 0 };
	char line[ROCE_BRIEF_LINE_MAX + 1];
	add(&r, "gdr", NULL, 0, ROCE_WARN, "none", 0);
	assert_int_equal(roce_finding_pass(&r, "port_state", "mlx5_0", 1, "fine"), 0);
	add(&r, "trust", "mlx5_0", 1, ROCE_UNKNOWN, "unknown", 0);
	add(&r, "mtu", "mlx5_0", 1, ROCE_FAIL, "mismatch", 0);
	add(&r, "pcie_link", "GPU3", 0, ROCE_WARN, "narrow", 0);
	assert_int_equal(line_of(&r, ROCE_BRIEF_SAID, line, sizeof(line)), 4);
	assert_string_equal(line, "mtu mismatch on mlx5_0:1; trust unknown on mlx5_0:1; gdr none; pcie_link narrow on GPU3");
	/* an unknown set aside never fails a strict step: not in its line */
	assert_int_equal(roce_finding_unknown_aside(&r, "pcie_link", "mlx5_1", 0, "path unknown"), 0);
	assert_int_equal(line_of(&r, ROCE_BRIEF_FAILING, line, sizeof(line)), 2);
	assert_string_equal(line, "mtu mismatch on mlx5_0:1; trust unknown on mlx5_0:1");
	assert_false(r.findings[0].quiet);
	free(r.findings);
}

/* A FAIL is always said, whatever the flag; a quiet cause is never a pass. */
static void t_quiet_flag(void **state)
{
	(void)state;
	struct roce_check_result r = { 0 };
	add(&r, "pfc", "mlx5_0", 1, ROCE_FAIL, "unknown (no DCB)", ROCE_FINDING_QUIET);
	add(&r, "ecn", "mlx5_0", 1, ROCE_WARN, NULL, ROCE_FINDING_QUIET);
	assert_false(r.findings[0].quiet);
	assert_true(r.findings[1].quiet);
	assert_string_equal(r.findings[1].cause, "warn"); /* no cause: the verdict's name */
	assert_int_equal(r.n_warn, 1);
	assert_int_equal(r.n_fail, 1);
	assert_true(roce_brief_shows(&r.findings[0], ROCE_BRIEF_SAID));
	assert_false(roce_brief_shows(&r.findings[1], ROCE_BRIEF_SAID));
	free(r.findings);
}

/* A line never passes ROCE_BRIEF_LINE_MAX: what does not fit is counted,
 * and a list of subjects too long for its group ends in ",...". */
static void t_fits(void **state)
{
	(void)state;
	struct roce_check_result r = { 0 };
	char line[ROCE_BRIEF_LINE_MAX + 1], dev[32];
	const char *checks[] = { "port_state", "netdev", "gid", "mtu", "pfc", "ecn", "ets", "trust" };
	for (size_t i = 0; i < 8; i++)
		add(&r, checks[i], "mlx5_10", 1, ROCE_FAIL, "a cause of 23 chars....", 0);
	assert_int_equal(line_of(&r, ROCE_BRIEF_SAID, line, sizeof(line)), 8);
	assert_true(strlen(line) <= ROCE_BRIEF_LINE_MAX);
	assert_non_null(strstr(line, "port_state a cause of 23 chars.... on mlx5_10:1; netdev "));
	assert_non_null(strstr(line, " more)"));
	free(r.findings);
	memset(&r, 0, sizeof(r));
	for (unsigned i = 0; i < 40; i++) {
		snprintf(dev, sizeof(dev), "mlx5_%u", i);
		add(&r, "pfc", dev, 1, ROCE_WARN, "off", 0);
	}
	struct roce_brief b[MAXB];
	assert_int_equal(roce_brief_of(r.findings, r.n_findings, ROCE_BRIEF_SAID, b, MAXB), 1);
	assert_true(strlen(b[0].subjects) < ROCE_BRIEF_SUBJECTS_MAX);
	assert_non_null(strstr(b[0].subjects, "mlx5_0:1,mlx5_1:1,"));
	assert_string_equal(b[0].subjects + strlen(b[0].subjects) - 4, ",...");
	free(r.findings);
	/* more groups than the caller keeps: counted, each once */
	memset(&r, 0, sizeof(r));
	for (unsigned i = 0; i < 20; i++) {
		snprintf(dev, sizeof(dev), "c%u", i);
		add(&r, dev, "mlx5_0", 1, ROCE_WARN, "off", 0);
		add(&r, dev, "mlx5_1", 1, ROCE_WARN, "off", 0);
	}
	assert_int_equal(roce_brief_of(r.findings, r.n_findings, ROCE_BRIEF_SAID, b, 4), 20);
	assert_string_equal(b[3].subjects, "mlx5_0:1,mlx5_1:1");
	char small[40];
	assert_int_equal(roce_brief_join(b, 4, 20, small, sizeof(small)), 1);
	assert_string_equal(small, "c0 off on mlx5_0:1,mlx5_1:1 (+19 more)");
	free(r.findings);
}

/* A subject from another node's file is hostile: printed escaped. */
static void t_hostile(void **state)
{
	(void)state;
	struct roce_brief b = { .status = ROCE_WARN, .check = "pfc", .cause = "off\n" };
	char line[ROCE_BRIEF_LINE_MAX + 1];
	snprintf(b.subjects, sizeof(b.subjects), "mlx5_0:1\nNCCL_EVIL=1");
	roce_brief_text(&b, line, sizeof(line));
	assert_string_equal(line, "pfc off\\n on mlx5_0:1\\nNCCL_EVIL=1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_quiet_node, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test(t_order),
		cmocka_unit_test(t_quiet_flag),
		cmocka_unit_test(t_fits),
		cmocka_unit_test(t_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
