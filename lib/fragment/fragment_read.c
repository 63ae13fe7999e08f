/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fragment_read.c - a node's fragment read from its text (fragment_read.h). */
#include "config.h"
#include "fragment/fragment_read.h"
#include "fragment/fragment_bounds.h"
#include "read/jsonin.h"
#include "read/jsonpull.h"
#include "base/printable.h"
#include "base/slurmid.h"
#include "collect/trust.h"

#include <inttypes.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on what one fragment may hold: far above any real node, low
 * enough that a planted fragment cannot make the merge allocate much. */
#define PORTS_MAX 4096
#define VERDICTS_MAX 65536
#define SHARED_MAX 4096

/* ---------------------------------------------------------------- values */

/* An escaped copy of s in *dst, in the fragment's arena a, as every string
 * kept from a fragment (they are hostile: fragment.h); -1 with err set on
 * ENOMEM.  A member is read once (given twice is refused), so *dst was NULL. */
static int keep(struct roce_arena *a, char **dst, const char *s, struct roce_error *err)
{
	if ((*dst = roce_printable_dup_in(a, s)))
		return 0;
	roce_error_set(err, "out of memory");
	return -1;
}

static int str_keep(struct roce_jsonpull *j, struct roce_arena *a, const char *key, size_t max, char **dst,
                    struct roce_error *err)
{
	const char *s;
	return roce_jsonpull_str(j, key, max, &s, err) < 0 ? -1 : keep(a, dst, s, err);
}

/* Room for entry i of *v (entries of size bytes, zeroed) in arena a, *cap
 * doubled from first as entries come; the outgrown block stays in the arena
 * unused until the fragment is freed (it is small: ports start at 8). */
static int room(struct roce_arena *a, void **v, size_t i, size_t *cap, size_t first, size_t size,
                struct roce_error *err)
{
	if (i < *cap)
		return 0;
	size_t n = *cap ? 2 * *cap : first;
	void *grown = roce_arena_grow(a, *v, *cap * size, n * size);
	if (!grown) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	*v = grown;
	*cap = n;
	return 0;
}

static const char *delta_status_name(int s) { return roce_delta_status_name((enum roce_delta_status)s); }
static const char *presence_name(int p) { return roce_delta_presence_name((enum roce_port_presence)p); }
static const char *severity_name(int s) { return roce_verdict_severity_name((enum roce_severity)s); }
static const char *check_name(int v) { return roce_finding_verdict_name((enum roce_verdict)v); }

static int check_of(struct roce_jsonpull *j, int8_t *check, struct roce_error *err)
{
	int v;
	if (roce_jsonpull_enum(j, "check", check_name, ROCE_PASS, ROCE_FAIL, &v, err) < 0)
		return -1;
	*check = (int8_t)v;
	return 0;
}

/* ---------------------------------------------------------------- counters */

/* A port's counters as read, checked against their status at the port's end. */
struct counters {
	uint8_t got[ROCE_N_COUNTERS];     /* 0 absent, 1 null, 2 a counter value, 3 something else */
	const char *why[ROCE_N_COUNTERS]; /* in the text */
};

static int counter_index(const char *key, int *hint)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		int k = (*hint + i) % ROCE_N_COUNTERS;
		if (strcmp(roce_counter_defs[k].report_name, key) == 0) {
			*hint = k + 1;
			return k;
		}
	}
	return -1;
}

/* The object that is next, counter by counter: one(i) at each counter's
 * value (others passed over). */
static int each_counter(struct roce_jsonpull *j,
                        int (*one)(struct roce_jsonpull *, int, struct roce_fragment_port *, struct counters *,
                                   struct roce_error *),
                        struct roce_fragment_port *p, struct counters *c, struct roce_error *err)
{
	const char *key;
	int rc, hint = 0;
	uint64_t seen = 0;
	if (roce_jsonpull_enter(j, err) < 0)
		return -1;
	while ((rc = roce_jsonpull_key(j, &key, err)) == 1) {
		int i = counter_index(key, &hint);
		if (i >= 0 && (seen & (1ull << i))) {
			roce_error_set(err, "\"%s\" given twice", key);
			return -1;
		}
		if (i >= 0)
			seen |= 1ull << i;
		if ((i < 0 ? roce_jsonpull_skip(j, err) : one(j, i, p, c, err)) < 0)
			return -1;
	}
	return rc;
}

static int one_value(struct roce_jsonpull *j, int i, struct roce_fragment_port *p, struct counters *c,
                     struct roce_error *err)
{
	bool ok;
	if (roce_jsonpull_type(j) == ROCE_JSONPULL_NULL) {
		c->got[i] = 1;
		return roce_jsonpull_null(j, err);
	}
	if (roce_jsonpull_counter(j, &p->c[i], &ok, err) < 0)
		return -1;
	c->got[i] = ok ? 2 : 3;
	return 0;
}

static int one_status(struct roce_jsonpull *j, int i, struct roce_fragment_port *p, struct counters *c,
                      struct roce_error *err)
{
	const char *name = roce_counter_defs[i].report_name;
	int s;
	(void)c;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_STRING) {
		roce_error_set(err, "\"%s\" missing or not a string", name);
		return -1;
	}
	if (roce_jsonpull_enum(j, name, delta_status_name, ROCE_DELTA_OK, ROCE_DELTA_UNREAD, &s, err) < 0)
		return -1;
	p->cs[i] = (uint8_t)s;
	return 0;
}

static int one_why(struct roce_jsonpull *j, int i, struct roce_fragment_port *p, struct counters *c,
                   struct roce_error *err)
{
	(void)p;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_STRING)
		return roce_jsonpull_skip(j, err);
	return roce_jsonpull_string(j, &c->why[i], NULL, err);
}

/* Every counter there, null exactly when unread (with its reason kept). */
static int counters_agree(struct roce_arena *a, struct roce_fragment_port *p, const struct counters *c,
                          struct roce_error *err)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const char *name = roce_counter_defs[i].report_name;
		if (!c->got[i]) {
			roce_error_set(err, "counter %s missing", name);
			return -1;
		}
		if (p->cs[i] != ROCE_DELTA_UNREAD) {
			if (c->got[i] != 2) {
				roce_error_set(err, "counter %s is not a counter value", name);
				return -1;
			}
			continue;
		}
		if (c->got[i] != 1) {
			roce_error_set(err, "counter %s is unread but has a value", name);
			return -1;
		}
		p->c[i] = 0;
		if (!c->why[i])
			continue;
		if (!p->why && !(p->why = roce_arena_grow(a, NULL, 0, ROCE_N_COUNTERS * sizeof(*p->why)))) {
			roce_error_set(err, "out of memory");
			return -1;
		}
		if (keep(a, &p->why[i], c->why[i], err) < 0)
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- pfc */

enum { PFC_STATUS, PFC_WHY, PFC_ENABLED, PFC_REQUESTS, PFC_INDICATIONS, PFC_N };
static const struct roce_jsonpull_member pfc_members[PFC_N] = {
	[PFC_STATUS] = { "status", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[PFC_WHY] = { "why", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_LENIENT },
	[PFC_ENABLED] = { "enabled", ROCE_JSONPULL_K_ARR, 0 },
	[PFC_REQUESTS] = { "requests", ROCE_JSONPULL_K_ARR, 0 },
	[PFC_INDICATIONS] = { "indications", ROCE_JSONPULL_K_ARR, 0 },
};

struct pfc {
	struct roce_fragment_port *p;
	const char *why;
	uint64_t *v; /* requests or indications */
	const char *key;
	size_t count; /* entries of v read */
};

static int one_priority(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err)
{
	struct pfc *x = ctx;
	int64_t p;
	struct roce_error ignored;
	if (i >= ROCE_PRIOS || roce_jsonpull_type(j) != ROCE_JSONPULL_NUMBER ||
	    roce_jsonpull_int(j, "enabled", 0, ROCE_PRIOS - 1, &p, &ignored) < 0) {
		roce_error_set(err, "\"enabled\" is not a list of priorities 0..%d", ROCE_PRIOS - 1);
		return -1;
	}
	x->p->pfc_enabled |= (uint8_t)(1u << p);
	return 0;
}

static int one_prio_counter(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err)
{
	struct pfc *x = ctx;
	bool ok;
	if (i >= ROCE_PRIOS) {
		roce_error_set(err, "\"%s\" must have %d entries", x->key, ROCE_PRIOS);
		return -1;
	}
	if (roce_jsonpull_counter(j, &x->v[i], &ok, err) < 0)
		return -1;
	if (!ok) {
		roce_error_set(err, "\"%s\"[%zu] is not a counter value", x->key, i);
		return -1;
	}
	x->count = i + 1;
	return 0;
}

static int pfc_member(struct roce_jsonpull *j, int k, void *ctx, struct roce_error *err)
{
	struct pfc *x = ctx;
	int st;
	switch (k) {
	case PFC_STATUS:
		if (roce_jsonpull_enum(j, "status", delta_status_name, ROCE_DELTA_OK, ROCE_DELTA_UNREAD, &st, err) < 0)
			return -1;
		x->p->pfc_status = (uint8_t)st;
		return 0;
	case PFC_WHY: return roce_jsonpull_string(j, &x->why, NULL, err);
	case PFC_ENABLED: return roce_jsonpull_array(j, "enabled", SIZE_MAX, one_priority, x, err);
	}
	x->key = pfc_members[k].key;
	x->v = k == PFC_REQUESTS ? x->p->pfc_req : x->p->pfc_ind;
	x->count = 0;
	if (roce_jsonpull_array(j, x->key, SIZE_MAX, one_prio_counter, x, err) < 0)
		return -1;
	if (x->count != ROCE_PRIOS) {
		roce_error_set(err, "\"%s\" must have %d entries", x->key, ROCE_PRIOS);
		return -1;
	}
	return 0;
}

static int read_pfc(struct roce_jsonpull *j, struct roce_arena *a, struct roce_fragment_port *p, struct roce_error *err)
{
	struct pfc x = { .p = p };
	uint64_t seen;
	if (roce_jsonpull_members(j, pfc_members, PFC_N, pfc_member, &x, &seen, err) < 0)
		return -1;
	if (p->pfc_status == ROCE_DELTA_UNREAD)
		return keep(a, &p->pfc_why, x.why ? x.why : "", err);
	for (int k = PFC_ENABLED; k <= PFC_INDICATIONS; k++)
		if (!(seen & (1ull << k)))
			return roce_jsonpull_missing(&pfc_members[k], err);
	return 0;
}

/* ---------------------------------------------------------------- a port */

enum {
	P_DEVICE,
	P_PORT,
	P_NETDEV,
	P_PRESENCE,
	P_RESET,
	P_GID,
	P_MTU,
	P_NETDEV_MTU,
	P_STATE_START,
	P_STATE_END,
	P_CHECK,
	P_CHECK_WHY,
	P_RATE,
	P_FW,
	P_COUNTERS,
	P_STATUS,
	P_WHY,
	P_PFC,
	P_N
};
static const struct roce_jsonpull_member port_members[P_N] = {
	[P_DEVICE] = { "device", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[P_PORT] = { "port", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[P_NETDEV] = { "netdev", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[P_PRESENCE] = { "presence", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[P_RESET] = { "reset", ROCE_JSONPULL_K_BOOL, ROCE_JSONPULL_REQUIRED },
	[P_GID] = { "gid_index", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[P_MTU] = { "active_mtu", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[P_NETDEV_MTU] = { "netdev_mtu", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	/* optional: fragments of earlier releases have none of these */
	[P_STATE_START] = { "state_start", ROCE_JSONPULL_K_STR, 0 },
	[P_STATE_END] = { "state_end", ROCE_JSONPULL_K_STR, 0 },
	[P_CHECK] = { "check", ROCE_JSONPULL_K_STR, 0 },
	[P_CHECK_WHY] = { "check_why", ROCE_JSONPULL_K_STR, 0 },
	[P_RATE] = { "rate_mbps", ROCE_JSONPULL_K_INT, 0 },
	[P_FW] = { "fw_ver", ROCE_JSONPULL_K_STR, 0 },
	[P_COUNTERS] = { "counters", ROCE_JSONPULL_K_OBJ, ROCE_JSONPULL_REQUIRED },
	[P_STATUS] = { "counter_status", ROCE_JSONPULL_K_OBJ, ROCE_JSONPULL_REQUIRED },
	[P_WHY] = { "counter_why", ROCE_JSONPULL_K_OBJ, ROCE_JSONPULL_LENIENT },
	[P_PFC] = { "pfc", ROCE_JSONPULL_K_OBJ, ROCE_JSONPULL_REQUIRED },
};

struct port {
	struct roce_arena *a;
	struct roce_fragment_port *p;
	struct counters c;
};

static int port_int(struct roce_jsonpull *j, int k, struct roce_fragment_port *p, struct roce_error *err)
{
	static const int64_t range[P_N][2] = {
		[P_PORT] = { 1, 255 },
		[P_GID] = { -1, ROCE_GID_MAX },
		[P_MTU] = { 0, 65536 },
		[P_NETDEV_MTU] = { 0, UINT32_MAX },
		[P_RATE] = { 1, ROCE_RATE_MAX_GBPS * 1000 },
	};
	int64_t v;
	if (roce_jsonpull_int(j, port_members[k].key, range[k][0], range[k][1], &v, err) < 0)
		return -1;
	switch (k) {
	case P_PORT: p->port = (unsigned)v; break;
	case P_GID: p->gid_index = (int)v; break;
	case P_MTU: p->active_mtu = (int)v; break;
	case P_NETDEV_MTU: p->netdev_mtu = (unsigned)v; break;
	case P_RATE: p->rate_mbps = (unsigned)v; break;
	}
	return 0;
}

static int port_member(struct roce_jsonpull *j, int k, void *ctx, struct roce_error *err)
{
	struct port *x = ctx;
	struct roce_fragment_port *p = x->p;
	int v;
	switch (k) {
	case P_DEVICE: return str_keep(j, x->a, "device", ROCE_NAME_MAX - 1, &p->device, err);
	case P_NETDEV: return str_keep(j, x->a, "netdev", IF_NAMESIZE - 1, &p->netdev, err);
	case P_PRESENCE:
		if (roce_jsonpull_enum(j, "presence", presence_name, ROCE_PORT_BOTH, ROCE_PORT_APPEARED, &v, err) < 0)
			return -1;
		p->presence = (uint8_t)v;
		return 0;
	case P_RESET: return roce_jsonpull_bool(j, &p->reset, err);
	case P_STATE_START: return str_keep(j, x->a, "state_start", 23, &p->state_start, err);
	case P_STATE_END: return str_keep(j, x->a, "state_end", 23, &p->state_end, err);
	case P_CHECK: return check_of(j, &p->check, err);
	case P_CHECK_WHY: return str_keep(j, x->a, "check_why", ROCE_WHY_MAX - 1, &p->check_why, err);
	case P_FW: return str_keep(j, x->a, "fw_ver", 63, &p->fw_ver, err);
	case P_COUNTERS: return each_counter(j, one_value, p, &x->c, err);
	case P_STATUS: return each_counter(j, one_status, p, &x->c, err);
	case P_WHY: return each_counter(j, one_why, p, &x->c, err);
	case P_PFC: return read_pfc(j, x->a, p, err);
	}
	return port_int(j, k, p, err);
}

/* The fragment being read, and the room its arrays have. */
struct reading {
	struct roce_fragment *n;
	const char *job_id;
	size_t cap_ports, cap_verdicts, cap_shared;
};

static int one_port(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err)
{
	struct reading *r = ctx;
	struct roce_fragment *n = r->n;
	struct roce_error sub;
	uint64_t seen;
	if (room(&n->arena, (void **)&n->ports, i, &r->cap_ports, 8, sizeof(*n->ports), err) < 0)
		return -1;
	n->n_ports++;
	struct port x = { .a = &n->arena, .p = &n->ports[i] };
	x.p->check = -1;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_OBJECT) {
		roce_error_set(err, "ports[%zu]: port is not an object", i);
		return -1;
	}
	if (roce_jsonpull_members(j, port_members, P_N, port_member, &x, &seen, &sub) < 0 ||
	    counters_agree(x.a, x.p, &x.c, &sub) < 0) {
		roce_error_set(err, "ports[%zu]: %s", i, sub.msg);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- verdicts, shared_with */

enum { V_CODE, V_SEVERITY, V_SUBJECT, V_MESSAGE, V_FIX, V_N };
static const struct roce_jsonpull_member verdict_members[V_N] = {
	[V_CODE] = { "code", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[V_SEVERITY] = { "severity", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[V_SUBJECT] = { "subject", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[V_MESSAGE] = { "message", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[V_FIX] = { "fix", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
};

struct verdict {
	struct roce_arena *a;
	struct roce_fragment_verdict *v;
};

static int verdict_member(struct roce_jsonpull *j, int k, void *ctx, struct roce_error *err)
{
	struct verdict *x = ctx;
	struct roce_fragment_verdict *v = x->v;
	int sev;
	switch (k) {
	case V_CODE: return str_keep(j, x->a, "code", 31, &v->code, err);
	case V_SEVERITY:
		if (roce_jsonpull_enum(j, "severity", severity_name, ROCE_SEV_INFO, ROCE_SEV_FAIL, &sev, err) < 0)
			return -1;
		v->severity = (uint8_t)sev;
		return 0;
	case V_SUBJECT: return str_keep(j, x->a, "subject", 95, &v->subject, err);
	case V_MESSAGE: return str_keep(j, x->a, "message", 1023, &v->message, err);
	}
	return str_keep(j, x->a, "fix", 1023, &v->fix, err);
}

static int one_verdict(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err)
{
	struct reading *r = ctx;
	struct roce_fragment *n = r->n;
	struct roce_error sub;
	uint64_t seen;
	if (room(&n->arena, (void **)&n->verdicts, i, &r->cap_verdicts, 4, sizeof(*n->verdicts), err) < 0)
		return -1;
	n->n_verdicts++;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_OBJECT) {
		roce_error_set(err, "verdicts[%zu]: verdict is not an object", i);
		return -1;
	}
	struct verdict x = { &n->arena, &n->verdicts[i] };
	if (roce_jsonpull_members(j, verdict_members, V_N, verdict_member, &x, &seen, &sub) < 0) {
		roce_error_set(err, "verdicts[%zu]: %s", i, sub.msg);
		return -1;
	}
	return 0;
}

static int one_shared(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err)
{
	struct reading *r = ctx;
	struct roce_fragment *n = r->n;
	const char *s;
	if (room(&n->arena, (void **)&n->shared, i, &r->cap_shared, 2, sizeof(*n->shared), err) < 0)
		return -1;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_STRING) {
		roce_error_set(err, "shared_with[%zu] is not a job id", i);
		return -1;
	}
	if (roce_jsonpull_string(j, &s, NULL, err) < 0)
		return -1;
	if (!roce_slurmid_job_ok(s)) {
		roce_error_set(err, "shared_with[%zu] is not a job id", i);
		return -1;
	}
	n->n_shared++;
	return keep(&n->arena, &n->shared[i], s, err);
}

/* "ran_with": small and rare, read by ranwith.h from its own text. */
static int read_ran_with(struct roce_jsonpull *j, struct roce_fragment *n, struct roce_error *err)
{
	const char *from = j->p;
	if (roce_jsonpull_type(j) == ROCE_JSONPULL_NULL)
		return roce_jsonpull_null(j, err); /* as absent */
	if (roce_jsonpull_skip(j, err) < 0)
		return -1;
	json_object *a = roce_jin_parse(from, (size_t)(j->p - from), err);
	if (!a)
		return -1;
	int rc = -1;
	if (!(n->ran_with = roce_arena_alloc(&n->arena, sizeof(*n->ran_with))))
		roce_error_set(err, "out of memory");
	else
		rc = roce_ranwith_from_json(a, n->ran_with, err);
	json_object_put(a);
	return rc;
}

/* ---------------------------------------------------------------- the node */

enum {
	N_SCHEMA,
	N_JOB,
	N_NAME,
	N_UID,
	N_START,
	N_END,
	N_SECONDS,
	N_SHARED,
	N_GID,
	N_TC,
	N_PRIO,
	N_TRUST,
	N_NOTE,
	N_CHECK,
	N_CHECK_WHY,
	N_RAN_WITH,
	N_PORTS,
	N_VERDICTS,
	N_N
};
static const struct roce_jsonpull_member node_members[N_N] = {
	[N_SCHEMA] = { "schema", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[N_JOB] = { "job_id", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[N_NAME] = { "name", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_REQUIRED },
	[N_UID] = { "job_uid", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[N_START] = { "start_ns", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[N_END] = { "end_ns", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[N_SECONDS] = { "seconds", ROCE_JSONPULL_K_NUM, ROCE_JSONPULL_REQUIRED },
	[N_SHARED] = { "shared_with", ROCE_JSONPULL_K_ARR, ROCE_JSONPULL_REQUIRED },
	[N_GID] = { "gid_index", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[N_TC] = { "traffic_class", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[N_PRIO] = { "pfc_priority", ROCE_JSONPULL_K_INT, ROCE_JSONPULL_REQUIRED },
	[N_TRUST] = { "trust", ROCE_JSONPULL_K_STR, 0 }, /* written only when known; older releases wrote none */
	[N_NOTE] = { "note", ROCE_JSONPULL_K_STR, ROCE_JSONPULL_LENIENT },
	[N_CHECK] = { "check", ROCE_JSONPULL_K_STR, 0 },
	[N_CHECK_WHY] = { "check_why", ROCE_JSONPULL_K_STR, 0 },
	[N_RAN_WITH] = { "ran_with", ROCE_JSONPULL_K_ANY, 0 }, /* an older epilog wrote none */
	[N_PORTS] = { "ports", ROCE_JSONPULL_K_ARR, ROCE_JSONPULL_REQUIRED },
	[N_VERDICTS] = { "verdicts", ROCE_JSONPULL_K_ARR, ROCE_JSONPULL_REQUIRED },
};

static int node_ids(struct roce_jsonpull *j, int k, struct reading *r, struct roce_error *err)
{
	const char *s;
	if (k == N_SCHEMA) {
		if (roce_jsonpull_str(j, "schema", 64, &s, err) < 0)
			return -1;
		if (strcmp(s, ROCE_FRAGMENT_SCHEMA) == 0)
			return 0;
		roce_error_set(err, "unknown schema \"%.64s\"", s);
		return -1;
	}
	if (k == N_JOB) {
		if (roce_jsonpull_str(j, "job_id", ROCE_JOBID_MAX - 1, &s, err) < 0)
			return -1;
		if (strcmp(s, r->job_id) == 0)
			return 0;
		roce_error_set(err, "fragment of job %.24s, not %s", s, r->job_id);
		return -1;
	}
	if (roce_jsonpull_str(j, "name", 63, &s, err) < 0)
		return -1;
	if (!roce_slurmid_node_ok(s)) {
		roce_error_set(err, "\"name\" is not a node name");
		return -1;
	}
	return keep(&r->n->arena, &r->n->name, s, err);
}

static int node_number(struct roce_jsonpull *j, int k, struct roce_fragment *n, struct roce_error *err)
{
	static const int64_t range[N_N][2] = {
		[N_UID] = { 0, UINT32_MAX },    [N_START] = { 0, INT64_MAX }, [N_END] = { 0, INT64_MAX },
		[N_GID] = { -1, ROCE_GID_MAX }, [N_TC] = { -1, 255 },         [N_PRIO] = { -1, 7 },
	};
	struct roce_jsonpull_number num;
	int64_t v;
	if (k == N_SECONDS) {
		if (roce_jsonpull_number(j, &num, err) < 0)
			return -1;
		/* 1e999 is infinite: JSON has no such number */
		if (!isfinite(num.value)) {
			roce_error_set(err, "\"seconds\" is not a finite number");
			return -1;
		}
		if (roce_fragment_bounds_seconds(num.value, err) < 0)
			return -1;
		n->seconds = num.value;
		return 0;
	}
	if (roce_jsonpull_int(j, node_members[k].key, range[k][0], range[k][1], &v, err) < 0)
		return -1;
	switch (k) {
	case N_UID: n->uid = (long)v; break;
	case N_START: n->start_ns = v; break;
	case N_END: n->end_ns = v; break;
	case N_GID: n->gid_index = (int)v; break;
	case N_TC: n->traffic_class = (int)v; break;
	case N_PRIO: n->pfc_priority = (int)v; break;
	}
	return 0;
}

static int trust_of(struct roce_jsonpull *j, enum roce_trust_mode *trust, struct roce_error *err)
{
	int v;
	if (roce_jsonpull_enum(j, "trust", roce_trust_mode_name, ROCE_TRUST_PCP, ROCE_TRUST_DSCP, &v, err) < 0)
		return -1;
	*trust = (enum roce_trust_mode)v;
	return 0;
}

static int node_member(struct roce_jsonpull *j, int k, void *ctx, struct roce_error *err)
{
	struct reading *r = ctx;
	struct roce_fragment *n = r->n;
	const char *s;
	switch (k) {
	case N_SCHEMA:
	case N_JOB:
	case N_NAME: return node_ids(j, k, r, err);
	case N_SHARED: return roce_jsonpull_array(j, "shared_with", SHARED_MAX, one_shared, r, err);
	case N_NOTE: return roce_jsonpull_string(j, &s, NULL, err) < 0 ? -1 : keep(&n->arena, &n->note, s, err);
	case N_CHECK: return check_of(j, &n->check, err);
	case N_TRUST: return trust_of(j, &n->trust, err);
	case N_CHECK_WHY: return str_keep(j, &n->arena, "check_why", ROCE_WHY_MAX - 1, &n->check_why, err);
	case N_RAN_WITH: return read_ran_with(j, n, err);
	case N_PORTS: return roce_jsonpull_array(j, "ports", PORTS_MAX, one_port, r, err);
	case N_VERDICTS: return roce_jsonpull_array(j, "verdicts", VERDICTS_MAX, one_verdict, r, err);
	}
	return node_number(j, k, n, err);
}

int roce_fragment_read(struct roce_arena_pool *pool, char *text, size_t len, const char *job_id,
                       struct roce_fragment *f, struct roce_error *err)
{
	struct roce_jsonpull j;
	struct reading r = { .n = f, .job_id = job_id };
	uint64_t seen;
	memset(f, 0, sizeof(*f));
	f->arena.pool = pool;
	f->file_owner = -1;
	f->check = -1;
	/* What a fragment keeps (8 ports of counters, the escaped strings) is
	 * about 65% of its text: one chunk of this size is usually all it needs
	 * (6,044 of 6,482 bytes for the 9,339 of an 8-port node). */
	f->arena.first = len / 3 * 2 + 256;
	roce_jsonpull_init(&j, text, len);
	if (roce_jsonpull_type(&j) != ROCE_JSONPULL_OBJECT) {
		if (roce_jsonpull_skip(&j, err) == 0)
			roce_error_set(err, "not a JSON object");
	} else if (roce_jsonpull_members(&j, node_members, N_N, node_member, &r, &seen, err) == 0 &&
	           roce_jsonpull_end(&j, err) == 0 && roce_fragment_bounds_check(f, err) == 0) {
		return 0;
	}
	roce_fragment_free(f);
	return -1;
}
