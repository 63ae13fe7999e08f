/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonin.h - strict readers, through a json-c tree, for the small JSON files
 * we read back: the prolog's counter snapshot and the steps' ran-with
 * record in StateDir (job.c, snapshot_json.c, ranwith.c) and the
 * fingerprints in SharedDir (fingerprint.c).  Report fragments, read by the
 * thousand, go through jsonpull.h instead; only a fragment's "ran_with"
 * member comes here.
 *
 * A file may be truncated, edited or planted: every reader checks the type
 * and range and, on failure, returns -1 with err naming the key and the
 * problem ("\"port\" = 300 out of range 1..255").  Nothing is defaulted.
 * Values quoted from the file in err are as they were: the caller escapes
 * the whole message where it shows it (printable.h).
 */
#ifndef ROCE_JSONIN_H
#define ROCE_JSONIN_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/error.h"
#include "base/model.h"

/* A whole text that is exactly one JSON value (nothing after it); NULL with
 * err "not valid JSON: <json-c's reason>". */
json_object *roce_jin_parse(const char *text, size_t len, struct roce_error *err);

/* o is an object whose "schema" (at most maxlen bytes) is want: the first
 * check of every file we read back.  err: "[WHAT is ]not a JSON object",
 * "unknown [WHAT ]schema \"...\"" (what may be NULL). */
int roce_jin_schema(json_object *o, const char *what, const char *want, size_t maxlen, struct roce_error *err);

/* Member key of o, of type t.  roce_jin_get: NULL when absent or of another
 * type (optional members); roce_jin_member: -1 with err then. */
json_object *roce_jin_get(json_object *o, const char *key, json_type t);
int roce_jin_member(json_object *o, const char *key, json_type t, json_object **m, struct roce_error *err);

/* An integer in lo..hi. */
int roce_jin_int(json_object *o, const char *key, int64_t lo, int64_t hi, int64_t *v, struct roce_error *err);
/* A finite number (integer or double): NaN and Infinity are refused. */
int roce_jin_double(json_object *o, const char *key, double *v, struct roce_error *err);
int roce_jin_bool(json_object *o, const char *key, bool *v, struct roce_error *err);
/* A string of at most maxlen bytes; *v points into o. */
int roce_jin_str(json_object *o, const char *key, size_t maxlen, const char **v, struct roce_error *err);
/* The same copied into buf (len bytes: at most len - 1). */
int roce_jin_strcpy(json_object *o, const char *key, char *buf, size_t len, struct roce_error *err);
/* A string that is name(i) for one i in lo..hi (name returns NULL or a
 * string for every i in the range). */
int roce_jin_enum(json_object *o, const char *key, const char *(*name)(int), int lo, int hi, int *v,
                  struct roce_error *err);
/* The same for a string already read (key names it in err). */
int roce_jin_enum_text(const char *s, const char *key, const char *(*name)(int), int lo, int hi, int *v,
                       struct roce_error *err);

/* A counter value: an integer >= 0 (json-c keeps those above INT64_MAX as uint64). */
bool roce_jin_u64_value(json_object *m, uint64_t *v);
/* An array of exactly n counter values. */
int roce_jin_u64s(json_object *o, const char *key, uint64_t *v, size_t n, struct roce_error *err);

/* A struct roce_reading as roce_json_reading() (check/json.h) writes it:
 * {"status": "...", "why": "..."}; an "errno" member is accepted. */
int roce_jin_reading(json_object *o, struct roce_reading *r, struct roce_error *err);

#endif
