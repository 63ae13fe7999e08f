/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exported.c - the marks on values the plugin exported (ROCE_EXPORTED), so
 * that a later step can tell them from the user's own.  Pure.
 */
#include "config.h"
#include "roce.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A mark is NAME:<FNV-1a of the value>: the value itself may be long and is the user's to see. */
bool roce_exported_has(const char *exported, const char *name, const char *value)
{
	char want[64];
	if (snprintf(want, sizeof(want), "%s:%08" PRIx32, name, roce_fnv1a(value)) >= (int)sizeof(want))
		return false;
	size_t n = strlen(want);
	for (const char *p = exported; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, want, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

int roce_exported_add(char *list, size_t len, const char *name, const char *value)
{
	size_t used = strlen(list);
	int n = snprintf(list + used, len - used, "%s%s:%08" PRIx32, used ? "," : "", name, roce_fnv1a(value));
	if (n < 0 || (size_t)n >= len - used) {
		list[used] = '\0';
		return -1;
	}
	return 0;
}
