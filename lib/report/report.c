/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c - the merge of a job's fragments, and the groups its printers show. */
#include "config.h"
#include "report/report.h"
#include "base/decimal.h"
#include "base/printable.h"
#include "base/strcopy.h"
#include "read/sysfs.h"
#include "collect/trust.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- merge */

void roce_report_init(struct roce_job_report *r, const char *job_id)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->job_id, sizeof(r->job_id), "%s", job_id ? job_id : "");
}

void roce_report_free(struct roce_job_report *r)
{
	for (size_t i = 0; i < r->n_nodes; i++)
		roce_fragment_free(&r->nodes[i]);
	free(r->nodes);
	for (size_t i = 0; i < r->n_errors; i++)
		free(r->errors[i]);
	free(r->errors);
	roce_arena_pool_free(r->pool);
	memset(r, 0, sizeof(*r));
}

void roce_report_error(struct roce_job_report *r, const char *source, const char *why)
{
	char **grown = realloc(r->errors, (r->n_errors + 1) * sizeof(*grown));
	if (!grown)
		return;
	r->errors = grown;
	/* The file name and what the parser quotes from the file are hostile. */
	size_t len = strlen(source) + strlen(why) + 3;
	char *line = malloc(len);
	if (!line)
		return;
	snprintf(line, len, "%s: %s", source, why);
	r->errors[r->n_errors] = roce_printable_dup(line);
	free(line);
	if (r->errors[r->n_errors])
		r->n_errors++;
}

int roce_report_append(struct roce_job_report *r, struct roce_fragment *f, struct roce_error *err)
{
	/* Duplicate names are found after sorting (roce_report_sort): a scan
	 * here would make the merge quadratic. */
	if (r->n_nodes == r->cap_nodes) {
		size_t cap = r->cap_nodes ? r->cap_nodes * 2 : 64;
		struct roce_fragment *grown = realloc(r->nodes, cap * sizeof(*grown));
		if (!grown) {
			roce_fragment_free(f);
			roce_error_set(err, "out of memory");
			return -1;
		}
		r->nodes = grown;
		r->cap_nodes = cap;
	}
	r->nodes[r->n_nodes++] = *f;
	memset(f, 0, sizeof(*f));
	return 0;
}

int roce_report_take(struct roce_job_report *r, struct roce_job_report *from, struct roce_error *err)
{
	int rc = 0;
	/* first: the nodes moved below live in it */
	r->pool = roce_arena_pool_join(r->pool, from->pool);
	from->pool = NULL;
	for (size_t i = 0; i < from->n_nodes; i++)
		if (rc == 0)
			rc = roce_report_append(r, &from->nodes[i], err);
		else
			roce_fragment_free(&from->nodes[i]);
	from->n_nodes = 0;
	if (from->n_errors) {
		char **grown = realloc(r->errors, (r->n_errors + from->n_errors) * sizeof(*grown));
		if (grown) {
			r->errors = grown;
			memcpy(r->errors + r->n_errors, from->errors, from->n_errors * sizeof(*grown));
			r->n_errors += from->n_errors;
			from->n_errors = 0;
		} else if (rc == 0) {
			roce_error_set(err, "out of memory");
			rc = -1;
		}
	}
	roce_report_free(from);
	return rc;
}

long roce_report_job_uid(const struct roce_job_report *r)
{
	/* The newest fragment root wrote says whose job this instance is: what
	 * root wrote nobody else could change.  Without any (no ACLs, every
	 * fragment its user's), the newest of all. */
	const struct roce_fragment *best = NULL;
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_fragment *n = &r->nodes[i];
		bool root = n->file_owner == 0, best_root = best && best->file_owner == 0;
		if (!best || (root && !best_root) || (root == best_root && n->end_ns > best->end_ns))
			best = n;
	}
	return best ? best->uid : -1;
}

void roce_report_keep_uid(struct roce_job_report *r, long uid)
{
	char why[96], file[80];
	size_t w = 0;
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (r->nodes[i].uid == uid) {
			r->nodes[w++] = r->nodes[i];
			continue;
		}
		snprintf(why, sizeof(why), "job_uid %ld is not the job's (uid %ld)", r->nodes[i].uid, uid);
		snprintf(file, sizeof(file), "%s.json", r->nodes[i].name);
		roce_report_error(r, file, why);
		roce_fragment_free(&r->nodes[i]);
	}
	r->n_nodes = w;
}

static int node_cmp(const void *a, const void *b)
{
	const struct roce_fragment *x = a, *y = b;
	int c = roce_sysfs_natural_cmp(x->name, y->name);
	return c ? c : strcmp(x->name, y->name);
}

void roce_report_sort(struct roce_job_report *r)
{
	if (r->n_nodes > 1)
		qsort(r->nodes, r->n_nodes, sizeof(*r->nodes), node_cmp);
	/* Same name twice (not from ReportDir: one file per node): keep the first. */
	size_t w = 0;
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (w && strcmp(r->nodes[w - 1].name, r->nodes[i].name) == 0) {
			roce_report_error(r, r->nodes[i].name, "duplicate fragment for this node ignored");
			roce_fragment_free(&r->nodes[i]);
			continue;
		}
		r->nodes[w++] = r->nodes[i];
	}
	r->n_nodes = w;
}

double roce_report_seconds(const struct roce_job_report *r)
{
	double s = -1;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].seconds > s)
			s = r->nodes[i].seconds;
	return s;
}

/* ---------------------------------------------------------------- node lists */

char *roce_report_nodelist(const struct roce_job_report *r, roce_nodelist_fn fn)
{
	const char **names = malloc((r->n_nodes ? r->n_nodes : 1) * sizeof(*names));
	if (!names)
		return NULL;
	for (size_t i = 0; i < r->n_nodes; i++)
		names[i] = r->nodes[i].name;
	char *list = roce_nodelist(fn, names, r->n_nodes);
	free(names);
	return list;
}

char *roce_report_group_nodelist(const struct roce_report_group *g, roce_nodelist_fn fn)
{
	return roce_nodelist(fn, g->names, g->n);
}

/* ---------------------------------------------------------------- groups */

void roce_report_groups_free(struct roce_report_groups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].key);
		free(gs->g[i].names);
	}
	free(gs->g);
	roce_hashindex_free(&gs->index);
	memset(gs, 0, sizeof(*gs));
}

struct key_of {
	const struct roce_report_groups *gs;
	const char *key;
};

static bool same_key(size_t pos, const void *arg)
{
	const struct key_of *k = arg;
	return strcmp(k->gs->g[pos].key, k->key) == 0;
}

/* key's group, made (empty) when new; NULL on ENOMEM.  Found by hash: a
 * fragment may carry 65,536 distinct codes, and a search of the groups per
 * verdict took seconds. */
static struct roce_report_group *group_of(struct roce_report_groups *gs, const char *key, bool *made)
{
	struct key_of k = { gs, key };
	uint64_t hash = roce_hashindex_hash(key, strlen(key));
	size_t pos = roce_hashindex_find(&gs->index, hash, same_key, &k);
	*made = pos == SIZE_MAX;
	if (!*made)
		return &gs->g[pos];
	if (gs->n == gs->cap) {
		size_t cap = gs->cap ? 2 * gs->cap : 8;
		struct roce_report_group *grown = realloc(gs->g, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		gs->g = grown;
		gs->cap = cap;
	}
	struct roce_report_group *g = &gs->g[gs->n];
	memset(g, 0, sizeof(*g));
	if (!(g->key = strdup(key)))
		return NULL;
	if (roce_hashindex_add(&gs->index, hash, gs->n) < 0) {
		free(g->key);
		return NULL;
	}
	gs->n++;
	return g;
}

static int group_add(struct roce_report_groups *gs, const char *key, int severity, const char *name, const char *fix)
{
	bool made;
	struct roce_report_group *g = group_of(gs, key, &made);
	if (!g)
		return -1;
	if (made)
		g->fix = fix;
	if (severity > g->severity)
		g->severity = severity;
	/* names arrive in sorted node order, one per node: skip repeats of the last */
	if (g->n && strcmp(g->names[g->n - 1], name) == 0)
		return 0;
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		const char **grown = realloc(g->names, cap * sizeof(*grown));
		if (!grown)
			return -1;
		g->names = grown;
		g->cap = cap;
	}
	g->names[g->n++] = name;
	return 0;
}

int roce_report_group_add(struct roce_report_groups *gs, const char *key, int severity, const char *name)
{
	return group_add(gs, key, severity, name, NULL);
}

static int cmp_group_sev(const void *a, const void *b)
{
	const struct roce_report_group *x = a, *y = b;
	if (x->severity != y->severity)
		return y->severity - x->severity;
	return strcmp(x->key, y->key);
}

int roce_report_verdict_groups(const struct roce_job_report *r, struct roce_report_groups *gs)
{
	int rc = 0;
	for (size_t i = 0; i < r->n_nodes && rc == 0; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts && rc == 0; j++) {
			const struct roce_fragment_verdict *v = &r->nodes[i].verdicts[j];
			rc = group_add(gs, v->code, v->severity, r->nodes[i].name, v->fix);
		}
	/* sorted: the index no longer says where a key is, and is not needed */
	roce_hashindex_free(&gs->index);
	if (gs->n > 1)
		qsort(gs->g, gs->n, sizeof(*gs->g), cmp_group_sev);
	return rc;
}

/* ---------------------------------------------------------------- consistency */

/* The value functions below run for every port of every node, 16,384
 * nodes x 8 ports x 7 rows in a large job: they copy and format without
 * printf.  buf has room for the longest number (text_uint's len >= 21). */

static size_t text_uint(char *buf, size_t len, uint64_t v)
{
	char d[ROCE_DECIMAL_U64_MAX + 1];
	d[roce_decimal_u64(d, v)] = '\0';
	return roce_strcopy(buf, len, d);
}

static void gid_value(const struct roce_fragment *n, char *buf, size_t len)
{
	if (n->gid_index >= 0)
		text_uint(buf, len, (uint64_t)n->gid_index);
	else
		roce_strcopy(buf, len, "unknown");
}

static void port_mtu(const struct roce_fragment_port *p, char *v, size_t len)
{
	if (p->active_mtu > 0)
		text_uint(v, len, (uint64_t)p->active_mtu);
	else
		roce_strcopy(v, len, "unknown");
}

/* Gb/s as roce-check says it ("100", "2.5"). */
static void port_rate(const struct roce_fragment_port *p, char *v, size_t len)
{
	if (!p->rate_mbps) {
		roce_strcopy(v, len, "unknown");
		return;
	}
	size_t n = text_uint(v, len, p->rate_mbps / 1000);
	if (p->rate_mbps % 1000 && n + 2 < len) {
		v[n] = '.';
		v[n + 1] = (char)('0' + p->rate_mbps % 1000 / 100);
		v[n + 2] = '\0';
	}
}

static void port_fw(const struct roce_fragment_port *p, char *v, size_t len)
{
	roce_strcopy(v, len, p->fw_ver ? p->fw_ver : "unknown");
}

static void tc_value(const struct roce_fragment *n, char *buf, size_t len)
{
	if (n->traffic_class >= 0)
		text_uint(buf, len, (uint64_t)n->traffic_class);
	else
		roce_strcopy(buf, len, "none");
}

/* "pcp", "dscp", or "unknown" (not read, or a fragment of an older release). */
static void trust_value(const struct roce_fragment *n, char *buf, size_t len)
{
	roce_strcopy(buf, len, roce_trust_mode_name(n->trust));
}

/* "3", "3+4", "none", or "unknown" when PFC was not read. */
static void port_pfc(const struct roce_fragment_port *p, char *v, size_t len)
{
	if (p->pfc_status == ROCE_DELTA_UNREAD) {
		roce_strcopy(v, len, "unknown");
		return;
	}
	size_t n = 0;
	for (int q = 0; q < ROCE_PRIOS && n + 2 < len; q++)
		if (p->pfc_enabled & (1u << q)) {
			if (n)
				v[n++] = '+';
			v[n++] = (char)('0' + q);
		}
	v[n] = '\0';
	if (!n)
		roce_strcopy(v, len, "none");
}

/* The distinct values of the node's ports, in port order ("4096,1024");
 * a port that vanished has none. */
static void port_values(const struct roce_fragment *n, void (*value)(const struct roce_fragment_port *, char *, size_t),
                        char *buf, size_t len)
{
	char last[40] = "";
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n->n_ports; i++) {
		char v[40], probe[48], have[300];
		if (n->ports[i].presence == ROCE_PORT_VANISHED)
			continue;
		value(&n->ports[i], v, sizeof(v));
		/* ports mostly agree: the last port's value is already there */
		if (buf[0] && strcmp(v, last) == 0)
			continue;
		size_t vl = roce_strcopy(last, sizeof(last), v);
		/* ",v," in ",buf,": v is listed (a value with a comma is ambiguous either way) */
		probe[0] = ',';
		memcpy(probe + 1, v, vl);
		memcpy(probe + 1 + vl, ",", 2);
		have[0] = ',';
		memcpy(have + 1, buf, used);
		memcpy(have + 1 + used, ",", 2);
		if (strstr(have, probe))
			continue;
		if (buf[0] && used + 1 < len)
			buf[used++] = ',';
		used += roce_strcopy(buf + used, len - used, v);
	}
	if (!buf[0])
		roce_strcopy(buf, len, "no ports");
}

/* As port_pfc, on a node whose policy checks no PFC (PfcPriority=none,
 * recorded in the fragment as pfc_priority -1): PFC not read is "not
 * checked" there, not unknown (a veth, a driver without DCB, nobody asked). */
static void port_pfc_unchecked(const struct roce_fragment_port *p, char *v, size_t len)
{
	if (p->pfc_status == ROCE_DELTA_UNREAD)
		roce_strcopy(v, len, "not checked");
	else
		port_pfc(p, v, len);
}

static void mtu_values(const struct roce_fragment *n, char *buf, size_t len) { port_values(n, port_mtu, buf, len); }
static void pfc_values(const struct roce_fragment *n, char *buf, size_t len)
{
	port_values(n, n->pfc_priority < 0 ? port_pfc_unchecked : port_pfc, buf, len);
}
static void rate_values(const struct roce_fragment *n, char *buf, size_t len) { port_values(n, port_rate, buf, len); }
static void fw_values(const struct roce_fragment *n, char *buf, size_t len) { port_values(n, port_fw, buf, len); }

/* To check one more value across nodes: a row here and an enum entry in report.h. */
static const struct {
	const char *name, *title;
	void (*value)(const struct roce_fragment *n, char *buf, size_t len);
} consistency[ROCE_CONS_N] = {
	[ROCE_CONS_GID] = { "gid_index", "RoCE v2 GID index", gid_value },
	[ROCE_CONS_MTU] = { "active_mtu", "RDMA MTU", mtu_values },
	[ROCE_CONS_PFC] = { "pfc_priorities", "PFC priorities", pfc_values },
	[ROCE_CONS_RATE] = { "link_rate", "Link rate (Gb/s)", rate_values },
	[ROCE_CONS_FW] = { "firmware", "Firmware", fw_values },
	[ROCE_CONS_TC] = { "traffic_class", "Traffic class", tc_value },
	[ROCE_CONS_TRUST] = { "trust", "Priority trust", trust_value },
};

const char *roce_report_consistency_name(enum roce_report_consistency k) { return consistency[k].name; }

const char *roce_report_consistency_title(enum roce_report_consistency k) { return consistency[k].title; }

int roce_report_consistency_groups(const struct roce_job_report *r, enum roce_report_consistency k,
                                   struct roce_report_groups *gs)
{
	for (size_t i = 0; i < r->n_nodes; i++) {
		char v[256];
		consistency[k].value(&r->nodes[i], v, sizeof(v));
		if (group_add(gs, v, 0, r->nodes[i].name, NULL) < 0)
			return -1;
	}
	return 0;
}
