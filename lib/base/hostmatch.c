/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostmatch.c - a node name against a Slurm hostlist pattern (hostmatch.h). */
#include "config.h"
#include "base/hostmatch.h"
#include "base/printable.h"

#include <stdint.h>
#include <string.h>

#define DIGITS_MAX 18 /* a range's number: fits a uint64_t with room to spare */

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* Node names as Slurm and DNS give them: no space, no quoting, no '/'. */
static bool literal(char c)
{
	return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '_' || c == '-';
}

/* The number at *s (1-18 digits): its value and width; *s moves past it. */
static int number(const char **s, uint64_t *v, size_t *width)
{
	const char *p = *s;
	uint64_t n = 0;
	size_t k = 0;
	while (digit(p[k])) {
		if (k == DIGITS_MAX)
			return -1;
		n = n * 10 + (uint64_t)(p[k] - '0');
		k++;
	}
	if (!k)
		return -1;
	*v = n;
	*width = k;
	*s = p + k;
	return 0;
}

/* The ranges after a '[' up to its ']': *s moves past the ']', or stops
 * where the problem is (why set). */
static int check_bracket(const char **s, const char **why)
{
	for (;;) {
		uint64_t lo, hi;
		size_t w;
		if (number(s, &lo, &w) < 0) {
			*why = "a range needs a number of 1 to 18 digits";
			return -1;
		}
		if (**s == '-') {
			++*s;
			if (number(s, &hi, &w) < 0) {
				*why = "a range needs a number of 1 to 18 digits after its '-'";
				return -1;
			}
			if (hi < lo) {
				*why = "a range runs downwards";
				return -1;
			}
		}
		if (**s == ']') {
			++*s;
			return 0;
		}
		if (**s != ',') {
			*why = **s ? "a bracket holds only numbers, '-' and ','" : "a '[' is not closed";
			return -1;
		}
		++*s;
	}
}

/* NULL when pattern is well formed, else why; *at is where. */
static const char *problem(const char *pattern, const char **at)
{
	const char *s = pattern, *why = NULL;
	bool empty = true;
	size_t len = strlen(pattern);

	if (len > ROCE_HOSTMATCH_PATTERN_MAX) {
		*at = pattern + ROCE_HOSTMATCH_PATTERN_MAX;
		return "longer than 1024 bytes";
	}
	for (;;) {
		*at = s;
		if (*s == '\0' || *s == ',') {
			if (empty)
				return "an empty element";
			if (*s == '\0')
				return NULL;
			empty = true;
			s++;
			continue;
		}
		empty = false;
		if (*s == '[') {
			s++;
			if (check_bracket(&s, &why) < 0) {
				*at = s;
				return why;
			}
		} else if (*s == ']') {
			return "a ']' without its '['";
		} else if (*s == '*' || *s == '?' || literal(*s)) {
			s++;
		} else {
			return "a character no node name has";
		}
	}
}

int roce_hostmatch_check(const char *pattern, struct roce_error *err)
{
	const char *at = pattern, *why;
	char shown[96];

	if (strcmp(pattern, "ALL") == 0 || !(why = problem(pattern, &at)))
		return 0;
	roce_error_set(err, "pattern \"%s\": %s (at character %zu)", roce_printable(pattern, shown, sizeof(shown)), why,
	               (size_t)(at - pattern) + 1);
	return -1;
}

/* Is the digit run d (k of them, k <= 18) in the expansion of the ranges
 * after a '[' (checked)?  Slurm prints each number of a range zero-padded
 * to the width of the range's low end. */
static bool in_bracket(const char *b, const char *d, size_t k)
{
	uint64_t v = 0;
	for (size_t i = 0; i < k; i++)
		v = v * 10 + (uint64_t)(d[i] - '0');
	for (;;) {
		uint64_t lo = 0, hi;
		size_t w = 0, wh;
		number(&b, &lo, &w);
		hi = lo;
		if (*b == '-') {
			b++;
			number(&b, &hi, &wh);
		}
		if (v >= lo && v <= hi && (k == w || (k > w && d[0] != '0')))
			return true;
		if (*b != ',')
			return false;
		b++;
	}
}

/* One element [e, end) against name (n bytes): the set of name positions
 * the pattern so far can reach, advanced one pattern item at a time. */
static bool match_element(const char *e, const char *end, const char *name, size_t n)
{
	bool reach[ROCE_HOSTMATCH_NAME_MAX + 1], next[ROCE_HOSTMATCH_NAME_MAX + 1];

	memset(reach, 0, n + 1);
	reach[0] = true;
	for (const char *t = e; t < end;) {
		bool any = false;
		memset(next, 0, n + 1);
		if (*t == '*') {
			size_t i = 0;
			while (i <= n && !reach[i])
				i++;
			for (; i <= n; i++)
				next[i] = any = true;
			t++;
		} else if (*t == '[') {
			for (size_t i = 0; i < n; i++)
				for (size_t k = 1; reach[i] && k <= DIGITS_MAX && i + k <= n && digit(name[i + k - 1]);
				     k++)
					if (in_bracket(t + 1, name + i, k))
						next[i + k] = any = true;
			t = strchr(t, ']') + 1;
		} else {
			for (size_t i = 0; i < n; i++)
				if (reach[i] && (*t == '?' || name[i] == *t))
					next[i + 1] = any = true;
			t++;
		}
		if (!any)
			return false;
		memcpy(reach, next, n + 1);
	}
	return reach[n];
}

bool roce_hostmatch(const char *pattern, const char *name)
{
	const char *at;
	size_t n = strlen(name);

	if (strcmp(pattern, "ALL") == 0)
		return n > 0;
	if (n == 0 || n > ROCE_HOSTMATCH_NAME_MAX || problem(pattern, &at))
		return false;
	for (const char *e = pattern; *e;) {
		const char *end = e;
		while (*end && *end != ',')
			end += *end == '[' ? strcspn(end, "]") + 1 : 1;
		if (match_element(e, end, name, n))
			return true;
		e = *end ? end + 1 : end;
	}
	return false;
}
