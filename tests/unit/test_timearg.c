/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_timearg.c - times as admins type them (--since) and as reports print them (timearg.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timearg.h"

static time_t parsed(const char *s)
{
	struct roce_error err = { "" };
	time_t t = 0;
	assert_int_equal(roce_timearg_parse(s, 2000000000, &t, &err), 0);
	return t;
}

static void t_forms(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(parsed("2026-11-30"), 1795996800);
	assert_int_equal(parsed("2026-11-30T12:00"), 1795996800 + 43200);
	assert_int_equal(parsed("2026-11-30 12:00:05"), 1795996800 + 43205);
	assert_int_equal(parsed("now"), 2000000000);
	assert_int_equal(parsed("now-7days"), 2000000000 - 7 * 86400);
	assert_int_equal(parsed("-7d"), 2000000000 - 7 * 86400);
	assert_int_equal(parsed("-36h"), 2000000000 - 36 * 3600);
	assert_int_equal(parsed("now-90min"), 2000000000 - 90 * 60);
	assert_int_equal(parsed("-2w"), 2000000000 - 14 * 86400);
	/* local time unless Z */
	setenv("TZ", "EST5", 1);
	tzset();
	assert_int_equal(parsed("2026-11-30T12:00"), 1795996800 + 43200 + 5 * 3600);
	assert_int_equal(parsed("2026-11-30T12:00Z"), 1795996800 + 43200);
	setenv("TZ", "UTC", 1);
	tzset();
}

static void t_bad(void **state)
{
	(void)state;
	static const char *const bad[] = { "", "yesterday", "2026-13-01", "2026-11-30T", "2026-11-30x", "-7",
	                                   "-7 days", "now+1d", "now-", "7d", "-d", "30-11-2026" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct roce_error err = { "" };
		time_t t;
		assert_int_equal(roce_timearg_parse(bad[i], 2000000000, &t, &err), -1);
		assert_non_null(strstr(err.msg, "is not a time"));
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "\"%s\"", bad[i]);
		assert_non_null(strstr(err.msg, quoted));
	}
}

static void t_iso(void **state)
{
	(void)state;
	char buf[32];
	assert_string_equal(roce_timearg_iso(1795996800LL * 1000000000 + 5, buf, sizeof(buf)), "2026-11-30T00:00:00Z");
	assert_string_equal(roce_timearg_iso(0, buf, sizeof(buf)), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_forms),
		cmocka_unit_test(t_bad),
		cmocka_unit_test(t_iso),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
