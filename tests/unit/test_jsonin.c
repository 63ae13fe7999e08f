/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_jsonin.c - the strict JSON readers (lib/read/jsonin.h): every refusal names the key. */
#include "config.h"
#include "unit.h"

#include <string.h>

#include "check/json.h"
#include "read/jsonin.h"

static json_object *doc(const char *text)
{
	struct roce_error err;
	json_object *o = roce_jin_parse(text, strlen(text), &err);
	if (!o)
		fail_msg("%s: %s", text, err.msg);
	return o;
}

#define REFUSED(call, what)                                                  \
	do {                                                                 \
		err.msg[0] = '\0';                                           \
		assert_int_equal((call), -1);                                \
		if (!strstr(err.msg, what))                                  \
			fail_msg("\"%s\" does not say \"%s\"", err.msg, what); \
	} while (0)

static void parse_is_strict(void **state)
{
	(void)state;
	struct roce_error err;
	json_object *o = doc("{\"a\": 1}");
	json_object_put(o);
	const char *bad[] = { "{\"a\": 1} trailing", "{\"a\": ", "", "nul" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		assert_null(roce_jin_parse(bad[i], strlen(bad[i]), &err));
		assert_non_null(strstr(err.msg, "not valid JSON"));
	}
}

static void members(void **state)
{
	(void)state;
	struct roce_error err;
	json_object *o = doc("{\"port\": 300, \"name\": \"mlx5_0\", \"neg\": -1, \"big\": 18446744073709551615,"
	                     " \"on\": true, \"secs\": 1.5, \"whole\": 2, \"pfc\": [1, 2, 3], \"kind\": \"reset\"}");
	int64_t v;
	const char *s;
	char buf[4];
	bool b;
	double d;
	assert_int_equal(roce_jin_int(o, "neg", -1, 5, &v, &err), 0);
	assert_int_equal(v, -1);
	REFUSED(roce_jin_int(o, "port", 1, 255, &v, &err), "\"port\" = 300 out of range 1..255");
	REFUSED(roce_jin_int(o, "big", 0, INT64_MAX, &v, &err), "\"big\" = 18446744073709551615 out of range");
	REFUSED(roce_jin_int(o, "name", 0, 1, &v, &err), "\"name\" missing or not an integer");
	REFUSED(roce_jin_int(o, "absent", 0, 1, &v, &err), "\"absent\" missing or not an integer");
	assert_int_equal(roce_jin_str(o, "name", 6, &s, &err), 0);
	assert_string_equal(s, "mlx5_0");
	REFUSED(roce_jin_str(o, "name", 5, &s, &err), "\"name\" longer than 5 bytes");
	REFUSED(roce_jin_strcpy(o, "name", buf, sizeof(buf), &err), "\"name\" longer than 3 bytes");
	REFUSED(roce_jin_str(o, "port", 5, &s, &err), "\"port\" missing or not a string");
	assert_int_equal(roce_jin_bool(o, "on", &b, &err), 0);
	assert_true(b);
	REFUSED(roce_jin_bool(o, "port", &b, &err), "\"port\" missing or not a boolean");
	assert_int_equal(roce_jin_double(o, "secs", &d, &err), 0);
	assert_true(d == 1.5);
	assert_int_equal(roce_jin_double(o, "whole", &d, &err), 0);
	assert_true(d == 2.0);
	REFUSED(roce_jin_double(o, "name", &d, &err), "\"name\" missing or not a number");
	json_object_put(o);
	/* json-c's tokener takes NaN and Infinity, which are not JSON numbers */
	o = doc("{\"inf\": Infinity, \"minf\": -Infinity, \"nan\": NaN, \"huge\": 1e999}");
	REFUSED(roce_jin_double(o, "inf", &d, &err), "\"inf\" is not a finite number");
	REFUSED(roce_jin_double(o, "minf", &d, &err), "\"minf\" is not a finite number");
	REFUSED(roce_jin_double(o, "nan", &d, &err), "\"nan\" is not a finite number");
	REFUSED(roce_jin_double(o, "huge", &d, &err), "\"huge\" is not a finite number");
	json_object_put(o);
	o = doc("{\"name\": \"x\"}");
	json_object *m;
	REFUSED(roce_jin_member(o, "name", json_type_object, &m, &err), "\"name\" missing or not an object");
	assert_null(roce_jin_get(o, "name", json_type_array));
	json_object_put(o);
}

static const char *status_name(int s) { return roce_status_name((enum roce_status)s); }

static void arrays_and_enums(void **state)
{
	(void)state;
	struct roce_error err;
	json_object *o = doc("{\"ok\": [0, 1, 18446744073709551615], \"short\": [1], \"neg\": [1, -2, 3],"
	                     " \"status\": \"timed out\", \"bad\": \"sideways\"}");
	uint64_t v[3];
	assert_int_equal(roce_jin_u64s(o, "ok", v, 3, &err), 0);
	assert_true(v[2] == UINT64_MAX);
	REFUSED(roce_jin_u64s(o, "short", v, 3, &err), "\"short\" must have 3 entries");
	REFUSED(roce_jin_u64s(o, "neg", v, 3, &err), "\"neg\"[1] is not a counter value");
	REFUSED(roce_jin_u64s(o, "absent", v, 3, &err), "\"absent\" missing or not an array");
	int e;
	assert_int_equal(roce_jin_enum(o, "status", status_name, ROCE_NOT_READ, ROCE_TIMEOUT, &e, &err), 0);
	assert_int_equal(e, ROCE_TIMEOUT);
	REFUSED(roce_jin_enum(o, "bad", status_name, ROCE_NOT_READ, ROCE_TIMEOUT, &e, &err),
	        "\"bad\": unknown value \"sideways\"");
	json_object_put(o);
}

static void reading_round_trip(void **state)
{
	(void)state;
	struct roce_error err;
	struct roce_reading r, back;
	roce_reading_set(&r, ROCE_UNREADABLE, 5, "cannot read /sys/x: Input/output error");
	json_object *o = roce_json_reading(&r);
	assert_int_equal(roce_jin_reading(o, &back, &err), 0);
	assert_int_equal(back.status, ROCE_UNREADABLE);
	assert_string_equal(back.why, r.why);
	json_object_put(o);
	o = doc("{\"status\": \"missing\", \"errno\": 2}");   /* as earlier versions wrote it */
	assert_int_equal(roce_jin_reading(o, &back, &err), 0);
	assert_int_equal(back.err, 2);
	json_object_put(o);
	o = doc("{\"status\": \"lost\"}");
	REFUSED(roce_jin_reading(o, &back, &err), "\"status\": unknown value \"lost\"");
	json_object_put(o);
	o = doc("[]");
	REFUSED(roce_jin_reading(o, &back, &err), "not an object");
	json_object_put(o);
}

/* The schema check every reader of our files starts with, and its two wordings. */
static void schema(void **state)
{
	(void)state;
	struct roce_error err;
	json_object *o = doc("{\"schema\": \"slurm-roce/x-1\"}");
	assert_int_equal(roce_jin_schema(o, NULL, "slurm-roce/x-1", 64, &err), 0);
	err.msg[0] = '\0';
	assert_int_equal(roce_jin_schema(o, NULL, "slurm-roce/y-1", 64, &err), -1);
	assert_string_equal(err.msg, "unknown schema \"slurm-roce/x-1\"");
	assert_int_equal(roce_jin_schema(o, "snapshot", "slurm-roce/y-1", 63, &err), -1);
	assert_string_equal(err.msg, "unknown snapshot schema \"slurm-roce/x-1\"");
	REFUSED(roce_jin_schema(o, NULL, "slurm-roce/x-1", 5, &err), "\"schema\" longer than 5 bytes");
	json_object_put(o);
	o = doc("[]");
	assert_int_equal(roce_jin_schema(o, NULL, "slurm-roce/x-1", 64, &err), -1);
	assert_string_equal(err.msg, "not a JSON object");
	assert_int_equal(roce_jin_schema(o, "snapshot", "slurm-roce/x-1", 64, &err), -1);
	assert_string_equal(err.msg, "snapshot is not a JSON object");
	json_object_put(o);
	o = doc("{\"version\": 1}");
	REFUSED(roce_jin_schema(o, NULL, "slurm-roce/x-1", 64, &err), "schema");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_is_strict),
		cmocka_unit_test(members),
		cmocka_unit_test(arrays_and_enums),
		cmocka_unit_test(reading_round_trip),
		cmocka_unit_test(schema),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
