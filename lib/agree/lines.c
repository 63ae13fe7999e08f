/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lines.c - the agreement's short lines (lines.h). */
#include "config.h"
#include "agree/lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MORE_ROOM 12 /* "; +NNNN more" */
#define CUT_MIN 24   /* a node list cut shorter says too little */

void roce_lines_start(struct roce_line_build *b, const char *fmt, ...)
{
	va_list ap;
	memset(b, 0, sizeof(*b));
	va_start(ap, fmt);
	int n = vsnprintf(b->text, sizeof(b->text), fmt, ap);
	va_end(ap);
	b->len = n < 0 ? 0 : (size_t)n < sizeof(b->text) ? (size_t)n : sizeof(b->text) - 1;
	b->text[b->len] = '\0';
}

/* Append s (len bytes) after the separator, if it fits with room for the count. */
static bool append(struct roce_line_build *b, const char *s, size_t len)
{
	const char *sep = b->clauses ? "; " : "";
	size_t need = strlen(sep) + len;
	if (b->more || b->len + need + MORE_ROOM >= sizeof(b->text)) {
		b->more++;
		return false;
	}
	memcpy(b->text + b->len, sep, strlen(sep));
	memcpy(b->text + b->len + strlen(sep), s, len);
	b->len += need;
	b->text[b->len] = '\0';
	b->clauses++;
	return true;
}

void roce_lines_clause(struct roce_line_build *b, const char *fmt, ...)
{
	char c[ROCE_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(c, sizeof(c), fmt, ap);
	va_end(ap);
	if (n >= 0)
		append(b, c, strlen(c));
}

/* Room left for a clause of fixed bytes around a node list. */
static size_t room(const struct roce_line_build *b, size_t fixed)
{
	size_t used = b->len + (b->clauses ? 2 : 0) + fixed + MORE_ROOM + 1;
	return used < sizeof(b->text) ? sizeof(b->text) - used : 0;
}

/* list cut to at most max bytes: "node[1-3,5,..." */
static void cut(char *list, size_t max)
{
	if (strlen(list) <= max)
		return;
	if (max < 4) {
		list[0] = '\0';
		return;
	}
	size_t at = max - 3;
	while (at > 0 && list[at - 1] != ',' && list[at - 1] != '[')
		at--;
	if (at == 0)
		at = max - 3;
	strcpy(list + at, "...");
}

static bool node_clause(struct roce_line_build *b, roce_nodelist_fn fn, const char *const *names, size_t n,
                        const char *before, const char *after)
{
	char c[ROCE_LINE_MAX];
	char *list = roce_nodelist(fn, names, n);
	if (!list)
		return false;
	size_t fixed = strlen(before) + strlen(after), max = room(b, fixed);
	if (max >= CUT_MIN) /* else the clause is counted, not cut to almost nothing */
		cut(list, max);
	snprintf(c, sizeof(c), "%s%s%s", before, list, after);
	append(b, c, strlen(c));
	free(list);
	return true;
}

bool roce_lines_group(struct roce_line_build *b, roce_nodelist_fn fn, const char *value, const char *const *names,
                      size_t n)
{
	char before[ROCE_LINE_MAX];
	snprintf(before, sizeof(before), "%s on ", value);
	return node_clause(b, fn, names, n, before, "");
}

bool roce_lines_nodes_first(struct roce_line_build *b, roce_nodelist_fn fn, const char *const *names, size_t n,
                            const char *text)
{
	char after[ROCE_LINE_MAX];
	snprintf(after, sizeof(after), ": %s", text);
	return node_clause(b, fn, names, n, "", after);
}

void roce_lines_end(struct roce_lines *l, enum roce_line_kind kind, struct roce_line_build *b)
{
	if (l->n == ROCE_LINES_MAX) {
		l->dropped++;
		return;
	}
	if (b->more)
		snprintf(b->text + b->len, sizeof(b->text) - b->len, "; +%zu more", b->more);
	struct roce_line *line = &l->line[l->n++];
	line->kind = kind;
	memcpy(line->text, b->text, sizeof(line->text));
}

bool roce_lines_have(const struct roce_lines *l, enum roce_line_kind kind)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->line[i].kind == kind)
			return true;
	return false;
}
