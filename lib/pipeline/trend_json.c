/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trend_json.c - the health check's link-quality trend to JSON and back
 * (trend.h): its state file in StateDir, read back with the strict reader
 * (jsonin.h).  Only tracked counters with a baseline are written:
 *   {"schema": "slurm-roce/trend/1", "time_s": N, "ports": [{"device", "port",
 *    "counters": {"symbol_error": {"value", "growth", "last_growth_s"}, ...}}]}
 */
#include "config.h"
#include "pipeline/trend.h"
#include "read/jsonin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TREND_SCHEMA "slurm-roce/trend/1"
/* More ports than any node has: a state file claiming more is not ours. */
#define TREND_PORTS_MAX 4096

json_object *roce_trend_json_build(const struct roce_trend *t)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array();
	json_object_object_add(o, "schema", json_object_new_string(TREND_SCHEMA));
	json_object_object_add(o, "time_s", json_object_new_int64(t->time_s));
	for (size_t i = 0; i < t->n_ports; i++) {
		const struct roce_trend_port *p = &t->ports[i];
		json_object *po = json_object_new_object(), *cs = json_object_new_object();
		json_object_object_add(po, "device", json_object_new_string(p->device));
		json_object_object_add(po, "port", json_object_new_int((int)p->port));
		for (int c = 0; c < ROCE_N_COUNTERS; c++) {
			if (!p->c[c].known)
				continue;
			json_object *co = json_object_new_object();
			json_object_object_add(co, "value", json_object_new_uint64(p->c[c].value));
			json_object_object_add(co, "growth", json_object_new_uint64(p->c[c].growth));
			json_object_object_add(co, "last_growth_s", json_object_new_int64(p->c[c].last_growth_s));
			json_object_object_add(cs, roce_counter_defs[c].name, co);
		}
		json_object_object_add(po, "counters", cs);
		json_object_array_add(ports, po);
	}
	json_object_object_add(o, "ports", ports);
	return o;
}

static int counter_parse(struct roce_trend_counter *c, const char *name, json_object *o, struct roce_error *err)
{
	json_object *m;
	int64_t last;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "counter \"%s\" is not an object", name);
		return -1;
	}
	if (!json_object_object_get_ex(o, "value", &m) || !roce_jin_u64_value(m, &c->value) ||
	    !json_object_object_get_ex(o, "growth", &m) || !roce_jin_u64_value(m, &c->growth)) {
		roce_error_set(err, "counter \"%s\": \"value\" and \"growth\" must be counter values", name);
		return -1;
	}
	if (roce_jin_int(o, "last_growth_s", 0, INT64_MAX, &last, err) < 0)
		return -1;
	c->last_growth_s = last;
	c->known = true;
	return 0;
}

static int port_parse(struct roce_trend_port *p, json_object *o, struct roce_error *err)
{
	json_object *cs;
	int64_t port;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "a port is not an object");
		return -1;
	}
	if (roce_jin_strcpy(o, "device", p->device, sizeof(p->device), err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_member(o, "counters", json_type_object, &cs, err) < 0)
		return -1;
	p->port = (unsigned)port;
	json_object_object_foreach(cs, name, co)
	{
		int c = roce_counter_lookup(name);
		if (c < 0 || strcmp(roce_counter_defs[c].name, name) != 0) {
			roce_error_set(err, "unknown counter \"%.64s\"", name);
			return -1;
		}
		if (counter_parse(&p->c[c], roce_counter_defs[c].name, co, err) < 0)
			return -1;
	}
	return 0;
}

int roce_trend_json_parse(struct roce_trend *t, json_object *o, struct roce_error *err)
{
	json_object *ports;
	int64_t time_s;
	size_t n;

	roce_trend_init(t);
	if (roce_jin_schema(o, "trend state", TREND_SCHEMA, 64, err) < 0 ||
	    roce_jin_int(o, "time_s", 0, INT64_MAX, &time_s, err) < 0 ||
	    roce_jin_member(o, "ports", json_type_array, &ports, err) < 0)
		return -1;
	n = json_object_array_length(ports);
	if (n > TREND_PORTS_MAX) {
		roce_error_set(err, "%zu ports (at most %d)", n, TREND_PORTS_MAX);
		return -1;
	}
	t->time_s = time_s;
	if (n && !(t->ports = calloc(n, sizeof(*t->ports)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++, t->n_ports++)
		if (port_parse(&t->ports[i], json_object_array_get_idx(ports, i), err) < 0) {
			roce_trend_free(t);
			return -1;
		}
	return 0;
}
