/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fingerprint_parse.c - a fingerprint read back strictly: every member known, every word checked (fingerprint.h). */
#include "config.h"
#include "agree/fingerprint.h"
#include "base/slurmid.h"
#include "probe/sockaddr.h"
#include "read/jsonin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (!roce_fingerprint_word_ok(buf)) {
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
	if (!roce_fingerprint_problem_ok(b)) {
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
