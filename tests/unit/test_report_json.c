/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_json.c - the JSON report, streamed, as json-c reads it. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "report/report_json.h"

static const char *str_at(json_object *o, const char *key)
{
	return json_object_get_string(json_object_object_get(o, key));
}

/* r's JSON report as roce-report prints it: one line, parsed by json-c. */
static json_object *printed(const struct roce_job_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(roce_report_json_print(out, r, fx_nodelist), 0);
	fclose(out);
	assert_ptr_equal(strchr(text, '\n'), text + len - 1); /* one line */
	json_object *o = json_tokener_parse(text);
	assert_non_null(o);
	free(text);
	return o;
}

static void t_document(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	json_object *o = printed(&r), *cons, *x;
	assert_string_equal(str_at(o, "nodelist"), "n1..n10(4)");
	assert_int_equal(json_object_get_int(json_object_object_get(o, "node_count")), 4);
	x = json_object_array_get_idx(json_object_object_get(o, "nodes"), 0);
	assert_string_equal(str_at(x, "name"), "n1");
	assert_false(json_object_object_get_ex(x, "schema", NULL));
	cons = json_object_object_get(o, "consistency");
	x = json_object_object_get(cons, "active_mtu");
	assert_false(json_object_get_boolean(json_object_object_get(x, "consistent")));
	assert_string_equal(str_at(json_object_object_get(x, "values"), "4096,1024"), "n3..n3(1)");
	assert_string_equal(str_at(json_object_object_get(x, "values"), "4096"), "n1..n10(3)");
	x = json_object_object_get(cons, "gid_index");
	assert_false(json_object_get_boolean(json_object_object_get(x, "consistent")));
	x = json_object_object_get(cons, "pfc_priorities");
	assert_true(json_object_get_boolean(json_object_object_get(x, "consistent")));
	x = json_object_array_get_idx(json_object_object_get(o, "verdicts"), 0);
	assert_string_equal(str_at(x, "code"), "packet_loss");
	assert_string_equal(str_at(x, "nodes"), "n2..n2(1)");
	assert_non_null(strstr(str_at(x, "fix"), "PFC is on for priority 3"));
	x = json_object_object_get(o, "errors");
	assert_int_equal(json_object_array_length(x), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(x, 0)),
	                    "n9.json: fragment of job 7, not 4242");
	json_object_put(o);
	roce_report_free(&r);
}

/* Each node of the streamed document is its fragment as the writer writes
 * it (without the schema), in node order. */
static void t_nodes(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	json_object *o = printed(&r), *nodes = json_object_object_get(o, "nodes");
	assert_int_equal(json_object_array_length(nodes), r.n_nodes);
	for (size_t i = 0; i < r.n_nodes; i++) {
		json_object *want = fx_fragment_json(&r.nodes[i], r.job_id, false);
		assert_true(json_object_equal(json_object_array_get_idx(nodes, i), want));
		json_object_put(want);
	}
	json_object_put(o);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_document),
		cmocka_unit_test(t_nodes),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
