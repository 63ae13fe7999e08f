/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie-bench - what the PCIe path adds to a roce-check run, in one process
 * (no fork/exec in the figures): on a sysfs fixture (bench/pcie.sh writes
 * it), N round-robin runs of
 *   rdma      roce_rdma_collect (the RDMA devices, as every run reads them)
 *   pcie      roce_pcie_collect_node (each device's path: links, config
 *             spaces, IOMMU group)
 *   pciecheck roce_check with the PCIe checks on, minus the same with them
 *             ignored (PcieDegraded=, Acs=, Iommu=ignore)
 * medians in microseconds, wall and the thread's CPU time.
 *   pcie-bench SYSFS_ROOT N
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "collect/pcie.h"
#include "read/policy.h"
#include "collect/rdma.h"

static double now_us(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

enum { RDMA, PCIE, CHECK_ON, CHECK_OFF, NCASE };

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	const char *root = argv[1];
	int n = atoi(argv[2]);
	if (n < 1)
		return 2;
	double *wall[NCASE], *cpu[NCASE];
	for (int c = 0; c < NCASE; c++) {
		wall[c] = calloc((size_t)n, sizeof(double));
		cpu[c] = calloc((size_t)n, sizeof(double));
		if (!wall[c] || !cpu[c])
			return 1;
	}
	struct roce_policy on, off;
	struct roce_error err;
	roce_policy_defaults(&on);
	roce_policy_defaults(&off);
	if (roce_policy_set_kv(&off, "PcieDegraded=ignore", "bench", &err) < 0 ||
	    roce_policy_set_kv(&off, "Acs=ignore", "bench", &err) < 0 ||
	    roce_policy_set_kv(&off, "Iommu=ignore", "bench", &err) < 0)
		return 1;
	/* the GID entry at the policy's index, as roce_collect() asks */
	struct roce_gid_want want = { .index = on.gid_index, .addr_family = on.addr_family };
	size_t devices = 0;
	for (int i = 0; i < n; i++) {
		struct roce_node node;
		struct roce_check_result r;
		roce_node_init(&node);
		double w = now_us(CLOCK_MONOTONIC), t = now_us(CLOCK_THREAD_CPUTIME_ID);
		roce_rdma_collect(&node, root, &want);
		wall[RDMA][i] = now_us(CLOCK_MONOTONIC) - w, cpu[RDMA][i] = now_us(CLOCK_THREAD_CPUTIME_ID) - t;
		w = now_us(CLOCK_MONOTONIC), t = now_us(CLOCK_THREAD_CPUTIME_ID);
		roce_pcie_collect_node(&node, root);
		wall[PCIE][i] = now_us(CLOCK_MONOTONIC) - w, cpu[PCIE][i] = now_us(CLOCK_THREAD_CPUTIME_ID) - t;
		for (int c = CHECK_ON; c <= CHECK_OFF; c++) {
			w = now_us(CLOCK_MONOTONIC), t = now_us(CLOCK_THREAD_CPUTIME_ID);
			if (roce_check(&node, c == CHECK_ON ? &on : &off, &r) < 0)
				return 1;
			wall[c][i] = now_us(CLOCK_MONOTONIC) - w, cpu[c][i] = now_us(CLOCK_THREAD_CPUTIME_ID) - t;
			roce_check_result_free(&r);
		}
		devices = node.n_devices;
		roce_node_free(&node);
	}
	static const char *const names[] = { "roce_rdma_collect (devices, ports)", "roce_pcie_collect_node (PCIe paths)",
	                                     "roce_check, PCIe checks on", "roce_check, PCIe checks ignored" };
	printf("%zu RDMA devices, %d runs; medians in us (wall / thread CPU)\n", devices, n);
	double base = 0;
	for (int c = 0; c < NCASE; c++) {
		double mw = median(wall[c], n), mc = median(cpu[c], n);
		if (c == RDMA)
			base = mc;
		printf("  %-40s %9.1f / %9.1f  (CPU %.2fx the RDMA collection)\n", names[c], mw, mc, base > 0 ? mc / base : 0);
	}
	return 0;
}
