/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo-bench.c - what a prolog pays for GPU locality: load a topology,
 * compute the locality matrix, choose NCCL_IB_HCA for GPUs "2,3".
 * Cases run round-robin, N times each; prints the median and quartiles.
 * Usage: topo-bench RUNS CACHEFILE XML...   (built by bench/topo.sh)
 */
#include "config.h"
#include "check/choice.h"
#include "base/clock.h"
#include "check/gpuset.h"
#include "check/locality.h"
#include "collect/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One plan: load, locality for the mlx5 devices hwloc sees, choice. */
static double plan_once(const struct roce_topo_source *src, struct roce_locality *loc, const char **why)
{
	static const struct roce_locality_hca_in hca[] = {
		{ "mlx5_0", "0000:04:00.0" }, { "mlx5_1", "0000:43:00.0" },
		{ "mlx5_2", "0000:83:00.0" }, { "mlx5_3", "0000:c3:00.0" },
	};
	static const char *const healthy[] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3" };
	struct roce_topo *t;
	struct roce_error err = { "" };
	struct roce_gpuset gpus;
	struct roce_choice c;
	double t0 = roce_clock_ms_of(CLOCK_MONOTONIC);
	if (roce_topo_load(src, &t, &err)) {
		*why = strdup(err.msg);
		return -1;
	}
	roce_locality_build(t, hca, 4, loc, &err);
	roce_gpuset_parse("2,3", NULL, loc, &gpus);
	roce_choice_make(loc, &gpus, healthy, 4, ROCE_GDR_PXB, ROCE_TIES_BANDWIDTH, &c, &err);
	roce_topo_free(t);
	return roce_clock_ms_of(CLOCK_MONOTONIC) - t0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s RUNS CACHEFILE [XML...]\n", argv[0]);
		return 2;
	}
	int runs = atoi(argv[1]), ncases = argc - 1;
	struct roce_topo_source *src = calloc((size_t)ncases, sizeof(*src));
	const char **name = calloc((size_t)ncases, sizeof(*name));
	double *ms = calloc((size_t)ncases * (size_t)runs, sizeof(*ms));
	struct roce_locality *loc = malloc(sizeof(*loc));
	src[0].cache_file = argv[2];        /* live machine through the cache */
	name[0] = "cached XML of this machine (key check + load)";
	src[1].cache_file = NULL;           /* live machine, full hwloc discovery */
	name[1] = "live load of this machine (no cache)";
	for (int i = 3; i < argc; i++) {
		src[i - 1].xml_file = argv[i];
		name[i - 1] = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
	}
	const char *why = NULL;
	if (plan_once(&src[0], loc, &why) < 0) {   /* warm the cache */
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	for (int r = 0; r < runs; r++)
		for (int c = 0; c < ncases; c++)
			if ((ms[c * runs + r] = plan_once(&src[c], loc, &why)) < 0) {
				fprintf(stderr, "%s: %s\n", name[c], why);
				return 1;
			}
	printf("%-50s %10s %10s %10s\n", "plan = load + locality + choice, GPUs 2,3", "median ms", "p25", "p75");
	for (int c = 0; c < ncases; c++) {
		qsort(ms + c * runs, (size_t)runs, sizeof(double), cmp);
		printf("%-50s %10.3f %10.3f %10.3f\n", name[c], ms[c * runs + runs / 2], ms[c * runs + runs / 4],
		       ms[c * runs + 3 * runs / 4]);
	}
	return 0;
}
