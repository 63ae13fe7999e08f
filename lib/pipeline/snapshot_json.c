/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snapshot_json.c - a counter snapshot to JSON and back (snapshot.h): the
 * prolog's state file, read by the epilog with the strict reader (jsonin.h).
 */
#include "config.h"
#include "pipeline/snapshot.h"
#include "check/json.h"
#include "read/jsonin.h"
#include "collect/trust.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SNAPSHOT_SCHEMA "slurm-roce/snapshot/1"

static json_object *u64_array(const uint64_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

/* "check" and "check_why": the check's worst finding; absent when there was
 * no check (and in snapshots of releases before them: an upgrade between a
 * job's prolog and epilog). */
static void check_json(json_object *o, int check, const char *why)
{
	if (check < 0)
		return;
	json_object_object_add(o, "check", json_object_new_string(roce_finding_verdict_name((enum roce_verdict)check)));
	if (why[0])
		json_object_object_add(o, "check_why", json_object_new_string(why));
}

static json_object *port_sample_json(const struct roce_port_sample *ps)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(ps->device));
	json_object_object_add(o, "port", json_object_new_int((int)ps->port));
	json_object_object_add(o, "netdev", json_object_new_string(ps->netdev));
	json_object_object_add(o, "gid_index", json_object_new_int(ps->gid_index));
	if (ps->gid_addr[0])
		json_object_object_add(o, "gid_addr", json_object_new_string(ps->gid_addr));
	json_object_object_add(o, "active_mtu", json_object_new_int(ps->active_mtu));
	json_object_object_add(o, "netdev_mtu", json_object_new_int64(ps->netdev_mtu));
	if (ps->state[0])
		json_object_object_add(o, "state", json_object_new_string(ps->state));
	check_json(o, ps->check, ps->check_why);
	json_object_object_add(o, "rate_mbps", json_object_new_int64(ps->rate_mbps));
	json_object_object_add(o, "fw_ver", json_object_new_string(ps->fw_ver));
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const struct roce_counter_sample *cs = &ps->c[i];
		json_object_object_add(c, roce_counter_defs[i].name,
		                       roce_reading_ok(&cs->read) ? json_object_new_uint64(cs->value)
		                                                  : roce_json_reading(&cs->read));
	}
	json_object_object_add(o, "counters", c);
	json_object *pfc = json_object_new_object();
	json_object_object_add(pfc, "read", roce_json_reading(&ps->pfc.read));
	json_object_object_add(pfc, "enabled", json_object_new_int(ps->pfc.enabled));
	json_object_object_add(pfc, "requests", u64_array(ps->pfc.requests, ROCE_PRIOS));
	json_object_object_add(pfc, "indications", u64_array(ps->pfc.indications, ROCE_PRIOS));
	json_object_object_add(o, "pfc", pfc);
	return o;
}

json_object *roce_snapshot_json_build(const struct roce_snapshot *s)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array();
	json_object_object_add(o, "schema", json_object_new_string(SNAPSHOT_SCHEMA));
	json_object_object_add(o, "time_ns", json_object_new_int64(s->time_ns));
	json_object_object_add(o, "devices_read", roce_json_reading(&s->devices_read));
	json_object_object_add(o, "gid_index", json_object_new_int(s->gid_index));
	json_object_object_add(o, "traffic_class", json_object_new_int(s->traffic_class));
	if (s->trust != ROCE_TRUST_UNKNOWN)
		json_object_object_add(o, "trust", json_object_new_string(roce_trust_mode_name(s->trust)));
	check_json(o, s->check, s->check_why);
	for (size_t i = 0; i < s->n_ports; i++)
		json_object_array_add(ports, port_sample_json(&s->ports[i]));
	json_object_object_add(o, "ports", ports);
	return o;
}

/* Parsing: the file is ours and root-only, but a truncated or edited one
 * must give a clear error, not a crash or a silently wrong delta. */

static int parse_pfc(json_object *o, struct roce_pfc_sample *pfc, struct roce_error *err)
{
	json_object *m;
	int64_t v;
	if (roce_jin_member(o, "read", json_type_object, &m, err) < 0 || roce_jin_reading(m, &pfc->read, err) < 0 ||
	    roce_jin_int(o, "enabled", 0, 255, &v, err) < 0)
		return -1;
	pfc->enabled = (uint8_t)v;
	return roce_jin_u64s(o, "requests", pfc->requests, ROCE_PRIOS, err) < 0 ||
	                       roce_jin_u64s(o, "indications", pfc->indications, ROCE_PRIOS, err) < 0
	               ? -1
	               : 0;
}

static const char *verdict_name(int v) { return roce_finding_verdict_name((enum roce_verdict)v); }

/* check_json's members, both optional. */
static int parse_check(json_object *o, int *check, char *why, size_t len, struct roce_error *err)
{
	*check = -1;
	why[0] = '\0';
	if (!json_object_object_get_ex(o, "check", NULL))
		return 0;
	if (roce_jin_enum(o, "check", verdict_name, ROCE_PASS, ROCE_FAIL, check, err) < 0)
		return -1;
	return json_object_object_get_ex(o, "check_why", NULL) ? roce_jin_strcpy(o, "check_why", why, len, err) : 0;
}

/* One counter: a value, or the reading that says why there is none. */
static int parse_counter(json_object *c, const char *name, struct roce_counter_sample *cs, struct roce_error *err)
{
	json_object *m;
	if (!json_object_object_get_ex(c, name, &m)) {
		roce_error_set(err, "counter %s missing", name);
		return -1;
	}
	if (json_object_is_type(m, json_type_object)) {
		if (roce_jin_reading(m, &cs->read, err) < 0)
			return -1;
		if (roce_reading_ok(&cs->read)) {
			roce_error_set(err, "counter %s: ok without a value", name);
			return -1;
		}
		return 0;
	}
	if (!roce_jin_u64_value(m, &cs->value)) {
		roce_error_set(err, "counter %s is not a counter value", name);
		return -1;
	}
	roce_reading_set(&cs->read, ROCE_OK, 0, NULL);
	return 0;
}

/* An address as inet_ntop writes it: hex digits, '.' and ':' only, so a
 * forged state file cannot smuggle text into the verdict's message. */
static int parse_gid_addr(json_object *o, char *out, struct roce_error *err)
{
	if (roce_jin_strcpy(o, "gid_addr", out, ROCE_GID_ADDR_MAX, err) < 0)
		return -1;
	if (!out[0] || strspn(out, "0123456789abcdefABCDEF.:") != strlen(out)) {
		roce_error_set(err, "gid_addr is not an address");
		out[0] = '\0';
		return -1;
	}
	return 0;
}

static int parse_port(json_object *o, struct roce_port_sample *ps, struct roce_error *err)
{
	json_object *c, *m;
	int64_t port, gid, mtu, nmtu, rate = 0;
	struct roce_error sub;
	memset(ps, 0, sizeof(*ps));
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "port is not an object");
		return -1;
	}
	if (roce_jin_strcpy(o, "device", ps->device, sizeof(ps->device), err) < 0 ||
	    roce_jin_strcpy(o, "netdev", ps->netdev, sizeof(ps->netdev), err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(o, "active_mtu", 0, 65536, &mtu, err) < 0 ||
	    roce_jin_int(o, "netdev_mtu", 0, UINT32_MAX, &nmtu, err) < 0 ||
	    roce_jin_member(o, "counters", json_type_object, &c, err) < 0)
		return -1;
	/* rate_mbps, fw_ver and gid_addr came later: a state file written before
	 * them has none of them. */
	if ((json_object_object_get_ex(o, "gid_addr", NULL) && parse_gid_addr(o, ps->gid_addr, err) < 0) ||
	    (json_object_object_get_ex(o, "rate_mbps", NULL) &&
	     roce_jin_int(o, "rate_mbps", 0, ROCE_RATE_MAX_GBPS * 1000, &rate, err) < 0) ||
	    (json_object_object_get_ex(o, "fw_ver", NULL) &&
	     roce_jin_strcpy(o, "fw_ver", ps->fw_ver, sizeof(ps->fw_ver), err) < 0))
		return -1;
	ps->rate_mbps = (unsigned)rate;
	ps->port = (unsigned)port;
	ps->gid_index = (int)gid;
	ps->active_mtu = (int)mtu;
	ps->netdev_mtu = (unsigned)nmtu;
	if ((json_object_object_get_ex(o, "state", NULL) &&
	     roce_jin_strcpy(o, "state", ps->state, sizeof(ps->state), err) < 0) ||
	    parse_check(o, &ps->check, ps->check_why, sizeof(ps->check_why), err) < 0)
		return -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (parse_counter(c, roce_counter_defs[i].name, &ps->c[i], &sub) < 0) {
			roce_error_set(err, "%s:%u: %s", ps->device, ps->port, sub.msg);
			return -1;
		}
	if (roce_jin_member(o, "pfc", json_type_object, &m, err) < 0)
		return -1;
	return parse_pfc(m, &ps->pfc, err);
}

/* ports[i] duplicates an earlier port: the delta pairs ports by device and
 * number, so a duplicate would pair crosswise. */
static bool duplicate_port(const struct roce_snapshot *s, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (s->ports[j].port == s->ports[i].port && strcmp(s->ports[j].device, s->ports[i].device) == 0)
			return true;
	return false;
}

static int parse_ports(struct roce_snapshot *s, json_object *ports, struct roce_error *err)
{
	struct roce_error sub;
	size_t n = json_object_array_length(ports);
	if (n > 4096) {
		roce_error_set(err, "%zu ports: not a real node", n);
		return -1;
	}
	if (n && !(s->ports = calloc(n, sizeof(*s->ports)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		s->n_ports++;
		if (parse_port(json_object_array_get_idx(ports, i), &s->ports[i], &sub) < 0) {
			roce_error_set(err, "ports[%zu]: %s", i, sub.msg);
			return -1;
		}
		if (duplicate_port(s, i)) {
			roce_error_set(err, "ports[%zu]: duplicate %.64s:%u", i, s->ports[i].device, s->ports[i].port);
			return -1;
		}
	}
	return 0;
}

int roce_snapshot_json_parse(struct roce_snapshot *s, json_object *obj, struct roce_error *err)
{
	json_object *m, *ports;
	int64_t gid, tc;

	roce_snapshot_free(s);
	roce_snapshot_init(s);
	if (roce_jin_schema(obj, "snapshot", SNAPSHOT_SCHEMA, 63, err) < 0)
		return -1;
	if (roce_jin_int(obj, "time_ns", 0, INT64_MAX, &s->time_ns, err) < 0 ||
	    roce_jin_member(obj, "devices_read", json_type_object, &m, err) < 0 ||
	    roce_jin_reading(m, &s->devices_read, err) < 0 ||
	    roce_jin_int(obj, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(obj, "traffic_class", -1, 255, &tc, err) < 0 ||
	    roce_jin_member(obj, "ports", json_type_array, &ports, err) < 0)
		return -1;
	s->gid_index = (int)gid;
	s->traffic_class = (int)tc;
	/* optional: written only when known, and absent from files of older releases */
	int trust = ROCE_TRUST_UNKNOWN;
	if (json_object_object_get_ex(obj, "trust", NULL) &&
	    roce_jin_enum(obj, "trust", roce_trust_mode_name, ROCE_TRUST_PCP, ROCE_TRUST_DSCP, &trust, err) < 0)
		return -1;
	s->trust = (enum roce_trust_mode)trust;
	if (parse_check(obj, &s->check, s->check_why, sizeof(s->check_why), err) < 0 ||
	    parse_ports(s, ports, err) < 0) {
		roce_snapshot_free(s);
		return -1;
	}
	return 0;
}
