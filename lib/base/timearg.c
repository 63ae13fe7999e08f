/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timearg.c - times typed on a command line, times printed (timearg.h). */
#include "config.h"
#include "base/timearg.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMS \
	"an ISO date or time (2026-11-30, 2026-11-30T12:00[:00][Z]) or a time back from now (now-7days, -7d, -36h)"

/* "7days" -> seconds; -1 when not a count and a unit. */
static long long span(const char *s)
{
	static const struct {
		const char *name;
		long long sec;
	} units[] = {
		{ "s", 1 },         { "sec", 1 },        { "second", 1 },   { "seconds", 1 },  { "m", 60 },
		{ "min", 60 },      { "minute", 60 },    { "minutes", 60 }, { "h", 3600 },     { "hour", 3600 },
		{ "hours", 3600 },  { "d", 86400 },      { "day", 86400 },  { "days", 86400 }, { "w", 604800 },
		{ "week", 604800 }, { "weeks", 604800 },
	};
	char *end;
	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	long long n = strtoll(s, &end, 10);
	if (errno || n > 100000LL * 366) /* beyond any Slurm history: a typo */
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].name) == 0)
			return n * units[i].sec;
	return -1;
}

/* The ISO forms; false when s is none of them. */
static bool iso(const char *s, time_t *out)
{
	static const char *const forms[] = { "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M",
		                             "%Y-%m-%d %H:%M", "%Y-%m-%d" };
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct tm tm;
		memset(&tm, 0, sizeof(tm));
		const char *end = strptime(s, forms[i], &tm);
		if (!end || (end[0] && strcmp(end, "Z") != 0) || tm.tm_year < 70)
			continue;
		tm.tm_isdst = -1;
		*out = end[0] ? timegm(&tm) : mktime(&tm);
		return *out != (time_t)-1;
	}
	return false;
}

int roce_timearg_parse(const char *s, time_t now, time_t *out, struct roce_error *err)
{
	const char *back = strncmp(s, "now", 3) == 0 ? s + 3 : s;
	if (back != s && back[0] == '\0') {
		*out = now;
		return 0;
	}
	if (back[0] == '-') {
		long long sec = span(back + 1);
		if (sec >= 0) {
			*out = now - (time_t)sec;
			return 0;
		}
	} else if (back == s && isdigit((unsigned char)s[0]) && iso(s, out)) {
		return 0;
	}
	roce_error_set(err, "\"%.64s\" is not a time: give " FORMS, s);
	return -1;
}

const char *roce_timearg_iso(int64_t ns, char *buf, size_t len)
{
	struct tm tm;
	time_t t = (time_t)(ns / 1000000000);
	if (ns <= 0 || !gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "unknown");
	return buf;
}
