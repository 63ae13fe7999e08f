/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fragment.c - a node's fragment: its memory, written as JSON, built from a delta (fragment.h). */
#include "config.h"
#include "fragment/fragment.h"
#include "base/decimal.h"
#include "collect/trust.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- memory */

void roce_fragment_free(struct roce_fragment *n)
{
	roce_arena_free(&n->arena);
	memset(n, 0, sizeof(*n));
}

/* ---------------------------------------------------------------- JSON out */

/* Written directly, not through a json-c tree: the report writes 16,384 of
 * these, and a tree per node cost more than the rest of the merge. */

/* The writer: text so far, and whether an allocation failed (then every
 * later write is skipped and roce_fragment_write says so once). */
struct w {
	struct roce_fragment_text *t;
	bool oom;
};

/* Room for n more bytes and the NUL; NULL once out of memory. */
static char *room(struct w *w, size_t n)
{
	struct roce_fragment_text *t = w->t;
	if (w->oom)
		return NULL;
	if (t->cap - t->len <= n) {
		size_t cap = t->cap ? t->cap : 4096;
		while (cap - t->len <= n)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			w->oom = true;
			return NULL;
		}
		t->s = s;
		t->cap = cap;
	}
	return t->s + t->len;
}

static void raw(struct w *w, const char *s, size_t n)
{
	char *p = room(w, n);
	if (!p)
		return;
	memcpy(p, s, n);
	w->t->len += n;
	p[n] = '\0';
}

static void lit(struct w *w, const char *s) { raw(w, s, strlen(s)); }

/* What json-c's json_escape_str writes for byte c (slashes escaped, as
 * without JSON_C_TO_STRING_NOSLASHESCAPE); 0: the byte as it is (also
 * DEL and bytes >= 0x80: json-c checks no UTF-8 on output). */
static int escape(unsigned char c, char out[6])
{
	static const char hex[] = "0123456789abcdef";
	static const char named[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n',  ['\r'] = 'r',
		                      ['\t'] = 't', ['"'] = '"',  ['\\'] = '\\', ['/'] = '/' };
	if (c < sizeof(named) && named[c]) {
		out[0] = '\\';
		out[1] = named[c];
		return 2;
	}
	if (c >= 0x20)
		return 0;
	memcpy(out, "\\u00", 4);
	out[4] = hex[c >> 4];
	out[5] = hex[c & 0xf];
	return 6;
}

/* s quoted and escaped (NULL as ""); runs of plain bytes copied at once. */
static void str(struct w *w, const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	char *p = room(w, 6 * n + 2), *start = p;
	if (!p)
		return;
	*p++ = '"';
	for (size_t i = 0, run = 0; i <= n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (i < n && c >= 0x20 && c != '"' && c != '\\' && c != '/')
			continue; /* the common byte, without escape()'s lookups */
		char e[6];
		int k = i < n ? escape(c, e) : -1;
		if (k == 0)
			continue;
		memcpy(p, s + run, i - run);
		p += i - run;
		if (k > 0) {
			memcpy(p, e, (size_t)k);
			p += k;
		}
		run = i + 1;
	}
	*p++ = '"';
	*p = '\0';
	w->t->len += (size_t)(p - start);
}

static void u64(struct w *w, uint64_t v)
{
	char d[ROCE_DECIMAL_U64_MAX];
	raw(w, d, roce_decimal_u64(d, v));
}

static void i64(struct w *w, int64_t v)
{
	if (v < 0) {
		raw(w, "-", 1);
		u64(w, -(uint64_t)v);
	} else {
		u64(w, (uint64_t)v);
	}
}

/* json-c's default double: "%.17g", a locale's ',' as '.', and ".0" after
 * an integral value so it reads back as a double; NaN and infinities by name. */
static void dbl(struct w *w, double v)
{
	char b[128];
	if (isnan(v)) {
		lit(w, "NaN");
		return;
	}
	if (isinf(v)) {
		lit(w, v > 0 ? "Infinity" : "-Infinity");
		return;
	}
	int n = snprintf(b, sizeof(b) - 2, "%.17g", v);
	if (n < 0 || n >= (int)sizeof(b) - 2)
		return;
	char *comma = strchr(b, ',');
	if (comma)
		*comma = '.';
	bool numeric = (b[0] >= '0' && b[0] <= '9') || (b[0] == '-' && b[1] >= '0' && b[1] <= '9');
	if (numeric && !strchr(b, '.') && !strchr(b, 'e'))
		memcpy(b + n, ".0", 3), n += 2;
	raw(w, b, (size_t)n);
}

/* ",\"key\":" written by the caller as one literal; these write the value. */
static void key_str(struct w *w, const char *key, const char *v)
{
	lit(w, key);
	str(w, v);
}

static void key_int(struct w *w, const char *key, int64_t v)
{
	lit(w, key);
	i64(w, v);
}

static void check_out(struct w *w, int check, const char *why)
{
	if (check < 0)
		return;
	key_str(w, ",\"check\":", roce_finding_verdict_name((enum roce_verdict)check));
	if (why)
		key_str(w, ",\"check_why\":", why);
}

/* open, then "name": for a member name of ours: a counter's sysfs name, a
 * plain identifier with nothing to escape (test_fragment_write compares
 * every byte with json-c's).  Each port has 26 of them. */
static void name_key(struct w *w, char open, const char *name)
{
	size_t n = strlen(name);
	char *p = room(w, n + 4);
	if (!p)
		return;
	p[0] = open;
	p[1] = '"';
	memcpy(p + 2, name, n);
	memcpy(p + 2 + n, "\":", 3); /* and the NUL */
	w->t->len += n + 4;
}

/* "counters" (null when unread), "counter_status" (only those not "ok")
 * and "counter_why" (only unread ones with a reason). */
static void counters_out(struct w *w, const struct roce_fragment_port *p)
{
	lit(w, ",\"counters\":");
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		name_key(w, i ? ',' : '{', roce_counter_defs[i].report_name);
		if (p->cs[i] == ROCE_DELTA_UNREAD)
			lit(w, "null");
		else
			u64(w, p->c[i]);
	}
	raw(w, "}", 1); /* ROCE_N_COUNTERS > 0: never empty */
	lit(w, ",\"counter_status\":");
	char open = '{';
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (p->cs[i] != ROCE_DELTA_OK) {
			name_key(w, open, roce_counter_defs[i].report_name);
			str(w, roce_delta_status_name(p->cs[i]));
			open = ',';
		}
	lit(w, open == '{' ? "{}" : "}");
	lit(w, ",\"counter_why\":");
	open = '{';
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (p->cs[i] == ROCE_DELTA_UNREAD && p->why && p->why[i]) {
			name_key(w, open, roce_counter_defs[i].report_name);
			str(w, p->why[i]);
			open = ',';
		}
	lit(w, open == '{' ? "{}" : "}");
}

static void u64s_out(struct w *w, const char *key, const uint64_t *v)
{
	lit(w, key);
	for (int i = 0; i < ROCE_PRIOS; i++) {
		raw(w, i ? "," : "[", 1);
		u64(w, v[i]);
	}
	raw(w, "]", 1); /* ROCE_PRIOS entries: never empty */
}

static void pfc_out(struct w *w, const struct roce_fragment_port *p)
{
	key_str(w, ",\"pfc\":{\"status\":", roce_delta_status_name(p->pfc_status));
	if (p->pfc_status == ROCE_DELTA_UNREAD) {
		key_str(w, ",\"why\":", p->pfc_why);
	} else {
		const char *sep = "[";
		lit(w, ",\"enabled\":");
		for (int i = 0; i < ROCE_PRIOS; i++)
			if (p->pfc_enabled & (1u << i)) {
				lit(w, sep);
				i64(w, i);
				sep = ",";
			}
		lit(w, *sep == '[' ? "[]" : "]");
		u64s_out(w, ",\"requests\":", p->pfc_req);
		u64s_out(w, ",\"indications\":", p->pfc_ind);
	}
	raw(w, "}", 1);
}

static void port_out(struct w *w, const struct roce_fragment_port *p)
{
	key_str(w, "{\"device\":", p->device);
	key_int(w, ",\"port\":", (int)p->port);
	key_str(w, ",\"netdev\":", p->netdev);
	key_str(w, ",\"presence\":", roce_delta_presence_name(p->presence));
	lit(w, p->reset ? ",\"reset\":true" : ",\"reset\":false");
	key_int(w, ",\"gid_index\":", p->gid_index);
	key_int(w, ",\"active_mtu\":", p->active_mtu);
	key_int(w, ",\"netdev_mtu\":", p->netdev_mtu);
	if (p->state_start)
		key_str(w, ",\"state_start\":", p->state_start);
	if (p->state_end)
		key_str(w, ",\"state_end\":", p->state_end);
	check_out(w, p->check, p->check_why);
	if (p->rate_mbps)
		key_int(w, ",\"rate_mbps\":", p->rate_mbps);
	if (p->fw_ver)
		key_str(w, ",\"fw_ver\":", p->fw_ver);
	counters_out(w, p);
	pfc_out(w, p);
	raw(w, "}", 1);
}

static void verdict_out(struct w *w, const struct roce_fragment_verdict *v)
{
	key_str(w, "{\"code\":", v->code);
	key_str(w, ",\"severity\":", roce_verdict_severity_name((enum roce_severity)v->severity));
	key_str(w, ",\"subject\":", v->subject);
	key_str(w, ",\"message\":", v->message);
	key_str(w, ",\"fix\":", v->fix);
	raw(w, "}", 1);
}

/* "ran_with" stays json-c's: its schema is ranwith.c's, and few fragments carry one. */
static void ranwith_out(struct w *w, const struct roce_ranwith *rw)
{
	json_object *a = roce_ranwith_to_json(rw);
	const char *text = a ? json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN) : NULL;
	if (text) {
		lit(w, ",\"ran_with\":");
		lit(w, text);
	} else {
		w->oom = true;
	}
	json_object_put(a);
}

int roce_fragment_write(struct roce_fragment_text *t, const struct roce_fragment *n, const char *job_id,
                        bool with_schema)
{
	struct w w = { t, false };
	size_t start = t->len;
	if (with_schema)
		key_str(&w, "{\"schema\":", ROCE_FRAGMENT_SCHEMA);
	key_str(&w, with_schema ? ",\"job_id\":" : "{\"job_id\":", job_id);
	key_str(&w, ",\"name\":", n->name);
	key_int(&w, ",\"job_uid\":", n->uid);
	key_int(&w, ",\"start_ns\":", n->start_ns);
	key_int(&w, ",\"end_ns\":", n->end_ns);
	lit(&w, ",\"seconds\":");
	dbl(&w, n->seconds);
	lit(&w, ",\"shared_with\":");
	for (size_t i = 0; i < n->n_shared; i++) {
		raw(&w, i ? "," : "[", 1);
		str(&w, n->shared[i]);
	}
	lit(&w, n->n_shared ? "]" : "[]");
	key_int(&w, ",\"gid_index\":", n->gid_index);
	key_int(&w, ",\"traffic_class\":", n->traffic_class);
	key_int(&w, ",\"pfc_priority\":", n->pfc_priority);
	if (n->trust != ROCE_TRUST_UNKNOWN)
		key_str(&w, ",\"trust\":", roce_trust_mode_name(n->trust));
	if (n->note)
		key_str(&w, ",\"note\":", n->note);
	check_out(&w, n->check, n->check_why);
	lit(&w, ",\"ports\":");
	for (size_t i = 0; i < n->n_ports; i++) {
		raw(&w, i ? "," : "[", 1);
		port_out(&w, &n->ports[i]);
	}
	lit(&w, n->n_ports ? "]" : "[]");
	lit(&w, ",\"verdicts\":");
	for (size_t i = 0; i < n->n_verdicts; i++) {
		raw(&w, i ? "," : "[", 1);
		verdict_out(&w, &n->verdicts[i]);
	}
	lit(&w, n->n_verdicts ? "]" : "[]");
	if (n->ran_with)
		ranwith_out(&w, n->ran_with);
	raw(&w, "}", 1);
	if (w.oom) {
		t->len = start;
		if (t->s)
			t->s[start] = '\0';
		return -1;
	}
	return 0;
}

void roce_fragment_write_free(struct roce_fragment_text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
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
	n->file_owner = -1;
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
	                       copy(a, &to->message, v->message, false) && copy(a, &to->fix, v->fix, false)
	               ? 0
	               : -1;
}

/* Everything copied into n's arena (fragment.h), as a fragment read from a
 * file holds it: n outlives d, v and rw. */
int roce_fragment_build(struct roce_fragment *n, const struct roce_fragment_meta *m, const struct roce_delta *d,
                        const struct roce_verdict_list *v, const struct roce_ranwith *rw)
{
	struct roce_arena *a = &n->arena;
	if (node_from_meta(n, m, d) < 0)
		goto fail;
	if (d->n_ports && !(n->ports = roce_arena_alloc(a, d->n_ports * sizeof(*n->ports))))
		goto fail;
	for (; n->n_ports < d->n_ports; n->n_ports++)
		if (port_from_delta(a, &n->ports[n->n_ports], &d->ports[n->n_ports]) < 0)
			goto fail;
	if (v->n && !(n->verdicts = roce_arena_alloc(a, v->n * sizeof(*n->verdicts))))
		goto fail;
	for (; n->n_verdicts < v->n; n->n_verdicts++)
		if (verdict_copy(a, &n->verdicts[n->n_verdicts], &v->v[n->n_verdicts]) < 0)
			goto fail;
	if (rw && rw->n) {
		if (!(n->ran_with = roce_arena_alloc(a, sizeof(*n->ran_with))))
			goto fail;
		*n->ran_with = *rw;
	}
	return 0;
fail:
	roce_fragment_free(n);
	return -1;
}
