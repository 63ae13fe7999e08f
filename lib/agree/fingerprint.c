/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fingerprint.c - a node's fingerprint: built from its check, to JSON, parsed back strictly (fingerprint.h). */
#include "config.h"
#include "agree/fingerprint.h"
#include "base/slurmid.h"
#include "probe/sockaddr.h"
#include "read/jsonin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const char *const verdict_names[] = { "pass", "warn", "fail", "unchecked" };
static const char *const trust_names[] = {
	[ROCE_TRUST_UNKNOWN] = "unknown", [ROCE_TRUST_PCP] = "pcp", [ROCE_TRUST_DSCP] = "dscp"
};

const char *roce_fingerprint_probe_name(int v)
{
	static const char *const names[] = { "none", "ok", "no_answer", "size", "dscp", "local" };
	return v >= 0 && v <= ROCE_FP_PROBE_LOCAL ? names[v] : NULL;
}

const char *roce_fingerprint_verdict_name(int v) { return v >= 0 && v <= ROCE_FP_UNCHECKED ? verdict_names[v] : NULL; }

const char *roce_fingerprint_trust_name(int t) { return t >= 0 && t <= ROCE_TRUST_DSCP ? trust_names[t] : NULL; }

/* A firmware, board, adapter type or driver version: what sysfs shows for
 * them ("20.39.1002", "MT_0000000223", "24.10-1.1.4"), or "" (unknown).
 * Anything else is refused: these words end up in srun's messages. */
static bool word_ok(const char *s)
{
	size_t n = strlen(s);
	return n < ROCE_FP_WORD_MAX &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+~:-") == n;
}

/* Only the characters of s, at most max bytes, and something. */
static bool text_of(const char *s, size_t max, const char *chars)
{
	size_t n = strlen(s);
	return n > 0 && n < max && strspn(s, chars) == n;
}

#define ALNUM "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
/* A problem as brief.h makes one from our checks ("pfc", "unknown (no ecn/)",
 * "mlx5_0:1,mlx5_1:1"): these words end up in srun's messages, for every
 * user of the job. */
static bool problem_ok(const struct roce_brief *b)
{
	return b->status >= ROCE_WARN && b->status <= ROCE_FAIL &&
	       text_of(b->check, sizeof(b->check), "abcdefghijklmnopqrstuvwxyz0123456789_") &&
	       text_of(b->cause, sizeof(b->cause), ALNUM " ()/._+-") &&
	       (!b->subjects[0] || text_of(b->subjects, sizeof(b->subjects), ALNUM "_:.,@+=-"));
}

static void word_copy(char *dst, const char *src, bool ok)
{
	snprintf(dst, ROCE_FP_WORD_MAX, "%s", ok && word_ok(src) ? src : "");
}

/* ---------------------------------------------------------------- build */

/* "100 Gb/sec (4X EDR)" -> 100; 0 when unknown. */
static unsigned port_rate(const struct roce_port *mp)
{
	if (!mp || !roce_reading_ok(&mp->rate_read))
		return 0;
	unsigned long g = strtoul(mp->rate, NULL, 10);
	return g <= 100000 ? (unsigned)g : 0;
}

/* The GID's address: its family, *addr into its raw bytes (4 or 16). */
static int gid_addr(const struct roce_gid *g, const uint8_t **addr)
{
	bool v4 = roce_gid_is_ipv4(g->raw);
	*addr = v4 ? g->raw + 12 : g->raw;
	return v4 ? AF_INET : AF_INET6;
}

/* The netdev the GID's address is on: the GID's own (a VLAN's), else the port's. */
static const char *gid_netdev(const struct roce_gid *g, const struct roce_port_result *r)
{
	return roce_reading_ok(&g->ndev_read) && g->ndev[0] ? g->ndev : r->netdev;
}

/* The port's rail: the Rails= entry that holds its GID's address, else the
 * subnet of that address on the GID's netdev (rtnetlink); "" unknown. */
static void port_rail(const struct roce_policy *p, const struct roce_node *model, const struct roce_port *mp,
                      const struct roce_port_result *r, char *out)
{
	const struct roce_gid *g = roce_port_read_gid(mp, r->gid_index);
	const uint8_t *addr;
	struct roce_subnet net;
	out[0] = '\0';
	if (!g)
		return;
	int family = gid_addr(g, &addr);
	int k = roce_policy_rail_of(p, family, addr);
	if (k >= 0) {
		roce_subnet_format(&p->rails[k].net, out);
		return;
	}
	const struct roce_netdev *nd = roce_node_find_netdev(model, gid_netdev(g, r));
	if (!nd || !roce_reading_ok(&nd->addr_read))
		return;
	for (size_t i = 0; i < nd->n_addrs; i++)
		if (nd->addrs[i].family == family && memcmp(nd->addrs[i].addr, addr, family == AF_INET ? 4 : 16) == 0) {
			roce_subnet_of(family, addr, nd->addrs[i].prefix, &net);
			roce_subnet_format(&net, out);
			return;
		}
}

/* One ECN point (np or rp) of prio over the netdevs that hold it: off when
 * one has it off, unknown when one was not read, else on. */
static int ecn_point(const struct roce_netdev *const *qos, size_t n, int prio, bool np)
{
	int v = 1;
	for (size_t i = 0; i < n; i++) {
		const struct roce_netdev *nd = qos[i];
		bool read = nd->ecn.read.status != ROCE_MISSING && nd->ecn.read.status != ROCE_NOT_READ;
		int x = !read ? -1 : np ? nd->ecn.np[prio] : nd->ecn.rp[prio];
		if (x == 0)
			return 0;
		if (x < 0)
			v = -1;
	}
	return v;
}

/* ECN's notification and reaction points on priority prio of the port
 * whose netdev is name: on each member of a bond (RoCE LAG: the bond has
 * none), else on the netdev. */
static void port_ecn(const struct roce_node *model, const char *name, int prio, struct roce_fp_port *fp)
{
	const struct roce_netdev *nd = model && name[0] ? roce_node_find_netdev(model, name) : NULL;
	fp->ecn_np = fp->ecn_rp = -1;
	if (!nd || prio < 0 || prio >= ROCE_PRIOS)
		return;
	const struct roce_netdev *qos[ROCE_BOND_MEMBERS_MAX];
	size_t n = roce_node_qos_netdevs(model, nd, qos);
	fp->ecn_np = ecn_point(qos, n, prio, true);
	fp->ecn_rp = ecn_point(qos, n, prio, false);
}

static void add_device(struct roce_fingerprint *f, const struct roce_node *model, const char *name)
{
	const struct roce_device *d = model ? roce_node_find_device(model, name) : NULL;
	if (roce_fingerprint_device(f, name) || f->n_devices == ROCE_FP_PORTS_MAX)
		return;
	struct roce_fp_device *fd = &f->devices[f->n_devices++];
	snprintf(fd->device, sizeof(fd->device), "%s", name);
	word_copy(fd->hca_type, d ? d->hca_type : "", d && roce_reading_ok(&d->hca_type_read));
	word_copy(fd->board_id, d ? d->board_id : "", d && roce_reading_ok(&d->board_id_read));
	word_copy(fd->fw_ver, d ? d->fw_ver : "", d && roce_reading_ok(&d->fw_ver_read));
}

/* PCI order (the slot, the same on nodes of one model whatever the
 * devices are named), then the name and the port. */
static int port_order(const void *a, const void *b, void *arg)
{
	const struct roce_fp_port *x = a, *y = b;
	const struct roce_node *model = arg;
	const struct roce_device *dx = model ? roce_node_find_device(model, x->device) : NULL,
	                         *dy = model ? roce_node_find_device(model, y->device) : NULL;
	const char *px = dx && roce_reading_ok(&dx->pci_read) ? dx->pci_addr : "",
	           *py = dy && roce_reading_ok(&dy->pci_read) ? dy->pci_addr : "";
	int c = (!*px) - (!*py); /* unknown last */
	if (!c)
		c = strcmp(px, py);
	if (!c)
		c = strverscmp(x->device, y->device);
	return c ? c : (x->port > y->port) - (x->port < y->port);
}

/* What the job's output would say of the node, as the step says it
 * (spank/slurmstepd.c): the worst ROCE_FP_PROBLEMS_MAX, the others counted. */
static void add_problems(const struct roce_check_result *check, struct roce_fingerprint *out)
{
	struct roce_brief b[ROCE_FP_PROBLEMS_MAX];
	size_t total = roce_brief_of(check->findings, check->n_findings, ROCE_BRIEF_SAID, b, ROCE_FP_PROBLEMS_MAX);
	size_t kept = total < ROCE_FP_PROBLEMS_MAX ? total : ROCE_FP_PROBLEMS_MAX;
	for (size_t i = 0; i < kept; i++)
		if (problem_ok(&b[i]))
			out->problems[out->n_problems++] = b[i];
	out->problems_more = (unsigned)(total - out->n_problems);
}

static void head_of(const struct roce_policy *p, const char *job_id, const char *node, struct roce_fingerprint *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->job_id, sizeof(out->job_id), "%s", job_id ? job_id : "");
	snprintf(out->node, sizeof(out->node), "%s", node ? node : "");
	out->addr_family = p->addr_family == AF_INET6 ? 6 : 4;
	out->pfc_priority = p->pfc_priority;
	out->gid_index = -1;
	out->traffic_class = -1;
}

void roce_fingerprint_unchecked(const struct roce_policy *p, const char *job_id, const char *node,
                                struct roce_fingerprint *out)
{
	head_of(p, job_id, node, out);
	out->verdict = ROCE_FP_UNCHECKED;
}

void roce_fingerprint_from_check(const struct roce_policy *p, const struct roce_node *model,
                                 const struct roce_check_result *check, const char *job_id, const char *node,
                                 struct roce_fingerprint *out)
{
	head_of(p, job_id, node, out);
	out->verdict = check->failed                                      ? ROCE_FP_FAIL
	               : check->n_fail + check->n_warn + check->n_unknown ? ROCE_FP_WARN
	                                                                  : ROCE_FP_PASS;
	out->gid_index = check->gid_index;
	out->traffic_class = check->traffic_class;
	out->trust = check->trust >= 0 && check->trust <= ROCE_TRUST_DSCP ? check->trust : ROCE_TRUST_UNKNOWN;
	if (model)
		word_copy(out->driver, model->modules[0].version, roce_reading_ok(&model->modules[0].read));
	for (size_t i = 0; i < check->n_ports && out->n_ports < ROCE_FP_PORTS_MAX; i++) {
		const struct roce_port_result *r = &check->ports[i];
		if (!r->healthy)
			continue;
		const struct roce_port *mp = roce_node_find_port(model, r->device, r->port);
		struct roce_fp_port *fp = &out->ports[out->n_ports++];
		snprintf(fp->device, sizeof(fp->device), "%s", r->device);
		fp->port = r->port;
		snprintf(fp->netdev, sizeof(fp->netdev), "%s", r->netdev);
		port_rail(p, model, mp, r, fp->rail);
		fp->active_mtu = r->active_mtu;
		fp->netdev_mtu = r->netdev_mtu;
		fp->rate_gbps = port_rate(mp);
		port_ecn(model, r->netdev, p->pfc_priority, fp);
		add_device(out, model, r->device);
	}
	qsort_r(out->ports, out->n_ports, sizeof(out->ports[0]), port_order, (void *)model);
	add_problems(check, out);
}

int roce_fingerprint_port_addr(const struct roce_node *model, const struct roce_check_result *check, const char *device,
                               unsigned port, uint8_t addr[16], char netdev[IF_NAMESIZE])
{
	for (size_t i = 0; i < check->n_ports; i++) {
		const struct roce_port_result *r = &check->ports[i];
		const uint8_t *a;
		if (r->port != port || strcmp(r->device, device) != 0)
			continue;
		const struct roce_gid *g = roce_port_read_gid(roce_node_find_port(model, device, port), r->gid_index);
		if (!g)
			return 0;
		int family = gid_addr(g, &a);
		memcpy(addr, a, family == AF_INET ? 4 : 16);
		snprintf(netdev, IF_NAMESIZE, "%s", gid_netdev(g, r));
		return family;
	}
	return 0;
}

const struct roce_fp_port *roce_fingerprint_port(const struct roce_fingerprint *f, const char *device, unsigned port)
{
	for (size_t i = 0; i < f->n_ports; i++)
		if (f->ports[i].port == port && strcmp(f->ports[i].device, device) == 0)
			return &f->ports[i];
	return NULL;
}

const struct roce_fp_device *roce_fingerprint_device(const struct roce_fingerprint *f, const char *device)
{
	for (size_t i = 0; i < f->n_devices; i++)
		if (strcmp(f->devices[i].device, device) == 0)
			return &f->devices[i];
	return NULL;
}

/* ---------------------------------------------------------------- JSON out */

/* {"verdict": "ok"} alone when it passed: the same bytes on every such node. */
static json_object *probe_json(const struct roce_fp_probe_result *r)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "verdict", json_object_new_string(roce_fingerprint_probe_name(r->verdict)));
	if (r->verdict == ROCE_FP_PROBE_OK)
		return o;
	json_object_object_add(o, "peer", json_object_new_string(r->peer));
	json_object_object_add(o, "largest", json_object_new_int64(r->largest));
	json_object_object_add(o, "of", json_object_new_int64(r->of));
	json_object_object_add(o, "sent", json_object_new_int(r->sent));
	json_object_object_add(o, "arrived", json_object_new_int(r->arrived));
	return o;
}

static json_object *port_json(const struct roce_fp_port *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int((int)p->port));
	json_object_object_add(o, "netdev", json_object_new_string(p->netdev));
	json_object_object_add(o, "rail", json_object_new_string(p->rail));
	json_object_object_add(o, "active_mtu", json_object_new_int(p->active_mtu));
	json_object_object_add(o, "netdev_mtu", json_object_new_int64(p->netdev_mtu));
	json_object_object_add(o, "rate_gbps", json_object_new_int64(p->rate_gbps));
	json_object_object_add(o, "ecn_np", json_object_new_int(p->ecn_np));
	json_object_object_add(o, "ecn_rp", json_object_new_int(p->ecn_rp));
	if (p->probe.verdict != ROCE_FP_PROBE_NONE)
		json_object_object_add(o, "probe", probe_json(&p->probe));
	return o;
}

static json_object *device_json(const struct roce_fp_device *d)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(d->device));
	json_object_object_add(o, "hca_type", json_object_new_string(d->hca_type));
	json_object_object_add(o, "board_id", json_object_new_string(d->board_id));
	json_object_object_add(o, "fw_ver", json_object_new_string(d->fw_ver));
	return o;
}

static json_object *problem_json(const struct roce_brief *b)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string(roce_finding_verdict_name(b->status)));
	json_object_object_add(o, "check", json_object_new_string(b->check));
	json_object_object_add(o, "cause", json_object_new_string(b->cause));
	json_object_object_add(o, "subjects", json_object_new_string(b->subjects));
	return o;
}

static json_object *problems_json(const struct roce_fingerprint *f)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; a && i < f->n_problems; i++)
		json_object_array_add(a, problem_json(&f->problems[i]));
	return a;
}

json_object *roce_fingerprint_to_json(const struct roce_fingerprint *f)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array(), *devs = json_object_new_array();
	if (!o || !ports || !devs) {
		json_object_put(o);
		json_object_put(ports);
		json_object_put(devs);
		return NULL;
	}
	json_object_object_add(o, "schema", json_object_new_string(ROCE_FP_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(f->job_id));
	json_object_object_add(o, "verdict", json_object_new_string(roce_fingerprint_verdict_name(f->verdict)));
	json_object_object_add(o, "gid_index", json_object_new_int(f->gid_index));
	json_object_object_add(o, "addr_family", json_object_new_int(f->addr_family));
	json_object_object_add(o, "traffic_class", json_object_new_int(f->traffic_class));
	json_object_object_add(o, "pfc_priority", json_object_new_int(f->pfc_priority));
	json_object_object_add(o, "trust", json_object_new_string(roce_fingerprint_trust_name(f->trust)));
	json_object_object_add(o, "driver", json_object_new_string(f->driver));
	json_object_object_add(o, "problems", problems_json(f));
	json_object_object_add(o, "problems_more", json_object_new_int64(f->problems_more));
	if (f->resolves.peer[0]) {
		json_object *r = json_object_new_object();
		json_object_object_add(r, "peer", json_object_new_string(f->resolves.peer));
		json_object_object_add(r, "got", json_object_new_string(f->resolves.got));
		json_object_object_add(o, "resolves", r);
	}
	for (size_t i = 0; i < f->n_devices; i++)
		json_object_array_add(devs, device_json(&f->devices[i]));
	json_object_object_add(o, "devices", devs);
	for (size_t i = 0; i < f->n_ports; i++)
		json_object_array_add(ports, port_json(&f->ports[i]));
	json_object_object_add(o, "ports", ports);
	return o;
}

/* ---------------------------------------------------------------- parse */

/* Every member of o is one of keys (NULL-terminated): a member we do not
 * know is a newer schema or a forgery, never silently ignored. */
static int only_keys(json_object *o, const char *const *keys, const char *what, struct roce_error *err)
{
	json_object_object_foreach(o, k, v)
	{
		(void)v;
		size_t i = 0;
		while (keys[i] && strcmp(keys[i], k) != 0)
			i++;
		if (!keys[i]) {
			roce_error_set(err, "%s: unknown member \"%.40s\"", what, k);
			return -1;
		}
	}
	return 0;
}

static const char *const port_keys[] = { "device",    "port",   "netdev", "rail",  "active_mtu", "netdev_mtu",
	                                 "rate_gbps", "ecn_np", "ecn_rp", "probe", NULL };
static const char *const probe_ok_keys[] = { "verdict", NULL };
static const char *const probe_keys[] = { "verdict", "peer", "largest", "of", "sent", "arrived", NULL };
static const char *const device_keys[] = { "device", "hca_type", "board_id", "fw_ver", NULL };
static const char *const problem_keys[] = { "status", "check", "cause", "subjects", NULL };
static const char *const top_keys[] = { "schema",  "job_id",        "verdict",      "gid_index", "addr_family",
	                                "traffic_class", "pfc_priority", "trust",    "driver",    "devices",
	                                "ports",   "problems",      "problems_more", "resolves", NULL };
static const char *const resolves_keys[] = { "peer", "got", NULL };

/* Schema 5's "resolves": a node name and an address, nothing else. */
static int parse_resolves(json_object *o, int schema, struct roce_fingerprint *f, struct roce_error *err)
{
	json_object *r;
	struct sockaddr_storage a;
	if (!json_object_object_get_ex(o, "resolves", NULL))
		return 0;
	if (schema < 5) {
		roce_error_set(err, "\"resolves\" in a schema %d fingerprint", schema);
		return -1;
	}
	if (roce_jin_member(o, "resolves", json_type_object, &r, err) < 0 || only_keys(r, resolves_keys, "resolves", err) < 0 ||
	    roce_jin_strcpy(r, "peer", f->resolves.peer, sizeof(f->resolves.peer), err) < 0 ||
	    roce_jin_strcpy(r, "got", f->resolves.got, sizeof(f->resolves.got), err) < 0)
		return -1;
	if (!roce_slurmid_node_ok(f->resolves.peer) || roce_sockaddr_parse(f->resolves.got, 0, &a) < 0) {
		roce_error_set(err, "resolves: \"peer\" is no node name or \"got\" no address");
		return -1;
	}
	return 0;
}

static int parse_word(json_object *o, const char *key, char *buf, struct roce_error *err)
{
	if (roce_jin_strcpy(o, key, buf, ROCE_FP_WORD_MAX, err) < 0)
		return -1;
	if (!word_ok(buf)) {
		roce_error_set(err, "\"%s\" is not a version or model word", key);
		return -1;
	}
	return 0;
}

/* A port's "probe": every member its verdict has, no other. */
static int parse_probe(json_object *port, struct roce_fp_probe_result *r, struct roce_error *err)
{
	json_object *o;
	int v;
	int64_t largest, of, sent, arrived;
	if (roce_jin_member(port, "probe", json_type_object, &o, err) < 0 ||
	    roce_jin_enum(o, "verdict", roce_fingerprint_probe_name, ROCE_FP_PROBE_OK, ROCE_FP_PROBE_LOCAL, &v, err) <
	            0 ||
	    only_keys(o, v == ROCE_FP_PROBE_OK ? probe_ok_keys : probe_keys, "probe", err) < 0)
		return -1;
	r->verdict = (enum roce_fp_probe)v;
	if (r->verdict == ROCE_FP_PROBE_OK)
		return 0;
	if (roce_jin_strcpy(o, "peer", r->peer, sizeof(r->peer), err) < 0 ||
	    roce_jin_int(o, "largest", 0, 65535, &largest, err) < 0 || roce_jin_int(o, "of", 0, 65535, &of, err) < 0 ||
	    roce_jin_int(o, "sent", 0, 63, &sent, err) < 0 || roce_jin_int(o, "arrived", -1, 63, &arrived, err) < 0)
		return -1;
	if (!roce_slurmid_node_ok(r->peer) || largest > of) {
		roce_error_set(err, "probe: \"peer\" is no node name, or \"largest\" is above \"of\"");
		return -1;
	}
	r->largest = (unsigned)largest;
	r->of = (unsigned)of;
	r->sent = (int)sent;
	r->arrived = (int)arrived;
	return 0;
}

static int parse_port(json_object *o, int schema, struct roce_fp_port *p, struct roce_error *err)
{
	int64_t port, amtu, nmtu, rate, np, rp;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "a port is not an object");
		return -1;
	}
	if (only_keys(o, port_keys, "port", err) < 0 ||
	    roce_jin_strcpy(o, "device", p->device, sizeof(p->device), err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_strcpy(o, "netdev", p->netdev, sizeof(p->netdev), err) < 0 ||
	    roce_jin_strcpy(o, "rail", p->rail, sizeof(p->rail), err) < 0 ||
	    roce_jin_int(o, "active_mtu", 0, 4096, &amtu, err) < 0 ||
	    roce_jin_int(o, "netdev_mtu", 0, 65535, &nmtu, err) < 0 ||
	    roce_jin_int(o, "rate_gbps", 0, 100000, &rate, err) < 0 || roce_jin_int(o, "ecn_np", -1, 1, &np, err) < 0 ||
	    roce_jin_int(o, "ecn_rp", -1, 1, &rp, err) < 0)
		return -1;
	if (!roce_device_name_ok(p->device) || !roce_netdev_name_ok(p->netdev)) {
		roce_error_set(err, "port: \"device\" or \"netdev\" is not a name the kernel gives");
		return -1;
	}
	/* one spelling per subnet: the rail is matched by its text */
	if (p->rail[0] && !roce_subnet_canonical(p->rail)) {
		roce_error_set(err, "port: \"rail\" is not a subnet as this program writes one");
		return -1;
	}
	if (json_object_object_get_ex(o, "probe", NULL)) {
		if (schema < 5) {
			roce_error_set(err, "port: \"probe\" in a schema %d fingerprint", schema);
			return -1;
		}
		if (parse_probe(o, &p->probe, err) < 0)
			return -1;
	}
	p->port = (unsigned)port;
	p->active_mtu = (int)amtu;
	p->netdev_mtu = (unsigned)nmtu;
	p->rate_gbps = (unsigned)rate;
	p->ecn_np = (int)np;
	p->ecn_rp = (int)rp;
	return 0;
}

static int parse_ports(json_object *o, int schema, struct roce_fingerprint *f, struct roce_error *err)
{
	json_object *a;
	if (roce_jin_member(o, "ports", json_type_array, &a, err) < 0)
		return -1;
	size_t n = json_object_array_length(a);
	if (n > ROCE_FP_PORTS_MAX) {
		roce_error_set(err, "\"ports\" has %zu entries, at most %d", n, ROCE_FP_PORTS_MAX);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct roce_fp_port *p = &f->ports[i];
		if (parse_port(json_object_array_get_idx(a, i), schema, p, err) < 0)
			return -1;
		if (roce_fingerprint_port(f, p->device, p->port)) { /* f->n_ports excludes p yet */
			roce_error_set(err, "port %s:%u listed twice", p->device, p->port);
			return -1;
		}
		f->n_ports++;
	}
	return 0;
}

static int parse_devices(json_object *o, struct roce_fingerprint *f, struct roce_error *err)
{
	json_object *a;
	if (roce_jin_member(o, "devices", json_type_array, &a, err) < 0)
		return -1;
	size_t n = json_object_array_length(a);
	if (n > ROCE_FP_PORTS_MAX) {
		roce_error_set(err, "\"devices\" has %zu entries, at most %d", n, ROCE_FP_PORTS_MAX);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(a, i);
		struct roce_fp_device *fd = &f->devices[i];
		if (!json_object_is_type(d, json_type_object)) {
			roce_error_set(err, "a device is not an object");
			return -1;
		}
		if (only_keys(d, device_keys, "device", err) < 0 ||
		    roce_jin_strcpy(d, "device", fd->device, sizeof(fd->device), err) < 0 ||
		    parse_word(d, "hca_type", fd->hca_type, err) < 0 ||
		    parse_word(d, "board_id", fd->board_id, err) < 0 || parse_word(d, "fw_ver", fd->fw_ver, err) < 0)
			return -1;
		if (!roce_device_name_ok(fd->device) || roce_fingerprint_device(f, fd->device)) {
			roce_error_set(err, "device: \"device\" is not a name the kernel gives, or listed twice");
			return -1;
		}
		f->n_devices++;
	}
	return 0;
}

static const char *verdict_word(int v)
{
	return v >= ROCE_PASS && v <= ROCE_FAIL ? roce_finding_verdict_name((enum roce_verdict)v) : NULL;
}

static int parse_problem(json_object *o, struct roce_brief *b, struct roce_error *err)
{
	int status;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "a problem is not an object");
		return -1;
	}
	if (only_keys(o, problem_keys, "problem", err) < 0 ||
	    roce_jin_enum(o, "status", verdict_word, ROCE_WARN, ROCE_FAIL, &status, err) < 0 ||
	    roce_jin_strcpy(o, "check", b->check, sizeof(b->check), err) < 0 ||
	    roce_jin_strcpy(o, "cause", b->cause, sizeof(b->cause), err) < 0 ||
	    roce_jin_strcpy(o, "subjects", b->subjects, sizeof(b->subjects), err) < 0)
		return -1;
	b->status = (enum roce_verdict)status;
	if (!problem_ok(b)) {
		roce_error_set(err, "problem: not a verdict, check, cause and subjects as this program writes them");
		return -1;
	}
	return 0;
}

/* The problems of schema 4 and later (required there; schema 3 has none). */
static int parse_problems(json_object *o, int schema, struct roce_fingerprint *f, struct roce_error *err)
{
	json_object *a;
	int64_t more;
	if (schema == 3) {
		if (json_object_object_get_ex(o, "problems", NULL) || json_object_object_get_ex(o, "problems_more", NULL)) {
			roce_error_set(err, "\"problems\" in a schema 3 fingerprint");
			return -1;
		}
		return 0;
	}
	if (roce_jin_member(o, "problems", json_type_array, &a, err) < 0 ||
	    roce_jin_int(o, "problems_more", 0, 100000, &more, err) < 0)
		return -1;
	size_t n = json_object_array_length(a);
	if (n > ROCE_FP_PROBLEMS_MAX) {
		roce_error_set(err, "\"problems\" has %zu entries, at most %d", n, ROCE_FP_PROBLEMS_MAX);
		return -1;
	}
	for (size_t i = 0; i < n; i++, f->n_problems++)
		if (parse_problem(json_object_array_get_idx(a, i), &f->problems[i], err) < 0)
			return -1;
	f->problems_more = (unsigned)more;
	return 0;
}

static int parse_names(json_object *o, const char *job_id, const char *node, int *schema, struct roce_fingerprint *f,
                       struct roce_error *err)
{
	const char *name;
	if (roce_jin_str(o, "schema", 64, &name, err) < 0)
		return -1;
	*schema = !strcmp(name, ROCE_FP_SCHEMA) ? 5 : !strcmp(name, ROCE_FP_SCHEMA_4) ? 4 : !strcmp(name, ROCE_FP_SCHEMA_3) ? 3 : 0;
	if (!*schema) {
		roce_error_set(err, "\"schema\" is \"%.64s\", not " ROCE_FP_SCHEMA " (nor 4 or 3)", name);
		return -1;
	}
	if (roce_jin_strcpy(o, "job_id", f->job_id, sizeof(f->job_id), err) < 0)
		return -1;
	if (!roce_slurmid_job_ok(f->job_id) || (job_id && strcmp(f->job_id, job_id) != 0)) {
		roce_error_set(err, "\"job_id\" is \"%s\", not this job's", f->job_id);
		return -1;
	}
	/* The node is the file's name for it (shareddir.h), never the content's. */
	if (node && !roce_slurmid_node_ok(node)) {
		roce_error_set(err, "\"%.64s\" is not a node name a fingerprint is filed under", node);
		return -1;
	}
	snprintf(f->node, sizeof(f->node), "%s", node ? node : "");
	return 0;
}

static int parse_object(json_object *o, const char *job_id, const char *node, struct roce_fingerprint *f,
                        struct roce_error *err)
{
	int64_t gid, af, tc, pfc;
	int verdict, trust;
	int schema = 0;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "not a JSON object");
		return -1;
	}
	if (only_keys(o, top_keys, "fingerprint", err) < 0 || parse_names(o, job_id, node, &schema, f, err) < 0 ||
	    roce_jin_enum(o, "verdict", roce_fingerprint_verdict_name, 0, ROCE_FP_UNCHECKED, &verdict, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, 255, &gid, err) < 0 ||
	    roce_jin_int(o, "addr_family", 4, 6, &af, err) < 0 ||
	    roce_jin_int(o, "traffic_class", -1, 255, &tc, err) < 0 ||
	    roce_jin_int(o, "pfc_priority", -1, 7, &pfc, err) < 0 ||
	    roce_jin_enum(o, "trust", roce_fingerprint_trust_name, 0, ROCE_TRUST_DSCP, &trust, err) < 0 ||
	    parse_word(o, "driver", f->driver, err) < 0)
		return -1;
	if (af == 5) {
		roce_error_set(err, "\"addr_family\" = 5: not 4 or 6");
		return -1;
	}
	f->verdict = (enum roce_fp_verdict)verdict;
	f->gid_index = (int)gid;
	f->addr_family = (int)af;
	f->traffic_class = (int)tc;
	f->pfc_priority = (int)pfc;
	f->trust = (enum roce_trust_mode)trust;
	if (parse_problems(o, schema, f, err) < 0 || parse_resolves(o, schema, f, err) < 0 || parse_devices(o, f, err) < 0 || parse_ports(o, schema, f, err) < 0)
		return -1;
	if (f->verdict == ROCE_FP_UNCHECKED && (f->n_ports || f->n_problems)) {
		roce_error_set(err, "an unchecked node lists ports or problems");
		return -1;
	}
	return 0;
}

int roce_fingerprint_parse(const char *text, size_t len, const char *job_id, const char *node,
                           struct roce_fingerprint *f, struct roce_error *err)
{
	memset(f, 0, sizeof(*f));
	if (len > ROCE_FP_TEXT_MAX) {
		roce_error_set(err, "%zu bytes, more than a fingerprint's %d", len, ROCE_FP_TEXT_MAX);
		return -1;
	}
	json_object *o = roce_jin_parse(text, len, err);
	if (!o)
		return -1;
	int rc = parse_object(o, job_id, node, f, err);
	json_object_put(o);
	if (rc < 0)
		memset(f, 0, sizeof(*f));
	return rc;
}
