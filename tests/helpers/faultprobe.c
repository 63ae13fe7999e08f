/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultprobe - drive library code into faults that cannot be staged with a
 * fixture tree or roce-check alone, for tests/e2e/fault-*.sh.  Prints
 * key=value lines.
 *
 *   faultprobe nl MODE [TIMEOUT_MS]
 *       RTM_GETLINK then RTM_GETDCB for "eth0" over roce_nl_open_fd() on an
 *       AF_UNIX socketpair whose far end (a child process) plays a kernel
 *       that misbehaves as MODE says:
 *         silent      never answers
 *         garbage     answers with bytes that are not netlink at all
 *         garbled     answers with the right header and garbage attributes
 *         truncated   the right reply, cut short (nlmsg_len > datagram)
 *         overrun     the right reply with its last attribute cut short
 *         wrongname   a well-formed reply about another netdev
 *         eopnotsupp  NLMSG_ERROR -EOPNOTSUPP (a driver without DCB)
 *         late        the right reply, after the deadline
 *         etsbuf      a well-formed reply with ETS and receive buffers
 *         shortets    ETS 4 bytes and the buffers 8 bytes short
 *       Prints link=STATUS link_why=... pfc=STATUS pfc_why=... dscp=STATUS
 *       ets=STATUS ets_why=... buffer=STATUS buffer_why=... (with the values
 *       read: prio_tc=, tc_tx_bw=, tc_tsa=, prio2buffer=, buffer_size=,
 *       total_size=) ms=ELAPSED.
 *   faultprobe opt VALUE...
 *       The SPANK option value check: per value, mode=<name>|refused and
 *       token=ok|refused (roce_mode_parse, roce_token_ok with 16 bytes).
 *   faultprobe delta START_ROOT END_ROOT
 *       Counter snapshots of two sysfs trees, their delta and verdicts:
 *       one line per port and counter whose delta is not plain "ok", and
 *       one per verdict (verdict=CODE severity=... subject=...).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "base/clock.h"
#include "pipeline/delta.h"
#include "collect/netlink/dcb.h"
#include "base/model.h"
#include "collect/netlink/nl.h"
#include "nlreply.h"
#include "read/policy.h"
#include "collect/netlink/rtlink.h"
#include "fragment/verdicts.h"

/* ------------------------------------------------------------ nl */

/* What the kernel answers to RTM_GETLINK eth0 / RTM_GETDCB eth0 (DCB: IEEE
 * with PFC on priority 3, no APP table). */
static struct nlmsghdr *good_reply(char *buf, uint16_t req_type, uint32_t seq, const char *name)
{
	if (req_type == RTM_GETLINK)
		return nlreply_link(buf, seq, name, 7, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	return nlreply_dcb_sample(buf, seq, name, NLREPLY_IEEE | NLREPLY_PFC);
}

/* A driver with ETS and receive buffers (mlx5): the sample objects, or
 * with ETS and the buffers cut short. */
static struct nlmsghdr *dcb_reply(char *buf, uint16_t req_type, uint32_t seq, bool cut)
{
	if (req_type == RTM_GETLINK || !cut)
		return req_type == RTM_GETLINK ? good_reply(buf, req_type, seq, "eth0")
		       : nlreply_dcb_sample(buf, seq, "eth0", NLREPLY_IEEE | NLREPLY_ETS | NLREPLY_PFC | NLREPLY_BUFFER | NLREPLY_APP);
	struct ieee_ets ets = nlreply_sample_ets();
	struct ieee_pfc pfc = nlreply_sample_pfc();
	struct dcbnl_buffer b = nlreply_sample_buffer();
	return nlreply_dcb(buf, seq, &(struct nlreply_dcb){ .name = "eth0", .ieee = true, .ets = &ets,
	                                                     .ets_len = sizeof(ets) - 4, .pfc = &pfc, .buffer = &b,
	                                                     .buffer_len = sizeof(b) - 8, .app_table = true });
}

static void print_u8s(const char *key, const uint8_t *v)
{
	printf("%s=", key);
	for (int i = 0; i < ROCE_PRIOS; i++)
		printf("%s%u", i ? "," : "", v[i]);
	printf("\n");
}

/* The ETS and buffer readings, with their values when read. */
static void print_ets(const struct roce_netdev *nd)
{
	printf("ets=%s\nets_why=%s\n", roce_status_name(nd->ets.read.status), nd->ets.read.why);
	if (roce_reading_ok(&nd->ets.read)) {
		print_u8s("prio_tc", nd->ets.prio_tc);
		print_u8s("tc_tx_bw", nd->ets.tc_tx_bw);
		print_u8s("tc_tsa", nd->ets.tc_tsa);
	}
	printf("buffer=%s\nbuffer_why=%s\n", roce_status_name(nd->buffer.read.status), nd->buffer.read.why);
	if (roce_reading_ok(&nd->buffer.read)) {
		print_u8s("prio2buffer", nd->buffer.prio2buffer);
		printf("buffer_size=");
		for (int i = 0; i < ROCE_PRIOS; i++)
			printf("%s%u", i ? "," : "", nd->buffer.buffer_size[i]);
		printf("\ntotal_size=%u\n", nd->buffer.total_size);
	}
}

/* The misbehaving kernel: answer each request on fd as mode says, until EOF. */
static void fake_kernel(int fd, const char *mode, int timeout_ms)
{
	union { char b[NLREPLY_BUFSZ]; uint64_t align; } req, out;
	ssize_t n;
	while ((n = recv(fd, req.b, sizeof(req.b), 0)) > 0) {
		const struct nlmsghdr *rq = (const void *)req.b;
		uint32_t seq = rq->nlmsg_seq;
		struct nlmsghdr *nlh = NULL;
		size_t len = 0;
		if (!strcmp(mode, "silent"))
			continue;
		if (!strcmp(mode, "garbage")) {
			/* deterministic noise, no valid header */
			for (size_t i = 0; i < 200; i++)
				out.b[i] = (char)(i * 73 + 41);
			len = 200;
		} else if (!strcmp(mode, "garbled")) {
			nlh = good_reply(out.b, rq->nlmsg_type, seq, "eth0");
			size_t hdr = NLMSG_HDRLEN + NLMSG_ALIGN(rq->nlmsg_type == RTM_GETLINK ? sizeof(struct ifinfomsg)
			                                                                        : sizeof(struct dcbmsg));
			for (size_t i = hdr; i < nlh->nlmsg_len; i++)
				out.b[i] = (char)(i * 151 + 7);
			len = nlh->nlmsg_len;
		} else if (!strcmp(mode, "truncated")) {
			nlh = good_reply(out.b, rq->nlmsg_type, seq, "eth0");
			len = nlh->nlmsg_len - 8;
		} else if (!strcmp(mode, "overrun")) {
			nlh = good_reply(out.b, rq->nlmsg_type, seq, "eth0");
			nlh->nlmsg_len -= 4;   /* the last attribute now ends past the message */
			len = nlh->nlmsg_len;
		} else if (!strcmp(mode, "wrongname")) {
			nlh = good_reply(out.b, rq->nlmsg_type, seq, "eth9");
			len = nlh->nlmsg_len;
		} else if (!strcmp(mode, "eopnotsupp")) {
			if (rq->nlmsg_type == RTM_GETLINK)
				nlh = good_reply(out.b, rq->nlmsg_type, seq, "eth0");
			else
				nlh = nlreply_error(out.b, seq, -EOPNOTSUPP, rq->nlmsg_type);
			len = nlh->nlmsg_len;
		} else if (!strcmp(mode, "etsbuf") || !strcmp(mode, "shortets")) {
			nlh = dcb_reply(out.b, rq->nlmsg_type, seq, !strcmp(mode, "shortets"));
			len = nlh->nlmsg_len;
		} else if (!strcmp(mode, "late")) {
			usleep((useconds_t)(timeout_ms + 200) * 1000);
			nlh = good_reply(out.b, rq->nlmsg_type, seq, "eth0");
			len = nlh->nlmsg_len;
		} else {
			fprintf(stderr, "faultprobe: unknown nl mode %s\n", mode);
			_exit(2);
		}
		if (send(fd, out.b, len, 0) < 0)
			break;
	}
	_exit(0);
}

static int cmd_nl(const char *mode, int timeout_ms)
{
	int sv[2];
	struct roce_netdev nd;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("socketpair");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		close(sv[0]);
		fake_kernel(sv[1], mode, timeout_ms);
	}
	close(sv[1]);
	struct roce_nl *nl = roce_nl_open_fd(sv[0], timeout_ms);
	if (!nl) {
		perror("roce_nl_open_fd");
		return 1;
	}
	nlreply_netdev(&nd, "eth0");
	int64_t t0 = roce_clock_ms();
	roce_rtlink_get(nl, &nd);
	roce_dcb_get(nl, &nd);
	long ms = (long)(roce_clock_ms() - t0);
	roce_nl_close(nl);   /* the child sees EOF and exits */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("link=%s\nlink_why=%s\n", roce_status_name(nd.link_read.status), nd.link_read.why);
	printf("mtu=%u\n", nd.mtu);
	printf("pfc=%s\npfc_why=%s\n", roce_status_name(nd.pfc.read.status), nd.pfc.read.why);
	printf("dscp=%s\n", roce_status_name(nd.dscp.read.status));
	print_ets(&nd);
	printf("ms=%ld\n", ms);
	return 0;
}

/* ------------------------------------------------------------ opt */

/* Show a hostile value on one line: non-printable bytes as \xNN. */
static void show(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '\\')
			printf("\\x%02x", (unsigned char)*s);
		else
			putchar(*s);
}

static int cmd_opt(int n, char **values)
{
	for (int i = 0; i < n; i++) {
		enum roce_mode m;
		printf("value=");
		show(values[i]);
		printf(" mode=%s token=%s\n", roce_mode_parse(values[i], &m) == 0 ? roce_mode_name(m) : "refused",
		       roce_token_ok(values[i], 16) ? "ok" : "refused");
	}
	return 0;
}

/* ------------------------------------------------------------ delta */

static int cmd_delta(const char *start_root, const char *end_root)
{
	struct roce_snapshot a, b;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	roce_snapshot_init(&a);
	roce_snapshot_init(&b);
	if (roce_snapshot_take(&a, start_root, NULL, NULL) < 0 || roce_snapshot_take(&b, end_root, NULL, NULL) < 0 ||
	    roce_delta_compute(&a, &b, &d) < 0) {
		fprintf(stderr, "faultprobe: out of memory\n");
		return 1;
	}
	struct roce_fragment_meta m = { .job_id = "1", .node = "node1", .pfc_priority = 3 };
	if (roce_verdicts_from_delta(&d, &m, &v) < 0)
		return 1;
	for (size_t p = 0; p < d.n_ports; p++) {
		const struct roce_port_delta *pd = &d.ports[p];
		printf("port=%s:%u presence=%s reset=%d\n", pd->device, pd->port, roce_delta_presence_name(pd->presence),
		       pd->reset ? 1 : 0);
		for (int c = 0; c < ROCE_N_COUNTERS; c++)
			if (pd->c[c].status != ROCE_DELTA_OK)
				printf("counter=%s:%u/%s status=%s value=%llu why=%s\n", pd->device, pd->port,
				       roce_counter_defs[c].name, roce_delta_status_name(pd->c[c].status),
				       (unsigned long long)pd->c[c].value, pd->c[c].why);
	}
	for (size_t i = 0; i < v.n; i++)
		printf("verdict=%s severity=%s subject=%s message=%s\n", v.v[i].code,
		       roce_verdict_severity_name(v.v[i].severity), v.v[i].subject, v.v[i].message);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
	roce_snapshot_free(&a);
	roce_snapshot_free(&b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "nl"))
		return cmd_nl(argv[2], argc > 3 ? atoi(argv[3]) : 300);
	if (argc >= 2 && !strcmp(argv[1], "opt"))
		return cmd_opt(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "delta"))
		return cmd_delta(argv[2], argv[3]);
	fprintf(stderr, "usage: faultprobe nl MODE [TIMEOUT_MS] | opt VALUE... | delta START_ROOT END_ROOT\n");
	return 2;
}
