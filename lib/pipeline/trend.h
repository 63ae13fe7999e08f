/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trend.h - link-quality counters between health checks: how much each grew
 * since the last run, whether a port is sick (a counter grew by its
 * threshold within the flap window) and when a flap has settled (no growth
 * for the window).  The health check (roce-check --health/--drain) keeps the
 * state in StateDir between its runs.
 *
 * trend.c is pure: the previous state and this run's counter snapshot give
 * the next state.  A counter that went down (a 32-bit wrap, a driver reload
 * resetting it) is not growth: the new value is the baseline.  A counter not
 * read now keeps its old baseline and episode, and is not judged.
 * trend_json.c writes the state as JSON and reads it back strictly.
 */
#ifndef ROCE_TREND_H
#define ROCE_TREND_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/counter.h"
#include "base/error.h"
#include "base/model.h"
#include "check/finding.h"
#include "read/policy.h"
#include "pipeline/snapshot.h"

struct roce_trend_counter {
	bool known;            /* value holds a baseline */
	uint64_t value;        /* the counter at the last run that read it */
	uint64_t growth;       /* grown in the current episode (since it began growing) */
	int64_t last_growth_s; /* when it last grew (Unix seconds), 0 = quiet */
};

struct roce_trend_port {
	char device[ROCE_NAME_MAX];
	unsigned port;
	struct roce_trend_counter c[ROCE_N_COUNTERS];
};

struct roce_trend {
	int64_t time_s; /* the run that wrote it, 0 = no earlier run */
	struct roce_trend_port *ports;
	size_t n_ports;
};

/* What to track: a threshold per counter (0 = not tracked) and the flap window. */
struct roce_trend_rules {
	const uint64_t *threshold; /* [ROCE_N_COUNTERS] */
	int64_t window_s;
};

/* ---------------------------------------------------------------- trend.c */

void roce_trend_init(struct roce_trend *t);
void roce_trend_free(struct roce_trend *t);

/*
 * next = prev advanced by this run's snapshot taken at now_s, for the
 * counters rules track (next is initialised here; prev may be empty: the
 * first run only sets baselines).  Ports of the snapshot only; a port gone
 * from it is forgotten.  0, or -1 on ENOMEM.
 */
int roce_trend_update(const struct roce_trend *prev, const struct roce_snapshot *now, int64_t now_s,
                      const struct roce_trend_rules *rules, struct roce_trend *next);

/* The counter's growth in its episode when that reached threshold (> 0): a
 * sick port; 0 when it is quiet, below the threshold or not tracked. */
uint64_t roce_trend_sick_growth(const struct roce_trend_counter *c, uint64_t threshold);
/* The same for a state read at at_s, later than the run that wrote it (the
 * job prolog and epilog read the health check's): growth that stopped
 * window_s or more before at_s has settled since, and is 0. */
uint64_t roce_trend_sick_at(const struct roce_trend_counter *c, uint64_t threshold, int64_t at_s, int64_t window_s);
/* The port (device, port) of t, NULL when t has none. */
const struct roce_trend_port *roce_trend_port_find(const struct roce_trend *t, const char *device, unsigned port);

/* What to check when a port's link-quality counters grow: the health
 * check's counter_trend finding and the job report's verdict say it. */
#define ROCE_TREND_FIX                                                                                       \
	"a failing cable, transceiver or switch port often shows this before the link goes down: check the " \
	"module (ethtool -m) and the switch port's error counters, reseat or replace"

/* The rules of a policy (TrendCounters=, TrendWindow=). */
struct roce_trend_rules roce_trend_rules_of(const struct roce_policy *p);

/*
 * One counter_trend finding per sick port of t in r, naming each counter,
 * its growth and threshold: warn, or under Trend=fail a failing hardware
 * finding (the port left out, the node drained: "mlx5_0 port 1 symbol_error
 * +120"); then whether the node fails is decided again (roce_check_decide).
 * 0, or -1 on ENOMEM.
 */
int roce_trend_findings(const struct roce_trend *t, const struct roce_policy *p, struct roce_check_result *r);

/* ---------------------------------------------------------------- trend_json.c */

json_object *roce_trend_json_build(const struct roce_trend *t);
/* Strict (jsonin.h): err names the key; t is initialised in every case. */
int roce_trend_json_parse(struct roce_trend *t, json_object *o, struct roce_error *err);

#endif
