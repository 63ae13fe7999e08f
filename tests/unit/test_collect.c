/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_collect.c - the netlink collector over a node model (lib/collect/collect.c):
 * one budget for a whole collection (a silent peer on an AF_UNIX
 * socketpair), the real kernel's loopback and a missing netdev, and no
 * socket at all.
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "fixtures.h"
#include "collect/collect.h"
#include "collect/netlink/nl.h"

/* One overall budget for a whole collection: three netdevs, six requests,
 * 10 s per request but 300 ms in all. */
static void t_deadline_budget(void **state)
{
	(void)state;
	struct roce_node node;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv), 0);
	struct roce_nl *nl = roce_nl_open_fd(sv[0], 10000);
	assert_non_null(nl);
	roce_node_init(&node);
	assert_non_null(roce_node_add_netdev(&node, "eth0"));
	assert_non_null(roce_node_add_netdev(&node, "eth1"));
	assert_non_null(roce_node_add_netdev(&node, "eth2"));
	roce_nl_set_budget(nl, 300);
	int64_t t0 = roce_clock_ms();
	assert_int_equal(roce_collect_netdevs(nl, &node), 3);
	int64_t took = roce_clock_ms() - t0;
	if (took < 300 || took > 600)
		fail_msg("collection took %lld ms with a 300 ms budget", (long long)took);
	for (size_t i = 0; i < node.n_netdevs; i++) {
		assert_int_equal(node.netdevs[i].link_read.status, ROCE_TIMEOUT);
		assert_int_equal(node.netdevs[i].pfc.read.status, ROCE_TIMEOUT);
		assert_int_equal(node.netdevs[i].dscp.read.status, ROCE_TIMEOUT);
	}
	/* the first request used the budget; later ones were never sent */
	assert_non_null(strstr(node.netdevs[2].link_read.why, "deadline passed before the request was sent"));
	char req[256];
	assert_true(recv(sv[1], req, sizeof(req), MSG_DONTWAIT) > 0);
	assert_int_equal(recv(sv[1], req, sizeof(req), MSG_DONTWAIT), -1);
	roce_node_free(&node);
	roce_nl_close(nl);
	close(sv[1]);
}


/* Loopback exists in every network namespace and has no DCB ops. */
static void t_kernel_lo(void **state)
{
	(void)state;
	struct roce_nl *nl = roce_nl_open(2000);
	if (!nl)
		skip();
	roce_nl_close(nl);

	struct roce_node node;
	roce_node_init(&node);
	fx_add_port(&node, "rxe0", "lo");
	fx_add_port(&node, "rxe1", "roce-nx0");
	fx_add_port(&node, "rxe2", "lo");    /* same netdev twice: one entry */
	fx_add_port(&node, "rxe3", "");      /* no netdev: none */
	assert_int_equal(roce_collect_netlink(&node, 2000), 2);
	assert_int_equal(node.n_netdevs, 2);
	struct roce_netdev *lo = roce_node_find_netdev(&node, "lo");
	assert_non_null(lo);
	assert_int_equal(lo->link_read.status, ROCE_OK);
	assert_true(lo->ifindex > 0);
	assert_true(lo->mtu > 0);
	assert_true(lo->operstate[0] != '\0');
	assert_int_equal(lo->pfc.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(lo->dscp.read.status, ROCE_UNSUPPORTED);
	struct roce_netdev *nx = roce_node_find_netdev(&node, "roce-nx0");
	assert_non_null(nx);
	assert_int_equal(nx->link_read.status, ROCE_MISSING);
	assert_string_equal(nx->link_read.why, "netdev roce-nx0 does not exist in this network namespace");
	assert_int_equal(nx->pfc.read.status, ROCE_MISSING);
	roce_node_free(&node);
}

/* No file descriptors left: every reading says why. */
static void t_open_fails(void **state)
{
	(void)state;
	struct roce_node node;
	struct rlimit old, low;
	roce_node_init(&node);
	fx_add_port(&node, "mlx5_0", "eth0");
	fx_add_port(&node, "mlx5_1", "eth1");
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	int probe = dup(0);
	assert_true(probe >= 0);
	close(probe);
	low = old;
	low.rlim_cur = (rlim_t)probe; /* the lowest free fd is now out of range */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	errno = 0;
	int rc = roce_collect_netlink(&node, 1000);
	int err = errno;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(rc, -1);
	assert_int_equal(err, EMFILE);
	assert_int_equal(node.n_netdevs, 2);
	for (size_t i = 0; i < 2; i++) {
		struct roce_netdev *nd = &node.netdevs[i];
		assert_int_equal(nd->link_read.status, ROCE_UNREADABLE);
		assert_int_equal(nd->pfc.read.status, ROCE_UNREADABLE);
		assert_int_equal(nd->dscp.read.status, ROCE_UNREADABLE);
		assert_int_equal(nd->link_read.err, EMFILE);
		assert_string_equal(nd->link_read.why, "cannot open a NETLINK_ROUTE socket: Too many open files");
	}
	roce_node_free(&node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_deadline_budget),
		cmocka_unit_test(t_kernel_lo),
		cmocka_unit_test(t_open_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
