/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fragment.c - a node's fragment: built from a delta, to JSON, parsed back strictly. */
#include "config.h"
#include "fragment.h"
#include "trust.h"

#include <ctype.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- names */

bool roce_fragment_job_id_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 10 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	return strtoull(s, NULL, 10) <= UINT32_MAX;
}

bool roce_fragment_node_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 63 || s[0] == '.' || s[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
			return false;
	return true;
}

/* ---------------------------------------------------------------- memory */

void roce_fragment_free(struct roce_fragment *n)
{
	free(n->ran_with);
	roce_arena_free(&n->arena);
	memset(n, 0, sizeof(*n));
}

/* ---------------------------------------------------------------- JSON out */

static json_object *prio_list(uint8_t bitmap)
{
	json_object *a = json_object_new_array();
	for (int p = 0; p < ROCE_PRIOS; p++)
		if (bitmap & (1u << p))
			json_object_array_add(a, json_object_new_int(p));
	return a;
}

static json_object *u64s(const uint64_t *v)
{
	json_object *a = json_object_new_array();
	for (int i = 0; i < ROCE_PRIOS; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

/* "counters" (null when unread), "counter_status" (only those not "ok")
 * and "counter_why" (only unread ones with a reason) into port object o. */
static void counters_json(json_object *o, const struct roce_fragment_port *p)
{
	json_object *c = json_object_new_object(), *st = json_object_new_object(), *why = json_object_new_object();
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const char *name = roce_counter_defs[i].report_name;
		if (p->cs[i] == ROCE_DELTA_UNREAD) {
			json_object_object_add(c, name, NULL);
			if (p->why && p->why[i])
				json_object_object_add(why, name, json_object_new_string(p->why[i]));
		} else {
			json_object_object_add(c, name, json_object_new_uint64(p->c[i]));
		}
		if (p->cs[i] != ROCE_DELTA_OK)
			json_object_object_add(st, name, json_object_new_string(roce_delta_status_name(p->cs[i])));
	}
	json_object_object_add(o, "counters", c);
	json_object_object_add(o, "counter_status", st);
	json_object_object_add(o, "counter_why", why);
}

static json_object *pfc_json(const struct roce_fragment_port *p)
{
	json_object *pfc = json_object_new_object();
	json_object_object_add(pfc, "status", json_object_new_string(roce_delta_status_name(p->pfc_status)));
	if (p->pfc_status == ROCE_DELTA_UNREAD) {
		json_object_object_add(pfc, "why", json_object_new_string(p->pfc_why ? p->pfc_why : ""));
	} else {
		json_object_object_add(pfc, "enabled", prio_list(p->pfc_enabled));
		json_object_object_add(pfc, "requests", u64s(p->pfc_req));
		json_object_object_add(pfc, "indications", u64s(p->pfc_ind));
	}
	return pfc;
}

/* "check" and "check_why" into o when there was a check. */
static void check_json(json_object *o, int check, const char *why)
{
	if (check < 0)
		return;
	json_object_object_add(o, "check", json_object_new_string(roce_verdict_name((enum roce_verdict)check)));
	if (why)
		json_object_object_add(o, "check_why", json_object_new_string(why));
}

static json_object *port_json(const struct roce_fragment_port *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int((int)p->port));
	json_object_object_add(o, "netdev", json_object_new_string(p->netdev));
	json_object_object_add(o, "presence", json_object_new_string(roce_delta_presence_name(p->presence)));
	json_object_object_add(o, "reset", json_object_new_boolean(p->reset));
	json_object_object_add(o, "gid_index", json_object_new_int(p->gid_index));
	json_object_object_add(o, "active_mtu", json_object_new_int(p->active_mtu));
	json_object_object_add(o, "netdev_mtu", json_object_new_int64(p->netdev_mtu));
	if (p->state_start)
		json_object_object_add(o, "state_start", json_object_new_string(p->state_start));
	if (p->state_end)
		json_object_object_add(o, "state_end", json_object_new_string(p->state_end));
	check_json(o, p->check, p->check_why);
	if (p->rate_mbps)
		json_object_object_add(o, "rate_mbps", json_object_new_int64(p->rate_mbps));
	if (p->fw_ver)
		json_object_object_add(o, "fw_ver", json_object_new_string(p->fw_ver));
	counters_json(o, p);
	json_object_object_add(o, "pfc", pfc_json(p));
	return o;
}

static json_object *verdict_json(const struct roce_fragment_verdict *v)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "code", json_object_new_string(v->code));
	json_object_object_add(o, "severity",
	                       json_object_new_string(roce_verdict_severity_name((enum roce_severity)v->severity)));
	json_object_object_add(o, "subject", json_object_new_string(v->subject));
	json_object_object_add(o, "message", json_object_new_string(v->message));
	json_object_object_add(o, "fix", json_object_new_string(v->fix));
	return o;
}

json_object *roce_fragment_to_json(const struct roce_fragment *n, const char *job_id, bool with_schema)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array(),
	            *verdicts = json_object_new_array(), *shared = json_object_new_array();
	if (with_schema)
		json_object_object_add(o, "schema", json_object_new_string(ROCE_FRAGMENT_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(job_id));
	json_object_object_add(o, "name", json_object_new_string(n->name));
	json_object_object_add(o, "job_uid", json_object_new_int64(n->uid));
	json_object_object_add(o, "start_ns", json_object_new_int64(n->start_ns));
	json_object_object_add(o, "end_ns", json_object_new_int64(n->end_ns));
	json_object_object_add(o, "seconds", json_object_new_double(n->seconds));
	for (size_t i = 0; i < n->n_shared; i++)
		json_object_array_add(shared, json_object_new_string(n->shared[i]));
	json_object_object_add(o, "shared_with", shared);
	json_object_object_add(o, "gid_index", json_object_new_int(n->gid_index));
	json_object_object_add(o, "traffic_class", json_object_new_int(n->traffic_class));
	json_object_object_add(o, "pfc_priority", json_object_new_int(n->pfc_priority));
	if (n->trust != ROCE_TRUST_UNKNOWN)
		json_object_object_add(o, "trust", json_object_new_string(roce_trust_mode_name(n->trust)));
	if (n->note)
		json_object_object_add(o, "note", json_object_new_string(n->note));
	check_json(o, n->check, n->check_why);
	for (size_t i = 0; i < n->n_ports; i++)
		json_object_array_add(ports, port_json(&n->ports[i]));
	json_object_object_add(o, "ports", ports);
	for (size_t i = 0; i < n->n_verdicts; i++)
		json_object_array_add(verdicts, verdict_json(&n->verdicts[i]));
	json_object_object_add(o, "verdicts", verdicts);
	if (n->ran_with)
		json_object_object_add(o, "ran_with", roce_ranwith_to_json(n->ran_with));
	return o;
}

/* ---------------------------------------------------------------- build */

/* A copy of s in a, or NULL for "" when empty_null; false on ENOMEM. */
static bool copy(struct roce_arena *a, char **dst, const char *s, bool empty_null)
{
	*dst = NULL;
	return (empty_null && !s[0]) || (*dst = roce_arena_strdup(a, s));
}

static int port_from_delta(struct roce_arena *a, struct roce_fragment_port *p, const struct roce_port_delta *pd)
{
	memset(p, 0, sizeof(*p));
	p->port = pd->port;
	p->presence = (uint8_t)pd->presence;
	p->reset = pd->reset;
	p->gid_index = pd->gid_index;
	p->active_mtu = pd->active_mtu;
	p->netdev_mtu = pd->netdev_mtu;
	p->rate_mbps = pd->rate_mbps;
	p->pfc_status = (uint8_t)pd->pfc_status;
	p->pfc_enabled = pd->pfc_enabled;
	memcpy(p->pfc_req, pd->pfc_requests, sizeof(p->pfc_req));
	memcpy(p->pfc_ind, pd->pfc_indications, sizeof(p->pfc_ind));
	p->check = (int8_t)pd->check;
	if (!copy(a, &p->device, pd->device, false) || !copy(a, &p->netdev, pd->netdev, false) ||
	    !copy(a, &p->fw_ver, pd->fw_ver, true) || !copy(a, &p->pfc_why, pd->pfc_why, false) ||
	    !copy(a, &p->state_start, pd->state_start, true) || !copy(a, &p->state_end, pd->state_end, true) ||
	    !copy(a, &p->check_why, pd->check_why, true))
		return -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		p->c[i] = pd->c[i].value;
		p->cs[i] = (uint8_t)pd->c[i].status;
		if (pd->c[i].status != ROCE_DELTA_UNREAD)
			continue;
		if (!p->why && !(p->why = roce_arena_grow(a, NULL, 0, ROCE_N_COUNTERS * sizeof(*p->why))))
			return -1;
		if (!copy(a, &p->why[i], pd->c[i].why, false))
			return -1;
	}
	return 0;
}

/* The node's own values, its strings copied into n's arena. */
static int node_from_meta(struct roce_fragment *n, const struct roce_fragment_meta *m, const struct roce_delta *d)
{
	struct roce_arena *a = &n->arena;
	memset(n, 0, sizeof(*n));
	n->uid = (long)m->job_uid;
	n->start_ns = m->start_ns;
	n->end_ns = m->end_ns;
	n->seconds = d->seconds;
	n->gid_index = d->gid_index;
	n->traffic_class = d->traffic_class;
	n->trust = d->trust;
	n->pfc_priority = m->pfc_priority;
	n->check = (int8_t)d->check;
	if (!copy(a, &n->name, m->node, false) || (m->note && !copy(a, &n->note, m->note, false)) ||
	    !copy(a, &n->check_why, d->check_why, true))
		return -1;
	if (m->n_shared && !(n->shared = roce_arena_alloc(a, m->n_shared * sizeof(*n->shared))))
		return -1;
	for (; n->n_shared < m->n_shared; n->n_shared++)
		if (!copy(a, &n->shared[n->n_shared], m->shared_with[n->n_shared], false))
			return -1;
	return 0;
}

static int verdict_copy(struct roce_arena *a, struct roce_fragment_verdict *to, const struct roce_job_verdict *v)
{
	to->severity = (uint8_t)v->severity;
	return copy(a, &to->code, v->code, false) && copy(a, &to->subject, v->subject, false) &&
	       copy(a, &to->message, v->message, false) && copy(a, &to->fix, v->fix, false) ? 0 : -1;
}

/* The fragment is written through struct roce_fragment, as the report prints
 * it, so both JSON forms come from one writer.  n owns copies of everything,
 * as a fragment read from a file does. */
json_object *roce_fragment_build(const struct roce_fragment_meta *m, const struct roce_delta *d,
                                 const struct roce_verdict_list *v)
{
	struct roce_fragment n;
	struct roce_arena *a = &n.arena;
	json_object *o = NULL;
	if (node_from_meta(&n, m, d) < 0)
		goto out;
	if (d->n_ports && !(n.ports = roce_arena_alloc(a, d->n_ports * sizeof(*n.ports))))
		goto out;
	for (; n.n_ports < d->n_ports; n.n_ports++)
		if (port_from_delta(a, &n.ports[n.n_ports], &d->ports[n.n_ports]) < 0)
			goto out;
	if (v->n && !(n.verdicts = roce_arena_alloc(a, v->n * sizeof(*n.verdicts))))
		goto out;
	for (; n.n_verdicts < v->n; n.n_verdicts++)
		if (verdict_copy(a, &n.verdicts[n.n_verdicts], &v->v[n.n_verdicts]) < 0)
			goto out;
	o = roce_fragment_to_json(&n, m->job_id, true);
out:
	roce_fragment_free(&n);
	return o;
}
