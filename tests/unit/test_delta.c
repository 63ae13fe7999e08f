/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_delta.c - counter deltas (delta.c): one counter's wrap, reset and
 * saturation by its width; ports paired by name (a reset port, a vanished
 * and an appeared one, a counter unread at the end, the clock going back).
 * delta.c is pure: its snapshots are built here by hand. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "base/strcopy.h"
#include "pipeline/delta.h"
#include "fixtures.h"

static const struct roce_counter_def *def(enum roce_counter_id id) { return &roce_counter_defs[id]; }

static void t_delta_counter(void **state)
{
	(void)state;
	struct roce_counter_delta d;
	/* 64-bit plain increment */
	roce_delta_counter(def(ROCE_C_PORT_XMIT_PACKETS), 10, 25, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_OK);
	assert_int_equal(d.value, 15);
	/* data counters are 4-byte words */
	roce_delta_counter(def(ROCE_C_PORT_RCV_DATA), 1000, 1250, false, &d);
	assert_int_equal(d.value, 1000);
	/* 32-bit Q counter wrapped once: 0xfffffff0 -> 0x10 is 0x20 events */
	roce_delta_counter(def(ROCE_C_OUT_OF_SEQUENCE), 0xfffffff0u, 0x10, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_WRAPPED);
	assert_int_equal(d.value, 0x20);
	/* ... but on a port whose 64-bit counters went back it is a reset */
	roce_delta_counter(def(ROCE_C_OUT_OF_SEQUENCE), 0xfffffff0u, 0x10, true, &d);
	assert_int_equal(d.status, ROCE_DELTA_RESET);
	assert_int_equal(d.value, 0x10);
	/* 64-bit backwards: reset, never a huge number */
	roce_delta_counter(def(ROCE_C_RP_CNP_HANDLED), 5000, 3, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_RESET);
	assert_int_equal(d.value, 3);
	roce_delta_counter(def(ROCE_C_PORT_XMIT_DATA), 5000, 3, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_RESET);
	assert_int_equal(d.value, 12);
	/* PMA 16-bit counter stuck at 65535: lower bound */
	roce_delta_counter(def(ROCE_C_SYMBOL_ERROR), 65000, 65535, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_SATURATED);
	assert_int_equal(d.value, 535);
	/* saturating counters never wrap: backwards is a reset */
	roce_delta_counter(def(ROCE_C_LINK_DOWNED), 200, 2, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_RESET);
	assert_int_equal(d.value, 2);
	/* a "32-bit" counter holding a bigger value: our width was wrong, no wrap maths */
	roce_delta_counter(def(ROCE_C_PACKET_SEQ_ERR), 0x100000005ull, 3, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_RESET);
	/* unchanged */
	roce_delta_counter(def(ROCE_C_LINK_DOWNED), 7, 7, false, &d);
	assert_int_equal(d.status, ROCE_DELTA_OK);
	assert_int_equal(d.value, 0);
}


static void snapshot_of(struct roce_snapshot *s, struct roce_port_sample *ports, size_t n, int64_t time_ns)
{
	roce_snapshot_init(s);
	s->ports = ports;
	s->n_ports = n;
	s->time_ns = time_ns;
}

/* Increments, x4 words, a wrap, a reset port, a vanished and an appeared port. */
static void t_delta_ports(void **state)
{
	(void)state;
	struct roce_port_sample at_start[3] = { fx_port_sample("mlx5_0"), fx_port_sample("mlx5_1"),
		                                fx_port_sample("mlx5_2") };
	struct roce_port_sample at_end[3] = { fx_port_sample("mlx5_0"), fx_port_sample("mlx5_1"),
		                              fx_port_sample("mlx5_3") };
	struct roce_snapshot a, b;
	struct roce_delta d;
	at_start[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 4294967290u;
	at_start[1].c[ROCE_C_PORT_XMIT_DATA].value = 1000000;
	at_start[1].c[ROCE_C_OUT_OF_SEQUENCE].value = 4294967290u;
	at_end[0].c[ROCE_C_PORT_XMIT_DATA].value = 250;
	at_end[0].c[ROCE_C_PORT_RCV_PACKETS].value = 9;
	at_end[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 4; /* wrapped: 6 + 4 */
	at_end[1].c[ROCE_C_PORT_XMIT_DATA].value = 10; /* driver reload */
	at_end[1].c[ROCE_C_OUT_OF_SEQUENCE].value = 4; /* ... so a reset, not a wrap */
	snapshot_of(&a, at_start, 3, 1000000000);
	snapshot_of(&b, at_end, 3, 3000000000);

	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.n_ports, 4);
	assert_true(d.seconds > 1.99 && d.seconds < 2.01);
	const struct roce_port_delta *p0 = &d.ports[0], *p1 = &d.ports[1], *p2 = &d.ports[2], *p3 = &d.ports[3];
	assert_string_equal(p0->device, "mlx5_0");
	assert_int_equal(p0->presence, ROCE_PORT_BOTH);
	assert_false(p0->reset);
	assert_int_equal(p0->c[ROCE_C_PORT_XMIT_DATA].value, 1000);
	assert_int_equal(p0->c[ROCE_C_PORT_RCV_PACKETS].value, 9);
	assert_int_equal(p0->c[ROCE_C_OUT_OF_SEQUENCE].status, ROCE_DELTA_WRAPPED);
	assert_int_equal(p0->c[ROCE_C_OUT_OF_SEQUENCE].value, 10);
	assert_int_equal(p0->c[ROCE_C_LINK_DOWNED].value, 0);

	assert_string_equal(p1->device, "mlx5_1");
	assert_true(p1->reset);
	assert_int_equal(p1->c[ROCE_C_PORT_XMIT_DATA].status, ROCE_DELTA_RESET);
	assert_int_equal(p1->c[ROCE_C_PORT_XMIT_DATA].value, 40);
	assert_int_equal(p1->c[ROCE_C_OUT_OF_SEQUENCE].status, ROCE_DELTA_RESET);
	assert_int_equal(p1->c[ROCE_C_OUT_OF_SEQUENCE].value, 4);

	assert_string_equal(p2->device, "mlx5_2");
	assert_int_equal(p2->presence, ROCE_PORT_VANISHED);
	assert_int_equal(p2->c[ROCE_C_PORT_XMIT_DATA].status, ROCE_DELTA_UNREAD);
	assert_string_equal(p2->c[ROCE_C_PORT_XMIT_DATA].why, "port vanished during the job");
	assert_string_equal(p3->device, "mlx5_3");
	assert_int_equal(p3->presence, ROCE_PORT_APPEARED);
	assert_string_equal(roce_delta_presence_name(p3->presence), "appeared");
	roce_delta_free(&d);

	/* a counter unreadable at the end only: unread, saying when */
	roce_reading_set(&at_end[0].c[ROCE_C_NP_CNP_SENT].read, ROCE_MALFORMED, 0, "np_cnp_sent: \"garbage\"");
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.ports[0].c[ROCE_C_NP_CNP_SENT].status, ROCE_DELTA_UNREAD);
	assert_non_null(strstr(d.ports[0].c[ROCE_C_NP_CNP_SENT].why, "end: malformed"));
	assert_string_equal(roce_delta_status_name(d.ports[0].c[ROCE_C_NP_CNP_SENT].status), "unread");
	roce_delta_free(&d);

	/* the clock went back between snapshots: no rates rather than nonsense */
	b.time_ns = a.time_ns - 1;
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_true(d.seconds < 0);
	roce_delta_free(&d);
}

/* Port state at both ends, and the worse check with when it was seen. */
static void t_delta_state_check(void **state)
{
	(void)state;
	struct roce_port_sample at_start[2] = { fx_port_sample("mlx5_0"), fx_port_sample("mlx5_1") };
	struct roce_port_sample at_end[1] = { fx_port_sample("mlx5_0") };
	struct roce_snapshot a, b;
	struct roce_delta d;
	snprintf(at_start[0].state, sizeof(at_start[0].state), "ACTIVE");
	snprintf(at_end[0].state, sizeof(at_end[0].state), "DOWN");
	at_start[0].check = ROCE_WARN;
	snprintf(at_start[0].check_why, ROCE_WHY_MAX, "pfc: unknown");
	at_end[0].check = ROCE_FAIL;
	snprintf(at_end[0].check_why, ROCE_WHY_MAX, "port_state: DOWN");
	at_start[1].check = ROCE_FAIL; /* vanished: what the prolog saw */
	snprintf(at_start[1].check_why, ROCE_WHY_MAX, "gid: no RoCE v2 GID");
	snapshot_of(&a, at_start, 2, 1000000000);
	snapshot_of(&b, at_end, 1, 3000000000);
	a.check = ROCE_FAIL;
	snprintf(a.check_why, ROCE_WHY_MAX, "hca: mlx5_9 missing");
	b.check = ROCE_FAIL;
	snprintf(b.check_why, ROCE_WHY_MAX, "hca: mlx5_8 missing");

	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_string_equal(d.ports[0].state_start, "ACTIVE");
	assert_string_equal(d.ports[0].state_end, "DOWN");
	assert_int_equal(d.ports[0].check, ROCE_FAIL);
	assert_string_equal(d.ports[0].check_why, "at job end: port_state: DOWN");
	assert_string_equal(d.ports[1].state_end, "");
	assert_int_equal(d.ports[1].check, ROCE_FAIL);
	assert_string_equal(d.ports[1].check_why, "at job start: gid: no RoCE v2 GID");
	/* a tie: the prolog's, what the job started with */
	assert_string_equal(d.check_why, "at job start: hca: mlx5_9 missing");
	/* the check named by what the delta wrote, with or without when (nodehealth.c's slow links) */
	assert_true(roce_delta_check_why_is(d.ports[0].check_why, "port_state"));
	assert_true(roce_delta_check_why_is(d.ports[1].check_why, "gid"));
	assert_true(roce_delta_check_why_is("link_rate: mlx5_1 port 1 at 25 Gb/s", "link_rate"));
	assert_false(roce_delta_check_why_is(d.ports[1].check_why, "gi"));
	assert_false(roce_delta_check_why_is(d.ports[0].check_why, "gid"));
	roce_delta_free(&d);

	/* no check at either end (a snapshot taken without one): nothing said */
	a.check = b.check = -1;
	at_start[0].check = at_end[0].check = -1;
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_int_equal(d.check, -1);
	assert_int_equal(d.ports[0].check, -1);
	assert_string_equal(d.ports[0].check_why, "");
	roce_delta_free(&d);
}

/* A check's message longer than a fragment keeps is cut after a whole word,
 * and says so: never mid-word (the trial saw "... DSCP-to-priorit"). */
static void t_delta_check_why_cut_at_a_word(void **state)
{
	(void)state;
	struct roce_port_sample at_start[1] = { fx_port_sample("mlx5_0") };
	struct roce_snapshot a, b;
	struct roce_delta d;
	const char *msg = "trust: eth0 trusts dscp (qos/trust) but its DSCP-to-priority map is unknown "
	                  "(qos/dscp2prio: /sys/class/net/eth0/qos/dscp2prio: a line is not DSCP PRIO): the "
	                  "priority RoCE lands on cannot be verified; mlnx_qos -i eth0 shows it";
	at_start[0].check = ROCE_UNKNOWN;
	roce_strcopy(at_start[0].check_why, ROCE_WHY_MAX, msg); /* cut: msg is longer */
	snapshot_of(&a, at_start, 1, 1000000000);
	snapshot_of(&b, at_start, 1, 3000000000);
	a.check = b.check = -1;
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	const char *w = d.ports[0].check_why;
	size_t n = strlen(w);
	print_message("%s\n", w);
	assert_true(n < ROCE_WHY_MAX && n > 100);
	assert_string_equal(w + n - 3, "...");
	assert_true(w[n - 4] != ' ');
	/* what stands before "..." is the message up to a space */
	size_t kept = n - 3 - strlen("at job start: ");
	assert_memory_equal(w + strlen("at job start: "), at_start[0].check_why, kept);
	assert_int_equal(at_start[0].check_why[kept], ' ');
	roce_delta_free(&d);

	/* one that fits is left whole */
	snprintf(at_start[0].check_why, ROCE_WHY_MAX, "gid: no RoCE v2 GID");
	snapshot_of(&a, at_start, 1, 1000000000);
	assert_int_equal(roce_delta_compute(&a, &b, &d), 0);
	assert_string_equal(d.ports[0].check_why, "at job start: gid: no RoCE v2 GID");
	roce_delta_free(&d);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_delta_state_check),
		cmocka_unit_test(t_delta_check_why_cut_at_a_word),
		cmocka_unit_test(t_delta_counter),
		cmocka_unit_test(t_delta_ports),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
