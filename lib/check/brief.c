/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * brief.c - the short form of a node's findings for a job's output.  Pure.
 */
#include "config.h"
#include "check/brief.h"
#include "base/printable.h"

#include <stdio.h>
#include <string.h>

bool roce_brief_shows(const struct roce_finding *f, enum roce_brief_which which)
{
	if (f->status == ROCE_PASS)
		return false;
	if (which == ROCE_BRIEF_FAILING)
		return f->status == ROCE_FAIL || (f->status == ROCE_UNKNOWN && !f->aside);
	return !f->quiet;
}

/* The group of b[0..n) that f joins, NULL when none. */
static struct roce_brief *group_of(struct roce_brief *b, size_t n, const struct roce_finding *f)
{
	for (size_t i = 0; i < n; i++)
		if (b[i].status == f->status && strcmp(b[i].check, f->check) == 0 && strcmp(b[i].cause, f->cause) == 0)
			return &b[i];
	return NULL;
}

/* Add f's subject to g's list ("" stays "" about the node); ",..." once full. */
static void add_subject(struct roce_brief *g, const struct roce_finding *f)
{
	const char *s = f->device[0] ? f->subject : "";
	size_t used = strlen(g->subjects);
	if (!s[0] || (used >= 4 && strcmp(g->subjects + used - 4, ",...") == 0))
		return;
	for (const char *p = g->subjects; *p;) { /* a subject said twice (a bond's members) is said once */
		size_t k = strcspn(p, ",");
		if (k == strlen(s) && strncmp(p, s, k) == 0)
			return;
		p += k + (p[k] == ',');
	}
	if (used + (used ? 1 : 0) + strlen(s) + 4 >= sizeof(g->subjects)) {
		snprintf(g->subjects + used, sizeof(g->subjects) - used, ",...");
		return;
	}
	snprintf(g->subjects + used, sizeof(g->subjects) - used, "%s%s", used ? "," : "", s);
}

size_t roce_brief_of(const struct roce_finding *f, size_t n, enum roce_brief_which which, struct roce_brief *out,
                     size_t max)
{
	size_t count = 0;
	/* Worst first: one pass per verdict, so that each group keeps its findings' order. */
	static const enum roce_verdict order[] = { ROCE_FAIL, ROCE_UNKNOWN, ROCE_WARN };
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		size_t first = count < max ? count : max;
		for (size_t i = 0; i < n; i++) {
			if (f[i].status != order[o] || !roce_brief_shows(&f[i], which))
				continue;
			size_t have = count < max ? count : max;
			struct roce_brief *g = group_of(out + first, have - first, &f[i]);
			if (!g && count >= max) {
				/* a group that did not fit is still counted, once */
				bool seen = false;
				for (size_t j = 0; j < i && !seen; j++)
					seen = f[j].status == f[i].status && roce_brief_shows(&f[j], which) &&
					       !strcmp(f[j].check, f[i].check) && !strcmp(f[j].cause, f[i].cause);
				count += !seen;
				continue;
			}
			if (!g) {
				g = &out[count++];
				memset(g, 0, sizeof(*g));
				g->status = f[i].status;
				snprintf(g->check, sizeof(g->check), "%s", f[i].check);
				snprintf(g->cause, sizeof(g->cause), "%s", f[i].cause);
			}
			add_subject(g, &f[i]);
		}
	}
	return count;
}

void roce_brief_text(const struct roce_brief *b, char *buf, size_t len)
{
	char check[sizeof(b->check) * 4], cause[sizeof(b->cause) * 4], subjects[ROCE_BRIEF_SUBJECTS_MAX * 4];
	roce_printable(b->check, check, sizeof(check));
	roce_printable(b->cause, cause, sizeof(cause));
	if (b->subjects[0])
		snprintf(buf, len, "%s %s on %s", check, cause,
		         roce_printable(b->subjects, subjects, sizeof(subjects)));
	else
		snprintf(buf, len, "%s %s", check, cause);
}

/* " (+k more)" */
static void more_text(size_t k, char *buf, size_t len)
{
	if (k)
		snprintf(buf, len, " (+%zu more)", k);
	else if (len)
		buf[0] = '\0';
}

size_t roce_brief_join(const struct roce_brief *b, size_t n, size_t total, char *buf, size_t len)
{
	char one[ROCE_BRIEF_LINE_MAX * 4], more[32];
	size_t used = 0, shown = 0;
	if (!len)
		return 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		roce_brief_text(&b[i], one, sizeof(one));
		more_text(total - i - 1, more, sizeof(more));
		size_t need = (i ? 2 : 0) + strlen(one) + strlen(more);
		if (i && used + need >= len)
			break;
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s", i ? "; " : "",
		                         (int)(len > used + strlen(more) + 1 ? len - used - strlen(more) - 1 : 0), one);
		if (used >= len)
			used = len - 1;
		shown++;
	}
	more_text(total - shown, more, sizeof(more));
	if (used + strlen(more) < len)
		snprintf(buf + used, len - used, "%s", more);
	return shown;
}

static uint32_t fnv1a(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (h ^ 0xffu) * 16777619u; /* a field's end: "ab"+"c" is not "a"+"bc" */
}

uint32_t roce_brief_key(const struct roce_brief *b)
{
	char status[4];
	snprintf(status, sizeof(status), "%d", (int)b->status);
	return fnv1a(fnv1a(fnv1a(fnv1a(2166136261u, status), b->check), b->cause), b->subjects);
}
