/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printable.c - the one escaping rule for hostile text (printable.h). */
#include "config.h"
#include "printable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The escape of one byte (at most 4 bytes, "\xNN"), NUL-terminated in e. */
static size_t escape(unsigned char c, char e[5])
{
	switch (c) {
	case '\\': memcpy(e, "\\\\", 3); return 2;
	case '\n': memcpy(e, "\\n", 3); return 2;
	case '\t': memcpy(e, "\\t", 3); return 2;
	case '\r': memcpy(e, "\\r", 3); return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		e[0] = (char)c;
		e[1] = '\0';
		return 1;
	}
	snprintf(e, 5, "\\x%02x", c);
	return 4;
}

/* Bytes of the escaped copy of s[0..n) (stops at a NUL), without a terminator. */
static size_t escaped_len(const char *s, size_t n)
{
	char e[5];
	size_t total = 0;
	for (size_t i = 0; i < n && s[i]; i++)
		total += escape((unsigned char)s[i], e);
	return total;
}

const char *roce_printable_n(const char *s, size_t n, char *out, size_t len)
{
	static const char cut[] = "...";
	char e[5];
	size_t o = 0;
	if (!len)
		return out;
	if (!s)
		s = "";
	/* Room for the whole copy, else for what fits before "...". */
	size_t room = escaped_len(s, n) < len ? len - 1 : (len > sizeof(cut) ? len - sizeof(cut) : 0);
	size_t i = 0;
	for (; i < n && s[i]; i++) {
		size_t k = escape((unsigned char)s[i], e);
		if (o + k > room)
			break;
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

char *roce_printable_dup(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	size_t len = escaped_len(s ? s : "", n) + 1;
	char *out = malloc(len);
	if (out && len == n + 1)   /* nothing to escape: the common case */
		memcpy(out, s ? s : "", len);
	else if (out)
		roce_printable_n(s, n, out, len);
	return out;
}
