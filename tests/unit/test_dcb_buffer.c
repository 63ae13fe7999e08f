/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dcb_buffer.c - receive buffers from RTM_GETDCB replies
 * (lib/collect/netlink/dcb_buffer.c), byte-exact as dcbnl_ieee_fill() sends them
 * (tests/lib/nlreply.c), through roce_dcb_parse().
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "collect/netlink/dcb.h"
#include "nlreply.h"

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } msgbuf;

static void t_buffer_full(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0",
	                                          NLREPLY_IEEE | NLREPLY_ETS | NLREPLY_PFC | NLREPLY_BUFFER | NLREPLY_APP);
	assert_int_equal(roce_dcb_parse(nlh, &nd), 0);
	assert_int_equal(nd.buffer.read.status, ROCE_OK);
	const uint8_t map[8] = { 0, 0, 0, 1, 0, 0, 0, 0 };
	assert_memory_equal(nd.buffer.prio2buffer, map, 8);
	assert_int_equal(nd.buffer.buffer_size[0], 130944);
	assert_int_equal(nd.buffer.buffer_size[1], 130944);
	assert_int_equal(nd.buffer.buffer_size[2], 0);
	assert_int_equal(nd.buffer.total_size, 524288);
	/* the attribute sits between PFC and the APP table: both still read */
	assert_int_equal(nd.pfc.enabled, 0x08);
	assert_int_equal(nd.dscp.n, 2);
}

static void t_buffer_short(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct dcbnl_buffer b = nlreply_sample_buffer();
	struct ieee_pfc pfc = nlreply_sample_pfc();
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .pfc = &pfc,
	                                                                        .buffer = &b, .buffer_len = 8,
	                                                                        .app_table = true });
	nlreply_netdev(&nd, "eth0");
	assert_int_equal(roce_dcb_parse(nlh, &nd), -1);
	assert_int_equal(nd.buffer.read.status, ROCE_MALFORMED);
	char want[128];
	snprintf(want, sizeof(want), "RTM_GETDCB eth0: DCB_ATTR_DCB_BUFFER has 8 bytes, struct dcbnl_buffer is %zu",
	         sizeof(b));
	if (!strstr(nd.buffer.read.why, want))
		fail_msg("why '%s'", nd.buffer.read.why);
	assert_int_equal(nd.pfc.read.status, ROCE_OK);
	assert_int_equal(nd.dscp.read.status, ROCE_OK);
}

static void t_buffer_out_of_range(void **state)
{
	(void)state;
	struct roce_netdev nd;
	struct dcbnl_buffer b = nlreply_sample_buffer();
	b.prio2buffer[7] = 200;
	struct nlmsghdr *nlh = nlreply_dcb(msgbuf.b, 1, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .buffer = &b });
	nlreply_netdev(&nd, "eth0");
	roce_dcb_parse(nlh, &nd);
	assert_int_equal(nd.buffer.read.status, ROCE_MALFORMED);
	assert_non_null(strstr(nd.buffer.read.why, "DCB_ATTR_DCB_BUFFER maps priority 7 to buffer 200 (out of range)"));
}

/* Kernels before 4.18 and drivers without dcbnl_getbuffer: not reported. */
static void t_buffer_absent(void **state)
{
	(void)state;
	struct roce_netdev nd;
	nlreply_netdev(&nd, "eth0");
	struct nlmsghdr *nlh = nlreply_dcb_sample(msgbuf.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	assert_int_equal(roce_dcb_parse(nlh, &nd), 0);
	assert_int_equal(nd.buffer.read.status, ROCE_UNSUPPORTED);
	assert_int_equal(nd.buffer.total_size, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_buffer_full),
		cmocka_unit_test(t_buffer_short),
		cmocka_unit_test(t_buffer_out_of_range),
		cmocka_unit_test(t_buffer_absent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
