/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_trend.c - link-quality counters between health checks. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "pipeline/trend.h"

#define WINDOW 3600

static uint64_t thresholds[ROCE_N_COUNTERS];
static const struct roce_trend_rules rules = { thresholds, WINDOW };

static int setup(void **state)
{
	(void)state;
	memset(thresholds, 0, sizeof(thresholds));
	thresholds[ROCE_C_SYMBOL_ERROR] = 10;
	thresholds[ROCE_C_LINK_DOWNED] = 1;
	thresholds[ROCE_C_LOCAL_ACK_TIMEOUT_ERR] = 100;
	return 0;
}

/* One port, mlx5_0:1, every counter read as 0 but those set. */
struct run {
	struct roce_port_sample ps;
	struct roce_snapshot snap;
	struct roce_trend t;
};

static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->ps = fx_port_sample("mlx5_0");
	r->snap.ports = &r->ps;
	r->snap.n_ports = 1;
	roce_trend_init(&r->t);
}

/* The health check at now_s with the counter at value: the state advances. */
static const struct roce_trend_counter *step(struct run *r, int64_t now_s, int c, uint64_t value)
{
	struct roce_trend next;
	r->ps.c[c].value = value;
	assert_int_equal(roce_trend_update(&r->t, &r->snap, now_s, &rules, &next), 0);
	roce_trend_free(&r->t);
	r->t = next;
	assert_int_equal(r->t.n_ports, 1);
	return &r->t.ports[0].c[c];
}

static uint64_t sick(const struct roce_trend_counter *c, int id) { return roce_trend_sick_growth(c, thresholds[id]); }

static void t_growth_is_flagged(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	/* the first run only sets the baseline */
	const struct roce_trend_counter *c = step(&r, 1000, ROCE_C_SYMBOL_ERROR, 500);
	assert_true(c->known);
	assert_int_equal(sick(c, ROCE_C_SYMBOL_ERROR), 0);
	c = step(&r, 1300, ROCE_C_SYMBOL_ERROR, 620);
	assert_int_equal(sick(c, ROCE_C_SYMBOL_ERROR), 120);
	assert_int_equal(c->last_growth_s, 1300);
	/* untracked counters are never judged, nor kept */
	assert_false(r.t.ports[0].c[ROCE_C_PORT_XMIT_DATA].known);
	roce_trend_free(&r.t);
}

static void t_below_threshold_adds_up(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 0 + 1, ROCE_C_SYMBOL_ERROR, 0);
	const struct roce_trend_counter *c = step(&r, 301, ROCE_C_SYMBOL_ERROR, 5);
	assert_int_equal(c->growth, 5);
	assert_int_equal(sick(c, ROCE_C_SYMBOL_ERROR), 0);
	c = step(&r, 601, ROCE_C_SYMBOL_ERROR, 11);
	assert_int_equal(sick(c, ROCE_C_SYMBOL_ERROR), 11);
	roce_trend_free(&r.t);
}

static void t_wrap_and_reset_are_not_growth(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	/* a 32-bit Q counter wraps */
	step(&r, 100, ROCE_C_LOCAL_ACK_TIMEOUT_ERR, UINT32_MAX - 5);
	const struct roce_trend_counter *c = step(&r, 400, ROCE_C_LOCAL_ACK_TIMEOUT_ERR, 5);
	assert_int_equal(c->growth, 0);
	assert_int_equal(c->value, 5);
	assert_int_equal(sick(c, ROCE_C_LOCAL_ACK_TIMEOUT_ERR), 0);
	roce_trend_free(&r.t);
	/* a driver reload resets the counters: end < start */
	run_init(&r);
	step(&r, 700, ROCE_C_LINK_DOWNED, 3);
	c = step(&r, 1000, ROCE_C_LINK_DOWNED, 0);
	assert_int_equal(sick(c, ROCE_C_LINK_DOWNED), 0);
	assert_int_equal(c->value, 0);
	/* growth after the reset counts from the new baseline */
	c = step(&r, 1300, ROCE_C_LINK_DOWNED, 1);
	assert_int_equal(sick(c, ROCE_C_LINK_DOWNED), 1);
	roce_trend_free(&r.t);
}

static void t_flap_settles_after_the_window(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 1000, ROCE_C_LINK_DOWNED, 7);
	const struct roce_trend_counter *c = step(&r, 1300, ROCE_C_LINK_DOWNED, 9);
	assert_int_equal(sick(c, ROCE_C_LINK_DOWNED), 2);
	/* quiet, but within the window: still sick */
	c = step(&r, 1300 + WINDOW - 1, ROCE_C_LINK_DOWNED, 9);
	assert_int_equal(sick(c, ROCE_C_LINK_DOWNED), 2);
	/* quiet for the whole window: cleared */
	c = step(&r, 1300 + WINDOW, ROCE_C_LINK_DOWNED, 9);
	assert_int_equal(sick(c, ROCE_C_LINK_DOWNED), 0);
	assert_int_equal(c->growth, 0);
	assert_int_equal(c->last_growth_s, 0);
	/* a new flap starts a new episode */
	c = step(&r, 1300 + 2 * WINDOW, ROCE_C_LINK_DOWNED, 10);
	assert_int_equal(sick(c, ROCE_C_LINK_DOWNED), 1);
	roce_trend_free(&r.t);
}

static void t_growth_after_a_quiet_window_is_a_new_episode(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 0 + 1, ROCE_C_SYMBOL_ERROR, 0);
	step(&r, 301, ROCE_C_SYMBOL_ERROR, 8);
	/* no run in between (the check did not run): 9 more, long after */
	const struct roce_trend_counter *c = step(&r, 301 + 2 * WINDOW, ROCE_C_SYMBOL_ERROR, 17);
	assert_int_equal(c->growth, 9);
	assert_int_equal(sick(c, ROCE_C_SYMBOL_ERROR), 0);
	roce_trend_free(&r.t);
}

static void t_unread_keeps_the_baseline(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 100, ROCE_C_SYMBOL_ERROR, 40);
	roce_reading_set(&r.ps.c[ROCE_C_SYMBOL_ERROR].read, ROCE_UNREADABLE, 5, "Input/output error");
	const struct roce_trend_counter *c = step(&r, 400, ROCE_C_SYMBOL_ERROR, 0);
	assert_true(c->known);
	assert_int_equal(c->value, 40);
	assert_int_equal(c->growth, 0);
	roce_reading_set(&r.ps.c[ROCE_C_SYMBOL_ERROR].read, ROCE_OK, 0, NULL);
	c = step(&r, 700, ROCE_C_SYMBOL_ERROR, 90);
	assert_int_equal(sick(c, ROCE_C_SYMBOL_ERROR), 50);
	roce_trend_free(&r.t);
}

static void t_ports_come_and_go(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 100, ROCE_C_SYMBOL_ERROR, 40);
	/* another port in its place: a baseline of its own, the old one forgotten */
	snprintf(r.ps.device, sizeof(r.ps.device), "mlx5_1");
	const struct roce_trend_counter *c = step(&r, 400, ROCE_C_SYMBOL_ERROR, 90);
	assert_string_equal(r.t.ports[0].device, "mlx5_1");
	assert_int_equal(c->growth, 0);
	assert_int_equal(c->value, 90);
	roce_trend_free(&r.t);
}

/* Read later than written (the job prolog and epilog): growth that stopped a
 * window before is settled; the port is found by device and number. */
static void t_sick_at(void **state)
{
	(void)state;
	struct run r;
	run_init(&r);
	step(&r, 1000, ROCE_C_SYMBOL_ERROR, 500);
	const struct roce_trend_counter *c = step(&r, 1300, ROCE_C_SYMBOL_ERROR, 620);
	assert_int_equal(roce_trend_sick_at(c, 10, 1300, WINDOW), 120);
	assert_int_equal(roce_trend_sick_at(c, 10, 1300 + WINDOW - 1, WINDOW), 120);
	assert_int_equal(roce_trend_sick_at(c, 10, 1300 + WINDOW, WINDOW), 0);
	assert_int_equal(roce_trend_sick_at(c, 121, 1300, WINDOW), 0);
	assert_int_equal(roce_trend_sick_at(c, 0, 1300, WINDOW), 0);
	assert_ptr_equal(roce_trend_port_find(&r.t, "mlx5_0", 1), &r.t.ports[0]);
	assert_null(roce_trend_port_find(&r.t, "mlx5_0", 2));
	assert_null(roce_trend_port_find(&r.t, "mlx5_1", 1));
	assert_null(roce_trend_port_find(NULL, "mlx5_0", 1));
	roce_trend_free(&r.t);
}

static void t_json_round_trip(void **state)
{
	(void)state;
	struct run r;
	struct roce_trend back;
	struct roce_error err = { 0 };
	run_init(&r);
	step(&r, 100, ROCE_C_SYMBOL_ERROR, 40);
	step(&r, 400, ROCE_C_SYMBOL_ERROR, UINT64_MAX);
	json_object *o = roce_trend_json_build(&r.t);
	json_object *text = json_tokener_parse(json_object_to_json_string(o));
	assert_int_equal(roce_trend_json_parse(&back, text, &err), 0);
	assert_int_equal(back.time_s, 400);
	assert_int_equal(back.n_ports, 1);
	assert_string_equal(back.ports[0].device, "mlx5_0");
	assert_int_equal(back.ports[0].port, 1);
	assert_true(back.ports[0].c[ROCE_C_SYMBOL_ERROR].value == UINT64_MAX);
	assert_true(back.ports[0].c[ROCE_C_SYMBOL_ERROR].growth == UINT64_MAX - 40);
	assert_int_equal(back.ports[0].c[ROCE_C_SYMBOL_ERROR].last_growth_s, 400);
	assert_true(back.ports[0].c[ROCE_C_LINK_DOWNED].known);
	assert_false(back.ports[0].c[ROCE_C_PORT_XMIT_DATA].known);
	roce_trend_free(&back);
	json_object_put(text);

	/* strict: what is not ours is refused, naming what */
	json_object *c =
	        json_object_object_get(json_object_array_get_idx(json_object_object_get(o, "ports"), 0), "counters");
	json_object_object_add(c, "port_xmit_bytes", json_object_new_object());
	assert_int_equal(roce_trend_json_parse(&back, o, &err), -1);
	assert_non_null(strstr(err.msg, "unknown counter \"port_xmit_bytes\""));
	assert_int_equal(back.n_ports, 0);
	json_object_object_del(c, "port_xmit_bytes");
	json_object_object_add(json_object_object_get(c, "link_downed"), "growth", json_object_new_int(-1));
	assert_int_equal(roce_trend_json_parse(&back, o, &err), -1);
	assert_non_null(strstr(err.msg, "link_downed"));
	json_object_object_add(o, "schema", json_object_new_string("slurm-roce/snapshot/1"));
	assert_int_equal(roce_trend_json_parse(&back, o, &err), -1);
	json_object_put(o);
	roce_trend_free(&r.t);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup(t_growth_is_flagged, setup),
		cmocka_unit_test_setup(t_below_threshold_adds_up, setup),
		cmocka_unit_test_setup(t_wrap_and_reset_are_not_growth, setup),
		cmocka_unit_test_setup(t_flap_settles_after_the_window, setup),
		cmocka_unit_test_setup(t_growth_after_a_quiet_window_is_a_new_episode, setup),
		cmocka_unit_test_setup(t_unread_keeps_the_baseline, setup),
		cmocka_unit_test_setup(t_ports_come_and_go, setup),
		cmocka_unit_test_setup(t_sick_at, setup),
		cmocka_unit_test_setup(t_json_round_trip, setup),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
