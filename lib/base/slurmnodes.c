/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slurmnodes.c - node lists through libslurm's hostlist (slurmnodes.h). */
#include "config.h"
#include "base/slurmnodes.h"

#include <stdlib.h>
#include <slurm/slurm.h>

char *roce_slurm_nodelist(const char *const *names, size_t n)
{
	struct hostlist *hl = slurm_hostlist_create(NULL);
	char *s = NULL;
	size_t len = 256;
	if (!hl)
		return NULL;
	for (size_t i = 0; i < n; i++)
		slurm_hostlist_push_host(hl, names[i]);
	for (;;) {
		char *grown = realloc(s, len);
		if (!grown) {
			free(s);
			s = NULL;
			break;
		}
		s = grown;
		if (slurm_hostlist_ranged_string(hl, len, s) >= 0)
			break;
		len *= 2;
	}
	slurm_hostlist_destroy(hl);
	return s;
}

char **roce_slurm_expand(const char *list, size_t max, size_t *n)
{
	struct hostlist *hl = list && *list ? slurm_hostlist_create(list) : NULL;
	char **names = NULL, *h;
	*n = 0;
	if (!hl)
		return NULL;
	int count = slurm_hostlist_count(hl);
	if (count > 0 && (size_t)count <= max && (names = calloc((size_t)count, sizeof(*names))))
		while (*n < (size_t)count && (h = slurm_hostlist_shift(hl)))
			names[(*n)++] = h; /* malloc'd by libslurm: free() is right */
	slurm_hostlist_destroy(hl);
	return names;
}
