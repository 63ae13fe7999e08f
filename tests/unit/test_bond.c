/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_bond.c - the members of a bonded port netdev (lib/collect/bond.c) from
 * sysfs trees laid out as the bonding driver makes them, and its parser. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collect/bond.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_bond.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void t_parse(void **state)
{
	(void)state;
	struct roce_netdev nd;
	char why[128];
	memset(&nd, 0, sizeof(nd));
	assert_int_equal(roce_bond_parse_slaves("ens1f0np0 ens2f0np0", &nd, why, sizeof(why)), 0);
	assert_int_equal(nd.n_members, 2);
	assert_string_equal(nd.members[1], "ens2f0np0");
	assert_int_equal(roce_bond_parse_slaves("eth0", &nd, why, sizeof(why)), 0);
	assert_int_equal(nd.n_members, 1);
	static const struct {
		const char *in, *why;
	} bad[] = {
		{ "eth0  eth1", "not space-separated netdev names" },
		{ "eth0 ", "a trailing space" },
		{ " eth0", "not space-separated netdev names" },
		{ "eth0 eth0", "eth0 is listed twice" },
		{ "eth0 a/b", "\"a/b\" is not a netdev name" },
		{ "eth0 averyveryverylongname", "not space-separated netdev names" },
		{ "e0 e1 e2 e3 e4 e5 e6 e7 e8", "more than 8 members" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (roce_bond_parse_slaves(bad[i].in, &nd, why, sizeof(why)) == 0)
			fail_msg("\"%s\" accepted", bad[i].in);
		if (!strstr(why, bad[i].why))
			fail_msg("\"%s\": why \"%s\" lacks \"%s\"", bad[i].in, why, bad[i].why);
		assert_int_equal(nd.n_members, 0);
	}
}

/* bond0 with two members (added to the node's netdevs), eth9 no bond,
 * bond1 with a garbled list: malformed, naming the file. */
static void t_collect(void **state)
{
	(void)state;
	struct roce_node node;
	roce_node_init(&node);
	put("class/net/bond0/bonding/slaves", "eth0 eth1\n");
	put("class/net/eth9/mtu", "9000\n");
	put("class/net/bond1/bonding/slaves", "eth2 eth2\n");
	assert_non_null(roce_node_add_netdev(&node, "bond0"));
	assert_non_null(roce_node_add_netdev(&node, "eth9"));
	assert_non_null(roce_node_add_netdev(&node, "bond1"));
	roce_bond_collect(&node, root);
	assert_int_equal(node.n_netdevs, 5);
	const struct roce_netdev *b = roce_node_find_netdev(&node, "bond0");
	assert_int_equal(b->members_read.status, ROCE_OK);
	assert_int_equal(b->n_members, 2);
	assert_string_equal(b->members[0], "eth0");
	assert_non_null(roce_node_find_netdev(&node, "eth1"));
	assert_int_equal(roce_node_find_netdev(&node, "eth1")->members_read.status, ROCE_NOT_READ);
	assert_int_equal(roce_node_find_netdev(&node, "eth9")->members_read.status, ROCE_MISSING);
	const struct roce_netdev *b1 = roce_node_find_netdev(&node, "bond1");
	assert_int_equal(b1->members_read.status, ROCE_MALFORMED);
	assert_non_null(strstr(b1->members_read.why, "class/net/bond1/bonding/slaves: eth2 is listed twice"));
	/* the QoS of bond0's port lives on its members, of eth9's on eth9 */
	const struct roce_netdev *q[ROCE_BOND_MEMBERS_MAX];
	assert_int_equal(roce_node_qos_netdevs(&node, b, q), 2);
	assert_string_equal(q[1]->name, "eth1");
	assert_int_equal(roce_node_qos_netdevs(&node, roce_node_find_netdev(&node, "eth9"), q), 1);
	assert_string_equal(q[0]->name, "eth9");
	assert_int_equal(roce_node_qos_netdevs(&node, b1, q), 1);
	roce_node_free(&node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_parse),
		cmocka_unit_test_setup_teardown(t_collect, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
