/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsonin.c - strict readers for our own JSON files (jsonin.h). */
#include "config.h"
#include "read/jsonin.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

json_object *roce_jin_parse(const char *text, size_t len, struct roce_error *err)
{
	struct json_tokener *tok = len <= INT32_MAX ? json_tokener_new() : NULL;
	if (!tok) {
		roce_error_set(err, "not valid JSON: %s", len > INT32_MAX ? "too long" : "out of memory");
		return NULL;
	}
	json_object *o = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	if (!o || jerr != json_tokener_success || (size_t)tok->char_offset != len) {
		/* Trailing text after a whole value: json-c says "success". */
		roce_error_set(err, "not valid JSON: %s",
		               jerr != json_tokener_success ? json_tokener_error_desc(jerr) : "text after the value");
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

static const char *type_name(json_type t)
{
	switch (t) {
	case json_type_int: return "an integer";
	case json_type_double: return "a number";
	case json_type_boolean: return "a boolean";
	case json_type_string: return "a string";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_null: break;
	}
	return "null";
}

json_object *roce_jin_get(json_object *o, const char *key, json_type t)
{
	json_object *m;
	if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, t))
		return NULL;
	return m;
}

int roce_jin_member(json_object *o, const char *key, json_type t, json_object **m, struct roce_error *err)
{
	if ((*m = roce_jin_get(o, key, t)))
		return 0;
	roce_error_set(err, "\"%s\" missing or not %s", key, type_name(t));
	return -1;
}

int roce_jin_int(json_object *o, const char *key, int64_t lo, int64_t hi, int64_t *v, struct roce_error *err)
{
	json_object *m;
	if (roce_jin_member(o, key, json_type_int, &m, err) < 0)
		return -1;
	*v = json_object_get_int64(m);
	if (*v < lo || *v > hi || (*v == INT64_MAX && json_object_get_uint64(m) > INT64_MAX)) {
		roce_error_set(err, "\"%s\" = %s out of range %" PRId64 "..%" PRId64, key, json_object_get_string(m),
		               lo, hi);
		return -1;
	}
	return 0;
}

int roce_jin_double(json_object *o, const char *key, double *v, struct roce_error *err)
{
	json_object *m = roce_jin_get(o, key, json_type_double);
	if (!m && !(m = roce_jin_get(o, key, json_type_int))) {
		roce_error_set(err, "\"%s\" missing or not a number", key);
		return -1;
	}
	*v = json_object_get_double(m);
	if (!isfinite(*v)) {
		/* json-c's tokener takes NaN, Infinity and 1e999; JSON has no such numbers. */
		roce_error_set(err, "\"%s\" is not a finite number", key);
		return -1;
	}
	return 0;
}

int roce_jin_bool(json_object *o, const char *key, bool *v, struct roce_error *err)
{
	json_object *m;
	if (roce_jin_member(o, key, json_type_boolean, &m, err) < 0)
		return -1;
	*v = json_object_get_boolean(m);
	return 0;
}

int roce_jin_str(json_object *o, const char *key, size_t maxlen, const char **v, struct roce_error *err)
{
	json_object *m;
	if (roce_jin_member(o, key, json_type_string, &m, err) < 0)
		return -1;
	if ((size_t)json_object_get_string_len(m) > maxlen) {
		roce_error_set(err, "\"%s\" longer than %zu bytes", key, maxlen);
		return -1;
	}
	*v = json_object_get_string(m);
	return 0;
}

int roce_jin_schema(json_object *o, const char *what, const char *want, size_t maxlen, struct roce_error *err)
{
	const char *s;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "%s%snot a JSON object", what ? what : "", what ? " is " : "");
		return -1;
	}
	if (roce_jin_str(o, "schema", maxlen, &s, err) < 0)
		return -1;
	if (strcmp(s, want) != 0) {
		roce_error_set(err, "unknown %s%sschema \"%.64s\"", what ? what : "", what ? " " : "", s);
		return -1;
	}
	return 0;
}

int roce_jin_strcpy(json_object *o, const char *key, char *buf, size_t len, struct roce_error *err)
{
	const char *s;
	if (roce_jin_str(o, key, len - 1, &s, err) < 0)
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

int roce_jin_enum(json_object *o, const char *key, const char *(*name)(int), int lo, int hi, int *v,
                  struct roce_error *err)
{
	const char *s;
	if (roce_jin_str(o, key, 64, &s, err) < 0)
		return -1;
	return roce_jin_enum_text(s, key, name, lo, hi, v, err);
}

int roce_jin_enum_text(const char *s, const char *key, const char *(*name)(int), int lo, int hi, int *v,
                       struct roce_error *err)
{
	for (int i = lo; i <= hi; i++) {
		const char *n = name(i);
		if (n && strcmp(n, s) == 0) {
			*v = i;
			return 0;
		}
	}
	roce_error_set(err, "\"%s\": unknown value \"%s\"", key, s);
	return -1;
}

bool roce_jin_u64_value(json_object *m, uint64_t *v)
{
	if (!json_object_is_type(m, json_type_int) || json_object_get_int64(m) < 0)
		return false;
	*v = json_object_get_uint64(m);
	return true;
}

int roce_jin_u64s(json_object *o, const char *key, uint64_t *v, size_t n, struct roce_error *err)
{
	json_object *a;
	if (roce_jin_member(o, key, json_type_array, &a, err) < 0)
		return -1;
	if (json_object_array_length(a) != n) {
		roce_error_set(err, "\"%s\" must have %zu entries", key, n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!roce_jin_u64_value(json_object_array_get_idx(a, i), &v[i])) {
			roce_error_set(err, "\"%s\"[%zu] is not a counter value", key, i);
			return -1;
		}
	return 0;
}

static const char *status_name(int s) { return roce_status_name((enum roce_status)s); }

int roce_jin_reading(json_object *o, struct roce_reading *r, struct roce_error *err)
{
	json_object *m;
	int s;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "reading is not an object");
		return -1;
	}
	if (roce_jin_enum(o, "status", status_name, ROCE_NOT_READ, ROCE_TIMEOUT, &s, err) < 0)
		return -1;
	roce_reading_set(r, (enum roce_status)s, 0, NULL);
	/* Written by earlier versions; kept when it is there. */
	if ((m = roce_jin_get(o, "errno", json_type_int)))
		r->err = json_object_get_int(m);
	if ((m = roce_jin_get(o, "why", json_type_string)))
		snprintf(r->why, sizeof(r->why), "%s", json_object_get_string(m));
	return 0;
}
