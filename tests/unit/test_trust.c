/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_trust.c - MLNX_OFED's qos/trust and qos/dscp2prio (lib/collect/trust.c): the
 * parsers, and the collector over sysfs trees in the kernel's layout
 * (class/net/<if> -> the PCI function's net/<if>; a VLAN's lower_<dev>).
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/trust.h"
#include "scratch.h"

/* mlnx_qos's default map: priority = DSCP / 8, after a header line. */
static void default_map(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "dscp2prio:");
	for (int d = 0; d < 64; d++)
		n += (size_t)snprintf(buf + n, len - n, "\n%d %d", d, d / 8);
}

static void t_parse_mode(void **state)
{
	(void)state;
	enum roce_trust_mode m = ROCE_TRUST_UNKNOWN;
	assert_int_equal(roce_trust_parse_mode("pcp", &m), 0);
	assert_int_equal(m, ROCE_TRUST_PCP);
	assert_int_equal(roce_trust_parse_mode("dscp", &m), 0);
	assert_int_equal(m, ROCE_TRUST_DSCP);
	assert_int_equal(roce_trust_parse_mode("DSCP", &m), -1);
	assert_int_equal(roce_trust_parse_mode("dscp ", &m), -1);
	assert_int_equal(roce_trust_parse_mode("", &m), -1);
	assert_string_equal(roce_trust_mode_name(ROCE_TRUST_PCP), "pcp");
	assert_string_equal(roce_trust_mode_name(ROCE_TRUST_UNKNOWN), "unknown");
}

static void t_parse_dscp2prio(void **state)
{
	(void)state;
	char buf[1024], why[128];
	struct roce_dscp_map m;
	default_map(buf, sizeof(buf));
	assert_int_equal(roce_trust_parse_dscp2prio(buf, &m, why, sizeof(why)), 0);
	assert_int_equal(m.n, 64);
	assert_int_equal(m.prio[26], 3);
	assert_int_equal(m.prio[63], 7);
	/* a partial map: the others are -1 */
	assert_int_equal(roce_trust_parse_dscp2prio("dscp prio\n26 5\n48\t6", &m, why, sizeof(why)), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.prio[26], 5);
	assert_int_equal(m.prio[48], 6);
	assert_int_equal(m.prio[0], -1);
}

static void bad(const char *s, const char *want)
{
	char why[128] = "";
	struct roce_dscp_map m;
	assert_int_equal(roce_trust_parse_dscp2prio(s, &m, why, sizeof(why)), -1);
	assert_int_equal(m.n, 0);
	assert_int_equal(m.prio[26], -1);
	if (!strstr(why, want))
		fail_msg("\"%s\": why \"%s\" lacks \"%s\"", s, why, want);
}

/* Layouts we do not know are refused, never read as a default. */
static void t_parse_dscp2prio_bad(void **state)
{
	(void)state;
	bad("", "line 1 is not a header line");
	bad("26 3\n27 3", "line 1 is not a header line");   /* no header: another layout */
	bad("dscp2prio:", "no \"DSCP PRIO\" line");
	bad("dscp2prio:\nprio:3 dscp:31,30,29", "line 2 \"prio:3 dscp:31,30,29\" is not \"DSCP PRIO\"");
	bad("h\n26 3 1", "line 2");
	bad("h\n26 8", "line 2: DSCP 26 or priority 8 out of range");
	bad("h\n64 3", "DSCP 64 or priority 3 out of range");
	bad("h\n26 3\n26 4", "line 3: DSCP 26 mapped twice");
	bad("h\n-1 3", "line 2");
	bad("h\n26 99999999999999999999", "line 2");
	bad("h\n\n26 3", "line 2 \"\"");
}

/* --- the collector over a tree in the kernel's layout */
static char root[256];

static void put(const char *rel, const char *text) { fx_putf(root, rel, "%s\n", text); }

static void link_at(const char *target, const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(fx_tmpdir(root, sizeof(root), "test_trust"), 0);
	char map[1024];
	default_map(map, sizeof(map));
	put("devices/pci0000:41/0000:41:00.0/net/eth0/qos/trust", "dscp");
	put("devices/pci0000:41/0000:41:00.0/net/eth0/qos/dscp2prio", map);
	put("devices/pci0000:61/0000:61:00.0/net/eth1/qos/trust", "pcp");
	put("devices/virtual/net/eth1.10/ifindex", "9");
	put("class/net/.keep", "");
	link_at("../../devices/pci0000:41/0000:41:00.0/net/eth0", "class/net/eth0");
	link_at("../../devices/pci0000:61/0000:61:00.0/net/eth1", "class/net/eth1");
	link_at("../../devices/virtual/net/eth1.10", "class/net/eth1.10");
	link_at("../../../pci0000:61/0000:61:00.0/net/eth1", "devices/virtual/net/eth1.10/lower_eth1");
	put("devices/virtual/net/eth2/ifindex", "4");   /* no qos/: not MLNX_OFED */
	link_at("../../devices/virtual/net/eth2", "class/net/eth2");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fx_rmtree(root);
}

static void collect(struct roce_node *node, const char *const *names, size_t n)
{
	roce_node_init(node);
	for (size_t i = 0; i < n; i++)
		assert_non_null(roce_node_add_netdev(node, names[i]));
	roce_trust_collect(node, root);
}

static void t_collect(void **state)
{
	(void)state;
	struct roce_node node;
	const char *names[] = { "eth0", "eth1.10", "eth2" };
	collect(&node, names, 3);
	const struct roce_trust *t0 = &node.netdevs[0].trust, *t1 = &node.netdevs[1].trust, *t2 = &node.netdevs[2].trust;
	assert_int_equal(t0->read.status, ROCE_OK);
	assert_int_equal(t0->mode, ROCE_TRUST_DSCP);
	assert_string_equal(t0->from, "eth0");
	assert_int_equal(t0->dscp2prio.read.status, ROCE_OK);
	assert_int_equal(t0->dscp2prio.prio[26], 3);
	/* the VLAN's trust is its lower device's */
	assert_int_equal(t1->read.status, ROCE_OK);
	assert_int_equal(t1->mode, ROCE_TRUST_PCP);
	assert_string_equal(t1->from, "eth1");
	assert_int_equal(t1->dscp2prio.read.status, ROCE_MISSING);
	assert_non_null(strstr(t1->dscp2prio.read.why, "class/net/eth1/qos/dscp2prio does not exist"));
	assert_int_equal(t2->read.status, ROCE_MISSING);
	assert_non_null(strstr(t2->read.why, "class/net/eth2/qos/trust does not exist"));
	roce_node_free(&node);
}

static void t_collect_hostile(void **state)
{
	(void)state;
	struct roce_node node;
	const char *names[] = { "eth0" };
	put("devices/pci0000:41/0000:41:00.0/net/eth0/qos/trust", "vlan");
	put("devices/pci0000:41/0000:41:00.0/net/eth0/qos/dscp2prio", "prio:3 dscp:26");
	collect(&node, names, 1);
	const struct roce_trust *t = &node.netdevs[0].trust;
	assert_int_equal(t->read.status, ROCE_MALFORMED);
	assert_non_null(strstr(t->read.why, "class/net/eth0/qos/trust: \"vlan\" is not pcp or dscp"));
	assert_int_equal(t->dscp2prio.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(t->dscp2prio.read.why, "class/net/eth0/qos/dscp2prio: no \"DSCP PRIO\" line (not the layout mlnx_qos reads)"));
	roce_node_free(&node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_parse_mode),
		cmocka_unit_test(t_parse_dscp2prio),
		cmocka_unit_test(t_parse_dscp2prio_bad),
		cmocka_unit_test(t_collect),
		cmocka_unit_test(t_collect_hostile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
