/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fingerprint.c - a node's fingerprint: built from its check, and to JSON (fingerprint.h; parsed back in
 * fingerprint_parse.c). */
#include "config.h"
#include "agree/fingerprint.h"

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
bool roce_fingerprint_word_ok(const char *s)
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
bool roce_fingerprint_problem_ok(const struct roce_brief *b)
{
	return b->status >= ROCE_WARN && b->status <= ROCE_FAIL &&
	       text_of(b->check, sizeof(b->check), "abcdefghijklmnopqrstuvwxyz0123456789_") &&
	       text_of(b->cause, sizeof(b->cause), ALNUM " ()/._+-") &&
	       (!b->subjects[0] || text_of(b->subjects, sizeof(b->subjects), ALNUM "_:.,@+=-"));
}

static void word_copy(char *dst, const char *src, bool ok)
{
	snprintf(dst, ROCE_FP_WORD_MAX, "%s", ok && roce_fingerprint_word_ok(src) ? src : "");
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
		if (roce_fingerprint_problem_ok(&b[i]))
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
