/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error.c - struct roce_error (error.h). */
#include "config.h"
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>

void roce_error_set(struct roce_error *e, const char *fmt, ...)
{
	if (!e)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}
