/* SPDX-License-Identifier: GPL-2.0-or-later */
/* livereport_json.c - roce-report --live as JSON (livereport_json.h). */
#include "config.h"
#include "report/livereport_json.h"
#include "base/timearg.h"
#include "fragment/verdicts.h"
#include "report/report_metric.h"

#include <stdint.h>

#define LIVE_REPORT_SCHEMA "slurm-roce/live-report/1"

/* An ISO time, null when unknown. */
static json_object *when(int64_t ns)
{
	char buf[32];
	return ns > 0 ? json_object_new_string(roce_timearg_iso(ns, buf, sizeof(buf))) : NULL;
}

/* A metric: a whole number (a count, a rate that came out whole) as an
 * integer, as the job report writes counts ("40", never "40.0": jq 1.7
 * keeps a number's literal form), anything else as a double. */
static json_object *metric_json(double v)
{
	/* the range first: converting a double outside int64_t's is undefined */
	if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

/* An interval: its seconds, every metric of report_metric.h (rates in bytes
 * per second; null not read; lower_bound: the metrics that are one) and the
 * counters themselves (null not read). */
static json_object *interval_json(const struct roce_live *l, const struct roce_live_port *p,
                                  const struct roce_live_interval *iv)
{
	struct roce_fragment fn;
	struct roce_fragment_port fp;
	json_object *o = json_object_new_object(), *m = json_object_new_object(), *lb = json_object_new_array(),
	            *c = json_object_new_object();
	roce_livereport_metric_port(l, p, iv, &fn, &fp);
	json_object_object_add(o, "from", when(iv->from_ns));
	json_object_object_add(o, "seconds", fn.seconds >= 0 ? json_object_new_double(fn.seconds) : NULL);
	for (int k = 0; k < ROCE_METRIC_N; k++) {
		double v;
		enum roce_report_metric_status s = roce_report_metric_value(&fn, &fp, (enum roce_report_metric)k, &v);
		const char *key = roce_report_metric_key((enum roce_report_metric)k);
		json_object_object_add(m, key, s == ROCE_METRIC_UNREAD ? NULL : metric_json(v));
		if (s == ROCE_METRIC_LOWER_BOUND)
			json_object_array_add(lb, json_object_new_string(key));
	}
	json_object_object_add(o, "metrics", m);
	json_object_object_add(o, "lower_bound", lb);
	for (int k = 0; k < ROCE_N_COUNTERS; k++)
		json_object_object_add(c, roce_counter_defs[k].report_name,
		                       iv->cs[k] == ROCE_DELTA_UNREAD ? NULL : json_object_new_uint64(iv->c[k]));
	json_object_object_add(o, "counters", c);
	return o;
}

static json_object *port_json(const struct roce_live *l, const struct roce_live_port *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int64(p->port));
	json_object_object_add(o, "netdev", p->netdev[0] ? json_object_new_string(p->netdev) : NULL);
	json_object_object_add(o, "presence",
	                       json_object_new_string(roce_delta_presence_name((enum roce_port_presence)p->presence)));
	json_object_object_add(o, "state_start", p->state_start[0] ? json_object_new_string(p->state_start) : NULL);
	json_object_object_add(o, "state_now", p->state_now[0] ? json_object_new_string(p->state_now) : NULL);
	json_object_object_add(o, "gid_index_start",
	                       p->gid_index_start >= 0 ? json_object_new_int(p->gid_index_start) : NULL);
	json_object_object_add(o, "gid_addr_start",
	                       p->gid_addr_start[0] ? json_object_new_string(p->gid_addr_start) : NULL);
	json_object_object_add(o, "gid_index_now",
	                       p->gid_index_now >= 0 ? json_object_new_int(p->gid_index_now) : NULL);
	json_object_object_add(o, "gid_addr_now", p->gid_addr_now[0] ? json_object_new_string(p->gid_addr_now) : NULL);
	json_object_object_add(o, "since_start", interval_json(l, p, &p->since_start));
	json_object_object_add(o, "since_last", interval_json(l, p, &p->since_last));
	return o;
}

static json_object *event_json(const struct roce_live *l, const struct roce_live_event *e)
{
	json_object *o = json_object_new_object();
	const char *fix = roce_live_event_fix(e->code);
	json_object_object_add(o, "code", json_object_new_string(e->code));
	json_object_object_add(o, "severity",
	                       json_object_new_string(roce_verdict_severity_name(
	                               (enum roce_severity)roce_live_event_severity(e->code))));
	json_object_object_add(o, "subject", json_object_new_string(e->subject));
	json_object_object_add(o, "message", json_object_new_string(e->message));
	json_object_object_add(o, "fix", json_object_new_string(fix ? fix : ""));
	json_object_object_add(o, "first_seen", when(e->first_ns));
	json_object_object_add(o, "last_seen", when(e->last_ns));
	json_object_object_add(o, "now", json_object_new_boolean(e->last_ns == l->now_ns));
	return o;
}

static json_object *node_json(const struct roce_live *l)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array(), *ev = json_object_new_array();
	json_object_object_add(o, "node", json_object_new_string(l->node));
	json_object_object_add(o, "job_uid", json_object_new_int64(l->job_uid));
	json_object_object_add(o, "start", when(l->start_ns));
	json_object_object_add(o, "sampled", when(l->now_ns));
	json_object_object_add(o, "samples", json_object_new_int64(l->samples));
	for (size_t i = 0; i < l->n_ports; i++)
		json_object_array_add(ports, port_json(l, &l->ports[i]));
	json_object_object_add(o, "ports", ports);
	for (size_t i = 0; i < l->n_events; i++)
		json_object_array_add(ev, event_json(l, &l->events[i]));
	json_object_object_add(o, "events", ev);
	return o;
}

int roce_livereport_json_print(FILE *out, const struct roce_livereport *r)
{
	json_object *o = json_object_new_object(), *nodes = json_object_new_array(), *ended = json_object_new_array();
	json_object_object_add(o, "schema", json_object_new_string(LIVE_REPORT_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(r->job_id));
	json_object_object_add(o, "read_at", when(r->now_ns));
	for (size_t i = 0; i < r->n_nodes; i++)
		json_object_array_add(nodes, node_json(&r->nodes[i]));
	json_object_object_add(o, "nodes", nodes);
	for (size_t i = 0; i < r->n_ended; i++)
		json_object_array_add(ended, json_object_new_string(r->ended[i]));
	json_object_object_add(o, "ended", ended);
	json_object_object_add(o, "unusable_files", json_object_new_int64((int64_t)r->n_errors));
	json_object_object_add(o, "unread_files", json_object_new_int64((int64_t)r->skipped));
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (text)
		fprintf(out, "%s\n", text);
	json_object_put(o);
	return !text || ferror(out) ? -1 : 0;
}
