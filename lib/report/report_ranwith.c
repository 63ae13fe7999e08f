/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_ranwith.c - what the job ran with, across its nodes (report_ranwith.h). */
#include "config.h"
#include "report/report_ranwith.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t roce_report_ranwith_names(const struct roce_job_report *r, const char **names, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_ranwith *rw = r->nodes[i].ran_with;
		for (size_t k = 0; rw && k < rw->n; k++) {
			size_t j = 0;
			while (j < n && strcmp(names[j], rw->v[k].name) != 0)
				j++;
			if (j == n && n < max)
				names[n++] = rw->v[k].name;
		}
	}
	return n;
}

int roce_report_ranwith_groups(const struct roce_job_report *r, const char *name, struct roce_report_groups *gs)
{
	char key[2 * ROCE_RANWITH_VALUE + 64];
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct roce_ranwith *rw = r->nodes[i].ran_with;
		for (size_t k = 0; rw && k < rw->n; k++) {
			const struct roce_ranwith_var *v = &rw->v[k];
			if (strcmp(v->name, name) != 0)
				continue;
			bool differs = v->user && strcmp(v->value, v->checked) != 0;
			if (differs)
				snprintf(key, sizeof(key), "%s (the job's own; checked: %s)", v->value, v->checked);
			else
				snprintf(key, sizeof(key), "%s", v->value);
			if (roce_report_group_add(gs, key, differs ? ROCE_SEV_WARN : ROCE_SEV_INFO, r->nodes[i].name) <
			    0)
				return -1;
		}
	}
	return 0;
}
