/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_decimal.c - numbers in decimal without printf (lib/base/decimal.h), against printf. */
#include "config.h"
#include "unit.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/decimal.h"

static void as_printf(void **state)
{
	(void)state;
	const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 12345, UINT32_MAX, (uint64_t)UINT32_MAX + 1,
	                            INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char want[32], got[ROCE_DECIMAL_U64_MAX + 1];
		memset(got, 'x', sizeof(got));
		snprintf(want, sizeof(want), "%" PRIu64, values[i]);
		size_t n = roce_decimal_u64(got, values[i]);
		assert_int_equal(n, strlen(want));
		assert_memory_equal(got, want, n);
		assert_int_equal(got[n], 'x');   /* nothing written past the digits */
	}
	/* every power of ten and the number before it */
	for (uint64_t p = 1; p <= UINT64_MAX / 10; p *= 10) {
		char want[32], got[ROCE_DECIMAL_U64_MAX];
		snprintf(want, sizeof(want), "%" PRIu64, p - 1);
		assert_int_equal(roce_decimal_u64(got, p - 1), strlen(want));
		assert_memory_equal(got, want, strlen(want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(as_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
