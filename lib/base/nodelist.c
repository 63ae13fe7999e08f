/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodelist.c - node names as one list (nodelist.h). */
#include "config.h"
#include "base/nodelist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *join_names(const char *const *names, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", names[i]);
	return s;
}

char *roce_nodelist(roce_nodelist_fn fn, const char *const *names, size_t n)
{
	char *s = fn ? fn(names, n) : NULL;
	return s ? s : join_names(names, n);
}
