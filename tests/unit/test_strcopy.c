/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_strcopy.c - a string copied and cut to fit (lib/base/strcopy.h), against snprintf. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "base/strcopy.h"

static void t_as_snprintf(void **state)
{
	(void)state;
	const char *src[] = { "", "a", "unknown", "0123456789abcdef", "20.39.1002 with a long tail after it" };
	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++)
		for (size_t len = 1; len <= 40; len++) {
			char want[48], got[48];
			memset(got, 'x', sizeof(got));
			snprintf(want, len, "%s", src[i]);
			size_t n = roce_strcopy(got, len, src[i]);
			assert_string_equal(got, want);
			assert_int_equal(n, strlen(want));
			if (len < sizeof(got))
				assert_int_equal(got[len], 'x'); /* nothing written past len bytes */
		}
}

/* The return value is where the next copy goes: copies append. */
static void t_appends(void **state)
{
	(void)state;
	char buf[12];
	size_t n = roce_strcopy(buf, sizeof(buf), "4096");
	n += roce_strcopy(buf + n, sizeof(buf) - n, ",1024");
	n += roce_strcopy(buf + n, sizeof(buf) - n, ",9000");
	assert_int_equal(n, 11);
	assert_string_equal(buf, "4096,1024,9");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_as_snprintf),
		cmocka_unit_test(t_appends),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
