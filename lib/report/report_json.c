/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_json.c - the JSON report (report_json.h). */
#include "config.h"
#include "report/report_json.h"
#include "base/parprint.h"

#include <json-c/json.h>
#include <stdlib.h>

/* Nodes a thread writes at a time (parprint.h): about 2.5 MB of JSON. */
#define NODES_PER_CHUNK 256

static json_object *nodelist_json(char *list)
{
	json_object *s = json_object_new_string(list ? list : "");
	free(list);
	return s;
}

/* Job verdicts: code -> nodes, worst first; nothing when grouping failed. */
static json_object *verdicts_json(const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *a = json_object_new_array();
	struct roce_report_groups gs = { 0 };
	if (roce_report_verdict_groups(r, &gs) == 0)
		for (size_t i = 0; i < gs.n; i++) {
			json_object *v = json_object_new_object();
			json_object_object_add(v, "code", json_object_new_string(gs.g[i].key));
			json_object_object_add(v, "severity",
			                       json_object_new_string(roce_verdict_severity_name(gs.g[i].severity)));
			json_object_object_add(v, "nodes",
			                       nodelist_json(roce_report_group_nodelist(&gs.g[i], nodelist)));
			json_object_object_add(v, "node_count", json_object_new_int64((int64_t)gs.g[i].n));
			json_object_object_add(v, "fix", json_object_new_string(gs.g[i].fix ? gs.g[i].fix : ""));
			json_object_array_add(a, v);
		}
	roce_report_groups_free(&gs);
	return a;
}

/* { "gid_index": { "consistent": bool, "values": { value: nodes } }, ... } */
static json_object *consistency_json(const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *cons = json_object_new_object();
	for (int k = 0; k < ROCE_CONS_N; k++) {
		json_object *c = json_object_new_object(), *vals = json_object_new_object();
		struct roce_report_groups gs = { 0 };
		if (roce_report_consistency_groups(r, (enum roce_report_consistency)k, &gs) == 0)
			for (size_t i = 0; i < gs.n; i++)
				json_object_object_add(vals, gs.g[i].key,
				                       nodelist_json(roce_report_group_nodelist(&gs.g[i], nodelist)));
		json_object_object_add(c, "consistent", json_object_new_boolean(gs.n <= 1));
		json_object_object_add(c, "values", vals);
		json_object_object_add(cons, roce_report_consistency_name((enum roce_report_consistency)k), c);
		roce_report_groups_free(&gs);
	}
	return cons;
}

/* Everything but nodes[]: small, whatever the job's size. */
static json_object *summary_json(const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *o = json_object_new_object(), *errors = json_object_new_array();
	json_object_object_add(o, "job_id", json_object_new_string(r->job_id));
	json_object_object_add(o, "nodelist", nodelist_json(roce_report_nodelist(r, nodelist)));
	json_object_object_add(o, "node_count", json_object_new_int64((int64_t)r->n_nodes));
	json_object_object_add(o, "seconds", json_object_new_double(roce_report_seconds(r)));
	json_object_object_add(o, "verdicts", verdicts_json(r, nodelist));
	json_object_object_add(o, "consistency", consistency_json(r, nodelist));
	for (size_t i = 0; i < r->n_errors; i++)
		json_object_array_add(errors, json_object_new_string(r->errors[i]));
	json_object_object_add(o, "errors", errors);
	return o;
}

/* nodes[] of nodes [begin, end) (roce_parprint_fn): the fragment writer's
 * text, json-c's bytes without a tree per node. */
static int nodes_json(FILE *out, size_t begin, size_t end, const void *arg)
{
	const struct roce_job_report *r = arg;
	struct roce_fragment_text t = { 0 };
	int rc = 0;
	for (size_t i = begin; i < end && rc == 0; i++) {
		t.len = 0;
		if (i)
			fputc(',', out);
		if (roce_fragment_write(&t, &r->nodes[i], r->job_id, false) < 0)
			rc = -1;
		else
			fwrite(t.s, 1, t.len, out);
	}
	roce_fragment_write_free(&t);
	return rc < 0 || ferror(out) ? -1 : 0;
}

int roce_report_json_print(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *head = summary_json(r, nodelist);
	if (!head)
		return -1;
	fputc('{', out);
	json_object_object_foreach(head, key, val)
	{
		/* keys are ours: plain identifiers, no escaping needed */
		fprintf(out, "\"%s\":%s,", key, json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(head);
	fputs("\"nodes\":[", out);
	if (roce_parprint(out, r->n_nodes, NODES_PER_CHUNK, nodes_json, r) < 0)
		return -1;
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
