/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_json.c - the JSON report, built and streamed. */
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

static void t_document(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	json_object *o = roce_report_json(&r, fx_nodelist), *cons, *x;
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

/* The streamed document is the same document. */
static void t_streamed(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	json_object *o = roce_report_json(&r, fx_nodelist);
	char *streamed = NULL;
	size_t slen = 0;
	FILE *sout = open_memstream(&streamed, &slen);
	assert_int_equal(roce_report_json_print(sout, &r, fx_nodelist), 0);
	fclose(sout);
	assert_ptr_equal(strchr(streamed, '\n'), streamed + slen - 1);   /* one line */
	json_object *parsed = json_tokener_parse(streamed);
	assert_non_null(parsed);
	assert_true(json_object_equal(parsed, o));
	json_object_put(parsed);
	free(streamed);
	json_object_put(o);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_document),
		cmocka_unit_test(t_streamed),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
