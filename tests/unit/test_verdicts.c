/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_verdicts.c - the verdict rules over deltas built in memory. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "fragment/verdicts.h"

static const struct roce_job_verdict *find(const struct roce_verdict_list *l, const char *code)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].code, code) == 0)
			return &l->v[i];
	return NULL;
}

static void t_clean_job_no_verdicts(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = fx_meta("n1");
	fx_delta(&d, 2, 10);
	d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = 1 << 30;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_int_equal(v.n, 0);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

static void t_verdicts(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	const char *shared[] = { "4243" };
	struct roce_fragment_meta m = fx_meta("n1");
	m.shared_with = shared;
	m.n_shared = 1;
	fx_delta(&d, 2, 10);
	struct roce_port_delta *p = &d.ports[0];
	p->c[ROCE_C_OUT_OF_SEQUENCE].value = 12;
	p->c[ROCE_C_LOCAL_ACK_TIMEOUT_ERR].value = 2;
	p->c[ROCE_C_RP_CNP_IGNORED].value = 50;
	p->c[ROCE_C_LINK_DOWNED].value = 1;
	p->c[ROCE_C_NP_CNP_SENT].value = 9;
	p->pfc_indications[3] = 200000;   /* 20000/s over 10 s: a storm */
	d.ports[1].pfc_requests[3] = 10;  /* 1/s: ordinary pauses */
	d.ports[1].reset = true;
	d.ports[1].c[ROCE_C_PACKET_SEQ_ERR].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[1].c[ROCE_C_PACKET_SEQ_ERR].why, ROCE_WHY_MAX, "end: missing: no hw_counters");

	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	const struct roce_job_verdict *x;
	assert_non_null(x = find(&v, "packet_loss"));
	assert_int_equal(x->severity, ROCE_SEV_WARN);
	assert_string_equal(x->subject, "mlx5_0:1");
	assert_non_null(strstr(x->message, "out_of_sequence 12"));
	assert_non_null(strstr(x->fix, "PFC is on for priority 3"));
	assert_non_null(x = find(&v, "rdma_timeouts"));
	assert_non_null(strstr(x->message, "2 RDMA transport timeouts"));
	assert_non_null(x = find(&v, "ecn_reaction_disabled"));
	assert_non_null(strstr(x->fix, "/sys/class/net/eth0/ecn/roce_rp/enable"));
	assert_non_null(x = find(&v, "link_down"));
	assert_int_equal(x->severity, ROCE_SEV_FAIL);
	assert_non_null(x = find(&v, "congestion"));
	assert_int_equal(x->severity, ROCE_SEV_INFO);
	assert_non_null(x = find(&v, "pause_storm"));
	assert_string_equal(x->subject, "mlx5_0:1 prio 3");
	assert_non_null(strstr(x->message, "20000 per second"));
	assert_non_null(strstr(x->fix, "the switch paused this NIC"));
	assert_non_null(x = find(&v, "pfc_pauses"));
	assert_string_equal(x->subject, "mlx5_1:1 prio 3");
	assert_non_null(x = find(&v, "shared_node"));
	assert_non_null(strstr(x->message, "4243"));
	assert_non_null(x = find(&v, "counter_reset"));
	assert_string_equal(x->subject, "mlx5_1:1");
	assert_non_null(x = find(&v, "counters_unread"));
	assert_non_null(strstr(x->message, "1 of"));
	assert_null(find(&v, "retries_exceeded"));
	roce_verdict_list_free(&v);

	/* vanished port: one verdict, no counter noise */
	d.ports[1].presence = ROCE_PORT_VANISHED;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(find(&v, "port_vanished"));
	assert_null(find(&v, "counter_reset"));
	assert_null(find(&v, "counters_unread"));
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* The port state and the check seen at prolog and epilog: port_down and
 * check_failed (not both for one port: a port that is down failed its check). */
static void t_port_down_check_failed(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = fx_meta("n1");
	const struct roce_job_verdict *x;
	fx_delta(&d, 3, 10);
	snprintf(d.ports[0].state_start, 24, "DOWN");
	snprintf(d.ports[0].state_end, 24, "ACTIVE");
	d.ports[0].check = ROCE_FAIL;
	snprintf(d.ports[0].check_why, ROCE_WHY_MAX, "at job start: port_state: mlx5_0 port 1 is DOWN");
	snprintf(d.ports[1].state_start, 24, "ACTIVE");
	snprintf(d.ports[1].state_end, 24, "ACTIVE");
	d.ports[1].check = ROCE_FAIL;
	snprintf(d.ports[1].check_why, ROCE_WHY_MAX, "at job start: gid: no RoCE v2 GID on mlx5_1 port 1");
	snprintf(d.ports[2].state_start, 24, "ACTIVE");
	snprintf(d.ports[2].state_end, 24, "DOWN");
	d.ports[2].check = ROCE_WARN;   /* a warning is no verdict */
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);

	assert_non_null(x = find(&v, "port_down"));
	assert_string_equal(x->subject, "mlx5_0:1");
	assert_int_equal(x->severity, ROCE_SEV_FAIL);
	assert_string_equal(x->message, "the port was DOWN at job start, ACTIVE at job end");
	assert_non_null(strstr(x->fix, "cable"));
	assert_string_equal(v.v[v.n - 1].code, "port_down");
	assert_string_equal(v.v[v.n - 1].subject, "mlx5_2:1");
	assert_string_equal(v.v[v.n - 1].message, "the port was DOWN at job end (ACTIVE at job start)");
	assert_non_null(x = find(&v, "check_failed"));
	assert_string_equal(x->subject, "mlx5_1:1");
	assert_string_equal(x->message, "the fabric check failed at job start: gid: no RoCE v2 GID on mlx5_1 port 1");
	assert_non_null(strstr(x->fix, "roce-check"));
	size_t failed = 0;
	for (size_t i = 0; i < v.n; i++)
		failed += strcmp(v.v[i].code, "check_failed") == 0;
	assert_int_equal(failed, 1);
	roce_verdict_list_free(&v);

	/* a failing finding about no port: a node verdict, first */
	d.check = ROCE_FAIL;
	snprintf(d.check_why, ROCE_WHY_MAX, "at job start: hca: mlx5_7 missing");
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_string_equal(v.v[0].code, "check_failed");
	assert_string_equal(v.v[0].subject, "node");
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* The order of the verdicts is the rules' order: node rules first, then
 * each port's; it is what the fragment and the report show. */
static void t_order(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	const char *shared[] = { "4243", "4244" };
	struct roce_fragment_meta m = fx_meta("n1");
	m.shared_with = shared;
	m.n_shared = 2;
	fx_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_NP_CNP_SENT].value = 1;
	d.ports[0].c[ROCE_C_LINK_DOWNED].value = 1;
	d.ports[0].pfc_requests[5] = 2;
	d.ports[0].pfc_requests[1] = 1;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_int_equal(v.n, 5);
	assert_string_equal(v.v[0].code, "shared_node");
	assert_string_equal(v.v[0].subject, "node");
	assert_non_null(strstr(v.v[0].message, "job(s) 4243, 4244 during"));
	assert_string_equal(v.v[1].code, "link_down");
	assert_string_equal(v.v[2].code, "congestion");
	assert_string_equal(v.v[3].subject, "mlx5_0:1 prio 1");
	assert_string_equal(v.v[4].subject, "mlx5_0:1 prio 5");
	assert_non_null(strstr(v.v[4].fix, "lossless flow control at work"));
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* No prolog snapshot: one node verdict with the note, no per-port noise. */
static void t_no_start(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = fx_meta("n1");
	m.no_start = true;
	m.note = "no prolog snapshot: StateDir/4242.json missing";
	fx_delta(&d, 1, 0);
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		d.ports[0].c[i].status = ROCE_DELTA_UNREAD;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.v[0].code, "no_prolog_snapshot");
	assert_string_equal(v.v[0].message, "no counts for this node: no prolog snapshot: StateDir/4242.json missing");
	assert_non_null(strstr(v.v[0].fix, "PrologFlags=Alloc"));
	roce_verdict_list_free(&v);

	/* no ports at all, no meta */
	d.n_ports = 0;
	assert_int_equal(roce_verdicts_from_delta(&d, NULL, &v), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.v[0].code, "no_roce_ports");
	roce_verdict_list_free(&v);
	d.n_ports = 1;
	roce_delta_free(&d);
}

/* Which fix counters_unread gives: only mlx5's hw_counters/ missing, or more. */
static void t_unread_fix(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	fx_delta(&d, 1, 10);
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (roce_counter_defs[i].hw)
			d.ports[0].c[i].status = ROCE_DELTA_UNREAD;
	assert_int_equal(roce_verdicts_from_delta(&d, NULL, &v), 0);
	assert_int_equal(v.n, 1);
	assert_non_null(strstr(v.v[0].fix, "hw_counters/ are mlx5's"));
	roce_verdict_list_free(&v);
	d.ports[0].c[ROCE_C_LINK_DOWNED].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[0].c[ROCE_C_LINK_DOWNED].why, ROCE_WHY_MAX, "end: EIO");
	assert_int_equal(roce_verdicts_from_delta(&d, NULL, &v), 0);
	assert_int_equal(v.n, 1);
	assert_non_null(strstr(v.v[0].fix, "the reason above names the file"));
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* Counters that must be zero are read, not just 0: an unread one is unknown. */
static void unread(struct roce_port_delta *p, enum roce_counter_id id)
{
	p->c[id].status = ROCE_DELTA_UNREAD;
	snprintf(p->c[id].why, ROCE_WHY_MAX, "end: missing: no hw_counters");
}

/* ECN marks received, no CNP sent: the notification point is off. */
static void t_ecn_np_silent(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = fx_meta("n1");
	const struct roce_job_verdict *x;
	fx_delta(&d, 4, 10);
	d.ports[0].c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].value = 4711;   /* fires */
	d.ports[1].c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].value = 4711;   /* CNPs sent: fine */
	d.ports[1].c[ROCE_C_NP_CNP_SENT].value = 4000;
	d.ports[2].c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].value = 4711;   /* np_cnp_sent unread: unknown */
	unread(&d.ports[2], ROCE_C_NP_CNP_SENT);
	d.ports[3].c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].status = ROCE_DELTA_UNREAD;   /* marks unread */
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(x = find(&v, "ecn_np_silent"));
	assert_string_equal(x->subject, "mlx5_0:1");
	assert_int_equal(x->severity, ROCE_SEV_WARN);
	assert_string_equal(x->message, "4711 ECN-marked RoCE packets received but no congestion notification (CNP) "
	                                "sent: the senders were never told to slow down");
	assert_non_null(strstr(x->fix, "/sys/class/net/eth0/ecn/roce_np/enable/<prio>"));
	assert_non_null(strstr(x->fix, "mlnx_qos"));
	size_t n = 0;
	for (size_t i = 0; i < v.n; i++)
		n += strcmp(v.v[i].code, "ecn_np_silent") == 0;
	assert_int_equal(n, 1);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* Many pauses received on the RoCE priority and no ECN mark at all. */
static void t_pauses_without_ecn(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = fx_meta("n1");
	const struct roce_job_verdict *x;
	fx_delta(&d, 1, 10);
	struct roce_port_delta *p = &d.ports[0];
	p->pfc_indications[3] = ROCE_PAUSES_WITHOUT_ECN_FRAMES;
	p->pfc_indications[5] = 1u << 20;   /* not the RoCE priority */
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(x = find(&v, "pauses_without_ecn"));
	assert_string_equal(x->subject, "mlx5_0:1");
	assert_int_equal(x->severity, ROCE_SEV_FAIL);
	assert_string_equal(x->message, "1000 PFC pause frames received on priority 3 and not one ECN mark "
	                                "(np_ecn_marked_roce_packets 0, rp_cnp_handled 0)");
	assert_non_null(strstr(x->fix, "enable ECN"));
	assert_non_null(strstr(x->fix, "priority 3"));
	roce_verdict_list_free(&v);

	/* no policy priority: the PFC-enabled one */
	assert_int_equal(roce_verdicts_from_delta(&d, NULL, &v), 0);
	assert_non_null(x = find(&v, "pauses_without_ecn"));
	assert_non_null(strstr(x->message, "on priority 3"));
	roce_verdict_list_free(&v);

	/* below the threshold; marks seen; CNPs handled; a counter unread; PFC unread */
	p->pfc_indications[3] = ROCE_PAUSES_WITHOUT_ECN_FRAMES - 1;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	p->pfc_indications[3] = 50000;
	p->c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].value = 1;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	p->c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].value = 0;
	p->c[ROCE_C_RP_CNP_HANDLED].value = 7;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	p->c[ROCE_C_RP_CNP_HANDLED].value = 0;
	unread(p, ROCE_C_RP_CNP_HANDLED);
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	p->c[ROCE_C_RP_CNP_HANDLED].status = ROCE_DELTA_OK;
	unread(p, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS);
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	p->c[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS].status = ROCE_DELTA_OK;
	p->pfc_status = ROCE_DELTA_UNREAD;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	/* back to what fires: the last case changed one thing only */
	p->pfc_status = ROCE_DELTA_OK;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(find(&v, "pauses_without_ecn"));
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* The GID the prolog recorded and the epilog's. */
static void t_gid_changed(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	const struct roce_job_verdict *x;
	fx_delta(&d, 5, 10);
	for (size_t i = 0; i < d.n_ports; i++) {
		snprintf(d.ports[i].gid_addr_start, ROCE_GID_ADDR_MAX, "192.0.2.%zu", i + 1);
		snprintf(d.ports[i].gid_addr_end, ROCE_GID_ADDR_MAX, "192.0.2.%zu", i + 1);
	}
	d.ports[0].gid_index = 4;                                          /* the index moved */
	snprintf(d.ports[1].gid_addr_end, ROCE_GID_ADDR_MAX, "198.51.100.7"); /* readdressed at index 3 */
	d.ports[2].gid_index_start = -1;                                   /* unknown at start */
	d.ports[2].gid_index = 5;
	d.ports[3].gid_addr_end[0] = '\0';                                 /* address not read at end */
	d.ports[4].presence = ROCE_PORT_VANISHED;                          /* its own verdict */
	d.ports[4].gid_index = 7;
	assert_int_equal(roce_verdicts_from_delta(&d, NULL, &v), 0);
	size_t n = 0;
	for (size_t i = 0; i < v.n; i++)
		n += strcmp(v.v[i].code, "gid_changed") == 0;
	assert_int_equal(n, 2);
	assert_non_null(x = find(&v, "gid_changed"));
	assert_string_equal(x->subject, "mlx5_0:1");
	assert_int_equal(x->severity, ROCE_SEV_FAIL);
	assert_string_equal(x->message, "the RoCE v2 GID was index 3 (192.0.2.1) at job start and index 4 (192.0.2.1) at job end");
	assert_non_null(strstr(x->fix, "NCCL_IB_GID_INDEX"));
	for (size_t i = 0; i < v.n; i++)
		if (strcmp(v.v[i].code, "gid_changed") == 0 && strcmp(v.v[i].subject, "mlx5_1:1") == 0)
			assert_string_equal(v.v[i].message, "the RoCE v2 GID was index 3 (192.0.2.2) at job start and "
			                                    "index 3 (198.51.100.7) at job end");
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* A trend state of one port, mlx5_<dev>:1, whose counter c grew by growth, last at last_s. */
static void trend_of(struct roce_trend *t, struct roce_trend_port *p, int dev, int c, uint64_t growth, int64_t last_s)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "mlx5_%d", dev);
	p->port = 1;
	p->c[c] = (struct roce_trend_counter){ true, 1000, growth, last_s };
	t->time_s = last_s;
	t->ports = p;
	t->n_ports = 1;
}

static void t_counter_trend(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_trend start = { 0 }, end = { 0 };
	struct roce_trend_port ps, pe;
	uint64_t threshold[ROCE_N_COUNTERS] = { 0 };
	const struct roce_job_verdict *x;
	threshold[ROCE_C_SYMBOL_ERROR] = 10;
	threshold[ROCE_C_LINK_DOWNED] = 1;
	struct roce_fragment_meta m = fx_meta("n1"); /* the job ran from 1 s to 11 s */
	m.trend_threshold = threshold;
	m.trend_window_s = 3600;
	fx_delta(&d, 2, 10);

	/* sick at job start (grew at 1 s, as the job started), the same state at the end */
	trend_of(&start, &ps, 1, ROCE_C_SYMBOL_ERROR, 120, 1);
	m.trend_start = m.trend_end = &start;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(x = find(&v, "counter_trend"));
	assert_string_equal(x->subject, "mlx5_1:1");
	assert_int_equal(x->severity, ROCE_SEV_WARN);
	assert_string_equal(x->message,
	                    "the health check saw link-quality counters grow between its runs within 3600 s, "
	                    "when the job started and when it ended: symbol_error +120 (threshold 10)");
	assert_non_null(strstr(x->fix, "ethtool -m"));
	assert_int_equal(v.n, 1);
	roce_verdict_list_free(&v);

	/* only at the end (the health check ran during the job), two counters, the larger growth shown */
	trend_of(&end, &pe, 1, ROCE_C_SYMBOL_ERROR, 130, 5);
	pe.c[ROCE_C_LINK_DOWNED] = (struct roce_trend_counter){ true, 2, 2, 5 };
	m.trend_start = NULL;
	m.trend_end = &end;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(x = find(&v, "counter_trend"));
	assert_string_equal(x->message,
	                    "the health check saw link-quality counters grow between its runs within 3600 s, "
	                    "when the job ended: symbol_error +130 (threshold 10), link_downed +2 (threshold 1)");
	roce_verdict_list_free(&v);
	m.trend_start = &start;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(x = find(&v, "counter_trend"));
	assert_non_null(strstr(x->message, "when the job started and when it ended: symbol_error +130"));
	roce_verdict_list_free(&v);

	/* only at the start: the state at the end is quiet */
	end.ports[0].c[ROCE_C_SYMBOL_ERROR].growth = 0;
	end.ports[0].c[ROCE_C_LINK_DOWNED].growth = 0;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(x = find(&v, "counter_trend"));
	assert_non_null(strstr(x->message, "when the job started: symbol_error +120 (threshold 10)"));
	roce_verdict_list_free(&v);

	/* a state written long before: the growth settled since (stale health check) */
	m.start_ns = m.end_ns = 7200LL * 1000000000;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "counter_trend"));
	roce_verdict_list_free(&v);
	m.start_ns = 1000000000;

	/* below the threshold, an untracked counter, Trend=ignore: nothing */
	start.ports[0].c[ROCE_C_SYMBOL_ERROR].growth = 9;
	start.ports[0].c[ROCE_C_PORT_RCV_ERRORS] = (struct roce_trend_counter){ true, 500, 500, 1 };
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "counter_trend"));
	roce_verdict_list_free(&v);
	start.ports[0].c[ROCE_C_SYMBOL_ERROR].growth = 120;
	m.trend_threshold = NULL;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_null(find(&v, "counter_trend"));
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

static void t_severity_names(void **state)
{
	(void)state;
	assert_string_equal(roce_verdict_severity_name(ROCE_SEV_INFO), "info");
	assert_string_equal(roce_verdict_severity_name(ROCE_SEV_WARN), "warn");
	assert_string_equal(roce_verdict_severity_name(ROCE_SEV_FAIL), "fail");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_clean_job_no_verdicts),
		cmocka_unit_test(t_verdicts),
		cmocka_unit_test(t_port_down_check_failed),
		cmocka_unit_test(t_order),
		cmocka_unit_test(t_no_start),
		cmocka_unit_test(t_unread_fix),
		cmocka_unit_test(t_ecn_np_silent),
		cmocka_unit_test(t_pauses_without_ecn),
		cmocka_unit_test(t_gid_changed),
		cmocka_unit_test(t_counter_trend),
		cmocka_unit_test(t_severity_names),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
