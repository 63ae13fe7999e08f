/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fragment.c - a node's fragment: built from a delta, to JSON, parsed back strictly. */
#include "config.h"
#include "fragment.h"
#include "jsonin.h"
#include "printable.h"
#include "trust.h"

#include <ctype.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on what one fragment may hold: far above any real node, low
 * enough that a planted fragment cannot make the merge allocate much. */
#define PORTS_MAX 4096
#define VERDICTS_MAX 65536
#define SHARED_MAX 4096

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

static void port_free(struct roce_fragment_port *p)
{
	free(p->device);
	free(p->netdev);
	free(p->pfc_why);
	free(p->state_start);
	free(p->state_end);
	free(p->check_why);
	free(p->fw_ver);
	if (p->why)
		for (int i = 0; i < ROCE_N_COUNTERS; i++)
			free(p->why[i]);
	free(p->why);
}

void roce_fragment_free(struct roce_fragment *n)
{
	free(n->ran_with);
	free(n->name);
	free(n->note);
	free(n->check_why);
	for (size_t i = 0; i < n->n_shared; i++)
		free(n->shared[i]);
	free(n->shared);
	for (size_t i = 0; i < n->n_ports; i++)
		port_free(&n->ports[i]);
	free(n->ports);
	for (size_t i = 0; i < n->n_verdicts; i++) {
		free(n->verdicts[i].code);
		free(n->verdicts[i].subject);
		free(n->verdicts[i].message);
		free(n->verdicts[i].fix);
	}
	free(n->verdicts);
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

static int port_from_delta(struct roce_fragment_port *p, const struct roce_port_delta *pd)
{
	memset(p, 0, sizeof(*p));
	p->device = strdup(pd->device);
	p->netdev = strdup(pd->netdev);
	p->port = pd->port;
	p->presence = (uint8_t)pd->presence;
	p->reset = pd->reset;
	p->gid_index = pd->gid_index;
	p->active_mtu = pd->active_mtu;
	p->netdev_mtu = pd->netdev_mtu;
	p->rate_mbps = pd->rate_mbps;
	if (pd->fw_ver[0] && !(p->fw_ver = strdup(pd->fw_ver)))
		return -1;
	p->pfc_status = (uint8_t)pd->pfc_status;
	p->pfc_enabled = pd->pfc_enabled;
	p->pfc_why = strdup(pd->pfc_why);
	memcpy(p->pfc_req, pd->pfc_requests, sizeof(p->pfc_req));
	memcpy(p->pfc_ind, pd->pfc_indications, sizeof(p->pfc_ind));
	if (!p->device || !p->netdev || !p->pfc_why)
		return -1;
	p->check = (int8_t)pd->check;
	if ((pd->state_start[0] && !(p->state_start = strdup(pd->state_start))) ||
	    (pd->state_end[0] && !(p->state_end = strdup(pd->state_end))) ||
	    (pd->check_why[0] && !(p->check_why = strdup(pd->check_why))))
		return -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		p->c[i] = pd->c[i].value;
		p->cs[i] = (uint8_t)pd->c[i].status;
		if (pd->c[i].status != ROCE_DELTA_UNREAD)
			continue;
		if (!p->why && !(p->why = calloc(ROCE_N_COUNTERS, sizeof(*p->why))))
			return -1;
		if (!(p->why[i] = strdup(pd->c[i].why)))
			return -1;
	}
	return 0;
}

/* The node's own values; the strings are m's, not copies. */
static void node_from_meta(struct roce_fragment *n, const struct roce_fragment_meta *m, const struct roce_delta *d)
{
	memset(n, 0, sizeof(*n));
	n->name = (char *)m->node;
	n->uid = (long)m->job_uid;
	n->start_ns = m->start_ns;
	n->end_ns = m->end_ns;
	n->seconds = d->seconds;
	n->shared = (char **)m->shared_with;
	n->n_shared = m->n_shared;
	n->gid_index = d->gid_index;
	n->traffic_class = d->traffic_class;
	n->trust = d->trust;
	n->pfc_priority = m->pfc_priority;
	n->note = (char *)m->note;
	n->check = (int8_t)d->check;
	n->check_why = d->check_why[0] ? (char *)d->check_why : NULL;
}

/* The fragment is written through struct roce_fragment, as the report prints
 * it, so both JSON forms come from one writer.  n borrows m's and v's
 * strings: only what port_from_delta copied is freed here. */
json_object *roce_fragment_build(const struct roce_fragment_meta *m, const struct roce_delta *d,
                                 const struct roce_verdict_list *v)
{
	struct roce_fragment n;
	json_object *o = NULL;
	node_from_meta(&n, m, d);
	if (d->n_ports && !(n.ports = calloc(d->n_ports, sizeof(*n.ports))))
		return NULL;
	for (size_t i = 0; i < d->n_ports; i++) {
		n.n_ports++;
		if (port_from_delta(&n.ports[i], &d->ports[i]) < 0)
			goto out;
	}
	if (v->n && !(n.verdicts = calloc(v->n, sizeof(*n.verdicts))))
		goto out;
	for (size_t i = 0; i < v->n; i++)
		n.verdicts[i] = (struct roce_fragment_verdict){ v->v[i].code, v->v[i].subject, v->v[i].message,
		                                                v->v[i].fix, (uint8_t)v->v[i].severity };
	n.n_verdicts = v->n;
	o = roce_fragment_to_json(&n, m->job_id, true);
out:
	for (size_t i = 0; i < n.n_ports; i++)
		port_free(&n.ports[i]);
	free(n.ports);
	free(n.verdicts);
	return o;
}

/* ---------------------------------------------------------------- parse */

static const char *delta_status_name(int s) { return roce_delta_status_name((enum roce_delta_status)s); }
static const char *presence_name(int p) { return roce_delta_presence_name((enum roce_port_presence)p); }
static const char *severity_name(int s) { return roce_verdict_severity_name((enum roce_severity)s); }
static const char *check_name(int v) { return roce_verdict_name((enum roce_verdict)v); }

/* An escaped copy of s in *dst, as every string kept from a fragment (they
 * are hostile: fragment.h); -1 with err set on ENOMEM. */
static int keep(char **dst, const char *s, struct roce_error *err)
{
	if ((*dst = roce_printable_dup(s)))
		return 0;
	roce_error_set(err, "out of memory");
	return -1;
}

/* "counter_why" of an unread counter, when there is one. */
static int keep_why(struct roce_fragment_port *p, int i, json_object *why, const char *name, struct roce_error *err)
{
	json_object *w = why ? roce_jin_get(why, name, json_type_string) : NULL;
	if (!w)
		return 0;
	if (!p->why && !(p->why = calloc(ROCE_N_COUNTERS, sizeof(*p->why)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	return keep(&p->why[i], json_object_get_string(w), err);
}

/* An optional string member of at most max bytes, escaped into *dst (NULL when absent). */
static int keep_optional(json_object *o, const char *key, size_t max, char **dst, struct roce_error *err)
{
	const char *s;
	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	return roce_jin_str(o, key, max, &s, err) < 0 ? -1 : keep(dst, s, err);
}

/* check_json's members, both optional (fragments before them have neither). */
static int parse_check(json_object *o, int8_t *check, char **why, struct roce_error *err)
{
	int v = -1;
	if (json_object_object_get_ex(o, "check", NULL) &&
	    roce_jin_enum(o, "check", check_name, ROCE_PASS, ROCE_FAIL, &v, err) < 0)
		return -1;
	*check = (int8_t)v;
	return keep_optional(o, "check_why", ROCE_WHY_MAX - 1, why, err);
}

static int parse_port_counters(json_object *o, struct roce_fragment_port *p, struct roce_error *err)
{
	json_object *c, *st, *why = roce_jin_get(o, "counter_why", json_type_object), *m;
	if (roce_jin_member(o, "counters", json_type_object, &c, err) < 0 ||
	    roce_jin_member(o, "counter_status", json_type_object, &st, err) < 0)
		return -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const char *name = roce_counter_defs[i].report_name;
		int s = ROCE_DELTA_OK;
		/* Only counters that are not "ok" have a status. */
		if (json_object_object_get_ex(st, name, NULL) &&
		    roce_jin_enum(st, name, delta_status_name, ROCE_DELTA_OK, ROCE_DELTA_UNREAD, &s, err) < 0)
			return -1;
		p->cs[i] = (uint8_t)s;
		if (!json_object_object_get_ex(c, name, &m)) {
			roce_error_set(err, "counter %s missing", name);
			return -1;
		}
		if (s == ROCE_DELTA_UNREAD) {
			if (m) {
				roce_error_set(err, "counter %s is unread but has a value", name);
				return -1;
			}
			if (keep_why(p, i, why, name, err) < 0)
				return -1;
		} else if (!roce_jin_u64_value(m, &p->c[i])) {
			roce_error_set(err, "counter %s is not a counter value", name);
			return -1;
		}
	}
	return 0;
}

static int parse_prio_bitmap(json_object *o, const char *key, uint8_t *bitmap, struct roce_error *err)
{
	json_object *a;
	*bitmap = 0;
	if (roce_jin_member(o, key, json_type_array, &a, err) < 0)
		return -1;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);
		int64_t p = json_object_get_int64(e);
		if (i >= ROCE_PRIOS || !json_object_is_type(e, json_type_int) || p < 0 || p >= ROCE_PRIOS) {
			roce_error_set(err, "\"%s\" is not a list of priorities 0..%d", key, ROCE_PRIOS - 1);
			return -1;
		}
		*bitmap |= (uint8_t)(1u << p);
	}
	return 0;
}

static int parse_port_pfc(json_object *o, struct roce_fragment_port *p, struct roce_error *err)
{
	json_object *pfc;
	int st;
	if (roce_jin_member(o, "pfc", json_type_object, &pfc, err) < 0 ||
	    roce_jin_enum(pfc, "status", delta_status_name, ROCE_DELTA_OK, ROCE_DELTA_UNREAD, &st, err) < 0)
		return -1;
	p->pfc_status = (uint8_t)st;
	if (st == ROCE_DELTA_UNREAD) {
		json_object *m = roce_jin_get(pfc, "why", json_type_string);
		return keep(&p->pfc_why, m ? json_object_get_string(m) : "", err);
	}
	return parse_prio_bitmap(pfc, "enabled", &p->pfc_enabled, err) < 0 ||
	       roce_jin_u64s(pfc, "requests", p->pfc_req, ROCE_PRIOS, err) < 0 ||
	       roce_jin_u64s(pfc, "indications", p->pfc_ind, ROCE_PRIOS, err) < 0 ? -1 : 0;
}

static int parse_port(json_object *o, struct roce_fragment_port *p, struct roce_error *err)
{
	const char *dev, *netdev;
	int64_t port, gid, mtu, nmtu;
	int presence;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "port is not an object");
		return -1;
	}
	if (roce_jin_str(o, "device", ROCE_NAME_MAX - 1, &dev, err) < 0 || keep(&p->device, dev, err) < 0 ||
	    roce_jin_str(o, "netdev", IF_NAMESIZE - 1, &netdev, err) < 0 || keep(&p->netdev, netdev, err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_enum(o, "presence", presence_name, ROCE_PORT_BOTH, ROCE_PORT_APPEARED, &presence, err) < 0 ||
	    roce_jin_bool(o, "reset", &p->reset, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(o, "active_mtu", 0, 65536, &mtu, err) < 0 ||
	    roce_jin_int(o, "netdev_mtu", 0, UINT32_MAX, &nmtu, err) < 0)
		return -1;
	/* Optional: fragments of releases before them have neither. */
	const char *fw;
	int64_t rate = 0;
	if ((json_object_object_get_ex(o, "rate_mbps", NULL) &&
	     roce_jin_int(o, "rate_mbps", 1, ROCE_RATE_MAX_GBPS * 1000, &rate, err) < 0) ||
	    (json_object_object_get_ex(o, "fw_ver", NULL) &&
	     (roce_jin_str(o, "fw_ver", 63, &fw, err) < 0 || keep(&p->fw_ver, fw, err) < 0)))
		return -1;
	p->rate_mbps = (unsigned)rate;
	p->port = (unsigned)port;
	p->presence = (uint8_t)presence;
	p->gid_index = (int)gid;
	p->active_mtu = (int)mtu;
	p->netdev_mtu = (unsigned)nmtu;
	if (keep_optional(o, "state_start", 23, &p->state_start, err) < 0 ||
	    keep_optional(o, "state_end", 23, &p->state_end, err) < 0 || parse_check(o, &p->check, &p->check_why, err) < 0 ||
	    parse_port_counters(o, p, err) < 0)
		return -1;
	return parse_port_pfc(o, p, err);
}

static int parse_verdict(json_object *o, struct roce_fragment_verdict *v, struct roce_error *err)
{
	const char *code, *subject, *msg, *fix;
	int sev;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "verdict is not an object");
		return -1;
	}
	if (roce_jin_str(o, "code", 31, &code, err) < 0 ||
	    roce_jin_enum(o, "severity", severity_name, ROCE_SEV_INFO, ROCE_SEV_FAIL, &sev, err) < 0 ||
	    roce_jin_str(o, "subject", 95, &subject, err) < 0 || roce_jin_str(o, "message", 1023, &msg, err) < 0 ||
	    roce_jin_str(o, "fix", 1023, &fix, err) < 0)
		return -1;
	v->severity = (uint8_t)sev;
	return keep(&v->code, code, err) < 0 || keep(&v->subject, subject, err) < 0 || keep(&v->message, msg, err) < 0 ||
	       keep(&v->fix, fix, err) < 0 ? -1 : 0;
}

static int parse_shared(json_object *o, struct roce_fragment *n, struct roce_error *err)
{
	json_object *a;
	if (roce_jin_member(o, "shared_with", json_type_array, &a, err) < 0)
		return -1;
	size_t len = json_object_array_length(a);
	if (len > SHARED_MAX) {
		roce_error_set(err, "\"shared_with\" has more than %d entries", SHARED_MAX);
		return -1;
	}
	if (len && !(n->shared = calloc(len, sizeof(*n->shared)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string) || !roce_fragment_job_id_ok(json_object_get_string(e))) {
			roce_error_set(err, "shared_with[%zu] is not a job id", i);
			return -1;
		}
		if (keep(&n->shared[n->n_shared], json_object_get_string(e), err) < 0)
			return -1;
		n->n_shared++;
	}
	return 0;
}

/* An array member of at most max entries, allocated as n entries of size bytes in *v. */
static int parse_array(json_object *o, const char *key, size_t max, size_t size, void **v, json_object **a,
                       struct roce_error *err)
{
	if (roce_jin_member(o, key, json_type_array, a, err) < 0)
		return -1;
	size_t n = json_object_array_length(*a);
	if (n > max) {
		roce_error_set(err, "\"%s\" has more than %zu entries", key, max);
		return -1;
	}
	if (n && !(*v = calloc(n, size))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	return 0;
}

static int parse_ports_verdicts(json_object *o, struct roce_fragment *n, struct roce_error *err)
{
	json_object *ports, *verdicts;
	struct roce_error sub;
	if (parse_array(o, "ports", PORTS_MAX, sizeof(*n->ports), (void **)&n->ports, &ports, err) < 0)
		return -1;
	for (size_t i = 0; i < json_object_array_length(ports); i++) {
		n->n_ports++;
		if (parse_port(json_object_array_get_idx(ports, i), &n->ports[i], &sub) < 0) {
			roce_error_set(err, "ports[%zu]: %s", i, sub.msg);
			return -1;
		}
	}
	if (parse_array(o, "verdicts", VERDICTS_MAX, sizeof(*n->verdicts), (void **)&n->verdicts, &verdicts, err) < 0)
		return -1;
	for (size_t i = 0; i < json_object_array_length(verdicts); i++) {
		n->n_verdicts++;
		if (parse_verdict(json_object_array_get_idx(verdicts, i), &n->verdicts[i], &sub) < 0) {
			roce_error_set(err, "verdicts[%zu]: %s", i, sub.msg);
			return -1;
		}
	}
	return 0;
}

/* Optional: fragments of an older epilog have none. */
static int parse_ran_with(json_object *a, struct roce_fragment *n, struct roce_error *err)
{
	if (!(n->ran_with = malloc(sizeof(*n->ran_with)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	return roce_ranwith_from_json(a, n->ran_with, err);
}

static int parse_node(json_object *o, struct roce_fragment *n, struct roce_error *err)
{
	const char *name;
	int64_t uid, gid, tc, prio;
	json_object *m;

	if (roce_jin_str(o, "name", 63, &name, err) < 0)
		return -1;
	if (!roce_fragment_node_name_ok(name)) {
		roce_error_set(err, "\"name\" is not a node name");
		return -1;
	}
	if (keep(&n->name, name, err) < 0 || roce_jin_int(o, "job_uid", 0, UINT32_MAX, &uid, err) < 0 ||
	    roce_jin_int(o, "start_ns", 0, INT64_MAX, &n->start_ns, err) < 0 ||
	    roce_jin_int(o, "end_ns", 0, INT64_MAX, &n->end_ns, err) < 0 ||
	    roce_jin_double(o, "seconds", &n->seconds, err) < 0 || parse_shared(o, n, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(o, "traffic_class", -1, 255, &tc, err) < 0 ||
	    roce_jin_int(o, "pfc_priority", -1, 7, &prio, err) < 0)
		return -1;
	n->uid = (long)uid;
	n->gid_index = (int)gid;
	n->traffic_class = (int)tc;
	n->pfc_priority = (int)prio;
	/* optional: written only when known, and absent from files of older releases */
	int trust = ROCE_TRUST_UNKNOWN;
	if (json_object_object_get_ex(o, "trust", NULL) &&
	    roce_jin_enum(o, "trust", roce_trust_mode_name, ROCE_TRUST_PCP, ROCE_TRUST_DSCP, &trust, err) < 0)
		return -1;
	n->trust = (enum roce_trust_mode)trust;
	if ((m = roce_jin_get(o, "note", json_type_string)) && keep(&n->note, json_object_get_string(m), err) < 0)
		return -1;
	if (parse_check(o, &n->check, &n->check_why, err) < 0)
		return -1;
	if ((m = json_object_object_get(o, "ran_with")) && parse_ran_with(m, n, err) < 0)
		return -1;
	return parse_ports_verdicts(o, n, err);
}

/* The fragment's schema and job id, then the node. */
static int parse_fragment(json_object *frag, const char *job_id, struct roce_fragment *n, struct roce_error *err)
{
	const char *s;
	if (roce_jin_schema(frag, NULL, ROCE_FRAGMENT_SCHEMA, 64, err) < 0)
		return -1;
	if (roce_jin_str(frag, "job_id", ROCE_JOBID_MAX - 1, &s, err) < 0)
		return -1;
	if (strcmp(s, job_id) != 0) {
		roce_error_set(err, "fragment of job %.24s, not %s", s, job_id);
		return -1;
	}
	return parse_node(frag, n, err);
}

int roce_fragment_parse(json_object *o, const char *job_id, struct roce_fragment *f, struct roce_error *err)
{
	memset(f, 0, sizeof(*f));
	f->file_owner = -1;
	if (parse_fragment(o, job_id, f, err) == 0)
		return 0;
	roce_fragment_free(f);
	return -1;
}

