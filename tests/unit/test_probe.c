/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_probe.c - the path probe (lib/probe/): its datagrams built and
 * parsed as hostile, the sizes per rail, and the responder and prober on
 * loopback: a healthy path, another key, an address that is not the job's,
 * forged datagrams ignored, hostile answers ignored, a re-marked DSCP named.
 * The MTU cases need a hop with a smaller MTU: tests/e2e/probe-netns.sh.
 */
#include "config.h"
#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "probe/prober.h"
#include "probe/probewire.h"
#include "probe/responder.h"
#include "probe/sockaddr.h"

static const struct roce_probewire_key key = { { 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
	                                         17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 } };

static void t_wire(void **s)
{
	(void)s;
	uint8_t buf[200];
	struct roce_probewire_msg m = { .kind = ROCE_PROBEWIRE_PROBE,
		                        .seq = 3,
		                        .tos = 106,
		                        .session = 0x0123456789abcdefULL },
	                          got;
	struct roce_probewire_key other = key;
	other.k[31] ^= 1;
	assert_int_equal(roce_probewire_build(&key, &m, buf, 39), -1);
	assert_int_equal(roce_probewire_build(&key, &m, buf, 100), 0);
	assert_int_equal(m.bytes, 100);
	assert_memory_equal(buf, "RPRB\x01\x01", 6);
	assert_int_equal(roce_probewire_parse(&key, buf, 100, &got), 0);
	assert_int_equal(got.kind, ROCE_PROBEWIRE_PROBE);
	assert_int_equal(got.seq, 3);
	assert_int_equal(got.bytes, 100);
	assert_int_equal(got.tos, 106);
	assert_false(got.tos_known);
	assert_true(got.session == 0x0123456789abcdefULL);
	/* another key, a short or long read of it, any header byte changed: no probe */
	assert_int_equal(roce_probewire_parse(&other, buf, 100, &got), -1);
	assert_int_equal(roce_probewire_parse(&key, buf, 99, &got), -1);
	assert_int_equal(roce_probewire_parse(&key, buf, 101, &got), -1);
	assert_int_equal(roce_probewire_parse(&key, buf, 39, &got), -1);
	for (size_t i = 0; i < ROCE_PROBEWIRE_HDR; i++) {
		buf[i] ^= 0x10;
		if (roce_probewire_parse(&key, buf, 100, &got) == 0)
			fail_msg("byte %zu changed and still taken", i);
		buf[i] ^= 0x10;
	}
	/* an answer: 40 bytes exactly, what arrived */
	struct roce_probewire_msg a = {
		.kind = ROCE_PROBEWIRE_ANSWER, .seq = 3, .bytes = 8972, .tos = 104, .tos_known = true, .session = 7
	};
	assert_int_equal(roce_probewire_build(&key, &a, buf, 41), -1);
	assert_int_equal(roce_probewire_build(&key, &a, buf, ROCE_PROBEWIRE_HDR), 0);
	assert_int_equal(roce_probewire_parse(&key, buf, ROCE_PROBEWIRE_HDR, &got), 0);
	assert_int_equal(got.kind, ROCE_PROBEWIRE_ANSWER);
	assert_int_equal(got.bytes, 8972);
	assert_true(got.tos_known);
	assert_int_equal(got.tos, 104);
	assert_int_equal(roce_probewire_parse(&key, buf, 41, &got), -1);
	/* a done: 40 bytes, no size or TOS (a done that claims one is no done) */
	struct roce_probewire_msg d = { .kind = ROCE_PROBEWIRE_DONE, .bytes = 9000, .tos = 104, .session = 7 };
	assert_int_equal(roce_probewire_build(&key, &d, buf, 100), -1);
	assert_int_equal(roce_probewire_build(&key, &d, buf, ROCE_PROBEWIRE_HDR), 0);
	assert_int_equal(roce_probewire_parse(&key, buf, ROCE_PROBEWIRE_HDR, &got), 0);
	assert_int_equal(got.kind, ROCE_PROBEWIRE_DONE);
	assert_int_equal(got.bytes, 0);
	assert_int_equal(roce_probewire_parse(&other, buf, ROCE_PROBEWIRE_HDR, &got), -1);
	a.kind = ROCE_PROBEWIRE_DONE; /* an answer's fields under the done kind, tagged: refused */
	buf[5] = ROCE_PROBEWIRE_DONE;
	assert_int_equal(roce_probewire_build(&key, &a, buf, ROCE_PROBEWIRE_HDR), 0);
	buf[8] = 0x23; /* bytes set after the tag was made: the tag no longer matches either way */
	assert_int_equal(roce_probewire_parse(&key, buf, ROCE_PROBEWIRE_HDR, &got), -1);
	buf[5] = 4; /* no kind 4 */
	assert_int_equal(roce_probewire_parse(&key, buf, ROCE_PROBEWIRE_HDR, &got), -1);
	/* a full RoCE v2 packet at RDMA MTU 4096: 4096 + 64 over IPv4, + 84 over IPv6 */
	assert_int_equal(roce_probewire_roce_size(4, 4096), 4160);
	assert_int_equal(roce_probewire_roce_size(6, 4096), 4180);
	assert_int_equal(roce_probewire_roce_size(4, 1024), 1088);
}

static void assert_sizes(const struct roce_prober_target *t, const unsigned *want, size_t n)
{
	assert_int_equal(t->n_sizes, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(t->sizes[i].ip_size, want[i]);
}

static void t_sizes(void **s)
{
	(void)s;
	struct roce_prober_target t;
	roce_prober_sizes(&t, 4, 4096, 9000);
	assert_sizes(&t, (const unsigned[]){ 68, 1500, 4160, 9000 }, 4);
	roce_prober_sizes(&t, 4, 1024, 1500); /* a standard MTU: 1500 is the netdev's */
	assert_sizes(&t, (const unsigned[]){ 68, 1088, 1500 }, 3);
	roce_prober_sizes(&t, 6, 4096, 4200);
	assert_sizes(&t, (const unsigned[]){ 88, 1500, 4180, 4200 }, 4);
	roce_prober_sizes(&t, 4, 0, 0); /* nothing known: is the neighbour there */
	assert_sizes(&t, (const unsigned[]){ 68 }, 1);
	roce_prober_sizes(&t, 4, 5000, 70000); /* out of range: not probed */
	assert_sizes(&t, (const unsigned[]){ 68, 1500 }, 2);
}

static void loopback(struct sockaddr_storage *a, const char *ip, uint16_t port)
{
	assert_int_equal(roce_sockaddr_parse(ip, port, a), 0);
}

/* A prober of one target from 127.0.0.1 to peer, TOS 104 (DSCP 26), RoCE
 * at 4096 on a 9000 netdev. */
static void one_target(struct roce_prober *p, const struct roce_probewire_key *k, const struct sockaddr_storage *peer)
{
	memset(p, 0, sizeof(*p));
	p->key = *k;
	p->n = 1;
	loopback(&p->t[0].local, "127.0.0.1", 0);
	p->t[0].peer = *peer;
	p->t[0].tos = 104;
	roce_prober_sizes(&p->t[0], 4, 4096, 9000);
}

static void t_loopback_ok(void **s)
{
	(void)s;
	struct roce_responder r;
	struct roce_prober p;
	struct roce_error err = { "" };
	struct sockaddr_storage here, peer;
	char why[200];
	unsigned largest;
	int dscp;
	loopback(&here, "127.0.0.1", 0);
	assert_int_equal(roce_responder_open(&r, &key, &here, 1, &err), 0);
	assert_int_equal(roce_responder_allow(&r, &here, 1), 0);
	loopback(&peer, "127.0.0.1", r.port[0]);
	one_target(&p, &key, &peer);
	int64_t t0 = roce_clock_ms();
	assert_int_equal(roce_prober_run(&p, &r, t0 + 900, 0, &err), 0);
	assert_true(roce_clock_ms() - t0 < 300); /* done when answered, not at the deadline */
	assert_int_equal(roce_prober_verdict(&p.t[0], &largest, &dscp), ROCE_PROBER_OK);
	assert_int_equal(largest, 9000);
	assert_int_equal(dscp, 26);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "ok");
	assert_int_equal(r.stats.answered, 4);
	assert_int_equal(p.t[0].sent, 4);
	roce_responder_close(&r);
}

/* Another job's key, and the job's key from an address not the job's: no answer. */
static void t_no_answer(void **s)
{
	(void)s;
	struct roce_responder r;
	struct roce_prober p;
	struct roce_error err = { "" };
	struct sockaddr_storage here, other_host, peer;
	struct roce_probewire_key other = key;
	char why[200];
	other.k[0] ^= 0x80;
	loopback(&here, "127.0.0.1", 0);
	loopback(&other_host, "127.0.0.2", 0);
	assert_int_equal(roce_responder_open(&r, &key, &here, 1, &err), 0);
	assert_int_equal(roce_responder_allow(&r, &here, 1), 0);
	loopback(&peer, "127.0.0.1", r.port[0]);
	one_target(&p, &other, &peer);
	assert_int_equal(roce_prober_run(&p, &r, roce_clock_ms() + 150, 0, &err), 0);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "no answer");
	assert_int_equal(r.stats.answered, 0);
	/* every try of every size (the last may miss the deadline on a loaded machine), never more */
	assert_in_range(p.t[0].sent, 4, 4 * ROCE_PROBER_TRIES);
	assert_int_equal(r.stats.untagged, p.t[0].sent);

	assert_int_equal(roce_responder_allow(&r, &other_host, 1), 0);
	one_target(&p, &key, &peer);
	assert_int_equal(roce_prober_run(&p, &r, roce_clock_ms() + 150, 0, &err), 0);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "no answer");
	assert_int_equal(r.stats.answered, 0);
	assert_in_range(r.stats.stranger, 4, 4 * ROCE_PROBER_TRIES);
	assert_int_equal(r.stats.stranger, p.t[0].sent);
	roce_responder_close(&r);

	/* nobody there at all: the kernel's port unreachable is said */
	one_target(&p, &key, &peer);
	assert_int_equal(roce_prober_run(&p, NULL, roce_clock_ms() + 150, 0, &err), 0);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "no answer (port unreachable)");
}

/* Datagrams without the job's tag get nothing back; the responder goes on. */
static void t_forged_ignored(void **s)
{
	(void)s;
	struct roce_responder r;
	struct roce_error err = { "" };
	struct sockaddr_storage here, to;
	uint8_t buf[ROCE_PROBEWIRE_HDR + 20] = "RPRB\x01\x01";
	loopback(&here, "127.0.0.1", 0);
	assert_int_equal(roce_responder_open(&r, &key, &here, 1, &err), 0);
	assert_int_equal(roce_responder_allow(&r, &here, 1), 0);
	loopback(&to, "127.0.0.1", r.port[0]);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&here, roce_sockaddr_len(&here)), 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&to, roce_sockaddr_len(&to)), 0);
	buf[8] = 0;
	buf[11] = sizeof(buf); /* the size field right, the tag all zeros */
	assert_int_equal(send(fd, buf, sizeof(buf), 0), (ssize_t)sizeof(buf));
	assert_int_equal(send(fd, "hello", 5, 0), 5);
	assert_int_equal(send(fd, buf, 0, 0), 0);
	usleep(20000);
	roce_responder_handle(&r, 0);
	assert_int_equal(r.stats.untagged, 3);
	assert_int_equal(r.stats.answered, 0);
	assert_int_equal(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1);
	close(fd);
	roce_responder_close(&r);
}

/* A peer that answers every probe it gets with what `mode` says, in a child. */
enum fake { FAKE_HOSTILE, FAKE_REMARKED };

static pid_t fake_peer(enum fake mode, struct sockaddr_storage *at)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t len = sizeof(*at);
	loopback(at, "127.0.0.1", 0);
	assert_int_equal(bind(fd, (struct sockaddr *)at, roce_sockaddr_len(at)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)at, &len), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid) {
		close(fd);
		return pid;
	}
	static uint8_t in[ROCE_PROBEWIRE_MAX];
	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		struct roce_probewire_msg m, a;
		uint8_t out[ROCE_PROBEWIRE_HDR + 1];
		ssize_t got = recvfrom(fd, in, sizeof(in), 0, (struct sockaddr *)&from, &fl);
		if (got < 0 || roce_probewire_parse(&key, in, (size_t)got, &m) < 0)
			continue;
		a = (struct roce_probewire_msg){ .kind = ROCE_PROBEWIRE_ANSWER,
			                         .seq = m.seq,
			                         .bytes = m.bytes,
			                         .tos = 0,
			                         .tos_known = true,
			                         .session = m.session };
		if (mode == FAKE_REMARKED) {
			roce_probewire_build(&key, &a, out, ROCE_PROBEWIRE_HDR);
			sendto(fd, out, ROCE_PROBEWIRE_HDR, 0, (struct sockaddr *)&from, fl);
			continue;
		}
		/* the probe echoed back; another session; another size; a seq past the sizes; one byte more */
		sendto(fd, in, (size_t)got, 0, (struct sockaddr *)&from, fl);
		struct roce_probewire_msg bad[] = { a, a, a };
		bad[0].session ^= 1;
		bad[1].bytes -= 1;
		bad[2].seq = 9;
		for (size_t i = 0; i < 3; i++) {
			roce_probewire_build(&key, &bad[i], out, ROCE_PROBEWIRE_HDR);
			sendto(fd, out, ROCE_PROBEWIRE_HDR, 0, (struct sockaddr *)&from, fl);
		}
		roce_probewire_build(&key, &a, out, ROCE_PROBEWIRE_HDR);
		out[ROCE_PROBEWIRE_HDR] = 0;
		sendto(fd, out, ROCE_PROBEWIRE_HDR + 1, 0, (struct sockaddr *)&from, fl);
	}
}

static void stop_peer(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void t_hostile_answers(void **s)
{
	(void)s;
	struct roce_prober p;
	struct roce_error err = { "" };
	struct sockaddr_storage peer;
	char why[200];
	pid_t pid = fake_peer(FAKE_HOSTILE, &peer);
	one_target(&p, &key, &peer);
	assert_int_equal(roce_prober_run(&p, NULL, roce_clock_ms() + 200, 0, &err), 0);
	stop_peer(pid);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "no answer");
	assert_in_range(p.t[0].sent, 4, 4 * ROCE_PROBER_TRIES);
}

/* Every size arrives, the DSCP does not: named with both values. */
static void t_remarked(void **s)
{
	(void)s;
	struct roce_prober p;
	struct roce_error err = { "" };
	struct sockaddr_storage peer;
	char why[200];
	unsigned largest;
	int dscp;
	pid_t pid = fake_peer(FAKE_REMARKED, &peer);
	one_target(&p, &key, &peer);
	assert_int_equal(roce_prober_run(&p, NULL, roce_clock_ms() + 500, 0, &err), 0);
	stop_peer(pid);
	assert_int_equal(roce_prober_verdict(&p.t[0], &largest, &dscp), ROCE_PROBER_DSCP);
	assert_int_equal(largest, 9000);
	assert_int_equal(dscp, 0);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "DSCP 26 sent, 0 arrived");
}

/* The verdicts from sizes alone, and a target that could not be set up. */
static void t_verdicts(void **s)
{
	(void)s;
	struct roce_prober_target t = { .tos = 104, .fd = -2 };
	char why[200];
	roce_prober_sizes(&t, 4, 4096, 9000);
	t.sizes[0].state = t.sizes[1].state = ROCE_PROBER_PASSED;
	t.sizes[0].tos_arrived = t.sizes[1].tos_arrived = 104;
	roce_prober_describe(&t, why, sizeof(why));
	assert_string_equal(why, "largest size that passed 1500 of 9000");
	t.sizes[2].state = ROCE_PROBER_TOO_BIG_HERE;
	roce_prober_describe(&t, why, sizeof(why));
	assert_string_equal(why, "largest size that passed 1500 of 9000 (above this node's own path MTU)");
	t.sizes[0].state = t.sizes[1].state = ROCE_PROBER_UNANSWERED;
	roce_prober_describe(&t, why, sizeof(why));
	assert_string_equal(why, "not probed: 4160 bytes are above this node's own path MTU");

	struct roce_prober p = { .key = key, .n = 1 };
	loopback(&p.t[0].local, "192.0.2.1", 0); /* not an address of this host */
	loopback(&p.t[0].peer, "127.0.0.1", 9);
	roce_prober_sizes(&p.t[0], 4, 4096, 9000);
	struct roce_error err = { "" };
	assert_int_equal(roce_prober_run(&p, NULL, roce_clock_ms() + 100, 0, &err), 0);
	roce_prober_describe(&p.t[0], why, sizeof(why));
	assert_string_equal(why, "not probed: bind from 192.0.2.1: Cannot assign requested address");
	assert_int_equal(p.t[0].sent, 0);
}

/* The responder binds the job's addresses only: another one is refused, and nothing is left open. */
static void t_responder_binds(void **s)
{
	(void)s;
	struct roce_responder r;
	struct roce_error err = { "" };
	struct sockaddr_storage a[2];
	loopback(&a[0], "127.0.0.1", 0);
	loopback(&a[1], "192.0.2.1", 0);
	assert_int_equal(roce_responder_open(&r, &key, a, 2, &err), -1);
	assert_string_equal(err.msg, "probe responder on 192.0.2.1: Cannot assign requested address");
	assert_int_equal(r.n, 0);
	assert_int_equal(roce_responder_open(&r, &key, a, 1, &err), 0);
	struct sockaddr_storage bound;
	socklen_t len = sizeof(bound);
	assert_int_equal(getsockname(r.fd[0], (struct sockaddr *)&bound, &len), 0);
	assert_true(roce_sockaddr_same_host(&bound, &a[0])); /* never the wildcard */
	assert_int_equal(roce_responder_allow(&r, a, ROCE_RESPONDER_PEERS_MAX + 1), -1);
	roce_responder_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_wire),      cmocka_unit_test(t_sizes),          cmocka_unit_test(t_loopback_ok),
		cmocka_unit_test(t_no_answer), cmocka_unit_test(t_forged_ignored), cmocka_unit_test(t_hostile_answers),
		cmocka_unit_test(t_remarked),  cmocka_unit_test(t_verdicts),       cmocka_unit_test(t_responder_binds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
