/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs_value - the parsers of single sysfs values (lib/collect/rdma.h): port
 * state, GID, GID type, link layer, rate (and netclass.h's netdev speed,
 * trust.h's qos/trust and qos/dscp2prio), on the input as the NUL-terminated,
 * newline-stripped string roce_sysfs_read() hands them.  A parsed GID must
 * print back as the input (lower case), a parsed state as "<n>: <name>".
 */
#include "config.h"
#include "fuzz.h"
#include "base/model.h"
#include "collect/netclass.h"
#include "collect/rdma.h"
#include "collect/trust.h"

#include <ctype.h>

static void check_state(const char *s, size_t namelen)
{
	char *name = malloc(namelen ? namelen : 1);   /* exact size: ASan sees an overflow */
	int num = -1;
	if (!name)
		return;
	if (roce_rdma_parse_port_state(s, &num, name, namelen) == 0) {
		FUZZ_CHECK(num >= 0 && num <= 255, "state %d", num);
		size_t n = strnlen(name, namelen);
		FUZZ_CHECK(n < namelen && n > 0, "name of %zu bytes in %zu", n, namelen);
		const char *colon = strchr(s, ':');
		FUZZ_CHECK(colon && !strcmp(colon + 2, name), "name \"%s\" is not the tail of \"%s\"", name, s);
	}
	free(name);
}

static void check_gid(const char *s)
{
	uint8_t raw[16];
	char back[40];
	if (roce_rdma_parse_gid(s, raw) < 0)
		return;
	roce_gid_format_sysfs(raw, back);
	FUZZ_CHECK(strlen(s) == 39, "GID text of %zu bytes", strlen(s));
	for (size_t i = 0; i < 39; i++)
		FUZZ_CHECK(tolower((unsigned char)s[i]) == back[i], "\"%s\" prints back as \"%s\"", s, back);
	char addr[64];
	roce_gid_format_addr(raw, addr, sizeof(addr));
	FUZZ_CHECK(memchr(addr, '\0', sizeof(addr)), "address text not terminated");
}

/* A parsed map has 1-64 entries, each priority 0-7, n counting them; a refused one is empty, with a why. */
static void check_dscp2prio(const char *s)
{
	struct roce_dscp_map m;
	char why[128] = "";
	int rc = roce_trust_parse_dscp2prio(s, &m, why, sizeof(why));
	size_t n = 0;
	for (int d = 0; d < ROCE_DSCP_MAX; d++) {
		FUZZ_CHECK(m.prio[d] >= -1 && m.prio[d] < ROCE_PRIOS, "DSCP %d -> %d", d, m.prio[d]);
		n += m.prio[d] >= 0;
	}
	FUZZ_CHECK(n == m.n, "%zu entries counted as %zu", n, m.n);
	if (rc == 0)
		FUZZ_CHECK(m.n > 0 && why[0] == '\0', "parsed with %zu entries, why \"%s\"", m.n, why);
	else
		FUZZ_CHECK(m.n == 0 && why[0] && memchr(why, '\0', sizeof(why)), "refused with %zu entries", m.n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t namelen = data[0] % 65;   /* the callers pass 24 and 32 */
	char *s = fuzz_cstr(data + 1, size - 1);
	if (!s)
		return 0;
	check_state(s, namelen);
	check_state(s, 24);
	check_gid(s);
	enum roce_gid_type t = ROCE_GID_TYPE_UNKNOWN;
	if (roce_rdma_parse_gid_type(s, &t) == 0)
		FUZZ_CHECK(t == ROCE_GID_TYPE_ROCE_V2 || t == ROCE_GID_TYPE_IB_ROCE_V1, "type %d", (int)t);
	enum roce_link_layer ll = ROCE_LL_UNKNOWN;
	if (roce_rdma_parse_link_layer(s, &ll) == 0)
		FUZZ_CHECK(ll == ROCE_LL_ETHERNET || ll == ROCE_LL_INFINIBAND, "link layer %d", (int)ll);
	unsigned mbps = 0;
	if (roce_rdma_parse_rate(s, &mbps) == 0)
		FUZZ_CHECK(mbps > 0 && mbps < ROCE_RATE_MAX_GBPS * 1000u && mbps % 500 == 0, "rate %u Mb/s", mbps);
	int flag = -2;
	if (roce_netclass_parse_uint(s, 63, &flag) == 0)
		FUZZ_CHECK(flag >= 0 && flag <= 63, "ecn value %d", flag);
	int speed = 0;
	if (roce_netclass_parse_speed(s, &speed) == 0)
		FUZZ_CHECK(speed == -1 || (speed > 0 && speed <= ROCE_SPEED_MAX_MBPS), "speed %d Mb/s", speed);
	enum roce_trust_mode tm = ROCE_TRUST_UNKNOWN;
	if (roce_trust_parse_mode(s, &tm) == 0)
		FUZZ_CHECK(tm == ROCE_TRUST_PCP || tm == ROCE_TRUST_DSCP, "trust %d", (int)tm);
	check_dscp2prio(s);
	free(s);
	return 0;
}
