/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fingerprint.c - a node's fingerprint: built from its check, to JSON, parsed back strictly (fingerprint.h). */
#include "config.h"
#include "agree/fingerprint.h"
#include "base/slurmid.h"
#include "read/jsonin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const char *const verdict_names[] = { "pass", "warn", "fail" };

static const char *roce_fp_verdict_name(int v) { return v >= 0 && v <= ROCE_FP_FAIL ? verdict_names[v] : NULL; }

/* ---------------------------------------------------------------- build */

/* "100 Gb/sec (4X EDR)" -> 100; 0 when unknown. */
static unsigned port_rate(const struct roce_node *model, const char *device, unsigned port)
{
	const struct roce_device *d = model ? roce_node_find_device(model, device) : NULL;
	for (size_t i = 0; d && i < d->n_ports; i++) {
		if (d->ports[i].num != port || !roce_reading_ok(&d->ports[i].rate_read))
			continue;
		unsigned long g = strtoul(d->ports[i].rate, NULL, 10);
		return g <= 100000 ? (unsigned)g : 0;
	}
	return 0;
}

void roce_fingerprint_from_check(const struct roce_policy *p, const struct roce_node *model,
                                 const struct roce_check_result *check, const char *job_id, const char *node,
                                 struct roce_fingerprint *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->job_id, sizeof(out->job_id), "%s", job_id ? job_id : "");
	snprintf(out->node, sizeof(out->node), "%s", node ? node : "");
	out->verdict = check->failed                                      ? ROCE_FP_FAIL
	               : check->n_fail + check->n_warn + check->n_unknown ? ROCE_FP_WARN
	                                                                  : ROCE_FP_PASS;
	out->gid_index = check->gid_index;
	out->addr_family = p->addr_family == AF_INET6 ? 6 : 4;
	out->traffic_class = check->traffic_class;
	out->pfc_priority = p->pfc_priority;
	for (size_t i = 0; i < check->n_ports && out->n_ports < ROCE_FP_PORTS_MAX; i++) {
		const struct roce_port_result *r = &check->ports[i];
		if (!r->healthy)
			continue;
		struct roce_fp_port *fp = &out->ports[out->n_ports++];
		snprintf(fp->device, sizeof(fp->device), "%s", r->device);
		fp->port = r->port;
		snprintf(fp->netdev, sizeof(fp->netdev), "%s", r->netdev);
		fp->active_mtu = r->active_mtu;
		fp->netdev_mtu = r->netdev_mtu;
		fp->rate_gbps = port_rate(model, r->device, r->port);
	}
}

const struct roce_fp_port *roce_fingerprint_port(const struct roce_fingerprint *f, const char *device, unsigned port)
{
	for (size_t i = 0; i < f->n_ports; i++)
		if (f->ports[i].port == port && strcmp(f->ports[i].device, device) == 0)
			return &f->ports[i];
	return NULL;
}

/* ---------------------------------------------------------------- JSON out */

static json_object *port_json(const struct roce_fp_port *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int((int)p->port));
	json_object_object_add(o, "netdev", json_object_new_string(p->netdev));
	json_object_object_add(o, "active_mtu", json_object_new_int(p->active_mtu));
	json_object_object_add(o, "netdev_mtu", json_object_new_int64(p->netdev_mtu));
	json_object_object_add(o, "rate_gbps", json_object_new_int64(p->rate_gbps));
	return o;
}

json_object *roce_fingerprint_to_json(const struct roce_fingerprint *f)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array();
	if (!o || !ports) {
		json_object_put(o);
		json_object_put(ports);
		return NULL;
	}
	json_object_object_add(o, "schema", json_object_new_string(ROCE_FP_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(f->job_id));
	json_object_object_add(o, "verdict", json_object_new_string(roce_fp_verdict_name(f->verdict)));
	json_object_object_add(o, "gid_index", json_object_new_int(f->gid_index));
	json_object_object_add(o, "addr_family", json_object_new_int(f->addr_family));
	json_object_object_add(o, "traffic_class", json_object_new_int(f->traffic_class));
	json_object_object_add(o, "pfc_priority", json_object_new_int(f->pfc_priority));
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

static const char *const port_keys[] = { "device", "port", "netdev", "active_mtu", "netdev_mtu", "rate_gbps", NULL };
static const char *const top_keys[] = { "schema",        "job_id",       "verdict", "gid_index", "addr_family",
	                                "traffic_class", "pfc_priority", "ports",   NULL };

static int parse_port(json_object *o, struct roce_fp_port *p, struct roce_error *err)
{
	int64_t port, amtu, nmtu, rate;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "a port is not an object");
		return -1;
	}
	if (only_keys(o, port_keys, "port", err) < 0 ||
	    roce_jin_strcpy(o, "device", p->device, sizeof(p->device), err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_strcpy(o, "netdev", p->netdev, sizeof(p->netdev), err) < 0 ||
	    roce_jin_int(o, "active_mtu", 0, 4096, &amtu, err) < 0 ||
	    roce_jin_int(o, "netdev_mtu", 0, 65535, &nmtu, err) < 0 ||
	    roce_jin_int(o, "rate_gbps", 0, 100000, &rate, err) < 0)
		return -1;
	if (!roce_device_name_ok(p->device) || !roce_netdev_name_ok(p->netdev)) {
		roce_error_set(err, "port: \"device\" or \"netdev\" is not a name the kernel gives");
		return -1;
	}
	p->port = (unsigned)port;
	p->active_mtu = (int)amtu;
	p->netdev_mtu = (unsigned)nmtu;
	p->rate_gbps = (unsigned)rate;
	return 0;
}

static int parse_ports(json_object *o, struct roce_fingerprint *f, struct roce_error *err)
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
		if (parse_port(json_object_array_get_idx(a, i), p, err) < 0)
			return -1;
		if (roce_fingerprint_port(f, p->device, p->port)) { /* f->n_ports excludes p yet */
			roce_error_set(err, "port %s:%u listed twice", p->device, p->port);
			return -1;
		}
		f->n_ports++;
	}
	return 0;
}

static int parse_names(json_object *o, const char *job_id, const char *node, struct roce_fingerprint *f,
                       struct roce_error *err)
{
	const char *schema;
	if (roce_jin_str(o, "schema", 64, &schema, err) < 0)
		return -1;
	if (strcmp(schema, ROCE_FP_SCHEMA) != 0) {
		roce_error_set(err, "\"schema\" is \"%.64s\", not " ROCE_FP_SCHEMA, schema);
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
	int verdict;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "not a JSON object");
		return -1;
	}
	if (only_keys(o, top_keys, "fingerprint", err) < 0 || parse_names(o, job_id, node, f, err) < 0 ||
	    roce_jin_enum(o, "verdict", roce_fp_verdict_name, 0, ROCE_FP_FAIL, &verdict, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, 255, &gid, err) < 0 ||
	    roce_jin_int(o, "addr_family", 4, 6, &af, err) < 0 ||
	    roce_jin_int(o, "traffic_class", -1, 255, &tc, err) < 0 ||
	    roce_jin_int(o, "pfc_priority", -1, 7, &pfc, err) < 0)
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
	return parse_ports(o, f, err);
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
