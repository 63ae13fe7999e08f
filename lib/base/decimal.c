/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decimal.c - numbers in decimal without printf (decimal.h). */
#include "config.h"
#include "base/decimal.h"

#include <string.h>

size_t roce_decimal_u64(char *dst, uint64_t v)
{
	char d[ROCE_DECIMAL_U64_MAX], *e = d + sizeof(d), *b = e;
	do
		*--b = (char)('0' + v % 10);
	while (v /= 10);
	memcpy(dst, b, (size_t)(e - b));
	return (size_t)(e - b);
}
