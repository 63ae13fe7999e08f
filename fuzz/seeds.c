/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seeds - write the seed corpus of every fuzz target into DIR/<target>/.
 *
 *   seeds DIR
 *
 * Seeds are the real formats the parsers meet: sysfs values as the kernel
 * prints them (tests/lib/fabric.sh writes the same), netlink replies built
 * byte-exact from the uapi structs by tests/lib/nlreply.c (the builder of
 * the unit tests), and counter snapshots and report fragments produced by
 * the library's own writers, so the corpus follows the formats as they
 * change.
 * roce.conf seeds are added by build.sh from etc/roce.conf.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline/delta.h"
#include "fragment/fragment.h"
#include "fragment/live.h"
#include "agree/fingerprint.h"
#include "probe/probewire.h"
#include "nlreply.h"

static const char *top;
static int n_written;

static void put(const char *target, const char *name, const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", top, target);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", top, target, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
	n_written++;
}

/* A seed whose first byte is a parameter of the target. */
static void put_p(const char *target, const char *name, unsigned char p, const char *text)
{
	char buf[4096];
	size_t n = strlen(text);
	buf[0] = (char)p;
	memcpy(buf + 1, text, n);
	put(target, name, buf, n + 1);
}

static void text_seeds(void)
{
	static const char kv[] = "GidIndex=3\0AddrFamily=ipv4\0Mtu=9000\0PfcPriority=3\0PfcUnknown=warn\0"
	                         "TrafficClass=auto\0Hca=mlx5_0,mlx5_1\0GdrLevel=PXB\0RequireGdr=no\0Mode=warn\0"
	                         "Drain=yes\0LinkRate=auto\0TimeoutMs=2000\0ReportDir=/var/spool/slurm-roce/reports\0"
	                         "SysfsRoot=/sys\0TopologyFile=/etc/slurm/topo.xml";
	put("policy_kv", "all-keys", kv, sizeof(kv) - 1);
	put("policy_kv", "gid-auto", "GidIndex=auto", 13);

	const char *modes[] = { "off", "warn", "strict", "STRICT", "PXB", "sys", "5" };
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		put_p("option", modes[i], 16, modes[i]);
	put_p("option", "long", 200, "warn,strict;echo");

	const char *values[] = {
		"4: ACTIVE", "1: DOWN", "5: LinkUp", "3: Disabled", "5: ACTIVE_DEFER",
		"0000:0000:0000:0000:0000:ffff:0a6c:a424", "fe80:0000:0000:0000:0e42:a1ff:fe00:0010",
		"0000:0000:0000:0000:0000:0000:0000:0000", "fd00:0000:0000:0000:0000:0000:0000:0001",
		"RoCE v2", "IB/RoCE v1", "Ethernet", "InfiniBand",
		"100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X SDR)", "400 Gb/sec (4X NDR)", "100000", "-1", "1", "48",
	};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char name[16];
		snprintf(name, sizeof(name), "v%zu", i);
		put_p("sysfs_value", name, 24, values[i]);
		put_p("sysfs_read", name, 63, values[i]);
	}
	/* MLNX_OFED's qos/: trust words and a dscp2prio (header, "DSCP PRIO" lines) */
	put_p("sysfs_value", "trust-pcp", 24, "pcp");
	put_p("sysfs_value", "trust-dscp", 24, "dscp");
	put_p("sysfs_value", "dscp2prio", 24, "dscp2prio:\n0 0\n8 1\n26 3\n48 6\n63 7");
	put_p("sysfs_value", "dscp2prio-mlnxqos", 24, "dscp2prio mapping:\n\tprio:3 dscp:31,30,29,28,27,26,25,24,");
	put_p("sysfs_read", "newline", 63, "4: ACTIVE\n");
	put_p("sysfs_read", "counter", 63, "18446744073709551615\n");
	put_p("sysfs_read", "no-pma", 63, "N/A (no PMA)\n");
	put_p("sysfs_read", "rate", 127, "100 Gb/sec (4X EDR)\n");

	put_p("gpu_set", "indexes", 3, "0,1");
	put_p("gpu_set", "range", 3, "2-3");
	put_p("gpu_set", "uuid", 3, "GPU-86e60957-0cc5-7959-855b-28f0d7bac243,GPU-0e3b1c7e-5f4a-4c3e-9d2b-6a1f2e3d4c5b");
	put_p("gpu_set", "mig", 3, "MIG-GPU-86e60957-0cc5-7959-855b-28f0d7bac243/1/0");
	put_p("gpu_set", "mig-plain", 3, "MIG-86e60957-0cc5-7959-855b-28f0d7bac243");
	put_p("gpu_set", "nodev", 1, "NoDevFiles");
	put_p("gpu_set", "spaces", 0, " 0 , 3 ");
}

/* ------------------------------------------------------------ netlink */

static union { char b[NLREPLY_BUFSZ]; uint64_t align; } mb, mb2;

static struct nlmsghdr *link_msg(char *buf, uint32_t seq, uint8_t oper, unsigned flags)
{
	return nlreply_link(buf, seq, "eth0", 7, flags, 9000, oper);
}

static void put_msg(const char *target, const char *name, const struct nlmsghdr *nlh)
{
	put(target, name, nlh, nlh->nlmsg_len);
}

/* Replies for the parsers alone: sequence number 2 (even: nl_feed goes on
 * to a second message in the datagram). */
static void parser_seeds(void)
{
	put_msg("netlink_link", "up", link_msg(mb.b, 2, IF_OPER_UP, IFF_UP | IFF_RUNNING));
	put_msg("netlink_link", "down", link_msg(mb.b, 2, IF_OPER_DOWN, IFF_UP));
	{
		static const uint32_t egress[][2] = { { 0, 3 }, { 5, 5 } };
		struct nlmsghdr *vlan = link_msg(mb.b, 2, IF_OPER_UP, IFF_UP | IFF_RUNNING);
		nlreply_link_vlan(vlan, 10, egress, 2);
		put_msg("netlink_link", "vlan", vlan);
	}
	put_msg("netlink_link", "enodev", nlreply_error(mb.b, 2, -ENODEV, RTM_GETLINK));
	put_msg("netlink_link", "ack", nlreply_error(mb.b, 2, 0, RTM_GETLINK));
	put_msg("netlink_dcb", "full", nlreply_dcb_sample(mb.b, 2, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP));
	put_msg("netlink_dcb", "no-app", nlreply_dcb_sample(mb.b, 2, "eth0", NLREPLY_IEEE | NLREPLY_PFC));
	put_msg("netlink_dcb", "no-pfc", nlreply_dcb_sample(mb.b, 2, "eth0", NLREPLY_IEEE | NLREPLY_APP));
	put_msg("netlink_dcb", "eopnotsupp", nlreply_error(mb.b, 2, -EOPNOTSUPP, RTM_GETDCB));
	put_msg("netlink_dcb", "ets-buffer", nlreply_dcb_sample(mb.b, 2, "eth0",
	                                                      NLREPLY_IEEE | NLREPLY_ETS | NLREPLY_PFC | NLREPLY_BUFFER | NLREPLY_APP));
	struct ieee_ets ets = nlreply_sample_ets();
	struct dcbnl_buffer buf = nlreply_sample_buffer();
	put_msg("netlink_dcb", "short-ets-buffer",
	        nlreply_dcb(mb.b, 2, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .ets = &ets, .ets_len = sizeof(ets) - 1,
	                                                    .buffer = &buf, .buffer_len = sizeof(buf) - 4 }));
	/* two messages in one datagram: a stale reply first (odd seq ends the walk) */
	struct nlmsghdr *a = link_msg(mb.b, 2, IF_OPER_UP, IFF_UP);
	struct nlmsghdr *b = link_msg(mb2.b, 3, IF_OPER_DORMANT, IFF_UP);
	size_t la = a->nlmsg_len;
	memcpy(mb.b + la, b, b->nlmsg_len);
	put("netlink_link", "two", mb.b, la + b->nlmsg_len);
}

/* transport: [mode][u16 length of the link datagram][link reply seq 1][DCB reply seq 2];
 * mode 'T' = no fallback answer after the datagrams (see netlink_transport.c) */
static void transport_seeds(void)
{
	static union { char b[8192]; uint64_t align; } t;
	struct nlmsghdr *l = link_msg(mb.b, 1, IF_OPER_UP, IFF_UP | IFF_RUNNING);
	size_t ll = l->nlmsg_len;
	memcpy(t.b + 3, l, ll);
	t.b[0] = 0;
	t.b[1] = (char)(ll & 0xff);
	t.b[2] = (char)(ll >> 8);
	struct nlmsghdr *d = nlreply_dcb_sample(mb2.b, 2, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	memcpy(t.b + 3 + ll, d, d->nlmsg_len);
	put("netlink_transport", "link-dcb", t.b, 3 + ll + d->nlmsg_len);
	struct nlmsghdr *e = nlreply_error(mb2.b, 2, -EOPNOTSUPP, RTM_GETDCB);
	memcpy(t.b + 3 + ll, e, e->nlmsg_len);
	put("netlink_transport", "link-eopnotsupp", t.b, 3 + ll + e->nlmsg_len);
	/* the link request answered by a stale reply only (seq 2): the fallback
	 * answer follows; in silent mode nothing is queued and both requests
	 * run into the deadline */
	l->nlmsg_seq = 2;
	memcpy(t.b + 3, l, ll);
	put("netlink_transport", "stale", t.b, 3 + ll);
	t.b[0] = 'T';
	put("netlink_transport", "silent", t.b, 3);
}

static void netlink_seeds(void)
{
	parser_seeds();
	transport_seeds();
}

/* ------------------------------------------------------------ snapshots, fragments */

static void fill_snapshot(struct roce_snapshot *s, uint64_t base)
{
	roce_snapshot_init(s);
	s->time_ns = 1700000000000000000LL + (int64_t)base;
	roce_reading_set(&s->devices_read, ROCE_OK, 0, NULL);
	s->gid_index = 3;
	s->traffic_class = 104;
	s->n_ports = 2;
	s->ports = calloc(2, sizeof(*s->ports));
	if (!s->ports)
		exit(1);
	for (size_t p = 0; p < 2; p++) {
		struct roce_port_sample *ps = &s->ports[p];
		snprintf(ps->device, sizeof(ps->device), "mlx5_%zu", p);
		ps->port = 1;
		snprintf(ps->netdev, sizeof(ps->netdev), "eth%zu", p);
		for (int c = 0; c < ROCE_N_COUNTERS; c++) {
			ps->c[c].value = base * (uint64_t)(c + 1);
			roce_reading_set(&ps->c[c].read, ROCE_OK, 0, NULL);
		}
		if (p == 1)
			roce_reading_set(&ps->c[ROCE_C_SYMBOL_ERROR].read, ROCE_MALFORMED, 0,
			                 "counters/symbol_error: \"N/A (no PMA)\" is not a counter value");
		roce_reading_set(&ps->pfc.read, p ? ROCE_UNSUPPORTED : ROCE_OK, 0, p ? "no DCB" : NULL);
		ps->pfc.enabled = 0x08;
		for (int i = 0; i < ROCE_PRIOS; i++)
			ps->pfc.requests[i] = ps->pfc.indications[i] = base + (uint64_t)i;
		ps->gid_index = 3;
		snprintf(ps->gid_addr, sizeof(ps->gid_addr), "192.0.2.%d", (int)p + 1);
		ps->active_mtu = 4096;
		ps->netdev_mtu = 9000;
	}
}

static void put_plain(const char *target, const char *name, json_object *o)
{
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	put(target, name, t, strlen(t));
}

/* The fragment the epilog writes for m, d, v, as a tree to cut down. */
static json_object *fragment_tree(const struct roce_fragment_meta *m, const struct roce_delta *d,
                                  const struct roce_verdict_list *v)
{
	struct roce_fragment f;
	struct roce_fragment_text t = { 0 };
	if (roce_fragment_build(&f, m, d, v, NULL) < 0 || roce_fragment_write(&t, &f, m->job_id, true) < 0)
		exit(1);
	json_object *o = json_tokener_parse(t.s);
	if (!o)
		exit(1);
	roce_fragment_write_free(&t);
	roce_fragment_free(&f);
	return o;
}

/* Keep the first `keep` elements of o[key] whose "code" (verdicts) differs
 * from those kept before; elements without a code (ports) are kept as they come. */
static void trim_array(json_object *o, const char *key, size_t keep)
{
	json_object *a = json_object_object_get(o, key);
	size_t kept = 0;
	for (size_t i = 0; i < json_object_array_length(a);) {
		const char *code = json_object_get_string(json_object_object_get(json_object_array_get_idx(a, i), "code"));
		int dup = 0;
		for (size_t j = 0; code && j < i; j++)
			dup |= strcmp(code, json_object_get_string(json_object_object_get(json_object_array_get_idx(a, j), "code"))) == 0;
		if (kept < keep && !dup) {
			kept++;
			i++;
		} else {
			json_object_array_del_idx(a, i, 1);
		}
	}
}

static void put_json(const char *target, const char *name, json_object *o)
{
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	put(target, name, t, strlen(t));
}

/* The fragment o as text with "seconds" set to its own spelling. */
static char *with_seconds(json_object *o, const char *seconds)
{
	json_object_object_add(o, "seconds", json_object_new_double(0.5));
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	const char *at = strstr(t, "\"seconds\":0.5");
	char *s = malloc(strlen(t) + strlen(seconds) + 1);
	if (!at || !s)
		exit(1);
	sprintf(s, "%.*s\"seconds\":%s%s", (int)(at - t), t, seconds, at + strlen("\"seconds\":0.5"));
	return s;
}

/* The crash of issue 29: "seconds": 5e-324 and traffic made every rate
 * infinite, and the HTML heat map indexed its levels with INT_MIN + 1. */
static void crash_seed(json_object *o)
{
	json_object *c = json_object_object_get(json_object_array_get_idx(json_object_object_get(o, "ports"), 0),
	                                        "counters");
	json_object_object_add(c, "port_xmit_bytes", json_object_new_int64(1000));
	char *s = with_seconds(o, "5e-324");
	put("fragment", "seconds-5e-324", s, strlen(s));
	put("nodehealth", "seconds-5e-324", s, strlen(s));
	free(s);
}

/* Two jobs (\x01 starts the second) of a node whose device name is 63
 * control bytes (4 bytes each escaped) with packet loss on it: one row. */
static void long_device_seed(json_object *o)
{
	char dev[64], subject[70];
	memset(dev, 1, 63);
	dev[63] = '\0';
	snprintf(subject, sizeof(subject), "%s:1", dev);
	json_object *p = json_object_array_get_idx(json_object_object_get(o, "ports"), 0);
	json_object_object_add(p, "device", json_object_new_string(dev));
	json_object *v = json_object_array_get_idx(json_object_object_get(o, "verdicts"), 0);
	json_object_object_add(v, "code", json_object_new_string("packet_loss"));
	json_object_object_add(v, "subject", json_object_new_string(subject));
	char *s = with_seconds(o, "12.5");
	size_t len = strlen(s);
	char *two = malloc(2 * len + 3);
	if (!two)
		exit(1);
	memcpy(two, s, len + 1);
	two[len + 1] = 1;
	memcpy(two + len + 2, s, len);
	put("nodehealth", "long-device", two, 2 * len + 2);
	put("fragment", "long-device", s, len);
	free(two);
	free(s);
}

static void report_seeds(void)
{
	struct roce_snapshot start, end;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	fill_snapshot(&start, 1000);
	fill_snapshot(&end, 500000);
	end.ports[1].c[ROCE_C_PORT_RCV_DATA].value = 7;   /* a counter reset */
	json_object *o = roce_snapshot_json_build(&start);
	put_json("snapshot", "start", o);
	json_object_put(o);
	o = roce_snapshot_json_build(&end);
	put_json("snapshot", "end", o);
	json_object_put(o);

	memset(&d, 0, sizeof(d));
	if (roce_delta_compute(&start, &end, &d) < 0)
		exit(1);
	const char *shared[] = { "4243" };
	struct roce_fragment_meta m = {
		.job_id = "4242", .node = "gpu01", .job_uid = 1000,
		.start_ns = start.time_ns, .end_ns = end.time_ns,
		.shared_with = shared, .n_shared = 1, .pfc_priority = 3, .note = NULL,
	};
	if (roce_verdicts_from_delta(&d, &m, &v) < 0)
		exit(1);
	/* Fragments as roce-report reads them, kept small: the target's cost
	 * grows with the input (JSON parsed, the report built four ways, the
	 * streamed JSON parsed back), and libFuzzer's default -max_len is the
	 * largest seed, at least 4096.  The writer's 33 verdicts (10 kB of
	 * text) are cut to a few of distinct codes; all codes are in
	 * "verdicts".  Compact JSON: json-c's white space is not ours to test. */
	o = fragment_tree(&m, &d, &v);
	trim_array(o, "verdicts", 4);
	put_plain("fragment", "gpu01", o);
	put_plain("nodehealth", "gpu01", o);
	json_object_put(o);
	m.node = "gpu03";
	o = fragment_tree(&m, &d, &v);
	trim_array(o, "ports", 0);
	trim_array(o, "verdicts", 11);
	put_plain("fragment", "verdicts", o);
	json_object_put(o);
	/* two nodes of the job in one input (NUL-separated), one port each */
	m.node = "gpu01";
	o = fragment_tree(&m, &d, &v);
	trim_array(o, "ports", 1);
	trim_array(o, "verdicts", 1);
	const char *t1 = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	char *both = malloc(2 * strlen(t1) + 2);
	if (!both)
		exit(1);
	strcpy(both, t1);
	json_object_put(o);
	m.node = "gpu02";
	m.n_shared = 0;
	o = fragment_tree(&m, &d, &v);
	trim_array(o, "verdicts", 0);
	json_object_array_del_idx(json_object_object_get(o, "ports"), 0, 1);   /* the port with unread counters */
	const char *t2 = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	size_t l1 = strlen(both);
	both = realloc(both, l1 + strlen(t2) + 2);
	if (!both)
		exit(1);
	memcpy(both + l1 + 1, t2, strlen(t2) + 1);
	put("fragment", "two-nodes", both, l1 + 1 + strlen(t2));
	put("nodehealth", "two-nodes", both, l1 + 1 + strlen(t2));
	free(both);
	json_object_put(o);
	m.node = "gpu01";
	o = fragment_tree(&m, &d, &v);
	trim_array(o, "verdicts", 4);
	crash_seed(o);
	long_device_seed(o);
	json_object_put(o);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
	roce_snapshot_free(&start);
	roce_snapshot_free(&end);
}

/* ------------------------------------------------------------ live files */

/* A running job's live files as the health check writes them: a quiet one,
 * and one with a GID that moved and a link that went down (its events). */
static void live_seeds(void)
{
	struct roce_snapshot start, prev, now;
	struct roce_live l;
	struct roce_live_meta m = { "4711", "gpu01", 1000, 3 };
	fill_snapshot(&start, 1000);
	fill_snapshot(&prev, 300000);
	fill_snapshot(&now, 500000);
	if (roce_live_build(&l, &m, &start, &prev, &now, NULL, 0) < 0)
		exit(1);
	json_object *o = roce_live_json_build(&l);
	put_plain("live", "quiet", o);
	json_object_put(o);
	roce_live_free(&l);
	now.ports[1].gid_index = 4;
	now.ports[0].c[ROCE_C_LINK_DOWNED].value = prev.ports[0].c[ROCE_C_LINK_DOWNED].value + 1;
	snprintf(now.ports[0].state, sizeof(now.ports[0].state), "DOWN");
	m.node = "gpu02";
	if (roce_live_build(&l, &m, &start, &prev, &now, NULL, 0) < 0)
		exit(1);
	o = roce_live_json_build(&l);
	put_plain("live", "events", o);
	json_object_put(o);
	roce_live_free(&l);
	roce_snapshot_free(&start);
	roce_snapshot_free(&prev);
	roce_snapshot_free(&now);
}

/* ------------------------------------------------------------ fingerprints */

/* A node of a seed: ports mlx5_<dev[k]> on rail[k] ("" unknown). */
static void fp_seed_node(struct roce_fingerprint *f, const char *node, size_t n, const int *dev,
                         const char *const *rail, int mtu)
{
	memset(f, 0, sizeof(*f));
	f->gid_index = 3;
	f->addr_family = 4;
	f->traffic_class = 104;
	f->pfc_priority = 3;
	f->trust = ROCE_TRUST_DSCP;
	snprintf(f->job_id, sizeof(f->job_id), "4242");
	snprintf(f->node, sizeof(f->node), "%s", node);
	snprintf(f->driver, sizeof(f->driver), "24.10-1.1.4");
	f->n_ports = n;
	for (size_t k = 0; k < n; k++) {
		struct roce_fp_port *p = &f->ports[k];
		snprintf(p->device, sizeof(p->device), "mlx5_%d", dev[k]);
		p->port = 1;
		snprintf(p->netdev, sizeof(p->netdev), "eth%d", dev[k]);
		snprintf(p->rail, sizeof(p->rail), "%s", rail ? rail[k] : "");
		p->active_mtu = mtu;
		p->netdev_mtu = mtu == 4096 ? 9000 : 1500;
		p->rate_gbps = 100;
		p->ecn_np = p->ecn_rp = 1;
		struct roce_fp_device *d = &f->devices[f->n_devices++];
		snprintf(d->device, sizeof(d->device), "%s", p->device);
		snprintf(d->hca_type, sizeof(d->hca_type), "MT4129");
		snprintf(d->board_id, sizeof(d->board_id), "MT_0000000838");
		snprintf(d->fw_ver, sizeof(d->fw_ver), "28.39.1002");
	}
}

/* The nodes' fingerprints as the prolog writes them, NUL-separated, then
 * agreement (a ROCE_AGREEMENT value) as the last chunk. */
static void fp_seed(const char *name, const struct roce_fingerprint *f, size_t n, const char *agreement)
{
	char *all = NULL;
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *o = roce_fingerprint_to_json(&f[i]);
		const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		if (!(all = realloc(all, len + strlen(t) + 1)))
			exit(1);
		memcpy(all + len, t, strlen(t) + 1);
		len += strlen(t) + 1;
		json_object_put(o);
	}
	if (!(all = realloc(all, len + strlen(agreement) + 1)))
		exit(1);
	memcpy(all + len, agreement, strlen(agreement));
	put("fingerprint", name, all, len + strlen(agreement));
	free(all);
}

/* Nodes known by name (node3 without mlx5_1, node2 at RDMA MTU 1024);
 * NVIDIA/nccl issue 1277's two HGX nodes (four rails named mlx5_0,3,5,8 and
 * mlx5_0,1,4,5); a crossed port; a node whose prolog could not check. */
static void fingerprint_seeds(void)
{
	static const int d01[] = { 0, 1 }, d0[] = { 0 }, a[] = { 0, 3, 5, 8 }, b[] = { 0, 1, 4, 5 };
	static const char *const four[] = { "192.0.2.0/26", "192.0.2.64/26", "192.0.2.128/26", "192.0.2.192/26" };
	static const char *const crossed[] = { "192.0.2.0/26", "192.0.2.0/26" };
	struct roce_fingerprint f[3];
	char name[16];
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "node%d", i + 1);
		fp_seed_node(&f[i], name, i == 2 ? 1 : 2, i == 2 ? d0 : d01, NULL, i == 1 ? 1024 : 4096);
		fp_seed(name, &f[i], 1, "");
	}
	fp_seed("three-nodes-and-agreement", f, 3, "2;4242.0;rails;mlx5_0:1,mlx5_1:1;0@4096,1@0");
	/* issue 31: the nodes' problems, two of them on every node, one on node3 */
	for (int i = 0; i < 3; i++) {
		struct roce_brief *b = &f[i].problems[f[i].n_problems++];
		*b = (struct roce_brief){ .status = ROCE_WARN, .check = "pfc", .cause = "unknown (no DCB)",
			                  .subjects = "mlx5_0:1,mlx5_1:1" };
		if (i == 2)
			f[i].problems[f[i].n_problems++] = (struct roce_brief){ .status = ROCE_FAIL, .check = "port_state",
				                                                .cause = "down", .subjects = "mlx5_1:1" };
		f[i].problems_more = i == 2;
	}
	fp_seed("three-nodes-with-problems", f, 3, "");
	put("fingerprint", "agreement", "2;4242.0;rails;mlx5_0:1,mlx5_1:1;0@4096,1@0", 43);
	fp_seed_node(&f[0], "hgx1", 4, a, four, 4096);
	fp_seed_node(&f[1], "hgx2", 4, b, four, 4096);
	fp_seed("issue-1277", f, 2, "2;4242.1;rails;192.0.2.0/26,192.0.2.64/26,192.0.2.128/26,192.0.2.192/26;0@4096,1@4096,2@4096,3@4096");
	fp_seed_node(&f[0], "node1", 2, d01, four, 4096);
	fp_seed_node(&f[1], "node2", 2, d01, four, 4096);
	fp_seed_node(&f[2], "node3", 2, d01, crossed, 4096);
	fp_seed("crossed", f, 3, "2;4242.2;rails;192.0.2.0/26,192.0.2.64/26;0@4096");
	/* the path probe: passed on node1, a 1500 hop from node2 to node3 on the second rail */
	fp_seed_node(&f[2], "node3", 2, d01, four, 4096);
	for (int i = 0; i < 3; i++)
		f[i].ports[0].probe.verdict = f[i].ports[1].probe.verdict = ROCE_FP_PROBE_OK;
	f[1].ports[1].probe = (struct roce_fp_probe_result){ ROCE_FP_PROBE_SIZE, "node3", 1500, 9000, 26, 26 };
	fp_seed("probe-size", f, 3, "2;4242.4;rails;192.0.2.0/26,192.0.2.64/26;0@4096");
	/* the name check: node2 resolves node3 to an address node3 does not have */
	snprintf(f[1].resolves.peer, sizeof(f[1].resolves.peer), "node3");
	snprintf(f[1].resolves.got, sizeof(f[1].resolves.got), "192.0.2.99");
	fp_seed("resolves-wrong", f, 3, "2;4242.4;rails;192.0.2.0/26,192.0.2.64/26;0@4096");
	memset(&f[1].resolves, 0, sizeof(f[1].resolves));
	struct roce_policy p;
	roce_policy_defaults(&p);
	roce_fingerprint_unchecked(&p, "4242", "node3", &f[2]);
	fp_seed("unchecked", f, 3, "2;4242.3;own");
}

/* ------------------------------------------------------------ config spaces */

/* Config spaces as a root reader gets them: AER then ACS with redirect on,
 * ACS alone and off, no extended capabilities; and the 256 bytes others get. */
static void config_seeds(void)
{
	static uint8_t cfg[4096];
	memset(cfg, 0, sizeof(cfg));
	put("pcicap", "none", cfg, sizeof(cfg));
	put("pcicap", "short", cfg, 256);
	const uint8_t aer_to_acs[] = { 0x01, 0x00, 0x82, 0x14 }, acs[] = { 0x0d, 0x00, 0x01, 0x00, 0x5f, 0x00, 0x1d, 0x00 };
	memcpy(cfg + 0x100, aer_to_acs, sizeof(aer_to_acs));
	memcpy(cfg + 0x148, acs, sizeof(acs));
	put("pcicap", "aer-acs-redirect", cfg, sizeof(cfg));
	/* a switch downstream port: the PCI Express capability at 0x40 */
	const uint8_t exp_dsp[] = { 0x10, 0x00, 0x62, 0x00 };
	cfg[0x06] = 0x10;
	cfg[0x34] = 0x40;
	memcpy(cfg + 0x40, exp_dsp, sizeof(exp_dsp));
	put("pcicap", "downstream-port-acs-redirect", cfg, sizeof(cfg));
	put("pcicap", "non-root-64", cfg, 64);
	memset(cfg, 0, sizeof(cfg));
	memcpy(cfg + 0x100, acs, 6);
	put("pcicap", "acs-off", cfg, sizeof(cfg));
}

/* ------------------------------------------------------------ probe datagrams */

/* A probe at the smallest size and at a 1500-byte IP packet, an answer, a
 * done, under fuzz/probewire.c's key. */
static void probe_seeds(void)
{
	static const struct roce_probewire_key key = { { 'f', 'u', 'z', 'z' } };
	static uint8_t buf[1472];
	struct roce_probewire_msg m = { .kind = ROCE_PROBEWIRE_PROBE, .seq = 0, .tos = 106, .session = 42 };
	roce_probewire_build(&key, &m, buf, ROCE_PROBEWIRE_HDR);
	put("probewire", "probe-smallest", buf, ROCE_PROBEWIRE_HDR);
	m.seq = 1;
	roce_probewire_build(&key, &m, buf, sizeof(buf));
	put("probewire", "probe-1500", buf, sizeof(buf));
	m = (struct roce_probewire_msg){ .kind = ROCE_PROBEWIRE_ANSWER, .seq = 1, .bytes = 1472, .tos = 104,
	                                 .tos_known = true, .session = 42 };
	roce_probewire_build(&key, &m, buf, ROCE_PROBEWIRE_HDR);
	put("probewire", "answer-remarked", buf, ROCE_PROBEWIRE_HDR);
	m = (struct roce_probewire_msg){ .kind = ROCE_PROBEWIRE_DONE, .session = 42 };
	roce_probewire_build(&key, &m, buf, ROCE_PROBEWIRE_HDR);
	put("probewire", "done", buf, ROCE_PROBEWIRE_HDR);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: seeds DIR\n");
		return 2;
	}
	top = argv[1];
	if (mkdir(top, 0755) < 0 && errno != EEXIST) {
		perror(top);
		return 1;
	}
	text_seeds();
	netlink_seeds();
	report_seeds();
	live_seeds();
	fingerprint_seeds();
	config_seeds();
	probe_seeds();
	printf("seeds: %d files in %s\n", n_written, top);
	return 0;
}
