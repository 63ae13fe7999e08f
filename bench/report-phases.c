/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-phases - where a prolog/epilog's time goes, in process (what the
 * SPANK plugin pays: no exec).  For N rounds on a sysfs root, times each
 * phase and prints the median CPU time in microseconds:
 *   collect   roce_collect (sysfs + rtnetlink/DCB)     check  roce_check
 *   snapshot  roce_snapshot_take (the counter reads)   json   snapshot to text and back
 *   report    delta + verdicts + fragment text
 *   prolog    roce_job_prolog                          epilog roce_job_epilog
 *
 *   report-phases SYSFS_ROOT STATE_DIR REPORT_DIR [N]
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check/check.h"
#include "collect/collect.h"
#include "pipeline/delta.h"
#include "fragment/fragment.h"
#include "job/job.h"

/* CPU time of this process: what the node pays, without waits on the disk
 * (fsync) or on other processes competing for the CPU. */
static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

enum { P_COLLECT, P_CHECK, P_SNAPSHOT, P_JSON, P_REPORT, P_PROLOG, P_EPILOG, P_N };
static const char *const names[P_N] = { "collect", "check", "snapshot", "json", "report", "prolog", "epilog" };

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: report-phases SYSFS_ROOT STATE_DIR REPORT_DIR [N]\n");
		return 2;
	}
	int n = argc > 4 ? atoi(argv[4]) : 51;
	double *t[P_N];
	for (int p = 0; p < P_N; p++)
		t[p] = calloc((size_t)n, sizeof(double));
	struct roce_policy pol;
	roce_policy_defaults(&pol);
	snprintf(pol.sysfs_root, sizeof(pol.sysfs_root), "%s", argv[1]);
	snprintf(pol.state_dir, sizeof(pol.state_dir), "%s", argv[2]);
	snprintf(pol.report_dir, sizeof(pol.report_dir), "%s", argv[3]);
	struct roce_collect_opts opts = { .sysfs_root = argv[1], .netlink = true };

	for (int i = 0; i < n; i++) {
		struct roce_node node;
		struct roce_check_result res;
		struct roce_snapshot a, b;
		struct roce_delta d;
		struct roce_verdict_list v = { 0 };
		char job[16];
		struct roce_error err;
		double t0 = now_us();
		roce_node_init(&node);
		roce_collect(&node, &pol, &opts);
		double t1 = now_us();
		roce_check(&node, &pol, &res);
		double t2 = now_us();
		roce_snapshot_init(&a);
		roce_snapshot_init(&b);
		roce_snapshot_take(&a, argv[1], &node, &res);
		double t3 = now_us();
		json_object *o = roce_snapshot_json_build(&a);
		json_object *back = json_tokener_parse(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		roce_snapshot_json_parse(&b, back, &err);
		double t4 = now_us();
		struct roce_fragment_meta m = { .job_id = "1", .node = "n1", .pfc_priority = -1 };
		roce_delta_compute(&b, &a, &d);
		roce_verdicts_from_delta(&d, &m, &v);
		struct roce_fragment f;
		struct roce_fragment_text text = { 0 };
		if (roce_fragment_build(&f, &m, &d, &v, NULL) == 0)
			roce_fragment_write(&text, &f, m.job_id, true);
		double t5 = now_us();
		struct roce_error e;
		snprintf(job, sizeof(job), "%d", 100000 + i);
		roce_job_prolog(&pol, NULL, job, "n1", 0, ROCE_JOB_REPORT, NULL, &e);
		double t6 = now_us();
		roce_job_epilog(&pol, NULL, job, "n1", 0, &e);
		double t7 = now_us();
		t[P_COLLECT][i] = t1 - t0;
		t[P_CHECK][i] = t2 - t1;
		t[P_SNAPSHOT][i] = t3 - t2;
		t[P_JSON][i] = t4 - t3;
		t[P_REPORT][i] = t5 - t4;
		t[P_PROLOG][i] = t6 - t5;
		t[P_EPILOG][i] = t7 - t6;
		json_object_put(o);
		json_object_put(back);
		roce_fragment_write_free(&text);
		roce_fragment_free(&f);
		roce_verdict_list_free(&v);
		roce_delta_free(&d);
		roce_snapshot_free(&a);
		roce_snapshot_free(&b);
		roce_check_result_free(&res);
		roce_node_free(&node);
	}
	for (int p = 0; p < P_N; p++) {
		qsort(t[p], (size_t)n, sizeof(double), cmp);
		printf("  %-9s %8.0f us\n", names[p], t[p][n / 2]);
		free(t[p]);
	}
	return 0;
}
