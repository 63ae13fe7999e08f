/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strcopy.c - a string copied and cut to fit, without printf (strcopy.h). */
#include "config.h"
#include "base/strcopy.h"

#include <string.h>

size_t roce_strcopy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}
