/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsonpull.c - a strict pull reader of JSON text (jsonpull.h). */
#include "config.h"
#include "read/jsonpull.h"
#include "read/jsonin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int bad(struct roce_jsonpull *j, const char *why, struct roce_error *err)
{
	roce_error_set(err, "not valid JSON at byte %zu: %s", (size_t)(j->p - j->text), why);
	return -1;
}

static void space(struct roce_jsonpull *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

/* The byte c next (after white space): consumed, true. */
static bool take(struct roce_jsonpull *j, char c)
{
	space(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

void roce_jsonpull_init(struct roce_jsonpull *j, char *text, size_t len)
{
	j->text = j->p = text;
	j->end = text + len;
	j->depth = 0;
	j->first = false;
}

enum roce_jsonpull_type roce_jsonpull_type(struct roce_jsonpull *j)
{
	space(j);
	if (j->p == j->end)
		return ROCE_JSONPULL_BAD;
	switch (*j->p) {
	case '{': return ROCE_JSONPULL_OBJECT;
	case '[': return ROCE_JSONPULL_ARRAY;
	case '"': return ROCE_JSONPULL_STRING;
	case 't':
	case 'f': return ROCE_JSONPULL_BOOL;
	case 'n': return ROCE_JSONPULL_NULL;
	case '-':
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9': return ROCE_JSONPULL_NUMBER;
	}
	return ROCE_JSONPULL_BAD;
}

int roce_jsonpull_enter(struct roce_jsonpull *j, struct roce_error *err)
{
	space(j);
	if (j->p == j->end || (*j->p != '{' && *j->p != '['))
		return bad(j, "expected an object or an array", err);
	if (j->depth >= ROCE_JSONPULL_DEPTH)
		return bad(j, "nested too deep", err);
	j->p++;
	j->depth++;
	j->first = true;
	return 0;
}

/* The ',' before a member or element, or the closing byte: 0 at the close
 * (consumed), 1 at a member or element, -1 with err. */
static int separator(struct roce_jsonpull *j, char close, struct roce_error *err)
{
	if (take(j, close)) {
		j->depth--;
		j->first = false; /* the closed value is complete in its parent */
		return 0;
	}
	if (!j->first && !take(j, ','))
		return bad(j, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'", err);
	j->first = false;
	return 1;
}

/* Unescape the string at j->p in place (write; else only check it): *s the
 * text, NUL-terminated. */
static int unescape(struct roce_jsonpull *j, char **s, size_t *len, bool write, struct roce_error *err);

/* roce_jsonpull_key, the key unescaped in place when write (else left as it is). */
static int key_at(struct roce_jsonpull *j, char **key, bool write, struct roce_error *err)
{
	int rc = separator(j, '}', err);
	if (rc <= 0)
		return rc;
	char *k;
	size_t n;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_STRING)
		return bad(j, "expected a key", err);
	if (unescape(j, &k, &n, write, err) < 0)
		return -1;
	if (!take(j, ':'))
		return bad(j, "expected ':'", err);
	if (roce_jsonpull_type(j) == ROCE_JSONPULL_BAD)
		return bad(j, "expected a value", err);
	*key = k;
	return 1;
}

int roce_jsonpull_key(struct roce_jsonpull *j, const char **key, struct roce_error *err)
{
	char *k;
	int rc = key_at(j, &k, true, err);
	*key = k;
	return rc;
}

static int roce_jsonpull_next(struct roce_jsonpull *j, struct roce_error *err)
{
	int rc = separator(j, ']', err);
	if (rc == 1 && roce_jsonpull_type(j) == ROCE_JSONPULL_BAD)
		return bad(j, "expected a value", err);
	return rc;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
		             : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		             : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
		                                    : 16;
		if (d == 16)
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

/* Code point u as UTF-8 at *d (at most 4 bytes, never more than the 6 or
 * 12 bytes of its escape). */
static char *utf8(char *d, unsigned u)
{
	if (u < 0x80) {
		*d++ = (char)u;
	} else if (u < 0x800) {
		*d++ = (char)(0xc0 | u >> 6);
		*d++ = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		*d++ = (char)(0xe0 | u >> 12);
		*d++ = (char)(0x80 | (u >> 6 & 0x3f));
		*d++ = (char)(0x80 | (u & 0x3f));
	} else {
		*d++ = (char)(0xf0 | u >> 18);
		*d++ = (char)(0x80 | (u >> 12 & 0x3f));
		*d++ = (char)(0x80 | (u >> 6 & 0x3f));
		*d++ = (char)(0x80 | (u & 0x3f));
	}
	return d;
}

/* "\uXXXX" (and its low surrogate) at j->p, which is at the 'u': j->p after it. */
static int unicode(struct roce_jsonpull *j, char **d, struct roce_error *err)
{
	unsigned u, lo;
	if (j->end - j->p < 5 || hex4(j->p + 1, &u) < 0)
		return bad(j, "bad \\u escape", err);
	j->p += 5;
	if (u >= 0xd800 && u <= 0xdbff && j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u' &&
	    hex4(j->p + 2, &lo) == 0 && lo >= 0xdc00 && lo <= 0xdfff) {
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		j->p += 6;
	} else if (u >= 0xd800 && u <= 0xdfff) {
		u = 0xfffd; /* a lone surrogate: the replacement character */
	}
	*d = utf8(*d, u);
	return 0;
}

/* The end of the run of plain string bytes at p (no '"', '\\' or control
 * character; end when the text ends first).  Most strings are one run: found
 * by memchr and a check that compilers vectorise, not byte by byte.  *quote
 * is the next '"' at or after p (end: none), kept between calls so that a
 * string of many escapes is not searched to its end again at each one. */
static const char *plain_run(const char *p, const char *end, const char **quote)
{
	if (*quote < p) {
		const char *q = memchr(p, '"', (size_t)(end - p));
		*quote = q ? q : end;
	}
	const char *b = memchr(p, '\\', (size_t)(*quote - p));
	const char *stop = b ? b : *quote;
	unsigned char low = 0x20;
	for (const char *x = p; x < stop; x++)
		low = (unsigned char)*x < low ? (unsigned char)*x : low;
	if (low < 0x20)
		for (stop = p; (unsigned char)*stop >= 0x20; stop++)
			; /* the first control character, to name its byte */
	return stop;
}

static int unescape(struct roce_jsonpull *j, char **s, size_t *len, bool write, struct roce_error *err)
{
	/* Past the '"'; the text shrinks as escapes are undone.  When only
	 * checking, escapes are undone into sink: the text stays as it is. */
	char sink[8], *start = ++j->p, *d = write ? start : sink;
	const char *quote = start - 1; /* the opening '"': none found yet */
	*s = start;
	for (;; d = write ? d : sink) {
		char *run = (char *)plain_run(j->p, j->end, &quote);
		if (run > j->p) {
			size_t n = (size_t)(run - j->p);
			if (write && d != j->p)
				memmove(d, j->p, n);
			d += write ? n : 0;
			j->p = run;
		}
		if (j->p == j->end)
			return bad(j, "unterminated string", err);
		unsigned char c = (unsigned char)*j->p;
		if (c == '"')
			break;
		if (c < 0x20)
			return bad(j, "control character in a string", err);
		if (++j->p == j->end)
			return bad(j, "unterminated string", err);
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *e = strchr(from, *j->p);
		if (*j->p == 'u') {
			if (unicode(j, &d, err) < 0)
				return -1;
		} else if (*j->p && e) {
			*d++ = to[e - from];
			j->p++;
		} else {
			return bad(j, "bad escape", err);
		}
	}
	if (write) {
		*len = (size_t)(d - *s);
		*d = '\0'; /* at or before the closing '"' */
	} else {
		*len = 0;
	}
	j->p++;
	return 0;
}

int roce_jsonpull_string(struct roce_jsonpull *j, const char **s, size_t *len, struct roce_error *err)
{
	char *t;
	size_t n;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_STRING)
		return bad(j, "expected a string", err);
	if (unescape(j, &t, &n, true, err) < 0)
		return -1;
	*s = t;
	if (len)
		*len = n;
	return 0;
}

static const char *digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

int roce_jsonpull_number(struct roce_jsonpull *j, struct roce_jsonpull_number *n, struct roce_error *err)
{
	const char *p = j->p, *end = j->end, *q;
	memset(n, 0, sizeof(*n));
	n->text = p;
	n->negative = p < end && *p == '-';
	p += n->negative;
	if (p == end || *p < '0' || *p > '9')
		return bad(j, "expected a number", err);
	q = *p == '0' ? p + 1 : digits(p, end);
	n->integer = true;
	for (const char *x = p; x < q; x++) {
		unsigned d = (unsigned)(*x - '0');
		if (n->magnitude > (UINT64_MAX - d) / 10)
			n->integer = false; /* beyond uint64: only a number */
		n->magnitude = n->magnitude * 10 + d;
	}
	if (n->negative && n->magnitude > (uint64_t)INT64_MAX + 1)
		n->integer = false;
	p = q;
	if (p < end && *p == '.') {
		if ((q = digits(p + 1, end)) == p + 1)
			return bad(j, "expected a digit after '.'", err);
		p = q;
		n->integer = false;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		p += p < end && (*p == '+' || *p == '-');
		if ((q = digits(p, end)) == p)
			return bad(j, "expected a digit in the exponent", err);
		p = q;
		n->integer = false;
	}
	n->len = (size_t)(p - n->text);
	/* strtod reads exactly the digits checked above: what follows is no digit, '.' or 'e'. */
	char num[64], *copy = n->len < sizeof(num) ? num : malloc(n->len + 1);
	if (!copy) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	memcpy(copy, n->text, n->len);
	copy[n->len] = '\0';
	n->value = strtod(copy, NULL);
	if (copy != num)
		free(copy);
	j->p = (char *)p;
	j->first = false;
	return 0;
}

static int word(struct roce_jsonpull *j, const char *w, struct roce_error *err)
{
	size_t n = strlen(w);
	space(j);
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return bad(j, "expected true, false or null", err);
	j->p += n;
	return 0;
}

int roce_jsonpull_bool(struct roce_jsonpull *j, bool *v, struct roce_error *err)
{
	space(j);
	*v = j->p < j->end && *j->p == 't';
	return word(j, *v ? "true" : "false", err);
}

int roce_jsonpull_null(struct roce_jsonpull *j, struct roce_error *err) { return word(j, "null", err); }

int roce_jsonpull_skip(struct roce_jsonpull *j, struct roce_error *err)
{
	char *k, *s;
	size_t len;
	struct roce_jsonpull_number num;
	bool b;
	int rc;
	switch (roce_jsonpull_type(j)) {
	case ROCE_JSONPULL_OBJECT:
		if (roce_jsonpull_enter(j, err) < 0)
			return -1;
		while ((rc = key_at(j, &k, false, err)) == 1)
			if (roce_jsonpull_skip(j, err) < 0)
				return -1;
		return rc;
	case ROCE_JSONPULL_ARRAY:
		if (roce_jsonpull_enter(j, err) < 0)
			return -1;
		while ((rc = roce_jsonpull_next(j, err)) == 1)
			if (roce_jsonpull_skip(j, err) < 0)
				return -1;
		return rc;
	case ROCE_JSONPULL_STRING: return unescape(j, &s, &len, false, err);
	case ROCE_JSONPULL_NUMBER: return roce_jsonpull_number(j, &num, err);
	case ROCE_JSONPULL_BOOL: return roce_jsonpull_bool(j, &b, err);
	case ROCE_JSONPULL_NULL: return roce_jsonpull_null(j, err);
	case ROCE_JSONPULL_BAD: break;
	}
	return bad(j, "expected a value", err);
}

int roce_jsonpull_end(struct roce_jsonpull *j, struct roce_error *err)
{
	space(j);
	return j->p == j->end ? 0 : bad(j, "text after the value", err);
}

/* ---------------------------------------------------------------- members, by table */

static const char *kind_name(enum roce_jsonpull_kind k)
{
	static const char *const names[] = { "a string",  "an integer", "a number", "a boolean",
		                             "an object", "an array",   "a value" };
	return names[k];
}

static bool kind_is(enum roce_jsonpull_kind k, enum roce_jsonpull_type t)
{
	switch (k) {
	case ROCE_JSONPULL_K_STR: return t == ROCE_JSONPULL_STRING;
	case ROCE_JSONPULL_K_INT:
	case ROCE_JSONPULL_K_NUM: return t == ROCE_JSONPULL_NUMBER;
	case ROCE_JSONPULL_K_BOOL: return t == ROCE_JSONPULL_BOOL;
	case ROCE_JSONPULL_K_OBJ: return t == ROCE_JSONPULL_OBJECT;
	case ROCE_JSONPULL_K_ARR: return t == ROCE_JSONPULL_ARRAY;
	case ROCE_JSONPULL_K_ANY: break;
	}
	return true;
}

int roce_jsonpull_missing(const struct roce_jsonpull_member *m, struct roce_error *err)
{
	roce_error_set(err, "\"%s\" missing or not %s", m->key, kind_name(m->kind));
	return -1;
}

/* key's index in ms[0..n): the one after *hint first (the writer's order). */
static int member_index(const struct roce_jsonpull_member *ms, int n, const char *key, int *hint)
{
	for (int i = 0; i < n; i++) {
		int k = (*hint + i) % n;
		if (strcmp(ms[k].key, key) == 0) {
			*hint = k + 1;
			return k;
		}
	}
	return -1;
}


/* The object that is next, member by member: one(k) at the value of each
 * member of ms (checked to be of its kind); others passed over.  *seen
 * gets a bit per member read; the required ones must all be there. */
int roce_jsonpull_members(struct roce_jsonpull *j, const struct roce_jsonpull_member *ms, int n,
                          roce_jsonpull_member_fn one, void *ctx, uint64_t *seen, struct roce_error *err)
{
	const char *key;
	int rc, hint = 0;
	*seen = 0;
	if (roce_jsonpull_enter(j, err) < 0)
		return -1;
	while ((rc = roce_jsonpull_key(j, &key, err)) == 1) {
		int k = member_index(ms, n, key, &hint);
		if (k >= 0 && (*seen & (1ull << k))) {
			roce_error_set(err, "\"%s\" given twice", ms[k].key);
			return -1;
		}
		if (k >= 0 && !kind_is(ms[k].kind, roce_jsonpull_type(j)) && !(ms[k].flags & ROCE_JSONPULL_LENIENT))
			return roce_jsonpull_missing(&ms[k], err);
		if (k < 0 || !kind_is(ms[k].kind, roce_jsonpull_type(j))) {
			if (roce_jsonpull_skip(j, err) < 0)
				return -1;
			continue;
		}
		*seen |= 1ull << k;
		if (one(j, k, ctx, err) < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	for (int k = 0; k < n; k++)
		if ((ms[k].flags & ROCE_JSONPULL_REQUIRED) && !(*seen & (1ull << k)))
			return roce_jsonpull_missing(&ms[k], err);
	return 0;
}

/* ---------------------------------------------------------------- values */

int roce_jsonpull_str(struct roce_jsonpull *j, const char *key, size_t max, const char **s, struct roce_error *err)
{
	size_t len;
	if (roce_jsonpull_string(j, s, &len, err) < 0)
		return -1;
	if (len > max) {
		roce_error_set(err, "\"%s\" longer than %zu bytes", key, max);
		return -1;
	}
	return 0;
}

/* A string that is name(i) for one i in lo..hi. */
int roce_jsonpull_enum(struct roce_jsonpull *j, const char *key, const char *(*name)(int), int lo, int hi, int *v,
                       struct roce_error *err)
{
	const char *s;
	if (roce_jsonpull_str(j, key, 64, &s, err) < 0)
		return -1;
	return roce_jin_enum_text(s, key, name, lo, hi, v, err);
}

int roce_jsonpull_int(struct roce_jsonpull *j, const char *key, int64_t lo, int64_t hi, int64_t *v,
                      struct roce_error *err)
{
	struct roce_jsonpull_number n;
	if (roce_jsonpull_number(j, &n, err) < 0)
		return -1;
	if (!n.integer) {
		roce_error_set(err, "\"%s\" missing or not an integer", key);
		return -1;
	}
	bool fits = n.negative ? n.magnitude <= (uint64_t)INT64_MAX + 1 : n.magnitude <= (uint64_t)INT64_MAX;
	*v = n.negative ? (int64_t)(0 - n.magnitude) : (int64_t)n.magnitude;
	if (!fits || *v < lo || *v > hi) {
		roce_error_set(err, "\"%s\" = %.*s out of range %" PRId64 "..%" PRId64, key, (int)n.len, n.text, lo,
		               hi);
		return -1;
	}
	return 0;
}

/* A counter value: an integer >= 0; false (and nothing read) when the next value is none. */
int roce_jsonpull_counter(struct roce_jsonpull *j, uint64_t *v, bool *ok, struct roce_error *err)
{
	struct roce_jsonpull_number n;
	*ok = false;
	if (roce_jsonpull_type(j) != ROCE_JSONPULL_NUMBER)
		return roce_jsonpull_skip(j, err);
	if (roce_jsonpull_number(j, &n, err) < 0)
		return -1;
	*ok = n.integer && (!n.negative || n.magnitude == 0);
	*v = n.magnitude;
	return 0;
}

/* An array of at most max entries, each read by one(index). */
int roce_jsonpull_array(struct roce_jsonpull *j, const char *key, size_t max,
                        int (*one)(struct roce_jsonpull *j, size_t i, void *ctx, struct roce_error *err), void *ctx,
                        struct roce_error *err)
{
	int rc;
	size_t i = 0;
	if (roce_jsonpull_enter(j, err) < 0)
		return -1;
	while ((rc = roce_jsonpull_next(j, err)) == 1) {
		if (i == max) {
			roce_error_set(err, "\"%s\" has more than %zu entries", key, max);
			return -1;
		}
		if (one(j, i++, ctx, err) < 0)
			return -1;
	}
	return rc;
}
