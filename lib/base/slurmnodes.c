/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slurmnodes.c - node lists through libslurm's hostlist (slurmnodes.h). */
#include "config.h"
#include "base/slurmnodes.h"

#include <stdlib.h>
#include <string.h>
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

void roce_slurm_job_nodes(struct roce_job_nodes *out)
{
	const char *start = getenv("SLURM_JOB_START_TIME"), *list = getenv("SLURM_JOB_NODELIST");
	char *end;
	memset(out, 0, sizeof(*out));
	out->names = (const char *const *)roce_slurm_expand(list ? list : getenv("SLURM_NODELIST"), ROCE_SLURM_JOB_NODES_MAX, &out->n);
	if (!out->names)
		out->n = 0;
	long long t = start ? strtoll(start, &end, 10) : 0;
	out->start = start && *start && !*end && t > 0 ? (time_t)t : 0;
}

void roce_slurm_job_nodes_free(struct roce_job_nodes *out)
{
	for (size_t i = 0; i < out->n; i++)
		free((char *)out->names[i]);
	free((void *)out->names);
	memset(out, 0, sizeof(*out));
}
