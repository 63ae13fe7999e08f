/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live_json.c - a node's live sample as its live file, and the strict
 * reader of that file (live.h).  The reader trusts nothing: every member is
 * checked for type and range, arrays and strings are bounded, strings are
 * kept escaped (printable.h), and what is missing or extra is refused, never
 * defaulted.  Pure.
 */
#include "config.h"
#include "fragment/live.h"
#include "base/printable.h"
#include "read/jsonin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- write */

static bool lower_bound(uint8_t status) { return status == ROCE_DELTA_RESET || status == ROCE_DELTA_SATURATED; }

static json_object *u64s(const uint64_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

static json_object *interval_json(const struct roce_live_interval *iv)
{
	json_object *o = json_object_new_object(), *values = json_object_new_array(), *bounds = json_object_new_array(),
	            *pfc = NULL;
	json_object_object_add(o, "from_ns", json_object_new_int64(iv->from_ns));
	for (int c = 0; c < ROCE_N_COUNTERS; c++) {
		json_object_array_add(values, iv->cs[c] == ROCE_DELTA_UNREAD ? NULL : json_object_new_uint64(iv->c[c]));
		if (lower_bound(iv->cs[c]))
			json_object_array_add(bounds, json_object_new_string(roce_counter_defs[c].report_name));
	}
	json_object_object_add(o, "values", values);
	json_object_object_add(o, "lower_bound", bounds);
	if (iv->pfc_status != ROCE_DELTA_UNREAD) {
		pfc = json_object_new_object();
		json_object_object_add(pfc, "reset", json_object_new_boolean(iv->pfc_status == ROCE_DELTA_RESET));
		json_object_object_add(pfc, "requests", u64s(iv->pfc_req, ROCE_PRIOS));
		json_object_object_add(pfc, "indications", u64s(iv->pfc_ind, ROCE_PRIOS));
	}
	json_object_object_add(o, "pfc", pfc);
	return o;
}

static json_object *port_json(const struct roce_live_port *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int64(p->port));
	json_object_object_add(o, "netdev", json_object_new_string(p->netdev));
	json_object_object_add(o, "presence",
	                       json_object_new_string(roce_delta_presence_name((enum roce_port_presence)p->presence)));
	json_object_object_add(o, "state_start", json_object_new_string(p->state_start));
	json_object_object_add(o, "state_now", json_object_new_string(p->state_now));
	json_object_object_add(o, "gid_index_start", json_object_new_int(p->gid_index_start));
	json_object_object_add(o, "gid_addr_start", json_object_new_string(p->gid_addr_start));
	json_object_object_add(o, "gid_index_now", json_object_new_int(p->gid_index_now));
	json_object_object_add(o, "gid_addr_now", json_object_new_string(p->gid_addr_now));
	json_object_object_add(o, "since_start", interval_json(&p->since_start));
	json_object_object_add(o, "since_last", interval_json(&p->since_last));
	return o;
}

json_object *roce_live_json_events_build(const struct roce_live_event *e, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "code", json_object_new_string(e[i].code));
		json_object_object_add(o, "subject", json_object_new_string(e[i].subject));
		json_object_object_add(o, "first_ns", json_object_new_int64(e[i].first_ns));
		json_object_object_add(o, "last_ns", json_object_new_int64(e[i].last_ns));
		json_object_object_add(o, "message", json_object_new_string(e[i].message));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *roce_live_json_build(const struct roce_live *l)
{
	json_object *o = json_object_new_object(), *names = json_object_new_array(), *ports = json_object_new_array();
	json_object_object_add(o, "schema", json_object_new_string(ROCE_LIVE_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(l->job_id));
	json_object_object_add(o, "node", json_object_new_string(l->node));
	json_object_object_add(o, "job_uid", json_object_new_int64(l->job_uid));
	json_object_object_add(o, "start_ns", json_object_new_int64(l->start_ns));
	json_object_object_add(o, "now_ns", json_object_new_int64(l->now_ns));
	json_object_object_add(o, "samples", json_object_new_int64(l->samples));
	for (int c = 0; c < ROCE_N_COUNTERS; c++)
		json_object_array_add(names, json_object_new_string(roce_counter_defs[c].report_name));
	json_object_object_add(o, "counters", names);
	for (size_t i = 0; i < l->n_ports; i++)
		json_object_array_add(ports, port_json(&l->ports[i]));
	json_object_object_add(o, "ports", ports);
	json_object_object_add(o, "events", roce_live_json_events_build(l->events, l->n_events));
	return o;
}

/* ---------------------------------------------------------------- read */

/* A string of at most maxlen bytes, kept escaped in out. */
static int str_kept(json_object *o, const char *key, size_t maxlen, char *out, size_t len, struct roce_error *err)
{
	const char *v;
	if (roce_jin_str(o, key, maxlen, &v, err) < 0)
		return -1;
	roce_printable(v, out, len);
	return 0;
}

static int time_ns(json_object *o, const char *key, int64_t *v, struct roce_error *err)
{
	return roce_jin_int(o, key, 0, INT64_MAX, v, err);
}

/* The file's counter names: map[i] is the counter of values[i]. */
struct names {
	int map[ROCE_N_COUNTERS];
	size_t n;
};

static int names_parse(json_object *o, struct names *nm, struct roce_error *err)
{
	json_object *a;
	bool have[ROCE_N_COUNTERS] = { false };
	if (roce_jin_member(o, "counters", json_type_array, &a, err) < 0)
		return -1;
	nm->n = json_object_array_length(a);
	if (nm->n > ROCE_N_COUNTERS) {
		roce_error_set(err, "\"counters\": %zu names, at most %d", nm->n, ROCE_N_COUNTERS);
		return -1;
	}
	for (size_t i = 0; i < nm->n; i++) {
		json_object *s = json_object_array_get_idx(a, i);
		const char *name = json_object_is_type(s, json_type_string) ? json_object_get_string(s) : NULL;
		int c = name ? roce_counter_lookup(name) : -1;
		if (c < 0 || strcmp(roce_counter_defs[c].report_name, name) != 0 || have[c]) {
			roce_error_set(err, "\"counters\"[%zu]: %s", i,
			               c >= 0 && have[c] ? "a name given twice" : "not a counter's report name");
			return -1;
		}
		have[c] = true;
		nm->map[i] = c;
	}
	return 0;
}

static int pfc_parse(json_object *o, struct roce_live_interval *iv, struct roce_error *err)
{
	json_object *p;
	bool reset;
	if (!json_object_object_get_ex(o, "pfc", &p)) {
		roce_error_set(err, "\"pfc\" missing");
		return -1;
	}
	if (!p)
		return 0; /* null: not read (iv says so already) */
	if (!json_object_is_type(p, json_type_object)) {
		roce_error_set(err, "\"pfc\" is neither null nor an object");
		return -1;
	}
	if (roce_jin_bool(p, "reset", &reset, err) < 0 ||
	    roce_jin_u64s(p, "requests", iv->pfc_req, ROCE_PRIOS, err) < 0 ||
	    roce_jin_u64s(p, "indications", iv->pfc_ind, ROCE_PRIOS, err) < 0)
		return -1;
	iv->pfc_status = reset ? ROCE_DELTA_RESET : ROCE_DELTA_OK;
	return 0;
}

static int bounds_parse(json_object *o, const struct names *nm, struct roce_live_interval *iv, struct roce_error *err)
{
	json_object *a;
	if (roce_jin_member(o, "lower_bound", json_type_array, &a, err) < 0)
		return -1;
	size_t n = json_object_array_length(a);
	if (n > nm->n) {
		roce_error_set(err, "\"lower_bound\": more names than counters");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(a, i);
		int c = json_object_is_type(s, json_type_string) ? roce_counter_lookup(json_object_get_string(s)) : -1;
		if (c < 0 || iv->cs[c] == ROCE_DELTA_UNREAD) {
			roce_error_set(err, "\"lower_bound\"[%zu]: not a counter with a value", i);
			return -1;
		}
		iv->cs[c] = ROCE_DELTA_RESET;
	}
	return 0;
}

static int interval_parse(json_object *o, const char *key, const struct names *nm, struct roce_live_interval *iv,
                          struct roce_error *err)
{
	json_object *m, *values;
	struct roce_error sub;
	memset(iv, 0, sizeof(*iv));
	iv->pfc_status = ROCE_DELTA_UNREAD;
	for (int c = 0; c < ROCE_N_COUNTERS; c++)
		iv->cs[c] = ROCE_DELTA_UNREAD;
	if (roce_jin_member(o, key, json_type_object, &m, err) < 0)
		return -1;
	if (time_ns(m, "from_ns", &iv->from_ns, &sub) < 0 ||
	    roce_jin_member(m, "values", json_type_array, &values, &sub) < 0)
		goto fail;
	if (json_object_array_length(values) != nm->n) {
		roce_error_set(&sub, "\"values\": %zu, not one per counter (%zu)", json_object_array_length(values),
		               nm->n);
		goto fail;
	}
	for (size_t i = 0; i < nm->n; i++) {
		json_object *v = json_object_array_get_idx(values, i);
		int c = nm->map[i];
		if (!v)
			continue; /* null: not read */
		if (!roce_jin_u64_value(v, &iv->c[c])) {
			roce_error_set(&sub, "\"values\"[%zu] is neither null nor a counter value", i);
			goto fail;
		}
		iv->cs[c] = ROCE_DELTA_OK;
	}
	if (bounds_parse(m, nm, iv, &sub) < 0 || pfc_parse(m, iv, &sub) < 0)
		goto fail;
	return 0;
fail:
	roce_error_set(err, "\"%s\": %s", key, sub.msg);
	return -1;
}

static const char *presence_name(int p) { return roce_delta_presence_name((enum roce_port_presence)p); }

static int port_parse(json_object *o, const struct names *nm, struct roce_live_port *p, struct roce_error *err)
{
	int64_t port, gs, gn;
	int presence;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "not an object");
		return -1;
	}
	if (str_kept(o, "device", ROCE_NAME_MAX - 1, p->device, sizeof(p->device), err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    str_kept(o, "netdev", IF_NAMESIZE - 1, p->netdev, sizeof(p->netdev), err) < 0 ||
	    roce_jin_enum(o, "presence", presence_name, ROCE_PORT_BOTH, ROCE_PORT_APPEARED, &presence, err) < 0 ||
	    str_kept(o, "state_start", 23, p->state_start, sizeof(p->state_start), err) < 0 ||
	    str_kept(o, "state_now", 23, p->state_now, sizeof(p->state_now), err) < 0 ||
	    roce_jin_int(o, "gid_index_start", -1, 65535, &gs, err) < 0 ||
	    str_kept(o, "gid_addr_start", ROCE_GID_ADDR_MAX - 1, p->gid_addr_start, sizeof(p->gid_addr_start), err) <
	            0 ||
	    roce_jin_int(o, "gid_index_now", -1, 65535, &gn, err) < 0 ||
	    str_kept(o, "gid_addr_now", ROCE_GID_ADDR_MAX - 1, p->gid_addr_now, sizeof(p->gid_addr_now), err) < 0 ||
	    interval_parse(o, "since_start", nm, &p->since_start, err) < 0 ||
	    interval_parse(o, "since_last", nm, &p->since_last, err) < 0)
		return -1;
	p->port = (unsigned)port;
	p->presence = (uint8_t)presence;
	p->gid_index_start = (int)gs;
	p->gid_index_now = (int)gn;
	return 0;
}

static int ports_parse(json_object *o, const struct names *nm, struct roce_live *l, struct roce_error *err)
{
	json_object *a;
	struct roce_error sub;
	if (roce_jin_member(o, "ports", json_type_array, &a, err) < 0)
		return -1;
	size_t n = json_object_array_length(a);
	if (n > ROCE_LIVE_PORTS_MAX) {
		roce_error_set(err, "\"ports\": %zu, at most %d", n, ROCE_LIVE_PORTS_MAX);
		return -1;
	}
	if (n && !(l->ports = calloc(n, sizeof(*l->ports)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct roce_live_port *p = &l->ports[i];
		if (port_parse(json_object_array_get_idx(a, i), nm, p, &sub) < 0) {
			roce_error_set(err, "ports[%zu]: %s", i, sub.msg);
			return -1;
		}
		for (size_t k = 0; k < i; k++)
			if (l->ports[k].port == p->port && strcmp(l->ports[k].device, p->device) == 0) {
				roce_error_set(err, "ports[%zu]: %s port %u given twice", i, p->device, p->port);
				return -1;
			}
		l->n_ports++;
	}
	return 0;
}

static int event_parse(json_object *o, struct roce_live_event *e, struct roce_error *err)
{
	const char *code;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "not an object");
		return -1;
	}
	if (roce_jin_str(o, "code", sizeof(e->code) - 1, &code, err) < 0)
		return -1;
	if (roce_live_event_severity(code) < 0) {
		roce_error_set(err, "\"code\": not a live event");
		return -1;
	}
	snprintf(e->code, sizeof(e->code), "%s", code);
	if (str_kept(o, "subject", sizeof(e->subject) - 1, e->subject, sizeof(e->subject), err) < 0 ||
	    time_ns(o, "first_ns", &e->first_ns, err) < 0 || time_ns(o, "last_ns", &e->last_ns, err) < 0 ||
	    str_kept(o, "message", sizeof(e->message) - 1, e->message, sizeof(e->message), err) < 0)
		return -1;
	if (e->first_ns > e->last_ns) {
		roce_error_set(err, "\"first_ns\" after \"last_ns\"");
		return -1;
	}
	return 0;
}

int roce_live_json_events_parse(json_object *arr, struct roce_live_event **e, size_t *n, struct roce_error *err)
{
	struct roce_error sub;
	*e = NULL;
	*n = 0;
	if (!json_object_is_type(arr, json_type_array)) {
		roce_error_set(err, "\"events\" is not an array");
		return -1;
	}
	size_t len = json_object_array_length(arr);
	if (len > ROCE_LIVE_EVENTS_MAX) {
		roce_error_set(err, "\"events\": %zu, at most %d", len, ROCE_LIVE_EVENTS_MAX);
		return -1;
	}
	if (len && !(*e = calloc(len, sizeof(**e)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		if (event_parse(json_object_array_get_idx(arr, i), &(*e)[i], &sub) < 0) {
			roce_error_set(err, "events[%zu]: %s", i, sub.msg);
			free(*e);
			*e = NULL;
			return -1;
		}
	*n = len;
	return 0;
}

static int head_parse(json_object *o, struct roce_live *l, struct roce_error *err)
{
	int64_t uid, samples;
	if (roce_jin_schema(o, "live file", ROCE_LIVE_SCHEMA, 64, err) < 0 ||
	    roce_jin_strcpy(o, "job_id", l->job_id, sizeof(l->job_id), err) < 0 ||
	    roce_jin_strcpy(o, "node", l->node, sizeof(l->node), err) < 0)
		return -1;
	if (!roce_slurmid_job_ok(l->job_id) || !roce_slurmid_node_ok(l->node)) {
		roce_error_set(err, "\"job_id\" or \"node\" is not a job id or node name");
		return -1;
	}
	if (roce_jin_int(o, "job_uid", 0, UINT32_MAX - 1, &uid, err) < 0 ||
	    time_ns(o, "start_ns", &l->start_ns, err) < 0 || time_ns(o, "now_ns", &l->now_ns, err) < 0 ||
	    roce_jin_int(o, "samples", 1, UINT32_MAX, &samples, err) < 0)
		return -1;
	l->job_uid = (long)uid;
	l->samples = (unsigned)samples;
	return 0;
}

int roce_live_json_read(struct roce_live *l, const char *text, size_t len, struct roce_error *err)
{
	struct names nm;
	json_object *ev;
	roce_live_init(l);
	json_object *o = roce_jin_parse(text, len, err);
	int rc = -1;
	if (o && head_parse(o, l, err) == 0 && names_parse(o, &nm, err) == 0 && ports_parse(o, &nm, l, err) == 0 &&
	    roce_jin_member(o, "events", json_type_array, &ev, err) == 0 &&
	    roce_live_json_events_parse(ev, &l->events, &l->n_events, err) == 0)
		rc = 0;
	json_object_put(o);
	if (rc < 0)
		roce_live_free(l);
	return rc;
}
