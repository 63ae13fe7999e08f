/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_snapshot.c - the counter table (counter.c), snapshots from sysfs
 * trees written as the kernel writes them and from the node model
 * (snapshot.c, with the deltas of PFC counts), JSON round trip
 * (snapshot_json.c). */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "collect/collect.h"
#include "pipeline/delta.h"
#include "pipeline/snapshot.h"
#include "fragment/verdicts.h"
#include "scratch.h"

static char root[PATH_MAX];

/* Write root/rel with a trailing newline, as sysfs prints values. */
static void put(const char *rel, const char *value) { fx_putf(root, rel, "%s\n", value); }

static void put_counter(const char *dev, unsigned port, enum roce_counter_id id, uint64_t v)
{
	char rel[256], val[32];
	snprintf(rel, sizeof(rel), "class/infiniband/%s/ports/%u/%s/%s", dev, port,
	         roce_counter_defs[id].hw ? "hw_counters" : "counters", roce_counter_defs[id].name);
	snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
	put(rel, val);
}

static void make_port(const char *dev, unsigned port, const char *ll)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "class/infiniband/%s/ports/%u/link_layer", dev, port);
	put(rel, ll);
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		put_counter(dev, port, (enum roce_counter_id)i, 0);
}

static int setup(void **state)
{
	(void)state;
	return fx_tmpdir(root, sizeof(root), "test_snapshot");
}

static int teardown(void **state)
{
	(void)state;
	return fx_rmtree(root);
}

static void t_lookup(void **state)
{
	(void)state;
	assert_int_equal(roce_counter_lookup("port_xmit_data"), ROCE_C_PORT_XMIT_DATA);
	assert_int_equal(roce_counter_lookup("port_rcv_bytes"), ROCE_C_PORT_RCV_DATA);
	assert_int_equal(roce_counter_lookup("rp_cnp_ignored"), ROCE_C_RP_CNP_IGNORED);
	assert_int_equal(roce_counter_lookup("nonsense"), -1);
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		assert_non_null(roce_counter_defs[i].name);
}

static void t_snapshot_sysfs(void **state)
{
	(void)state;
	struct roce_snapshot s;
	make_port("mlx5_0", 1, "Ethernet");
	make_port("mlx5_1", 1, "InfiniBand");     /* not RoCE: left out */
	make_port("mlx5_10", 1, "Ethernet");      /* natural order: after mlx5_2 */
	make_port("mlx5_2", 1, "Ethernet");
	put_counter("mlx5_0", 1, ROCE_C_PORT_XMIT_DATA, 123456789012ull);
	put("class/infiniband/mlx5_0/ports/1/counters/symbol_error", "N/A (no PMA)");
	char rel[256];
	snprintf(rel, sizeof(rel), "class/infiniband/mlx5_2/ports/1/hw_counters/out_of_sequence");
	char path[PATH_MAX];
	assert_true(snprintf(path, sizeof(path), "%s/%s", root, rel) < (int)sizeof(path));
	unlink(path);

	roce_snapshot_init(&s);
	assert_int_equal(roce_snapshot_take(&s, root, NULL, NULL), 0);
	assert_int_equal(s.n_ports, 3);
	assert_string_equal(s.ports[0].device, "mlx5_0");
	assert_string_equal(s.ports[1].device, "mlx5_2");
	assert_string_equal(s.ports[2].device, "mlx5_10");
	assert_true(roce_reading_ok(&s.ports[0].c[ROCE_C_PORT_XMIT_DATA].read));
	assert_int_equal(s.ports[0].c[ROCE_C_PORT_XMIT_DATA].value, 123456789012ull);
	assert_int_equal(s.ports[0].c[ROCE_C_SYMBOL_ERROR].read.status, ROCE_MALFORMED);
	assert_non_null(strstr(s.ports[0].c[ROCE_C_SYMBOL_ERROR].read.why, "symbol_error"));
	assert_int_equal(s.ports[1].c[ROCE_C_OUT_OF_SEQUENCE].read.status, ROCE_MISSING);
	/* no model: PFC is "not read", never zeros passed off as data */
	assert_int_equal(s.ports[0].pfc.read.status, ROCE_NOT_READ);
	assert_int_equal(s.ports[0].gid_index, -1);
	roce_snapshot_free(&s);
}

/* Counter files go through the sysfs reader that fuzz/sysfs_read.c covers. */
static void t_snapshot_counter_files(void **state)
{
	(void)state;
	struct roce_snapshot s;
	char path[PATH_MAX], want[PATH_MAX + 64];
	make_port("mlx5_0", 1, "Ethernet");
	put("class/infiniband/mlx5_0/ports/1/counters/symbol_error", "N/A (no PMA)");
	put("class/infiniband/mlx5_0/ports/1/counters/link_downed", "1\x1b[2J");
	put("class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "18446744073709551616");   /* 2^64 */
	assert_true(snprintf(path, sizeof(path), "%s/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence", root) <
	            (int)sizeof(path));
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);   /* no writer: a read would block */
	roce_snapshot_init(&s);
	assert_int_equal(roce_snapshot_take(&s, root, NULL, NULL), 0);
	assert_int_equal(s.n_ports, 1);
	const struct roce_port_sample *p = &s.ports[0];
	assert_true(snprintf(want, sizeof(want), "%s/class/infiniband/mlx5_0/ports/1/counters/symbol_error: "
	                     "\"N/A (no PMA)\" is not a counter value", root) < (int)sizeof(want));
	assert_int_equal(p->c[ROCE_C_SYMBOL_ERROR].read.status, ROCE_MALFORMED);
	assert_string_equal(p->c[ROCE_C_SYMBOL_ERROR].read.why, want);
	assert_int_equal(p->c[ROCE_C_LINK_DOWNED].read.status, ROCE_MALFORMED);
	assert_non_null(strstr(p->c[ROCE_C_LINK_DOWNED].read.why, "link_downed: value is not text"));
	assert_int_equal(p->c[ROCE_C_NP_CNP_SENT].read.status, ROCE_MALFORMED);
	assert_int_equal(p->c[ROCE_C_OUT_OF_SEQUENCE].read.status, ROCE_MALFORMED);
	assert_non_null(strstr(p->c[ROCE_C_OUT_OF_SEQUENCE].read.why, "out_of_sequence is not a regular file"));
	assert_true(roce_reading_ok(&p->c[ROCE_C_PORT_XMIT_DATA].read));
	roce_snapshot_free(&s);
}

static void t_snapshot_deadline(void **state)
{
	(void)state;
	struct roce_snapshot s;
	make_port("mlx5_0", 1, "Ethernet");
	make_port("mlx5_1", 1, "Ethernet");
	roce_snapshot_init(&s);
	assert_int_equal(roce_snapshot_take_until(&s, root, NULL, NULL, 1), 0);   /* long past */
	assert_int_equal(s.n_ports, 2);
	for (size_t p = 0; p < 2; p++)
		for (int i = 0; i < ROCE_N_COUNTERS; i++)
			assert_int_equal(s.ports[p].c[i].read.status, ROCE_TIMEOUT);
	assert_non_null(strstr(s.ports[0].c[0].read.why, "deadline"));
	assert_int_equal(roce_snapshot_take_until(&s, root, NULL, NULL, roce_clock_ms() + 60000), 0);
	assert_true(roce_reading_ok(&s.ports[1].c[ROCE_N_COUNTERS - 1].read));
	roce_snapshot_free(&s);
}

static void t_snapshot_no_devices(void **state)
{
	(void)state;
	struct roce_snapshot s;
	roce_snapshot_init(&s);
	assert_int_equal(roce_snapshot_take(&s, root, NULL, NULL), 0);
	assert_int_equal(s.n_ports, 0);
	assert_int_equal(s.devices_read.status, ROCE_MISSING);
	roce_snapshot_free(&s);
}

/* A node model with one netdev carrying PFC counters. */
static void model_with_pfc(struct roce_node *node, uint64_t req3, uint64_t ind3, enum roce_status st)
{
	roce_node_init(node);
	node->devices = calloc(1, sizeof(*node->devices));
	node->n_devices = 1;
	snprintf(node->devices[0].name, ROCE_NAME_MAX, "mlx5_0");
	node->devices[0].ports = calloc(1, sizeof(struct roce_port));
	node->devices[0].n_ports = 1;
	struct roce_port *p = &node->devices[0].ports[0];
	p->num = 1;
	snprintf(p->netdev, sizeof(p->netdev), "eth0");
	roce_reading_set(&p->netdev_read, ROCE_OK, 0, NULL);
	struct roce_netdev *nd = roce_node_add_netdev(node, "eth0");
	roce_reading_set(&nd->link_read, ROCE_OK, 0, NULL);
	nd->mtu = 9000;
	roce_reading_set(&nd->pfc.read, st, st == ROCE_UNSUPPORTED ? EOPNOTSUPP : 0,
	                 st == ROCE_OK ? NULL : "eth0: DCB not supported");
	nd->pfc.enabled = 1u << 3;
	nd->pfc.requests[3] = req3;
	nd->pfc.indications[3] = ind3;
}

/* A device name rdma.c refuses (it never comes from the kernel) is not
 * snapshotted either: not by listing the directory, and not when the model's
 * listing was MALFORMED because of it. */
static void t_snapshot_refused_names(void **state)
{
	(void)state;
	struct roce_snapshot s;
	struct roce_node node;
	struct roce_policy pol;
	struct roce_collect_opts opts = { .sysfs_root = root, .netlink = false };
	make_port("mlx5_0", 1, "Ethernet");
	make_port("bad\nX=1", 1, "Ethernet");
	make_port(".hidden", 1, "Ethernet");

	roce_snapshot_init(&s);
	assert_int_equal(roce_snapshot_take(&s, root, NULL, NULL), 0);
	assert_int_equal(s.n_ports, 1);
	assert_string_equal(s.ports[0].device, "mlx5_0");
	roce_snapshot_free(&s);

	roce_policy_defaults(&pol);
	roce_node_init(&node);
	roce_collect(&node, &pol, &opts);
	assert_int_equal(node.devices_read.status, ROCE_MALFORMED);
	roce_snapshot_init(&s);
	assert_int_equal(roce_snapshot_take(&s, root, &node, NULL), 0);
	assert_int_equal(s.n_ports, 1);
	assert_string_equal(s.ports[0].device, "mlx5_0");
	roce_snapshot_free(&s);
	roce_node_free(&node);
}

static void t_pfc_from_model(void **state)
{
	(void)state;
	struct roce_node n1, n2;
	struct roce_snapshot a, b;
	struct roce_delta d;
	make_port("mlx5_0", 1, "Ethernet");
	model_with_pfc(&n1, 100, 5000, ROCE_OK);
	model_with_pfc(&n2, 160, 5007, ROCE_OK);
	roce_snapshot_init(&a);
	roce_snapshot_init(&b);
	assert_int_equal(roce_snapshot_take(&a, root, &n1, NULL), 0);
	assert_int_equal(roce_snapshot_take(&b, root, &n2, NULL), 0);
	assert_string_equal(a.ports[0].netdev, "eth0");
	assert_int_equal(a.ports[0].netdev_mtu, 9000);
	assert_int_equal(a.ports[0].active_mtu, 4096);   /* derived from the netdev MTU */
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.ports[0].pfc_status, ROCE_DELTA_OK);
	assert_int_equal(d.ports[0].pfc_requests[3], 60);
	assert_int_equal(d.ports[0].pfc_indications[3], 7);
	assert_int_equal(d.ports[0].pfc_enabled, 1u << 3);
	roce_delta_free(&d);
	roce_node_free(&n2);

	/* driver restarted: PFC counts went back */
	model_with_pfc(&n2, 4, 1, ROCE_OK);
	assert_int_equal(roce_snapshot_take(&b, root, &n2, NULL), 0);
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.ports[0].pfc_status, ROCE_DELTA_RESET);
	assert_int_equal(d.ports[0].pfc_requests[3], 4);
	roce_delta_free(&d);
	roce_node_free(&n2);

	/* no DCB on the driver: unknown, with the reason */
	model_with_pfc(&n2, 0, 0, ROCE_UNSUPPORTED);
	assert_int_equal(roce_snapshot_take(&b, root, &n2, NULL), 0);
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.ports[0].pfc_status, ROCE_DELTA_UNREAD);
	assert_non_null(strstr(d.ports[0].pfc_why, "end: not supported"));
	roce_delta_free(&d);
	roce_node_free(&n1);
	roce_node_free(&n2);
	roce_snapshot_free(&a);
	roce_snapshot_free(&b);
}

/* Issue 25, RoCE LAG: the port's netdev is the bond (no DCB); its pause
 * frames are its members', added up, and a priority is lossless when every
 * member has PFC on it; a member that cannot be read makes it unknown. */
static void t_pfc_bond_members(void **state)
{
	(void)state;
	struct roce_node n;
	struct roce_snapshot a;
	make_port("mlx5_bond_0", 1, "Ethernet");
	model_with_pfc(&n, 100, 5000, ROCE_OK);
	snprintf(n.devices[0].name, ROCE_NAME_MAX, "mlx5_bond_0");
	snprintf(n.devices[0].ports[0].netdev, IF_NAMESIZE, "bond0");
	struct roce_netdev *m = roce_node_add_netdev(&n, "eth1");
	roce_reading_set(&m->pfc.read, ROCE_OK, 0, NULL);
	m->pfc.enabled = 1u << 3 | 1u << 4;
	m->pfc.requests[3] = 20;
	m->pfc.indications[3] = 7;
	struct roce_netdev *b = roce_node_add_netdev(&n, "bond0");
	roce_reading_set(&b->link_read, ROCE_OK, 0, NULL);
	b->mtu = 9000;
	roce_reading_set(&b->pfc.read, ROCE_UNSUPPORTED, EOPNOTSUPP, "bond0: DCB not supported");
	roce_reading_set(&b->members_read, ROCE_OK, 0, NULL);
	b->n_members = 2;
	snprintf(b->members[0], IF_NAMESIZE, "eth0");
	snprintf(b->members[1], IF_NAMESIZE, "eth1");
	roce_snapshot_init(&a);
	assert_int_equal(roce_snapshot_take(&a, root, &n, NULL), 0);
	assert_string_equal(a.ports[0].netdev, "bond0");
	assert_int_equal(a.ports[0].pfc.read.status, ROCE_OK);
	assert_int_equal(a.ports[0].pfc.requests[3], 120);
	assert_int_equal(a.ports[0].pfc.indications[3], 5007);
	assert_int_equal(a.ports[0].pfc.enabled, 1u << 3);
	m = roce_node_find_netdev(&n, "eth1");   /* adding bond0 moved the array */
	roce_reading_set(&m->pfc.read, ROCE_TIMEOUT, 0, "eth1: timed out");
	assert_int_equal(roce_snapshot_take(&a, root, &n, NULL), 0);
	assert_int_equal(a.ports[0].pfc.read.status, ROCE_TIMEOUT);
	assert_int_equal(a.ports[0].pfc.requests[3], 0);
	roce_snapshot_free(&a);
	roce_node_free(&n);
}

/* The pauses the node model read (DCB netlink) and the ECN counters of sysfs,
 * through snapshot and delta to the verdict: 5000 pauses received on the
 * RoCE priority and no ECN mark. */
static void t_pauses_without_ecn_chain(void **state)
{
	(void)state;
	struct roce_node n1, n2;
	struct roce_snapshot a, b;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = { .pfc_priority = 3 };
	make_port("mlx5_0", 1, "Ethernet");
	model_with_pfc(&n1, 0, 100, ROCE_OK);
	model_with_pfc(&n2, 0, 5100, ROCE_OK);
	roce_snapshot_init(&a);
	roce_snapshot_init(&b);
	assert_int_equal(roce_snapshot_take(&a, root, &n1, NULL), 0);
	assert_int_equal(roce_snapshot_take(&b, root, &n2, NULL), 0);
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	bool found = false;
	for (size_t i = 0; i < v.n; i++)
		if (strcmp(v.v[i].code, "pauses_without_ecn") == 0)
			found = strstr(v.v[i].message, "5000 PFC pause frames received on priority 3") != NULL;
	assert_true(found);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);

	/* the switch marked: ECN works, the pauses are PFC backing it up */
	put_counter("mlx5_0", 1, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS, 40);
	assert_int_equal(roce_snapshot_take(&b, root, &n2, NULL), 0);
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	for (size_t i = 0; i < v.n; i++)
		assert_string_not_equal(v.v[i].code, "pauses_without_ecn");
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
	roce_node_free(&n1);
	roce_node_free(&n2);
	roce_snapshot_free(&a);
	roce_snapshot_free(&b);
}

/* The GID the check chose, with its address as the model read it. */
static void set_gid(struct roce_node *n, struct roce_port_result *pr, int index, uint8_t last_octet)
{
	struct roce_port *p = &n->devices[0].ports[0];
	if (!p->gids)
		p->gids = calloc(1, sizeof(*p->gids));
	p->n_gids = 1;
	memset(&p->gids[0], 0, sizeof(p->gids[0]));
	p->gids[0].index = index;
	const uint8_t raw[16] = { [10] = 0xff, [11] = 0xff, [12] = 192, [13] = 0, [14] = 2, [15] = last_octet };
	memcpy(p->gids[0].raw, raw, sizeof(raw));
	p->gids[0].type = ROCE_GID_TYPE_ROCE_V2;
	roce_reading_set(&p->gids[0].read, ROCE_OK, 0, NULL);
	memset(pr, 0, sizeof(*pr));
	snprintf(pr->device, sizeof(pr->device), "mlx5_0");
	pr->port = 1;
	pr->roce = pr->healthy = true;
	pr->gid_index = index;
}

/* The prolog's GID and the epilog's reach the delta (the report's
 * gid_changed); a state file written before gid_addr still loads. */
static void t_gid_addr(void **state)
{
	(void)state;
	struct roce_node n;
	struct roce_port_result pr;
	struct roce_check_result cr = { .ports = &pr, .n_ports = 1, .gid_index = 3, .traffic_class = -1,
	                                 .trust = ROCE_TRUST_PCP };
	struct roce_snapshot a, b;
	struct roce_delta d;
	struct roce_error err;
	make_port("mlx5_0", 1, "Ethernet");
	model_with_pfc(&n, 0, 0, ROCE_OK);
	roce_snapshot_init(&a);
	roce_snapshot_init(&b);
	set_gid(&n, &pr, 3, 5);
	assert_int_equal(roce_snapshot_take(&a, root, &n, &cr), 0);
	assert_int_equal(a.ports[0].gid_index, 3);
	assert_string_equal(a.ports[0].gid_addr, "192.0.2.5");
	set_gid(&n, &pr, 4, 6);   /* an address added in front: the GID moved */
	assert_int_equal(roce_snapshot_take(&b, root, &n, &cr), 0);
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.ports[0].gid_index_start, 3);
	assert_int_equal(d.ports[0].gid_index, 4);
	assert_int_equal(d.trust, ROCE_TRUST_PCP);
	assert_string_equal(d.ports[0].gid_addr_start, "192.0.2.5");
	assert_string_equal(d.ports[0].gid_addr_end, "192.0.2.6");
	roce_delta_free(&d);

	/* through the state file, both ways */
	json_object *o = roce_snapshot_json_build(&a);
	json_object *parsed = json_tokener_parse(json_object_to_json_string(o));
	json_object *p0 = json_object_array_get_idx(json_object_object_get(parsed, "ports"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(p0, "gid_addr")), "192.0.2.5");
	roce_snapshot_free(&a);
	assert_int_equal(roce_snapshot_json_parse(&a, parsed, &err), 0);
	assert_string_equal(a.ports[0].gid_addr, "192.0.2.5");
	assert_int_equal(a.trust, ROCE_TRUST_PCP);   /* the trust mode, on to the fragment */
	json_object_object_del(parsed, "trust");     /* a state file of an older release */
	roce_snapshot_free(&a);
	assert_int_equal(roce_snapshot_json_parse(&a, parsed, &err), 0);
	assert_int_equal(a.trust, ROCE_TRUST_UNKNOWN);
	/* written before gid_addr existed: loads, the address unknown, the index still compared */
	json_object_object_del(p0, "gid_addr");
	roce_snapshot_free(&a);
	assert_int_equal(roce_snapshot_json_parse(&a, parsed, &err), 0);
	assert_string_equal(a.ports[0].gid_addr, "");
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_string_equal(d.ports[0].gid_addr_start, "");
	assert_int_equal(d.ports[0].gid_index_start, 3);
	roce_delta_free(&d);
	/* not an address: refused, naming the key */
	json_object_object_add(p0, "gid_addr", json_object_new_string("192.0.2.5\n\033[2J"));
	assert_int_equal(roce_snapshot_json_parse(&a, parsed, &err), -1);
	assert_non_null(strstr(err.msg, "gid_addr"));
	json_object_object_add(p0, "gid_addr", json_object_new_int(5));
	assert_int_equal(roce_snapshot_json_parse(&a, parsed, &err), -1);
	assert_non_null(strstr(err.msg, "gid_addr"));
	/* a snapshot without the entry read: no address, none written */
	roce_reading_set(&n.devices[0].ports[0].gids[0].read, ROCE_UNREADABLE, EIO, "gids/4: EIO");
	assert_int_equal(roce_snapshot_take(&b, root, &n, &cr), 0);
	assert_string_equal(b.ports[0].gid_addr, "");
	json_object_put(o);
	o = roce_snapshot_json_build(&b);
	assert_false(json_object_object_get_ex(json_object_array_get_idx(json_object_object_get(o, "ports"), 0),
	                                       "gid_addr", NULL));
	json_object_put(o);
	json_object_put(parsed);
	roce_node_free(&n);
	roce_snapshot_free(&a);
	roce_snapshot_free(&b);
}

static void t_json_round_trip(void **state)
{
	(void)state;
	struct roce_snapshot a, b;
	struct roce_node n;
	struct roce_error err;
	make_port("mlx5_0", 1, "Ethernet");
	put_counter("mlx5_0", 1, ROCE_C_PORT_XMIT_DATA, UINT64_MAX - 1);
	put("class/infiniband/mlx5_0/ports/1/counters/link_downed", "N/A (no PMA)");
	model_with_pfc(&n, 1ull << 40, 3, ROCE_OK);
	roce_snapshot_init(&a);
	roce_snapshot_init(&b);
	assert_int_equal(roce_snapshot_take(&a, root, &n, NULL), 0);
	assert_int_equal(a.ports[0].check, -1);     /* no check result: not checked */
	snprintf(a.ports[0].state, sizeof(a.ports[0].state), "DOWN");
	a.ports[0].check = ROCE_FAIL;
	snprintf(a.ports[0].check_why, ROCE_WHY_MAX, "port_state: DOWN");
	json_object *o = roce_snapshot_json_build(&a);
	json_object *parsed = json_tokener_parse(json_object_to_json_string(o));
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), 0);
	assert_int_equal(b.n_ports, 1);
	assert_int_equal(b.time_ns, a.time_ns);
	assert_string_equal(b.ports[0].netdev, "eth0");
	assert_int_equal(b.ports[0].c[ROCE_C_PORT_XMIT_DATA].value, UINT64_MAX - 1);
	assert_int_equal(b.ports[0].c[ROCE_C_LINK_DOWNED].read.status, ROCE_MALFORMED);
	assert_string_equal(b.ports[0].c[ROCE_C_LINK_DOWNED].read.why, a.ports[0].c[ROCE_C_LINK_DOWNED].read.why);
	assert_int_equal(b.ports[0].pfc.requests[3], 1ull << 40);
	assert_int_equal(b.ports[0].pfc.enabled, 1u << 3);
	assert_int_equal(b.ports[0].active_mtu, 4096);
	assert_string_equal(b.ports[0].state, "DOWN");
	assert_int_equal(b.ports[0].check, ROCE_FAIL);
	assert_string_equal(b.ports[0].check_why, "port_state: DOWN");
	assert_int_equal(b.check, -1);
	assert_int_equal(b.ports[0].rate_mbps, a.ports[0].rate_mbps);
	assert_string_equal(b.ports[0].fw_ver, a.ports[0].fw_ver);
	/* a state file written before rate_mbps and fw_ver: still read */
	json_object *p0 = json_object_array_get_idx(json_object_object_get(parsed, "ports"), 0);
	json_object_object_del(p0, "rate_mbps");
	json_object_object_del(p0, "fw_ver");
	roce_snapshot_free(&b);
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), 0);
	assert_int_equal(b.ports[0].rate_mbps, 0);
	assert_string_equal(b.ports[0].fw_ver, "");

	/* the same port twice (the delta would pair them crosswise): refused */
	roce_snapshot_free(&b);
	json_object *ports = json_object_object_get(parsed, "ports");
	json_object_array_add(ports, json_object_get(json_object_array_get_idx(ports, 0)));
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), -1);
	assert_non_null(strstr(err.msg, "ports[1]: duplicate mlx5_0:1"));
	json_object_array_del_idx(ports, 1, 1);
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), 0);

	/* damaged files are refused with a reason */
	json_object *c = json_object_object_get(json_object_array_get_idx(json_object_object_get(parsed, "ports"), 0), "counters");
	json_object_object_add(c, "out_of_sequence", json_object_new_int(-5));
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), -1);
	assert_non_null(strstr(err.msg, "out_of_sequence"));
	json_object_object_del(c, "out_of_sequence");
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), -1);
	assert_non_null(strstr(err.msg, "out_of_sequence missing"));
	json_object_object_add(parsed, "schema", json_object_new_string("other/1"));
	assert_int_equal(roce_snapshot_json_parse(&b, parsed, &err), -1);
	assert_non_null(strstr(err.msg, "schema"));
	json_object *arr = json_object_new_array();
	assert_int_equal(roce_snapshot_json_parse(&b, arr, &err), -1);
	json_object_put(arr);

	json_object_put(o);
	json_object_put(parsed);
	roce_node_free(&n);
	roce_snapshot_free(&a);
	roce_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_lookup),
		cmocka_unit_test_setup_teardown(t_snapshot_sysfs, setup, teardown),
		cmocka_unit_test_setup_teardown(t_snapshot_no_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(t_snapshot_counter_files, setup, teardown),
		cmocka_unit_test_setup_teardown(t_snapshot_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(t_snapshot_refused_names, setup, teardown),
		cmocka_unit_test_setup_teardown(t_pfc_from_model, setup, teardown),
		cmocka_unit_test_setup_teardown(t_pfc_bond_members, setup, teardown),
		cmocka_unit_test_setup_teardown(t_pauses_without_ecn_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(t_gid_addr, setup, teardown),
		cmocka_unit_test_setup_teardown(t_json_round_trip, setup, teardown),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
