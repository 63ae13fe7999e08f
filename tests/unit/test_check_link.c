/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check_link.c - the link rate check (check_link.c) and its drain reason, over models built in memory. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/plan.h"
#include "fixtures.h"

static void set_rate(struct roce_port *p, const char *text, unsigned mbps)
{
	snprintf(p->rate, sizeof(p->rate), "%s", text);
	p->rate_mbps = mbps;
}

static void t_all_fast(void **state)
{
	struct fx_check *f = *state;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_0:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "mlx5_0 port 1 at 100 Gb/s");
	assert_int_equal(f->check.n_fail, 0);
}

/* auto: one port of three trained at 25G: a hardware fault, left out, drained. */
static void t_slow_port_auto(void **state)
{
	struct fx_check *f = *state;
	set_rate(&f->node.devices[1].ports[0], "25 Gb/sec (1X EDR)", 25000);
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	assert_non_null(strstr(fd->message, "mlx5_1 port 1 runs at 25 Gb/s (25 Gb/sec (1X EDR)), while other MT4123 "
	                                    "(MT_0000000223) ports on this node run at 100 Gb/s"));
	assert_non_null(strstr(fd->message, "`ethtool eth1`"));
	assert_false(f->check.failed);   /* warn mode: the other ports carry the job */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_2:1");
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_1 port 1 at 25 Gb/s");

	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_true(f->check.failed);

	/* A different adapter model is not compared: a 25G management NIC is no fault. */
	f->policy.mode = ROCE_MODE_WARN;
	snprintf(f->node.devices[1].board_id, sizeof(f->node.devices[1].board_id), "MT_0000000359");
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_PASS));
	assert_int_equal(f->check.n_fail, 0);
	/* Nor a model that cannot be read (said so in the pass) */
	roce_reading_set(&f->node.devices[1].hca_type_read, ROCE_UNREADABLE, 13, "x/hca_type: Permission denied");
	fx_check_run(f);
	fd = fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_PASS);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "adapter model unknown: not compared"));
}

/* LinkRate=N is a floor for every port, whatever the model; none judges nothing. */
static void t_minimum(void **state)
{
	struct fx_check *f = *state;
	set_rate(&f->node.devices[2].ports[0], "2.5 Gb/sec (1X SDR)", 2500);
	f->policy.link_rate = 2;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "link_rate", "mlx5_2:1", ROCE_PASS));
	f->policy.link_rate = 200;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "runs at 100 Gb/s (100 Gb/sec (4X EDR)), below LinkRate=200"));
	assert_true(f->check.failed);   /* no port left */
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_0 port 1 at 100 Gb/s (+2 more)");
	fd = fx_finding(&f->check, "link_rate", "mlx5_2:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "at 2.5 Gb/s"));
	f->policy.link_rate = ROCE_LINK_RATE_NONE;
	fx_check_run(f);
	for (size_t i = 0; i < f->check.n_findings; i++)
		assert_string_not_equal(f->check.findings[i].check, "link_rate");
}

/* A rate that was not read or not understood is unknown, naming the file; the port stays. */
static void t_rate_unknown(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.devices[0].ports[0].rate_read, ROCE_MALFORMED, 0,
	                 "/sys/class/infiniband/mlx5_0/ports/1/rate: \"fast\" is not \"<n> Gb/sec (<width> <speed>)\"");
	f->node.devices[0].ports[0].rate_mbps = 0;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_0:1", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "mlx5_0 port 1 link rate is unknown (malformed: /sys/class/infiniband/mlx5_0/ports/1/rate: \"fast\""));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1,mlx5_2:1");
	/* and it is not what the others are compared with */
	assert_int_equal(f->check.n_fail, 0);
}

/* The netdev's speed disagreeing with the rate is said, not judged (a bond's netdev
 * reports the sum of its links); -1 (down) and unread say nothing. */
static void t_speed_cross_check(void **state)
{
	struct fx_check *f = *state;
	struct roce_netdev *nd = roce_node_find_netdev(&f->node, "eth1");
	roce_reading_set(&nd->speed_read, ROCE_OK, 0, NULL);
	nd->speed_mbps = 25000;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "mlx5_1 port 1 at 100 Gb/s (eth1 says 25000 Mb/s: the RDMA port's rate is judged)");
	assert_int_equal(f->check.n_warn, 0);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1,mlx5_2:1");
	nd->speed_mbps = 100000;
	fx_check_run(f);
	assert_string_equal(fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_PASS)->message, "mlx5_1 port 1 at 100 Gb/s");
	nd->speed_mbps = -1;
	fx_check_run(f);
	assert_string_equal(fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_PASS)->message, "mlx5_1 port 1 at 100 Gb/s");
}

/* A port that is down is port_state's: no link_rate finding, and it sets no bar for the others. */
static void t_down_port_skipped(void **state)
{
	struct fx_check *f = *state;
	struct roce_port *p = &f->node.devices[0].ports[0];
	p->state = 1;
	set_rate(p, "400 Gb/sec (4X NDR)", 400000);
	fx_check_run(f);
	assert_null(fx_finding(&f->check, "link_rate", "mlx5_0:1", ROCE_FAIL));
	assert_null(fx_finding(&f->check, "link_rate", "mlx5_0:1", ROCE_PASS));
	assert_non_null(fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_PASS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_all_fast, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_slow_port_auto, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_minimum, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_rate_unknown, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_speed_cross_check, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_down_port_skipped, fx_check_setup3, fx_check_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
