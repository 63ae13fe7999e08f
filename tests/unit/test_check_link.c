/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check_link.c - the link rate check (check_link.c) and its drain reason, over models built in memory. */
#include "config.h"
#include "unit.h"

#include <errno.h>
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

/* The default is LinkRateAction=warn (released at warn: NEWS); most tests
 * here judge fail, t_default_warn the default. */
static int setup_fail(void **state)
{
	int rc = fx_check_setup3(state);
	struct fx_check *f = *state;
	f->policy.link_rate_action = ROCE_ACTION_FAIL;
	return rc;
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
/* Where device i sits, as pcie.c reads it: behind a PCIe switch under root
 * port 0000:<rp>:01.0 (rp 0: on a root port of its own), with GPU gpu
 * ("" none) below that root port. */
static void place(struct roce_node *node, size_t i, unsigned rp, const char *gpu)
{
	struct roce_device *d = &node->devices[i];
	struct roce_pcie_path *p = &d->pcie;
	memset(p, 0, sizeof(*p));
	roce_reading_set(&p->read, ROCE_OK, 0, NULL);
	p->n = rp ? 4 : 2;
	snprintf(p->fn[0].bdf, sizeof(p->fn[0].bdf), "%s", d->pci_addr);
	for (size_t k = 1; k < p->n; k++)
		snprintf(p->fn[k].bdf, sizeof(p->fn[k].bdf), "0000:%02x:%02zx.0", rp ? rp : 0x80 + (unsigned)i, k);
	for (size_t k = 0; k < p->n; k++) {   /* healthy links, no ACS, no IOMMU: nothing else to say */
		struct roce_pcie_fn *fn = &p->fn[k];
		fn->cur_speed = fn->max_speed = 320;
		fn->cur_width = fn->max_width = 16;
		roce_reading_set(&fn->link_read, ROCE_OK, 0, NULL);
		roce_reading_set(&fn->acs_read, ROCE_OK, 0, NULL);
	}
	roce_reading_set(&p->iommu_read, ROCE_OK, 0, NULL);
	roce_reading_set(&d->gpu_near_read, ROCE_OK, 0, NULL);
	snprintf(d->gpu_near, sizeof(d->gpu_near), "%s", gpu);
}

static void t_slow_port_auto(void **state)
{
	struct fx_check *f = *state;
	set_rate(&f->node.devices[1].ports[0], "25 Gb/sec (1X EDR)", 25000);
	for (size_t i = 0; i < 3; i++)
		place(&f->node, i, 0, "");   /* host ports, each on a root port of its own: one role */
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	assert_non_null(strstr(fd->message, "mlx5_1 port 1 runs at 25 Gb/s (25 Gb/sec (1X EDR)), while other MT4123 "
	                                    "(MT_0000000223) ports of its role on this node run at 100 Gb/s (a host "
	                                    "port, no GPU behind its PCIe switch)"));
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

/* Issue 25: a slower port whose role cannot be told (its PCIe neighbourhood
 * unknown: a container's sysfs) is not judged as a fault: a warning, no
 * drain, the port stays. */
static void t_role_unknown(void **state)
{
	struct fx_check *f = *state;
	set_rate(&f->node.devices[1].ports[0], "25 Gb/sec (1X EDR)", 25000);
	roce_reading_set(&f->node.devices[1].gpu_near_read, ROCE_MISSING, ENOENT,
	                 "its PCIe path is unknown (cannot read the link /sys/bus/pci/devices/0000:51:00.0)");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_false(fd->hardware);
	assert_non_null(strstr(fd->message, "whether it is a GPU's rail or a host port (storage, front-end) cannot be "
	                                    "told (its PCIe path is unknown"));
	assert_int_equal(f->check.n_fail, 0);
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1,mlx5_2:1");
}

/* Issue 25, the rail-optimised node: eight 400G compute ports (each behind
 * a GPU's PCIe switch) and two 100G storage ports of the same adapter
 * model.  Without Hca= it passes and drains nothing, whether the storage
 * ports hang off root ports of their own or sit beside a faster port under
 * a GPU's switch; a compute port at 100G among 400G ones still fails. */
static void t_roles_rail_optimised(void **state)
{
	(void)state;
	struct fx_check *f = fx_check_new(10);
	char gpu[16], reason[128];
	f->policy.link_rate_action = ROCE_ACTION_FAIL;
	for (size_t i = 0; i < 10; i++) {
		struct roce_device *d = &f->node.devices[i];
		snprintf(d->hca_type, sizeof(d->hca_type), "MT4129");
		snprintf(d->board_id, sizeof(d->board_id), "MT_0000000838");
		set_rate(&d->ports[0], i < 8 ? "400 Gb/sec (4X NDR)" : "100 Gb/sec (2X HDR)", i < 8 ? 400000 : 100000);
		snprintf(gpu, sizeof(gpu), "0000:%02zx:00.0", 0x19 + i * 0x10);
		place(&f->node, i, i < 8 ? (unsigned)(0x15 + i * 0x10) : 0, i < 8 ? gpu : "");
	}
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "link_rate", ROCE_PASS), 10);
	assert_int_equal(f->check.n_fail + f->check.n_warn, 0);
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_8:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "mlx5_8 port 1 at 100 Gb/s (a host port, no GPU behind its PCIe switch: "
	                                 "compared with its role's ports; other MT4129 ports run at 400 Gb/s)");
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_false(f->check.failed);

	/* the storage ports under the switches of GPU 0 and GPU 4, beside their 400G rails */
	f->policy.mode = ROCE_MODE_WARN;
	place(&f->node, 8, 0x15, "0000:19:00.0");
	place(&f->node, 9, 0x55, "0000:59:00.0");
	fx_check_run(f);
	assert_int_equal(f->check.n_fail + f->check.n_warn, 0);
	fd = fx_finding(&f->check, "link_rate", "mlx5_9:1", ROCE_PASS);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "(a host port, beside a faster port under GPU 0000:59:00.0's switch"));

	/* a compute port that trained at 100G: still a GPU's rail, and fails */
	set_rate(&f->node.devices[3].ports[0], "100 Gb/sec (2X HDR)", 100000);
	fx_check_run(f);
	fd = fx_finding(&f->check, "link_rate", "mlx5_3:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "while other MT4129 (MT_0000000838) ports of its role on this node run at "
	                                    "400 Gb/s (a GPU's rail, beside GPU 0000:49:00.0)"));
	assert_int_equal(f->check.n_fail, 1);
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_3 port 1 at 100 Gb/s");
	fx_check_free(f);
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

/* The default, LinkRateAction=warn: a slow port is said and kept, nothing
 * drains, strict passes; a rate that cannot be read is a warning too. */
static void t_default_warn(void **state)
{
	struct fx_check *f = *state;
	char reason[128];
	assert_int_equal(f->policy.link_rate_action, ROCE_ACTION_WARN);
	set_rate(&f->node.devices[1].ports[0], "25 Gb/sec (1X EDR)", 25000);
	for (size_t i = 0; i < 3; i++)
		place(&f->node, i, 0, "");
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "link_rate", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_false(fd->hardware);
	assert_non_null(strstr(fd->message, "mlx5_1 port 1 runs at 25 Gb/s (25 Gb/sec (1X EDR)), while other MT4123"));
	assert_non_null(strstr(fd->message, "the port is kept (LinkRateAction=fail leaves it out and drains the node)"));
	assert_false(f->check.failed);
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1,mlx5_2:1");
	/* LinkRate=N too */
	f->policy.link_rate = 200;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "link_rate", ROCE_WARN), 3);
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
	assert_false(f->check.failed);
	/* a rate that cannot be read: a warning, strict still passes */
	f->policy.link_rate = ROCE_LINK_RATE_AUTO;
	roce_reading_set(&f->node.devices[0].ports[0].rate_read, ROCE_MALFORMED, 0,
	                 "/sys/class/infiniband/mlx5_0/ports/1/rate: \"fast\" is not \"<n> Gb/sec (<width> <speed>)\"");
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "link_rate", "mlx5_0:1", ROCE_WARN));
	assert_int_equal(f->check.n_unknown, 0);
	assert_false(f->check.failed);
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
		cmocka_unit_test_setup_teardown(t_slow_port_auto, setup_fail, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_role_unknown, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test(t_roles_rail_optimised),
		cmocka_unit_test_setup_teardown(t_minimum, setup_fail, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_rate_unknown, setup_fail, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_default_warn, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_speed_cross_check, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_down_port_skipped, fx_check_setup3, fx_check_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
