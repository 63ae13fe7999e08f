/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printable.c - the one escaping rule for hostile text (printable.h). */
#include "config.h"
#include "base/printable.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copied as it is: printable ASCII but the backslash. */
static bool plain(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '\\'; }

/* Length of the escape of a byte that is not plain. */
static size_t escape_len(unsigned char c) { return c == '\\' || c == '\n' || c == '\t' || c == '\r' ? 2 : 4; }

/* The escape of a byte that is not plain, NUL-terminated in e. */
static void escape(unsigned char c, char e[5])
{
	switch (c) {
	case '\\': memcpy(e, "\\\\", 3); return;
	case '\n': memcpy(e, "\\n", 3); return;
	case '\t': memcpy(e, "\\t", 3); return;
	case '\r': memcpy(e, "\\r", 3); return;
	}
	snprintf(e, 5, "\\x%02x", c);
}

/* Bytes of the escaped copy of s[0..n) (stops at a NUL), without a terminator. */
static size_t escaped_len(const char *s, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n && s[i]; i++)
		total += plain((unsigned char)s[i]) ? 1 : escape_len((unsigned char)s[i]);
	return total;
}

const char *roce_printable_n(const char *s, size_t n, char *out, size_t len)
{
	static const char cut[] = "...";
	size_t o = 0;
	if (!len)
		return out;
	if (!s)
		s = "";
	/* Room for the whole copy, else for what fits before "...". */
	size_t room = escaped_len(s, n) < len ? len - 1 : (len > sizeof(cut) ? len - sizeof(cut) : 0);
	size_t i = 0;
	for (; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t k = plain(c) ? 1 : escape_len(c);
		if (o + k > room)
			break;
		if (k == 1) {
			out[o++] = (char)c;
			continue;
		}
		char e[5];
		escape(c, e);
		memcpy(out + o, e, k);
		o += k;
	}
	if (i < n && s[i]) {
		size_t k = strlen(cut) < len - 1 - o ? strlen(cut) : len - 1 - o;
		memcpy(out + o, cut, k);
		o += k;
	}
	out[o] = '\0';
	return out;
}

const char *roce_printable(const char *s, char *out, size_t len)
{
	return roce_printable_n(s, s ? strlen(s) : 0, out, len);
}

/* The escaped copy of s in memory from alloc(ctx, bytes): the one body of
 * roce_printable_dup and roce_printable_dup_in. */
static char *dup_with(const char *s, void *(*alloc)(void *ctx, size_t size), void *ctx)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	size_t len = escaped_len(s, n) + 1;
	char *out = alloc(ctx, len);
	if (out && len == n + 1) /* nothing to escape: the common case */
		memcpy(out, s, len);
	else if (out)
		roce_printable_n(s, n, out, len);
	return out;
}

static void *heap(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static void *arena(void *ctx, size_t size) { return roce_arena_chars(ctx, size); }

char *roce_printable_dup(const char *s) { return dup_with(s, heap, NULL); }

char *roce_printable_dup_in(struct roce_arena *a, const char *s) { return dup_with(s, arena, a); }

void roce_printable_html(FILE *out, const char *s)
{
	static const char *const ref[] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"
	};
	char e[5];
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < sizeof(ref) / sizeof(ref[0]) && ref[c]) {
			fputs(ref[c], out);
		} else if (plain(c)) {
			fputc(c, out);
		} else {
			escape(c, e);
			fputs(e, out);
		}
	}
}
