/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_live.c - a running job's live sample: built from snapshots (live.c), its file written and read back strictly (live_json.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "fragment/live.h"

#define NS 1000000000LL

/* A node of two ports, mlx5_0:1 on eth0 and mlx5_1:1 on eth1, ACTIVE, GID 3
 * at 192.0.2.10 and .11, every counter read as 0, at t seconds. */
struct snap {
	struct roce_port_sample ps[2];
	struct roce_snapshot s;
};

static void snap_at(struct snap *x, int64_t t)
{
	memset(x, 0, sizeof(*x));
	for (int i = 0; i < 2; i++) {
		char dev[16];
		snprintf(dev, sizeof(dev), "mlx5_%d", i);
		x->ps[i] = fx_port_sample(dev);
		snprintf(x->ps[i].netdev, sizeof(x->ps[i].netdev), "eth%d", i);
		snprintf(x->ps[i].state, sizeof(x->ps[i].state), "ACTIVE");
		snprintf(x->ps[i].gid_addr, sizeof(x->ps[i].gid_addr), "192.0.2.1%d", i);
		x->ps[i].gid_index = 3;
		x->ps[i].check = 0;
	}
	x->s.time_ns = t * NS;
	x->s.ports = x->ps;
	x->s.n_ports = 2;
	x->s.gid_index = 3;
	x->s.check = -1;
}

static const struct roce_live_meta meta = { "4711", "gpu01", 1000, 3 };

static const struct roce_live_event *event(const struct roce_live *l, const char *code, const char *subject)
{
	for (size_t i = 0; i < l->n_events; i++)
		if (strcmp(l->events[i].code, code) == 0 && strcmp(l->events[i].subject, subject) == 0)
			return &l->events[i];
	return NULL;
}

/* ---------------------------------------------------------------- live.c */

static void t_intervals(void **state)
{
	(void)state;
	struct snap start, prev, now;
	struct roce_live l;
	snap_at(&start, 100);
	snap_at(&prev, 400);
	snap_at(&now, 700);
	prev.ps[0].c[ROCE_C_PORT_XMIT_DATA].value = 1000; /* 4-byte words */
	now.ps[0].c[ROCE_C_PORT_XMIT_DATA].value = 4000;
	now.ps[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 7;
	/* a counter not read now: not read in either interval */
	roce_reading_set(&now.ps[1].c[ROCE_C_SYMBOL_ERROR].read, ROCE_MISSING, 0, "no such file");
	/* a 64-bit counter that went back since the sample before: a reset, a lower bound */
	prev.ps[1].c[ROCE_C_NP_CNP_SENT].value = 50;
	now.ps[1].c[ROCE_C_NP_CNP_SENT].value = 5;
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &prev.s, &now.s, NULL, 0), 0);
	assert_string_equal(l.job_id, "4711");
	assert_string_equal(l.node, "gpu01");
	assert_int_equal(l.job_uid, 1000);
	assert_int_equal(l.samples, 3);
	assert_int_equal(l.start_ns, 100 * NS);
	assert_int_equal(l.now_ns, 700 * NS);
	assert_int_equal(l.n_ports, 2);
	const struct roce_live_port *p = &l.ports[0];
	assert_string_equal(p->device, "mlx5_0");
	assert_string_equal(p->netdev, "eth0");
	assert_string_equal(p->state_now, "ACTIVE");
	assert_int_equal(p->since_start.from_ns, 100 * NS);
	assert_int_equal(p->since_start.c[ROCE_C_PORT_XMIT_DATA], 16000);
	assert_int_equal(p->since_start.cs[ROCE_C_PORT_XMIT_DATA], ROCE_DELTA_OK);
	assert_int_equal(p->since_last.from_ns, 400 * NS);
	assert_int_equal(p->since_last.c[ROCE_C_PORT_XMIT_DATA], 12000);
	assert_int_equal(p->since_last.c[ROCE_C_OUT_OF_SEQUENCE], 7);
	assert_int_equal(p->since_start.pfc_status, ROCE_DELTA_UNREAD);
	p = &l.ports[1];
	assert_int_equal(p->since_start.cs[ROCE_C_SYMBOL_ERROR], ROCE_DELTA_UNREAD);
	assert_int_equal(p->since_last.cs[ROCE_C_SYMBOL_ERROR], ROCE_DELTA_UNREAD);
	assert_int_equal(p->since_last.cs[ROCE_C_NP_CNP_SENT], ROCE_DELTA_RESET);
	assert_int_equal(p->since_last.c[ROCE_C_NP_CNP_SENT], 5);
	assert_int_equal(p->since_start.c[ROCE_C_NP_CNP_SENT], 5);
	assert_int_equal(p->since_start.cs[ROCE_C_NP_CNP_SENT], ROCE_DELTA_OK);
	assert_int_equal(l.n_events, 0);
	roce_live_free(&l);
}

static void t_gid_moved(void **state)
{
	(void)state;
	struct snap start, now;
	struct roce_live l;
	const struct roce_live_event *e;
	snap_at(&start, 100);
	snap_at(&now, 400);
	now.ps[1].gid_index = 4; /* NCCL/nccl#1333: index 3 became 4 */
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, NULL, 0), 0);
	assert_int_equal(l.n_events, 1);
	assert_non_null(e = event(&l, "gid_changed", "mlx5_1:1"));
	assert_string_equal(e->message,
	                    "the RoCE v2 GID was index 3 (192.0.2.11) at job start and is index 4 (192.0.2.11) now");
	assert_int_equal(e->first_ns, 400 * NS);
	assert_int_equal(e->last_ns, 400 * NS);
	assert_int_equal(roce_live_event_severity("gid_changed"), ROCE_SEV_FAIL);
	assert_non_null(strstr(roce_live_event_fix("gid_changed"), "NCCL_IB_GID_INDEX"));
	assert_int_equal(l.ports[1].gid_index_start, 3);
	assert_int_equal(l.ports[1].gid_index_now, 4);
	roce_live_free(&l);

	/* readdressed at the same index */
	now.ps[1].gid_index = 3;
	snprintf(now.ps[0].gid_addr, sizeof(now.ps[0].gid_addr), "198.51.100.7");
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, NULL, 0), 0);
	assert_non_null(e = event(&l, "gid_changed", "mlx5_0:1"));
	assert_string_equal(e->message,
	                    "the RoCE v2 GID was index 3 (192.0.2.10) at job start and is index 3 (198.51.100.7) now");
	assert_int_equal(l.n_events, 1);
	roce_live_free(&l);
}

/* A fixed GidIndex whose GID moved: the check finds no valid GID at 3 now
 * (the snapshot's index is -1) and says where it is. */
static void t_gid_not_valid_now(void **state)
{
	(void)state;
	struct snap start, now;
	struct roce_live l;
	const struct roce_live_event *e;
	snap_at(&start, 100);
	snap_at(&now, 400);
	now.ps[1].gid_index = -1;
	now.ps[1].gid_addr[0] = '\0';
	now.ps[1].check = ROCE_FAIL;
	snprintf(now.ps[1].check_why, sizeof(now.ps[1].check_why),
	         "gid: mlx5_1 port 1: GID 3 is IB/RoCE v1 192.0.2.11, not a routable RoCE v2 IPv4 GID; the RoCE v2 "
	         "IPv4 GID (RoCE v2 192.0.2.11) is at index 4");
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, NULL, 0), 0);
	assert_non_null(e = event(&l, "gid_changed", "mlx5_1:1"));
	assert_string_equal(e->message, "the RoCE v2 GID was index 3 (192.0.2.11) at job start and is not valid now: "
	                                "mlx5_1 port 1: GID 3 is IB/RoCE v1 192.0.2.11, not a routable RoCE v2 IPv4 "
	                                "GID; the RoCE v2 IPv4 GID (RoCE v2 192.0.2.11) is at index 4");
	roce_live_free(&l);
	/* unknown at the start: nothing to compare */
	start.ps[1].gid_index = -1;
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, NULL, 0), 0);
	assert_int_equal(l.n_events, 0);
	roce_live_free(&l);
}

/* It moved and came back between two samples: the sample that sees it
 * back against the sample before says so, and the first sighting stays. */
static void t_gid_moved_back(void **state)
{
	(void)state;
	struct snap start, prev, now;
	struct roce_live l1, l2, l3;
	const struct roce_live_event *e;
	snap_at(&start, 100);
	snap_at(&prev, 400);
	snap_at(&now, 700);
	prev.ps[0].gid_index = 4;
	assert_int_equal(roce_live_build(&l1, &meta, &start.s, &start.s, &prev.s, NULL, 0), 0);
	assert_non_null(event(&l1, "gid_changed", "mlx5_0:1"));
	assert_int_equal(roce_live_build(&l2, &meta, &start.s, &prev.s, &now.s, l1.events, l1.n_events), 0);
	assert_non_null(e = event(&l2, "gid_changed", "mlx5_0:1"));
	assert_string_equal(e->message, "the RoCE v2 GID was index 4 (192.0.2.10) at the sample before and is index 3 "
	                                "(192.0.2.10) now");
	assert_int_equal(e->first_ns, 400 * NS);
	assert_int_equal(e->last_ns, 700 * NS);
	/* the next sample sees nothing new: the event stays, as last seen */
	snap_at(&prev, 1000);
	assert_int_equal(roce_live_build(&l3, &meta, &start.s, &now.s, &prev.s, l2.events, l2.n_events), 0);
	assert_non_null(e = event(&l3, "gid_changed", "mlx5_0:1"));
	assert_int_equal(e->first_ns, 400 * NS);
	assert_int_equal(e->last_ns, 700 * NS);
	assert_int_not_equal(e->last_ns, l3.now_ns);
	roce_live_free(&l1);
	roce_live_free(&l2);
	roce_live_free(&l3);
}

static void t_link(void **state)
{
	(void)state;
	struct snap start, prev, now;
	struct roce_live l;
	const struct roce_live_event *e;
	snap_at(&start, 100);
	snap_at(&prev, 400);
	snap_at(&now, 700);
	prev.ps[0].c[ROCE_C_LINK_DOWNED].value = 1;
	now.ps[0].c[ROCE_C_LINK_DOWNED].value = 3;
	snprintf(now.ps[1].state, sizeof(now.ps[1].state), "DOWN");
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &prev.s, &now.s, NULL, 0), 0);
	assert_non_null(e = event(&l, "link_down", "mlx5_0:1"));
	assert_string_equal(e->message, "the link went down 2 time(s) since the sample before");
	assert_non_null(e = event(&l, "link_down", "mlx5_1:1"));
	assert_string_equal(e->message, "the port is DOWN now (ACTIVE at job start)");
	assert_int_equal(l.ports[0].since_start.c[ROCE_C_LINK_DOWNED], 3);
	roce_live_free(&l);
	/* down and flapped; a port gone; a port new since the job started */
	prev.ps[1].c[ROCE_C_LINK_DOWNED].value = 0;
	now.ps[1].c[ROCE_C_LINK_DOWNED].value = 1;
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &prev.s, &now.s, NULL, 0), 0);
	assert_string_equal(event(&l, "link_down", "mlx5_1:1")->message,
	                    "the port is DOWN now (ACTIVE at job start); the link went down 1 time(s) since the sample "
	                    "before");
	roce_live_free(&l);
	now.s.n_ports = 1;
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, NULL, 0), 0);
	assert_string_equal(event(&l, "link_down", "mlx5_1:1")->message, "the port disappeared during the job");
	assert_int_equal(l.ports[1].presence, ROCE_PORT_VANISHED);
	assert_int_equal(l.ports[1].gid_index_now, -1);
	roce_live_free(&l);
	start.s.n_ports = 1;
	now.s.n_ports = 2;
	snprintf(now.ps[1].state, sizeof(now.ps[1].state), "ACTIVE");
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, NULL, 0), 0);
	assert_string_equal(event(&l, "link_down", "mlx5_1:1")->message, "the port appeared during the job");
	assert_int_equal(l.ports[1].since_start.cs[ROCE_C_PORT_XMIT_DATA], ROCE_DELTA_UNREAD);
	roce_live_free(&l);
}

/* A sample keeps at most ROCE_LIVE_EVENTS_MAX events: older ones first. */
static void t_events_bounded(void **state)
{
	(void)state;
	struct snap start, now;
	struct roce_live l;
	struct roce_live_event prev[ROCE_LIVE_EVENTS_MAX + 5];
	memset(prev, 0, sizeof(prev));
	for (int i = 0; i < ROCE_LIVE_EVENTS_MAX + 5; i++) {
		snprintf(prev[i].code, sizeof(prev[i].code), "link_down");
		snprintf(prev[i].subject, sizeof(prev[i].subject), "mlx5_%d:1", 100 + i);
		prev[i].first_ns = prev[i].last_ns = 50 * NS;
	}
	snap_at(&start, 100);
	snap_at(&now, 400);
	now.ps[0].gid_index = 5;
	assert_int_equal(roce_live_build(&l, &meta, &start.s, &start.s, &now.s, prev, ROCE_LIVE_EVENTS_MAX + 5), 0);
	assert_int_equal(l.n_events, ROCE_LIVE_EVENTS_MAX);
	assert_null(event(&l, "gid_changed", "mlx5_0:1"));
	roce_live_free(&l);
}

/* ---------------------------------------------------------------- live_json.c */

/* A sample with something in every field: two ports, one reset counter, PFC on one, one event. */
static void sample(struct roce_live *l)
{
	struct snap start, prev, now;
	snap_at(&start, 100);
	snap_at(&prev, 400);
	snap_at(&now, 700);
	struct snap *all[] = { &start, &prev, &now };
	for (size_t i = 0; i < 3; i++) {
		roce_reading_set(&all[i]->ps[0].pfc.read, ROCE_OK, 0, NULL);
		all[i]->ps[0].pfc.enabled = 1u << 3;
	}
	now.ps[0].pfc.indications[3] = 4000;
	now.ps[0].pfc.requests[3] = 12;
	now.ps[0].c[ROCE_C_PORT_RCV_DATA].value = 1u << 30;
	prev.ps[1].c[ROCE_C_NP_CNP_SENT].value = 90;
	now.ps[1].c[ROCE_C_NP_CNP_SENT].value = 9;
	roce_reading_set(&now.ps[1].c[ROCE_C_RX_ICRC_ENCAPSULATED].read, ROCE_MISSING, 0, "absent");
	now.ps[1].gid_index = 4;
	assert_int_equal(roce_live_build(l, &meta, &start.s, &prev.s, &now.s, NULL, 0), 0);
}

static char *text_of(json_object *o) { return strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)); }

static void t_json_round_trip(void **state)
{
	(void)state;
	struct roce_live a, b;
	struct roce_error err = { "" };
	sample(&a);
	json_object *o = roce_live_json_build(&a);
	char *text = text_of(o);
	assert_int_equal(roce_live_json_read(&b, text, strlen(text), &err), 0);
	assert_string_equal(b.job_id, a.job_id);
	assert_string_equal(b.node, a.node);
	assert_int_equal(b.job_uid, a.job_uid);
	assert_int_equal(b.start_ns, a.start_ns);
	assert_int_equal(b.now_ns, a.now_ns);
	assert_int_equal(b.samples, a.samples);
	assert_int_equal(b.n_ports, a.n_ports);
	for (size_t i = 0; i < a.n_ports; i++) {
		const struct roce_live_port *x = &a.ports[i], *y = &b.ports[i];
		assert_string_equal(y->device, x->device);
		assert_int_equal(y->port, x->port);
		assert_string_equal(y->netdev, x->netdev);
		assert_int_equal(y->presence, x->presence);
		assert_string_equal(y->state_now, x->state_now);
		assert_int_equal(y->gid_index_now, x->gid_index_now);
		assert_string_equal(y->gid_addr_start, x->gid_addr_start);
		for (int half = 0; half < 2; half++) {
			const struct roce_live_interval *u = half ? &x->since_last : &x->since_start,
			                                *v = half ? &y->since_last : &y->since_start;
			assert_int_equal(v->from_ns, u->from_ns);
			assert_memory_equal(v->c, u->c, sizeof(u->c));
			/* WRAPPED is exact: read back as OK */
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				assert_int_equal(v->cs[c], u->cs[c] == ROCE_DELTA_WRAPPED ? ROCE_DELTA_OK : u->cs[c]);
			assert_int_equal(v->pfc_status, u->pfc_status);
			assert_memory_equal(v->pfc_ind, u->pfc_ind, sizeof(u->pfc_ind));
			assert_memory_equal(v->pfc_req, u->pfc_req, sizeof(u->pfc_req));
		}
	}
	assert_int_equal(b.ports[1].since_last.cs[ROCE_C_NP_CNP_SENT], ROCE_DELTA_RESET);
	assert_int_equal(b.ports[1].since_last.cs[ROCE_C_RX_ICRC_ENCAPSULATED], ROCE_DELTA_UNREAD);
	assert_int_equal(b.ports[0].since_start.pfc_ind[3], 4000);
	assert_int_equal(b.n_events, 1);
	assert_memory_equal(&b.events[0], &a.events[0], sizeof(a.events[0]));
	/* and the text written again is the same */
	json_object *o2 = roce_live_json_build(&b);
	assert_string_equal(json_object_to_json_string_ext(o2, JSON_C_TO_STRING_PLAIN), text);
	json_object_put(o2);
	json_object_put(o);
	free(text);
	roce_live_free(&a);
	roce_live_free(&b);
}

/* A live file sits in a directory others may write: every mutation below is
 * refused, with err naming what is wrong. */
typedef void (*mutate_fn)(json_object *o);

static json_object *port0(json_object *o) { return json_object_array_get_idx(json_object_object_get(o, "ports"), 0); }
static json_object *interval0(json_object *o) { return json_object_object_get(port0(o), "since_start"); }
static json_object *event0(json_object *o) { return json_object_array_get_idx(json_object_object_get(o, "events"), 0); }

static void m_schema(json_object *o) { json_object_object_add(o, "schema", json_object_new_string("slurm-roce/live/2")); }
static void m_job(json_object *o) { json_object_object_add(o, "job_id", json_object_new_string("47a1")); }
static void m_node(json_object *o) { json_object_object_add(o, "node", json_object_new_string("../gpu01")); }
static void m_uid(json_object *o) { json_object_object_add(o, "job_uid", json_object_new_int(-1)); }
static void m_samples(json_object *o) { json_object_object_add(o, "samples", json_object_new_int(0)); }
static void m_now(json_object *o) { json_object_object_add(o, "now_ns", json_object_new_double(1.5)); }
static void m_counter_name(json_object *o)
{
	json_object_array_put_idx(json_object_object_get(o, "counters"), 0, json_object_new_string("port_xmit_data"));
}
static void m_counter_twice(json_object *o)
{
	json_object_array_put_idx(json_object_object_get(o, "counters"), 1, json_object_new_string("port_xmit_bytes"));
}
static void m_counters_many(json_object *o)
{
	json_object_array_add(json_object_object_get(o, "counters"), json_object_new_string("port_xmit_bytes"));
}
static void m_values_short(json_object *o)
{
	json_object_array_del_idx(json_object_object_get(interval0(o), "values"), 0, 1);
}
static void m_value_negative(json_object *o)
{
	json_object_array_put_idx(json_object_object_get(interval0(o), "values"), 0, json_object_new_int(-5));
}
static void m_value_text(json_object *o)
{
	json_object_array_put_idx(json_object_object_get(interval0(o), "values"), 0, json_object_new_string("5"));
}
static void m_bound_unknown(json_object *o)
{
	json_object_array_add(json_object_object_get(interval0(o), "lower_bound"), json_object_new_string("bogus"));
}
static void m_bound_unread(json_object *o)
{
	json_object_array_put_idx(json_object_object_get(interval0(o), "values"), 3, NULL);
	json_object_array_add(json_object_object_get(interval0(o), "lower_bound"),
	                      json_object_new_string("port_rcv_packets"));
}
static void m_pfc_short(json_object *o)
{
	json_object_array_del_idx(json_object_object_get(json_object_object_get(interval0(o), "pfc"), "requests"), 0, 1);
}
static void m_pfc_missing(json_object *o) { json_object_object_del(interval0(o), "pfc"); }
static void m_from_missing(json_object *o) { json_object_object_del(interval0(o), "from_ns"); }
static void m_port_zero(json_object *o) { json_object_object_add(port0(o), "port", json_object_new_int(0)); }
static void m_port_twice(json_object *o)
{
	json_object_array_add(json_object_object_get(o, "ports"), json_object_get(port0(o)));
}
static void m_ports_many(json_object *o)
{
	json_object *ports = json_object_object_get(o, "ports");
	for (int i = 0; i <= ROCE_LIVE_PORTS_MAX; i++) {
		json_object *p = NULL;
		json_object_deep_copy(port0(o), &p, NULL);
		json_object_object_add(p, "port", json_object_new_int(2 + i % 250));
		char dev[16];
		snprintf(dev, sizeof(dev), "mlx5_%d", 10 + i / 250);
		json_object_object_add(p, "device", json_object_new_string(dev));
		json_object_array_add(ports, p);
	}
}
static void m_device_long(json_object *o)
{
	char dev[ROCE_NAME_MAX + 1];
	memset(dev, 'x', ROCE_NAME_MAX);
	dev[ROCE_NAME_MAX] = '\0';
	json_object_object_add(port0(o), "device", json_object_new_string(dev));
}
static void m_presence(json_object *o) { json_object_object_add(port0(o), "presence", json_object_new_string("x")); }
static void m_gid_index(json_object *o) { json_object_object_add(port0(o), "gid_index_now", json_object_new_int(-2)); }
static void m_event_code(json_object *o) { json_object_object_add(event0(o), "code", json_object_new_string("gone")); }
static void m_event_times(json_object *o) { json_object_object_add(event0(o), "first_ns", json_object_new_int64(INT64_MAX)); }
static void m_events_many(json_object *o)
{
	for (int i = 0; i < ROCE_LIVE_EVENTS_MAX; i++)
		json_object_array_add(json_object_object_get(o, "events"), json_object_get(event0(o)));
}
static void m_events_missing(json_object *o) { json_object_object_del(o, "events"); }

static void t_json_strict(void **state)
{
	(void)state;
	static const struct {
		mutate_fn mutate;
		const char *says;
	} cases[] = {
		{ m_schema, "schema" },
		{ m_job, "job_id" },
		{ m_node, "node" },
		{ m_uid, "job_uid" },
		{ m_samples, "samples" },
		{ m_now, "now_ns" },
		{ m_counter_name, "counters" },
		{ m_counter_twice, "twice" },
		{ m_counters_many, "counters" },
		{ m_values_short, "values" },
		{ m_value_negative, "values" },
		{ m_value_text, "values" },
		{ m_bound_unknown, "lower_bound" },
		{ m_bound_unread, "lower_bound" },
		{ m_pfc_short, "requests" },
		{ m_pfc_missing, "pfc" },
		{ m_from_missing, "from_ns" },
		{ m_port_zero, "port" },
		{ m_port_twice, "twice" },
		{ m_ports_many, "ports" },
		{ m_device_long, "device" },
		{ m_presence, "presence" },
		{ m_gid_index, "gid_index_now" },
		{ m_event_code, "code" },
		{ m_event_times, "first_ns" },
		{ m_events_many, "events" },
		{ m_events_missing, "events" },
	};
	struct roce_live a, b;
	sample(&a);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct roce_error err = { "" };
		json_object *o = roce_live_json_build(&a);
		cases[i].mutate(o);
		char *text = text_of(o);
		if (roce_live_json_read(&b, text, strlen(text), &err) == 0)
			fail_msg("mutation %zu (%s) was accepted", i, cases[i].says);
		if (!strstr(err.msg, cases[i].says))
			fail_msg("mutation %zu: \"%s\" does not name %s", i, err.msg, cases[i].says);
		assert_null(b.ports);
		assert_null(b.events);
		free(text);
		json_object_put(o);
	}
	/* not JSON, or more than one value */
	struct roce_error err = { "" };
	assert_int_equal(roce_live_json_read(&b, "{", 1, &err), -1);
	json_object *o = roce_live_json_build(&a);
	char *text = text_of(o), *two = malloc(strlen(text) + 4);
	sprintf(two, "%s {}", text);
	assert_int_equal(roce_live_json_read(&b, two, strlen(two), &err), -1);
	free(two);
	free(text);
	json_object_put(o);
	roce_live_free(&a);
}

/* Strings are kept escaped: no terminal escape reaches a screen. */
static void t_json_escaped(void **state)
{
	(void)state;
	struct roce_live a, b;
	struct roce_error err = { "" };
	sample(&a);
	json_object *o = roce_live_json_build(&a);
	json_object_object_add(port0(o), "netdev", json_object_new_string("e\033[2J"));
	json_object_object_add(event0(o), "message", json_object_new_string("bad\nline\033]0;x\007"));
	char *text = text_of(o);
	assert_int_equal(roce_live_json_read(&b, text, strlen(text), &err), 0);
	assert_string_equal(b.ports[0].netdev, "e\\x1b[2J");
	assert_string_equal(b.events[0].message, "bad\\nline\\x1b]0;x\\x07");
	free(text);
	json_object_put(o);
	roce_live_free(&a);
	roce_live_free(&b);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_intervals),        cmocka_unit_test(t_gid_moved),
		cmocka_unit_test(t_gid_not_valid_now), cmocka_unit_test(t_gid_moved_back),
		cmocka_unit_test(t_link),             cmocka_unit_test(t_events_bounded),
		cmocka_unit_test(t_json_round_trip),  cmocka_unit_test(t_json_strict),
		cmocka_unit_test(t_json_escaped),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
