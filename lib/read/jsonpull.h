/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonpull.h - a strict pull reader of JSON text, for files read by the
 * thousand (a job report's node fragments): the caller walks the document
 * key by key and value by value and keeps only what it wants, so no tree
 * is built (json-c's tree cost a hash table per object, half of a
 * 16,384-node merge).  jsonin.h reads the small files through json-c.
 *
 * Strict RFC 8259: no comments, no NaN or Infinity, no control character
 * in a string, nothing after the value; nesting at most
 * ROCE_JSONPULL_DEPTH deep.  Strings are unescaped in place: the text must
 * be writable, and a string handed out stays valid until the text is freed.
 * A syntax error fails the read with err "not valid JSON at byte N: why";
 * the caller checks types (roce_jsonpull_type) and says what it expected.
 */
#ifndef ROCE_JSONPULL_H
#define ROCE_JSONPULL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/error.h"

#define ROCE_JSONPULL_DEPTH 32 /* json-c's default */

enum roce_jsonpull_type {
	ROCE_JSONPULL_BAD,
	ROCE_JSONPULL_OBJECT,
	ROCE_JSONPULL_ARRAY,
	ROCE_JSONPULL_STRING,
	ROCE_JSONPULL_NUMBER,
	ROCE_JSONPULL_BOOL,
	ROCE_JSONPULL_NULL
};

struct roce_jsonpull {
	char *text, *p, *end;
	int depth;
	bool first; /* just inside '{' or '[': no ',' before the next */
};

/* A number: its text (not terminated) and, for an integer that fits, its value. */
struct roce_jsonpull_number {
	const char *text;
	size_t len;
	bool integer; /* no fraction, no exponent, fits in int64 or uint64 */
	bool negative;
	uint64_t magnitude; /* of an integer */
	double value;       /* always */
};

void roce_jsonpull_init(struct roce_jsonpull *j, char *text, size_t len);
/* The next value's type, from its first byte (BAD: none there). */
enum roce_jsonpull_type roce_jsonpull_type(struct roce_jsonpull *j);

/* Enter the object or array that is next: -1 with err when it is not one or
 * nests too deep. */
int roce_jsonpull_enter(struct roce_jsonpull *j, struct roce_error *err);
/* The next member's key (unescaped, NUL-terminated), the reader left at its
 * value: 1; 0 after the object's '}'; -1 with err. */
int roce_jsonpull_key(struct roce_jsonpull *j, const char **key, struct roce_error *err);

/* The scalar that is next (call after roce_jsonpull_type said so); -1 with err. */
int roce_jsonpull_string(struct roce_jsonpull *j, const char **s, size_t *len, struct roce_error *err);
int roce_jsonpull_number(struct roce_jsonpull *j, struct roce_jsonpull_number *n, struct roce_error *err);
int roce_jsonpull_bool(struct roce_jsonpull *j, bool *v, struct roce_error *err);
int roce_jsonpull_null(struct roce_jsonpull *j, struct roce_error *err);
/* Any value, passed over and left as it is (its text may be parsed again); -1 with err. */
int roce_jsonpull_skip(struct roce_jsonpull *j, struct roce_error *err);
/* After the document's value: only white space may follow; -1 with err. */
int roce_jsonpull_end(struct roce_jsonpull *j, struct roce_error *err);


/* ---------------------------------------------------------------- members, by table */

/* What a member must be.  ROCE_JSONPULL_LENIENT: one of another type is passed over (as
 * earlier releases did for "note", "counter_why" and pfc's "why"). */
enum roce_jsonpull_kind {
	ROCE_JSONPULL_K_STR,
	ROCE_JSONPULL_K_INT,
	ROCE_JSONPULL_K_NUM,
	ROCE_JSONPULL_K_BOOL,
	ROCE_JSONPULL_K_OBJ,
	ROCE_JSONPULL_K_ARR,
	ROCE_JSONPULL_K_ANY
};
#define ROCE_JSONPULL_REQUIRED 0x1
#define ROCE_JSONPULL_LENIENT 0x2

struct roce_jsonpull_member {
	const char *key;
	enum roce_jsonpull_kind kind;
	int flags;
};

typedef int (*roce_jsonpull_member_fn)(struct roce_jsonpull *j, int k, void *ctx, struct roce_error *err);

/* The object that is next, member by member: one(k) at the value of each
 * member ms[k] (checked to be of its kind: "\"port\" missing or not an
 * integer"); unknown members passed over, one given twice refused.  *seen
 * gets bit k for each member read; the required ones must all be there. */
int roce_jsonpull_members(struct roce_jsonpull *j, const struct roce_jsonpull_member *ms, int n,
                          roce_jsonpull_member_fn one, void *ctx, uint64_t *seen, struct roce_error *err);
/* err: "\"key\" missing or not <kind>"; -1. */
int roce_jsonpull_missing(const struct roce_jsonpull_member *m, struct roce_error *err);
/* The array that is next, at most max entries, each read by one(index). */
int roce_jsonpull_array(struct roce_jsonpull *j, const char *key, size_t max,
                        int (*one)(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err), void *ctx,
                        struct roce_error *err);

/* The member key's value, as jsonin.h's readers say it ("\"port\" = 300 out of range 1..255"). */
int roce_jsonpull_str(struct roce_jsonpull *j, const char *key, size_t max, const char **s, struct roce_error *err);
/* A string that is name(i) for one i in lo..hi. */
int roce_jsonpull_enum(struct roce_jsonpull *j, const char *key, const char *(*name)(int), int lo, int hi, int *v,
                       struct roce_error *err);
int roce_jsonpull_int(struct roce_jsonpull *j, const char *key, int64_t lo, int64_t hi, int64_t *v,
                      struct roce_error *err);
/* A counter value (an integer >= 0): *ok false when it is none (a non-number is passed over). */
int roce_jsonpull_counter(struct roce_jsonpull *j, uint64_t *v, bool *ok, struct roce_error *err);

#endif
