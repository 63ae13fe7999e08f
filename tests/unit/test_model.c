/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_model.c - model helpers, sysfs value parsers and the bounded sysfs reader. */
#include "config.h"
#include "unit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/model.h"
#include "collect/rdma.h"
#include "read/sysfs.h"
#include "scratch.h"

static void t_ib_mtu(void **s)
{
	(void)s;
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(9000), 4096);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(4200), 4096);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(4192), 4096);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(4191), 2048);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(1500), 1024);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(1120), 1024);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(1119), 512);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(352), 256);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(351), 0);
	assert_int_equal(roce_ib_mtu_for_netdev_mtu(0), 0);
}

static void t_gid_parse_format(void **s)
{
	(void)s;
	uint8_t raw[16];
	char text[40], addr[64];
	assert_int_equal(roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:0a6c:a424", raw), 0);
	assert_true(roce_gid_is_ipv4(raw));
	assert_false(roce_gid_is_link_local(raw));
	roce_gid_format_addr(raw, addr, sizeof(addr));
	assert_string_equal(addr, "10.108.164.36");
	roce_gid_format_sysfs(raw, text);
	assert_string_equal(text, "0000:0000:0000:0000:0000:ffff:0a6c:a424");
	assert_int_equal(roce_rdma_parse_gid("fe80:0000:0000:0000:0e42:a1ff:fe01:0001", raw), 0);
	assert_true(roce_gid_is_link_local(raw));
	assert_false(roce_gid_is_ipv4(raw));
	roce_gid_format_addr(raw, addr, sizeof(addr));
	assert_string_equal(addr, "fe80::e42:a1ff:fe01:1");
	/* Only the kernel's full form is accepted. */
	assert_int_equal(roce_rdma_parse_gid("fe80::1", raw), -1);
	assert_int_equal(roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:0a6c:a42", raw), -1);
	assert_int_equal(roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:0a6c:a42g", raw), -1);
	assert_int_equal(roce_rdma_parse_gid("0000-0000:0000:0000:0000:ffff:0a6c:a424", raw), -1);
	assert_int_equal(roce_rdma_parse_gid("", raw), -1);
}

static void t_port_state(void **s)
{
	(void)s;
	int n;
	char name[24];
	assert_int_equal(roce_rdma_parse_port_state("4: ACTIVE", &n, name, sizeof(name)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(name, "ACTIVE");
	assert_int_equal(roce_rdma_parse_port_state("5: LinkUp", &n, name, sizeof(name)), 0);
	assert_int_equal(roce_rdma_parse_port_state("4:ACTIVE", &n, name, sizeof(name)), -1);
	assert_int_equal(roce_rdma_parse_port_state("ACTIVE", &n, name, sizeof(name)), -1);
	assert_int_equal(roce_rdma_parse_port_state("4: ", &n, name, sizeof(name)), -1);
	assert_int_equal(roce_rdma_parse_port_state("999: X", &n, name, sizeof(name)), -1);
	assert_int_equal(roce_rdma_parse_port_state("4: ACTIVE;rm", &n, name, sizeof(name)), -1);
	assert_int_equal(roce_rdma_parse_port_state("4: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", &n, name, sizeof(name)), -1);
}

static void t_gid_type_link_layer(void **s)
{
	(void)s;
	enum roce_gid_type t;
	enum roce_link_layer ll;
	assert_int_equal(roce_rdma_parse_gid_type("RoCE v2", &t), 0);
	assert_int_equal(t, ROCE_GID_TYPE_ROCE_V2);
	assert_int_equal(roce_rdma_parse_gid_type("IB/RoCE v1", &t), 0);
	assert_int_equal(t, ROCE_GID_TYPE_IB_ROCE_V1);
	assert_int_equal(roce_rdma_parse_gid_type("RoCE v3", &t), -1);
	assert_int_equal(roce_rdma_parse_link_layer("Ethernet", &ll), 0);
	assert_int_equal(ll, ROCE_LL_ETHERNET);
	assert_int_equal(roce_rdma_parse_link_layer("InfiniBand", &ll), 0);
	assert_int_equal(ll, ROCE_LL_INFINIBAND);
	assert_int_equal(roce_rdma_parse_link_layer("ethernet", &ll), -1);
}

static void t_rate(void **s)
{
	(void)s;
	unsigned m = 7;
	assert_int_equal(roce_rdma_parse_rate("100 Gb/sec (4X EDR)", &m), 0);
	assert_int_equal(m, 100000);
	assert_int_equal(roce_rdma_parse_rate("25 Gb/sec (1X EDR)", &m), 0);
	assert_int_equal(m, 25000);
	assert_int_equal(roce_rdma_parse_rate("2.5 Gb/sec (1X SDR)", &m), 0);
	assert_int_equal(m, 2500);
	assert_int_equal(roce_rdma_parse_rate("400 Gb/sec", &m), 0);
	assert_int_equal(m, 400000);
	m = 7;
	assert_int_equal(roce_rdma_parse_rate("0 Gb/sec (4X EDR)", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("10000 Gb/sec (4X EDR)", &m), -1);   /* out of range */
	assert_int_equal(roce_rdma_parse_rate("99999999999999999999 Gb/sec", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("100 Mb/sec (4X EDR)", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("100 Gb/sec 4X EDR", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("100 Gb/sec (4X EDR", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("2.25 Gb/sec (1X SDR)", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("-100 Gb/sec", &m), -1);
	assert_int_equal(roce_rdma_parse_rate("", &m), -1);
	assert_int_equal(m, 7);
}

static void t_gid_usable(void **s)
{
	(void)s;
	struct roce_gid g = { 0 };
	roce_reading_set(&g.read, ROCE_OK, 0, NULL);
	roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:c000:020a", g.raw);
	g.type = ROCE_GID_TYPE_ROCE_V2;
	assert_true(roce_gid_usable(&g, AF_INET));
	assert_false(roce_gid_usable(&g, AF_INET6));
	g.type = ROCE_GID_TYPE_IB_ROCE_V1;
	assert_false(roce_gid_usable(&g, AF_INET));
	g.type = ROCE_GID_TYPE_ROCE_V2;
	roce_rdma_parse_gid("fe80:0000:0000:0000:0e42:a1ff:fe01:0001", g.raw);
	assert_false(roce_gid_usable(&g, AF_INET));
	assert_false(roce_gid_usable(&g, AF_INET6));
	roce_rdma_parse_gid("fd00:0000:0000:0000:0000:0000:0000:0001", g.raw);
	assert_true(roce_gid_usable(&g, AF_INET6));
	roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:0000:0000", g.raw);
	assert_false(roce_gid_usable(&g, AF_INET));
	/* IPv4 link-local (169.254.0.0/16) is not routed: not usable, like fe80:: */
	roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:a9fe:0102", g.raw);
	assert_true(roce_gid_is_ipv4_link_local(g.raw));
	assert_false(roce_gid_usable(&g, AF_INET));
	roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:a9ff:0102", g.raw);   /* 169.255.1.2 */
	assert_false(roce_gid_is_ipv4_link_local(g.raw));
	assert_true(roce_gid_usable(&g, AF_INET));
	roce_rdma_parse_gid("0000:0000:0000:0000:0000:ffff:a8fe:0102", g.raw);   /* 168.254.1.2 */
	assert_true(roce_gid_usable(&g, AF_INET));
	roce_rdma_parse_gid("fe80:0000:0000:0000:0000:0000:a9fe:0102", g.raw);   /* not IPv4-mapped */
	assert_false(roce_gid_is_ipv4_link_local(g.raw));
}

/* ---- the bounded reader on real files */
static char dir[128];

static int setup_dir(void **s)
{
	(void)s;
	return fx_tmpdir(dir, sizeof(dir), "roce-model");
}

static int teardown_dir(void **s)
{
	(void)s;
	return fx_rmtree(dir);
}

static void write_file(const char *name, const void *data, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void t_sysfs_read(void **s)
{
	(void)s;
	char buf[64];
	struct roce_reading r;
	write_file("state", "4: ACTIVE\n", 10);
	assert_int_equal(roce_sysfs_read(dir, "state", buf, sizeof(buf), &r), 0);
	assert_string_equal(buf, "4: ACTIVE");
	assert_int_equal(r.status, ROCE_OK);

	assert_int_equal(roce_sysfs_read(dir, "nope", buf, sizeof(buf), &r), -1);
	assert_int_equal(r.status, ROCE_MISSING);
	assert_non_null(strstr(r.why, "/nope"));

	write_file("bin", "\x7f" "ELF\0\1", 6);
	assert_int_equal(roce_sysfs_read(dir, "bin", buf, sizeof(buf), &r), -1);
	assert_int_equal(r.status, ROCE_MALFORMED);
	assert_non_null(strstr(r.why, "not text"));

	char big[5000];
	memset(big, 'x', sizeof(big));
	write_file("big", big, sizeof(big));
	assert_int_equal(roce_sysfs_read(dir, "big", buf, sizeof(buf), &r), -1);
	assert_int_equal(r.status, ROCE_MALFORMED);
	assert_non_null(strstr(r.why, "longer than 4096"));

	write_file("long", big, 100);   /* fits a page, not the caller's buffer */
	assert_int_equal(roce_sysfs_read(dir, "long", buf, sizeof(buf), &r), -1);
	assert_int_equal(r.status, ROCE_MALFORMED);

	uint64_t v;
	write_file("ctr", "18446744073709551615\n", 21);
	assert_int_equal(roce_sysfs_read_u64(dir, "ctr", &v, &r), 0);
	assert_true(v == UINT64_MAX);
	write_file("pma", "N/A (no PMA)\n", 13);
	assert_int_equal(roce_sysfs_read_u64(dir, "pma", &v, &r), -1);
	assert_int_equal(r.status, ROCE_MALFORMED);
	write_file("neg", "-1\n", 3);
	assert_int_equal(roce_sysfs_read_u64(dir, "neg", &v, &r), -1);
	write_file("ovf", "18446744073709551616\n", 21);
	assert_int_equal(roce_sysfs_read_u64(dir, "ovf", &v, &r), -1);
}

static void t_sysfs_fifo_and_dir(void **s)
{
	(void)s;
	char path[256], buf[64];
	struct roce_reading r;
	/* A FIFO planted in the tree must be refused, not block forever. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(roce_sysfs_read(dir, "fifo", buf, sizeof(buf), &r), -1);
	assert_int_equal(r.status, ROCE_MALFORMED);
	snprintf(path, sizeof(path), "%s/adir", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(roce_sysfs_read(dir, "adir", buf, sizeof(buf), &r), -1);
	assert_int_not_equal(r.status, ROCE_OK);
}

static void t_sysfs_list_natural(void **s)
{
	(void)s;
	const char *names[] = { "mlx5_10", "mlx5_2", "mlx5_0", "mlx5_1", "10", "9" };
	char path[256];
	snprintf(path, sizeof(path), "%s/list", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	for (size_t i = 0; i < 6; i++) {
		char f[64];
		snprintf(f, sizeof(f), "list/%s", names[i]);
		write_file(f, "x", 1);
	}
	char **out;
	size_t n;
	struct roce_reading r;
	assert_int_equal(roce_sysfs_list(dir, "list", &out, &n, &r), 0);
	assert_int_equal(n, 6);
	assert_string_equal(out[0], "9");
	assert_string_equal(out[1], "10");
	assert_string_equal(out[2], "mlx5_0");
	assert_string_equal(out[3], "mlx5_1");
	assert_string_equal(out[4], "mlx5_2");
	assert_string_equal(out[5], "mlx5_10");
	roce_sysfs_names_free(out, n);
}

static void mk(const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(mkdir(path, 0700), 0);
}

/* Names the kernel never gives are refused, and the refusal is recorded
 * with the path (escaped for printing), not dropped in silence. */
static void t_refused_names_recorded(void **s)
{
	(void)s;
	mk("rdma"); mk("rdma/class"); mk("rdma/class/infiniband");
	mk("rdma/class/infiniband/bad\nX=1");
	mk("rdma/class/infiniband/bad\nX=1/ports");
	mk("rdma/class/infiniband/mlx5_0");
	mk("rdma/class/infiniband/mlx5_0/ports");
	mk("rdma/class/infiniband/mlx5_0/ports/1");
	mk("rdma/class/infiniband/mlx5_0/ports/abc");
	write_file("rdma/class/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand\n", 11);
	char root[sizeof(dir) + 8];
	snprintf(root, sizeof(root), "%s/rdma", dir);
	struct roce_node node;
	roce_node_init(&node);
	struct roce_gid_want want = { .index = 3, .addr_family = AF_INET };
	assert_int_equal(roce_rdma_collect(&node, root, &want), 0);
	/* the listing was read: malformed (an entry refused), not failed */
	assert_int_equal(node.devices_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(node.devices_read.why, "/class/infiniband/\"bad\\nX=1\""));
	assert_null(strchr(node.devices_read.why, '\n'));
	assert_int_equal(node.n_devices, 1);
	assert_string_equal(node.devices[0].name, "mlx5_0");
	assert_int_equal(node.devices[0].ports_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(node.devices[0].ports_read.why, "/class/infiniband/mlx5_0/ports/\"abc\""));
	assert_int_equal(node.devices[0].n_ports, 1);
	assert_int_equal(node.devices[0].ports[0].num, 1);
	roce_node_free(&node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ib_mtu),
		cmocka_unit_test(t_gid_parse_format),
		cmocka_unit_test(t_port_state),
		cmocka_unit_test(t_gid_type_link_layer),
		cmocka_unit_test(t_rate),
		cmocka_unit_test(t_gid_usable),
		cmocka_unit_test(t_sysfs_read),
		cmocka_unit_test(t_sysfs_fifo_and_dir),
		cmocka_unit_test(t_sysfs_list_natural),
		cmocka_unit_test(t_refused_names_recorded),
	};
	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
