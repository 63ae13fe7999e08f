/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_json.c - the node model as JSON (lib/check/json.c): the DCB objects of a netdev. */
#include "config.h"
#include "unit.h"

#include <string.h>

#include "collect/netlink/dcb.h"
#include "fixtures.h"
#include "check/json.h"
#include "nlreply.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

static const char *netdev_json(struct roce_node *node, size_t i, const char *path, char *out, size_t len)
{
	json_object *o = roce_json_node(node), *nd = json_object_array_get_idx(json_object_object_get(o, "netdevs"), i), *v = nd;
	char p[64];
	snprintf(p, sizeof(p), "%s", path);
	for (char *save = NULL, *k = strtok_r(p, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
		v = json_object_object_get(v, k);
	snprintf(out, len, "%s", v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "(none)");
	json_object_put(o);
	return out;
}

/* ETS and buffers as read; left out when not reported; a garbled one under errors. */
static void t_ets_buffer(void **state)
{
	(void)state;
	struct roce_node node;
	char s[256];
	fx_healthy_node(&node, 2);
	roce_dcb_parse(nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_ETS | NLREPLY_PFC | NLREPLY_BUFFER |
	                                                      NLREPLY_APP), &node.netdevs[0]);
	assert_string_equal(netdev_json(&node, 0, "ets", s, sizeof(s)),
	                    "{\"prio_tc\":[0,0,0,3,0,0,0,0],\"tc_tx_bw\":[50,0,0,50,0,0,0,0],\"tc_tsa\":[2,2,2,2,2,2,2,2]}");
	assert_string_equal(netdev_json(&node, 0, "buffer", s, sizeof(s)),
	                    "{\"prio2buffer\":[0,0,0,1,0,0,0,0],\"buffer_size\":[130944,130944,0,0,0,0,0,0],"
	                    "\"total_size\":524288}");
	assert_string_equal(netdev_json(&node, 0, "errors", s, sizeof(s)), "(none)");

	struct ieee_ets ets = nlreply_sample_ets();
	struct ieee_pfc pfc = nlreply_sample_pfc();
	roce_dcb_parse(nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth1", .ieee = true, .ets = &ets, .ets_len = 3,
	                                                                .pfc = &pfc, .app_table = true }), &node.netdevs[1]);
	assert_string_equal(netdev_json(&node, 1, "ets", s, sizeof(s)), "(none)");
	assert_string_equal(netdev_json(&node, 1, "buffer", s, sizeof(s)), "(none)");
	assert_string_equal(netdev_json(&node, 1, "errors.ets.status", s, sizeof(s)), "\"malformed\"");
	assert_non_null(strstr(netdev_json(&node, 1, "errors.ets.why", s, sizeof(s)), "DCB_ATTR_IEEE_ETS has 3 bytes"));
	assert_string_equal(netdev_json(&node, 1, "errors.buffer", s, sizeof(s)), "(none)");   /* not reported: not an error */
	roce_node_free(&node);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ets_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
