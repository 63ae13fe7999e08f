/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodehealth_json.c - node health across jobs as JSON (nodehealth_json.h). */
#include "config.h"
#include "report/nodehealth_json.h"
#include "base/timearg.h"

#define NODES_SCHEMA "slurm-roce/nodes/1"

/* An ISO time, null when unknown. */
static json_object *when(int64_t ns)
{
	char buf[32];
	return ns > 0 ? json_object_new_string(roce_timearg_iso(ns, buf, sizeof(buf))) : NULL;
}

static json_object *row_json(const struct roce_nodehealth_row *r)
{
	json_object *o = json_object_new_object(), *p = json_object_new_object(), *last = NULL;
	json_object_object_add(o, "node", json_object_new_string(r->node));
	json_object_object_add(o, "device", r->device[0] ? json_object_new_string(r->device) : NULL);
	json_object_object_add(o, "port", r->device[0] ? json_object_new_int64(r->port) : NULL);
	json_object_object_add(o, "jobs_seen", json_object_new_int64(r->seen));
	json_object_object_add(o, "jobs_with_problem", json_object_new_int64(r->bad));
	for (int k = 0; k < ROCE_NH_N; k++)
		json_object_object_add(p, roce_nodehealth_problem_key((enum roce_nodehealth_problem)k),
		                       json_object_new_int64(r->jobs[k]));
	json_object_object_add(o, "problems", p);
	if (r->bad) {
		last = json_object_new_object();
		json_object_object_add(last, "job_id", json_object_new_string(r->last_job));
		json_object_object_add(last, "end", when(r->last_ns));
	}
	json_object_object_add(o, "last_problem", last);
	return o;
}

static json_object *roce_nodehealth_json(const struct roce_nodehealth *h)
{
	json_object *o = json_object_new_object(), *rows = json_object_new_array();
	if (!o || !rows) {
		json_object_put(o);
		json_object_put(rows);
		return NULL;
	}
	json_object_object_add(o, "schema", json_object_new_string(NODES_SCHEMA));
	json_object_object_add(o, "jobs", json_object_new_int64((int64_t)h->jobs));
	json_object_object_add(o, "jobs_with_problem", json_object_new_int64((int64_t)h->jobs_bad));
	json_object_object_add(o, "uid", h->uid >= 0 ? json_object_new_int64(h->uid) : NULL);
	json_object_object_add(o, "since", when(h->since_ns));
	json_object_object_add(o, "first_end", when(h->first_ns));
	json_object_object_add(o, "last_end", when(h->last_ns));
	json_object_object_add(o, "unusable_fragments", json_object_new_int64((int64_t)h->unusable));
	for (size_t i = 0; i < h->n; i++)
		if (h->rows[i].device[0] || h->rows[i].bad)
			json_object_array_add(rows, row_json(&h->rows[i]));
	json_object_object_add(o, "ports", rows);
	return o;
}

int roce_nodehealth_json_print(FILE *out, const struct roce_nodehealth *h)
{
	json_object *o = roce_nodehealth_json(h);
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
	if (text)
		fprintf(out, "%s\n", text);
	json_object_put(o);
	return !text || ferror(out) ? -1 : 0;
}
