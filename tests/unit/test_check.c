/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check.c - check, the locality choice and plan over models built in memory (no I/O). */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "check/check.h"
#include "check/plan.h"
#include "collect/rdma.h"
#include "check/choice.h"
#include "fixtures.h"

static void t_healthy(void **state)
{
	struct fx_check *f = *state;
	fx_check_run(f);
	assert_false(f->check.failed);
	assert_int_equal(f->check.n_fail, 0);
	assert_int_equal(f->check.n_warn, 0);
	assert_true(f->plan.valid);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_GID_INDEX"), "3");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_NET_GDR_LEVEL"), "PXB");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_SOCKET_IFNAME"), "=eth0,eth1");
	/* TrafficClass=auto: DSCP 26 maps to the PFC priority 3 -> TC 26 << 2 */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_TC"), "104");
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
}

static void t_port_down_warn_and_strict(void **state)
{
	struct fx_check *f = *state;
	struct roce_port *p = &f->node.devices[1].ports[0];
	p->state = 1; snprintf(p->state_name, sizeof(p->state_name), "DOWN");
	p->phys_state = 3; snprintf(p->phys_state_name, sizeof(p->phys_state_name), "Disabled");
	fx_check_run(f);
	assert_false(f->check.failed);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_SOCKET_IFNAME"), "=eth0");
	const struct roce_finding *fd = fx_finding(&f->check, "port_state", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_1 port 1 DOWN");

	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_true(f->check.failed);
	assert_false(f->plan.valid);
	assert_int_equal(f->plan.n_vars, 0);
}

/* Without Hca=, a host port (its place read: no GPU behind its PCIe switch,
 * on a node whose GPU rails are other ports) that is down, as an unplugged
 * storage port: a warning, left out, no drain, strict passes.  A GPU's rail,
 * a port whose place is unknown, a node with no GPU rail at all, and any port
 * Hca= names still fail and drain. */
static void t_host_port_down(void **state)
{
	struct fx_check *f = *state;
	char reason[128];
	for (size_t i = 0; i < 3; i++) {
		struct roce_device *d = &f->node.devices[i];
		roce_reading_set(&d->gpu_near_read, ROCE_OK, 0, NULL);
		snprintf(d->gpu_near, sizeof(d->gpu_near), "%s", i < 2 ? "0000:19:00.0" : "");
	}
	struct roce_port *p = &f->node.devices[2].ports[0];
	p->state = 1;
	snprintf(p->state_name, sizeof(p->state_name), "DOWN");
	p->phys_state = 3;
	snprintf(p->phys_state_name, sizeof(p->phys_state_name), "Disabled");
	struct roce_netdev *nd = roce_node_find_netdev(&f->node, "eth2");
	nd->up = false;
	snprintf(nd->operstate, sizeof(nd->operstate), "down");
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "port_state", "mlx5_2:1", ROCE_WARN);
	assert_non_null(fd);
	assert_false(fd->hardware);
	assert_non_null(strstr(fd->message, "mlx5_2 port 1 is DOWN (phys_state Disabled): a host port (no GPU behind its "
	                                    "PCIe switch; this node's GPU rails are other ports) that is down is left "
	                                    "out, not drained"));
	assert_non_null(fx_finding(&f->check, "netdev", "mlx5_2:1", ROCE_WARN));
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
	assert_false(f->check.failed);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");

	/* Hca= names it: a port you expect up */
	f->policy.n_hca = 3;
	for (size_t i = 0; i < 3; i++)
		snprintf(f->policy.hca[i], sizeof(f->policy.hca[i]), "mlx5_%zu", i);
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "port_state", "mlx5_2:1", ROCE_FAIL));
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_2 port 1 DOWN (+1 more)");
	f->policy.n_hca = 0;

	/* its place unknown: judged as before */
	roce_reading_set(&f->node.devices[2].gpu_near_read, ROCE_MISSING, ENOENT, "its PCIe path is unknown");
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "port_state", "mlx5_2:1", ROCE_FAIL));
	/* a node whose places show no GPU at all: every port a rail */
	for (size_t i = 0; i < 3; i++) {
		roce_reading_set(&f->node.devices[i].gpu_near_read, ROCE_OK, 0, NULL);
		f->node.devices[i].gpu_near[0] = '\0';
	}
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "port_state", "mlx5_2:1", ROCE_FAIL));
	assert_true(f->check.failed);

	/* a GPU's rail that is down drains */
	snprintf(f->node.devices[0].gpu_near, sizeof(f->node.devices[0].gpu_near), "0000:19:00.0");
	snprintf(f->node.devices[2].gpu_near, sizeof(f->node.devices[2].gpu_near), "0000:29:00.0");
	fx_check_run(f);
	fd = fx_finding(&f->check, "port_state", "mlx5_2:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_2 port 1 DOWN (+1 more)");
}

static void t_pfc(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[1].pfc.enabled = 0x01;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "pfc", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "PFC is off for priority 3 on eth1 (enabled: 0)"));
	assert_false(fd->hardware);   /* configuration: never drains */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");

	/* Unknown (no DCB in the driver) is a warning by default, not "disabled". */
	roce_reading_set(&f->node.netdevs[1].pfc.read, ROCE_UNSUPPORTED, 95, "RTM_GETDCB eth1: not supported");
	fx_check_run(f);
	fd = fx_finding(&f->check, "pfc", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	/* Every node of every step says it on NICs without DCB: one short line
	 * that names the keys to set, not the netlink detail. */
	assert_true(strlen(fd->message) <= 120);
	assert_non_null(strstr(fd->message, "eth1"));
	assert_non_null(strstr(fd->message, "PfcPriority=none"));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	/* what such a stack simply is: quiet in a job's output unless the site asks (issue 31) */
	assert_true(fd->quiet);
	assert_string_equal(fd->cause, "unknown (no DCB)");
	f->policy.pfc_unknown = ROCE_UNKNOWN_WARN;
	fx_check_run(f);
	fd = fx_finding(&f->check, "pfc", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_false(fd->quiet);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	/* any other unknown PFC state is news: said, quiet or not */
	roce_reading_set(&f->node.netdevs[1].pfc.read, ROCE_MALFORMED, 0, "DCB_ATTR_IEEE_PFC: too short");
	f->policy.pfc_unknown = ROCE_UNKNOWN_QUIET;
	fx_check_run(f);
	fd = fx_finding(&f->check, "pfc", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_false(fd->quiet);
	roce_reading_set(&f->node.netdevs[1].pfc.read, ROCE_UNSUPPORTED, 95, "RTM_GETDCB eth1: not supported");
	f->policy.pfc_unknown = ROCE_UNKNOWN_FAIL;
	fx_check_run(f);
	fd = fx_finding(&f->check, "pfc", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_false(fd->quiet); /* a failure is always said */

	f->policy.pfc_priority = ROCE_PFC_NONE;
	fx_check_run(f);
	assert_null(fx_finding(&f->check, "pfc", "mlx5_1:1", ROCE_FAIL));
}

static void t_traffic_class(void **state)
{
	struct fx_check *f = *state;
	f->policy.traffic_class = 106;   /* DSCP 26 + ECN bits */
	fx_check_run(f);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_TC"), "106");
	f->policy.traffic_class = 192;   /* DSCP 48 -> priority 6 */
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "pfc", "mlx5_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "TrafficClass 192 is DSCP 48, which eth0 maps to priority 6, not the PFC priority 3"));

	/* auto with no DSCP mapped to the PFC priority */
	f->policy.traffic_class = ROCE_TC_AUTO;
	f->node.netdevs[0].dscp.prio[26] = 1;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "pfc", "mlx5_0:1", ROCE_FAIL));
	/* no APP table at all (PCP trust): TC cannot be derived -> warn, no NCCL_IB_TC */
	for (size_t i = 0; i < f->node.n_netdevs; i++) {
		memset(f->node.netdevs[i].dscp.prio, -1, sizeof(f->node.netdevs[i].dscp.prio));
		f->node.netdevs[i].dscp.n = 0;
	}
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "pfc", "mlx5_0:1", ROCE_WARN));
	assert_null(roce_plan_get(&f->plan, "NCCL_IB_TC"));
}

static void t_mtu(void **state)
{
	struct fx_check *f = *state;
	f->node.netdevs[1].mtu = 1500;
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "mtu_uniform", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "mlx5_1:1 (eth1) has active RDMA MTU 1024"));
	assert_false(f->check.failed);   /* warn mode: mlx5_0 still works */
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_true(f->check.failed);
	f->policy.mode = ROCE_MODE_WARN;
	f->policy.mtu = 9000;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "mtu", "mlx5_1:1", ROCE_FAIL));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	/* verbs disagreeing with the derived MTU is worth a warning */
	f->node.devices[0].ports[0].verbs_active_mtu = 2048;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "mtu", "mlx5_0:1", ROCE_WARN));
}

/* Mtu=0 (no fixed MTU): ports off the majority active RDMA MTU are left out in
 * warn mode, each with a finding that says what to set. */
static void t_mtu_majority(void **state)
{
	struct fx_check *f = *state;
	/* 1 vs 1: a tie goes to the larger MTU */
	f->node.netdevs[1].mtu = 1500;
	fx_check_run(f);
	assert_false(f->check.failed);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	assert_false(roce_check_port(&f->check, "mlx5_1", 1)->healthy);
	const struct roce_finding *fd = fx_finding(&f->check, "mtu_uniform", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_false(fd->hardware);
	assert_non_null(strstr(fd->message, "mlx5_1:1 (eth1) has active RDMA MTU 1024 (eth1 MTU 1500)"));
	assert_non_null(strstr(fd->message, "most RoCE ports have 4096 (MTU 9000)"));
	assert_non_null(strstr(fd->message, "`ip link set eth1 mtu 9000`"));
	assert_non_null(strstr(fd->message, "switch port"));
	assert_null(fx_finding(&f->check, "mtu_uniform", "mlx5_0:1", ROCE_FAIL));
	/* 4200 and 9000 both give RDMA MTU 4096: uniform for NCCL */
	f->node.netdevs[1].mtu = 4200;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "mtu_uniform", "node", ROCE_PASS));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");

	/* 2 vs 1: the majority wins even when it is the smaller MTU */
	roce_node_free(&f->node);
	fx_healthy_node(&f->node, 3);
	f->node.netdevs[0].mtu = 1500;
	f->node.netdevs[1].mtu = 1500;
	fx_check_run(f);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	fd = fx_finding(&f->check, "mtu_uniform", "mlx5_2:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "`ip link set eth2 mtu 1500`"));
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_true(f->check.failed);
}

/* Hca= names a device the node does not have: a hardware fault even when
 * the node has no RDMA device at all, but only if the listing was read. */
static void t_hca_absent_no_devices(void **state)
{
	struct fx_check *f = *state;
	roce_node_free(&f->node);
	roce_node_init(&f->node);
	roce_reading_set(&f->node.devices_read, ROCE_OK, 0, NULL);
	roce_reading_set(&f->node.gdr.read, ROCE_OK, 0, NULL);
	f->policy.n_hca = 1;
	snprintf(f->policy.hca[0], sizeof(f->policy.hca[0]), "mlx5_0");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "hca", "mlx5_0", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_0 missing");

	/* the listing itself failed: we do not know, so no drain */
	roce_reading_set(&f->node.devices_read, ROCE_UNREADABLE, 13, "cannot list /sys/class/infiniband: Permission denied");
	fx_check_run(f);
	assert_null(fx_finding(&f->check, "hca", "mlx5_0", ROCE_FAIL));
	fd = fx_finding(&f->check, "hca", "mlx5_0", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "Permission denied"));
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);
	roce_reading_set(&f->node.devices_read, ROCE_UNREADABLE, EIO, "cannot list /sys/class/infiniband: Input/output error");
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "hca", "mlx5_0", ROCE_UNKNOWN));
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 0);

	/* no class/infiniband at all: the RDMA driver did not load (a DKMS build
	 * that failed on a new kernel): Hca= says the node has one, so it drains,
	 * one finding naming the drivers */
	f->policy.n_hca = 2;
	snprintf(f->policy.hca[1], sizeof(f->policy.hca[1]), "mlx5_1");
	roce_reading_set(&f->node.devices_read, ROCE_MISSING, ENOENT,
	                 "cannot list /sys/class/infiniband: No such file or directory");
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "hca", FX_ANY), 1);
	fd = fx_finding(&f->check, "hca", "node", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	assert_non_null(strstr(fd->message, "Hca= lists mlx5_0,mlx5_1, but no RDMA driver is loaded: cannot list "
	                                    "/sys/class/infiniband: No such file or directory"));
	assert_non_null(strstr(fd->message, "dkms status"));
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: RDMA driver not loaded (ib_core, mlx5_ib)");
	assert_true(f->check.failed);
	/* another vendor's device: only ib_core is named for sure */
	snprintf(f->policy.hca[1], sizeof(f->policy.hca[1]), "bnxt_re0");
	fx_check_run(f);
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: RDMA driver not loaded (ib_core)");
}

/* An IPv4 link-local (169.254/16) RoCE v2 GID is not routed across an L3
 * fabric: not usable at the policy index. */
static void t_gid_link_local_ipv4(void **state)
{
	struct fx_check *f = *state;
	struct roce_gid *g = &f->node.devices[1].ports[0].gids[0];
	assert_int_equal(roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:a9fe:010b", g->raw), 0);
	fx_check_run(f);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	const struct roce_finding *fd = fx_finding(&f->check, "gid", "mlx5_1:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	assert_non_null(strstr(fd->message, "169.254.1.11"));
	assert_non_null(strstr(fd->message, "link-local"));
	assert_non_null(strstr(fd->message, "give eth1 its routable IPv4 address"));
	f->policy.gid_index = ROCE_GID_AUTO;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "gid", "mlx5_1:1", ROCE_FAIL));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1");
}

/* --verbs where libibverbs could not query a port: said, not silent. */
static void t_verbs_not_done(void **state)
{
	struct fx_check *f = *state;
	/* as lib/collect/verbs.c records them */
	roce_reading_set(&f->node.devices[0].ports[0].verbs_read, ROCE_UNSUPPORTED, ENODEV,
	                 "libibverbs has no device mlx5_0 (no RDMA hardware, or no provider library for its driver)");
	roce_reading_set(&f->node.devices[1].ports[0].verbs_read, ROCE_UNREADABLE, EIO,
	                 "libibverbs could not query mlx5_1 port 1: Input/output error");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "mtu", "mlx5_0:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "libibverbs MTU cross-check was not done"));
	assert_non_null(strstr(fd->message, "libibverbs has no device mlx5_0"));
	fd = fx_finding(&f->check, "mtu", "mlx5_1:1", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "Input/output error"));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	assert_false(f->check.failed);
}

/* Entries the collector refused (names the kernel never gives) are findings. */
static void t_refused_entries(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.devices_read, ROCE_MALFORMED, 0,
	                 "/s/class/infiniband/\"bad\\nX=1\": not an RDMA device name: ignored");
	roce_reading_set(&f->node.devices[0].ports_read, ROCE_MALFORMED, 0,
	                 "/s/class/infiniband/mlx5_0/ports/\"abc\": not a port number: ignored");
	f->policy.n_hca = 3;
	snprintf(f->policy.hca[0], sizeof(f->policy.hca[0]), "mlx5_0");
	snprintf(f->policy.hca[1], sizeof(f->policy.hca[1]), "mlx5_1");
	snprintf(f->policy.hca[2], sizeof(f->policy.hca[2]), "mlx5_7");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "devices", "node", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "\"bad\\nX=1\": not an RDMA device name"));
	assert_null(fx_finding(&f->check, "devices", "node", ROCE_FAIL));   /* devices were listed */
	fd = fx_finding(&f->check, "device", "mlx5_0", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "ports/\"abc\": not a port number"));
	/* the listing was read: the absent mlx5_7 is a hardware fault */
	fd = fx_finding(&f->check, "hca", "mlx5_7", ROCE_FAIL);
	assert_non_null(fd);
	assert_true(fd->hardware);
	/* the ports that were read are still used */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
}

static void t_gid_elsewhere(void **state)
{
	struct fx_check *f = *state;
	for (size_t i = 0; i < 2; i++)
		f->node.devices[i].ports[0].gids[0].index = 5;
	fx_check_run(f);
	assert_true(f->check.failed);   /* every port fails: RoCE impossible */
	const struct roce_finding *fd = fx_finding(&f->check, "gid", "mlx5_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "is at index 5: set GidIndex=5"));
	assert_false(fd->hardware);
	f->policy.gid_index = ROCE_GID_AUTO;
	fx_check_run(f);
	assert_false(f->check.failed);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_GID_INDEX"), "5");
}

static void t_prefix_safe_hca(void **state)
{
	struct fx_check *f = *state;
	roce_node_free(&f->node);
	fx_healthy_node(&f->node, 11);
	fx_check_run(f);
	/* exact-match form: "mlx5_1" must not also select mlx5_10 */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"),
	                    "=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_8:1,mlx5_9:1,mlx5_10:1");
	f->policy.n_hca = 1;
	snprintf(f->policy.hca[0], sizeof(f->policy.hca[0]), "mlx5_1");
	fx_check_run(f);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_1:1");
}

static void t_unreadable_is_unknown(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.devices[0].ports[0].state_read, ROCE_UNREADABLE, 5, "cannot read .../state: Input/output error");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "port_state", "mlx5_0:1", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "Input/output error"));
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_1:1");
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_true(f->check.failed);
}

/* GPUDirect readiness: a peer-memory client passes; a loaded module without
 * a registered client does not (NVIDIA/nccl#1939); DMA-BUF alone passes;
 * neither warns, and fails only with RequireGdr=yes. */
static void t_no_gdr(void **state)
{
	struct fx_check *f = *state;
	fx_check_run(f);
	assert_non_null(strstr(fx_finding(&f->check, "gdr", "node", ROCE_PASS)->message, "through a peer-memory client"));
	f->node.gdr.peer_memory = false;
	snprintf(f->node.gdr.dmabuf_why, sizeof(f->node.gdr.dmabuf_why), "Linux 5.10.0 is older than 5.12");
	fx_check_run(f);
	assert_non_null(strstr(fx_finding(&f->check, "gdr", "node", ROCE_WARN)->message,
	                       "nvidia_peermem is loaded but no peer-memory client is registered"));
	f->node.gdr.loaded = false;
	fx_check_run(f);
	assert_non_null(strstr(fx_finding(&f->check, "gdr", "node", ROCE_WARN)->message, "(Linux 5.10.0 is older than 5.12;"));
	assert_false(f->check.failed);
	f->policy.require_gdr = true;
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "gdr", "node", ROCE_FAIL));
	assert_true(f->check.failed);
	f->node.gdr.dmabuf = true;
	snprintf(f->node.gdr.kernel, sizeof(f->node.gdr.kernel), "6.1.0-18-amd64");
	fx_check_run(f);
	assert_non_null(strstr(fx_finding(&f->check, "gdr", "node", ROCE_PASS)->message,
	                       "through DMA-BUF (Linux 6.1.0-18-amd64, NVIDIA open kernel module)"));
	assert_false(f->check.failed);
}

/* Locality over plain data: 2 GPUs, the 3 HCAs of a 3-port node. */
static void t_locality(void **state)
{
	struct fx_check *f = *state;
	roce_node_free(&f->node);
	fx_healthy_node(&f->node, 3);
	struct roce_locality *loc = calloc(1, sizeof(*loc));
	struct roce_choice *choice = calloc(1, sizeof(*choice));
	struct roce_error err = { "" };
	loc->n_gpus = 2;
	loc->n_hcas = 3;
	for (size_t h = 0; h < 3; h++) {
		snprintf(loc->hcas[h].name, sizeof(loc->hcas[h].name), "mlx5_%zu", h);
		roce_reading_set(&loc->hcas[h].found, ROCE_OK, 0, NULL);
	}
	/* GPU0: PIX to mlx5_2, SYS to the rest; GPU1: PXB to mlx5_0 and mlx5_1 */
	loc->gpu_hca[0][0] = ROCE_PATH_SYS; loc->gpu_hca[0][1] = ROCE_PATH_SYS; loc->gpu_hca[0][2] = ROCE_PATH_PIX;
	loc->gpu_hca[1][0] = ROCE_PATH_PXB; loc->gpu_hca[1][1] = ROCE_PATH_PXB; loc->gpu_hca[1][2] = ROCE_PATH_SYS;
	struct roce_gpuset gpus = { .status = ROCE_GPUS_OK, .n = 1, .idx = { 1 } };

	fx_check_run(f);
	assert_int_equal(roce_choice_for_check(&f->check, &f->policy, loc, &gpus, choice, &err), 0);
	assert_int_equal(roce_plan_build(&f->policy, &f->check, choice, &f->plan), 0);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_NET_GDR_LEVEL"), "PXB");

	gpus.n = 2; gpus.idx[0] = 0; gpus.idx[1] = 1;
	fx_check_run(f);
	assert_int_equal(roce_choice_for_check(&f->check, &f->policy, loc, &gpus, choice, &err), 0);
	assert_int_equal(roce_plan_build(&f->policy, &f->check, choice, &f->plan), 0);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_2:1,mlx5_0:1,mlx5_1:1");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_NET_GDR_LEVEL"), "PXB");   /* worst of PIX, PXB */

	/* GPU0's NIC down: its best healthy path is SYS, beyond the cap: warned, and
	 * GPU1's choice stands alone */
	f->node.devices[2].ports[0].state = 1;
	gpus.n = 1; gpus.idx[0] = 0;
	fx_check_run(f);
	size_t warn_before = f->check.n_warn;
	assert_int_equal(roce_choice_for_check(&f->check, &f->policy, loc, &gpus, choice, &err), 0);
	assert_int_equal(f->check.n_warn, warn_before + 1);
	const struct roce_finding *w = fx_finding(&f->check, "locality", "node", ROCE_WARN);
	assert_non_null(w);
	assert_non_null(strstr(w->message, "GPU 0"));
	assert_int_equal(roce_plan_build(&f->policy, &f->check, choice, &f->plan), 0);
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	free(loc);
	free(choice);
}

/* Whether a node Slurm already holds is left alone (check_drain.c): one
 * held for our reason ("roce: ...") is drained again, one held for anyone
 * else's (an admin's, Slurm's own) stays; a node not held keeps whatever
 * old reason it has and is drained. */
static void t_drain_leave_alone(void **state)
{
	(void)state;
	const unsigned drain = ROCE_DRAIN_STATE_DRAIN, down = ROCE_DRAIN_STATE_DOWN, fail = ROCE_DRAIN_STATE_FAIL;
	/* drained by us */
	assert_false(roce_check_drain_leave_alone(drain, "roce: mlx5_1 port 1 DOWN"));
	assert_false(roce_check_drain_leave_alone(drain | down, "roce: mlx5_1 port 1 DOWN (+2 more)"));
	/* drained (or draining: the same bit) by an admin, or by Slurm */
	assert_true(roce_check_drain_leave_alone(drain, "admin: firmware update"));
	assert_true(roce_check_drain_leave_alone(drain, "Kill task failed"));
	assert_true(roce_check_drain_leave_alone(drain, "roce:no space"));   /* not our prefix */
	/* down, failing */
	assert_true(roce_check_drain_leave_alone(down, "Not responding"));
	assert_true(roce_check_drain_leave_alone(fail, "admin: bad DIMM"));
	assert_false(roce_check_drain_leave_alone(down, "roce: mlx5_0 missing"));
	/* not held: an old reason kept after a resume is nobody's */
	assert_false(roce_check_drain_leave_alone(0, "admin: firmware update"));
	assert_false(roce_check_drain_leave_alone(0, NULL));
	/* no reason: NULL, "", and sinfo's "none" */
	assert_false(roce_check_drain_leave_alone(drain, NULL));
	assert_false(roce_check_drain_leave_alone(drain, ""));
	assert_false(roce_check_drain_leave_alone(drain, "none"));
	assert_false(roce_check_drain_leave_alone(down, "none"));
}

/* Issue 25, RoCE LAG: port state and MTU on the bond's netdev, PFC on each
 * member (the bond has no DCB): a healthy bond passes, a member without PFC
 * on the priority fails naming the member. */
static void t_bond_pfc(void **state)
{
	(void)state;
	struct fx_check *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fx_bond(&f->node);
	roce_policy_defaults(&f->policy);
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_false(f->check.failed);
	assert_int_equal(f->check.n_fail + f->check.n_warn + f->check.n_unknown, 0);
	assert_int_equal(fx_finding_count(&f->check, "pfc", ROCE_PASS), 2);
	const struct roce_finding *fd = fx_finding(&f->check, "netdev", "mlx5_bond_0:1", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "bond0 is up, MTU 9000");
	assert_string_equal(f->check.findings[f->check.n_findings - 1].check, "gdr"); /* nothing after */
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_HCA"), "=mlx5_bond_0:1");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_SOCKET_IFNAME"), "=bond0");
	assert_string_equal(roce_plan_get(&f->plan, "NCCL_IB_TC"), "104");
	/* a member without PFC on priority 3: fails, naming it */
	roce_node_find_netdev(&f->node, "eth1")->pfc.enabled = 1u << 4;
	fx_check_run(f);
	assert_true(f->check.failed);
	fd = fx_finding(&f->check, "pfc", "mlx5_bond_0:1", ROCE_FAIL);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "PFC is off for priority 3 on eth1 (enabled: 4)"));
	assert_int_equal(fx_finding_count(&f->check, "pfc", ROCE_PASS), 1);   /* eth0's */
	assert_false(roce_check_port(&f->check, "mlx5_bond_0", 1)->healthy);
	/* what happened before: the bond's own (absent) DCB, a warning for a healthy bond */
	roce_node_find_netdev(&f->node, "eth1")->pfc.enabled = 1u << 3;
	roce_reading_set(&roce_node_find_netdev(&f->node, "bond0")->members_read, ROCE_MISSING, 2, "not a bond");
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "pfc", "mlx5_bond_0:1", ROCE_WARN));
	fx_check_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_drain_leave_alone),
		cmocka_unit_test_setup_teardown(t_healthy, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_port_down_warn_and_strict, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_host_port_down, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_pfc, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_traffic_class, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_mtu, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_mtu_majority, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_hca_absent_no_devices, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_gid_link_local_ipv4, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_verbs_not_done, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_refused_entries, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_gid_elsewhere, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_prefix_safe_hca, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_unreadable_is_unknown, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_no_gdr, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_locality, fx_check_setup2, fx_check_teardown),
		cmocka_unit_test(t_bond_pfc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
