/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixtures.h - inputs the unit tests share, built in memory (no I/O):
 *   the node model   fx_healthy_node (check, plan), fx_add_port (collect)
 *   a check's result fx_check_* (run it, cmocka setups), fx_finding, fx_finding_count (look it up)
 *   counters         fx_port_sample (snapshot), fx_delta (delta, verdicts)
 *   the job report   fx_meta, fx_fragment, fx_merged_job, fx_nodelist
 *   fragments as json-c trees, for tests that take one apart (the library
 *   builds, writes and reads them as text only): fx_fragment,
 *   fx_fragment_json, fx_fragment_read_json, fx_report_add
 * Every builder fails the test (cmocka) when it cannot build.  Include after
 * unit.h; tests/unit/libunit.la (fixtures.c) is in every unit test's LDADD.
 */
#ifndef ROCE_FIXTURES_H
#define ROCE_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "pipeline/delta.h"
#include "fragment/fragment.h"
#include "check/check.h"
#include "base/model.h"
#include "check/plan.h"
#include "report/report.h"
#include "pipeline/snapshot.h"
#include "fragment/live.h"

/* A healthy node: n ports mlx5_i:1 on eth<i>, GID 3 = RoCE v2 192.0.2.(10+i),
 * MTU 9000, PFC on priority 3, DSCP 26 -> 3, nvidia_peermem loaded. */
void fx_healthy_node(struct roce_node *node, size_t n);
/* A node, its policy, and what roce_check and roce_plan_build made of them:
 * the fixture of the check*.c unit tests.  fx_check_new: a healthy node of
 * n ports under the default policy; fx_check_run: check, then plan (both
 * asserted to succeed). */
struct fx_check {
	struct roce_node node;
	struct roce_policy policy;
	struct roce_check_result check;
	struct roce_plan plan;
};
struct fx_check *fx_check_new(size_t n_ports);
void fx_check_run(struct fx_check *f);
void fx_check_free(struct fx_check *f);
/* cmocka setups and teardown of the check tests: *state = fx_check_new(2)
 * or (3); fx_check_free(*state). */
int fx_check_setup2(void **state);
int fx_check_setup3(void **state);
int fx_check_teardown(void **state);
/* The first finding of check ("pfc", "ecn") about subject ("mlx5_1:1",
 * "mlx5_0", "node") with status; NULL when r has none. */
const struct roce_finding *fx_finding(const struct roce_check_result *r, const char *check, const char *subject,
                                      enum roce_verdict status);
/* How many findings of check r has with status (an enum roce_verdict, or
 * FX_ANY). */
#define FX_ANY (-1)
size_t fx_finding_count(const struct roce_check_result *r, const char *check, int status);
/* A RoCE LAG node: mlx5_bond_0 port 1 on bond0 (GID 3 = RoCE v2
 * 192.0.2.10 on bond0), bond0 up at MTU 9000 without DCB, its members eth0
 * and eth1 healthy as fx_healthy_node's (PFC on 3, DSCP 26 -> 3). */
void fx_bond(struct roce_node *node);
/* A bare device dev with port 1 on netdev, appended to node (nothing read). */
void fx_add_port(struct roce_node *node, const char *dev, const char *netdev);
/* Port 1 of dev as a snapshot without a node model has it: every counter
 * read as 0, PFC not read. */
struct roce_port_sample fx_port_sample(const char *dev);
/* n_ports ports "mlx5_<i>":1 on "eth<i>", every counter read and zero, PFC
 * read and on for priority 3. */
void fx_delta(struct roce_delta *d, size_t n_ports, double seconds);
/* Job 4242 of uid 1000 on node, 10 s, PFC priority 3. */
struct roce_fragment_meta fx_meta(const char *node);
/* Build a fragment as the epilog does (mp = NULL: fx_meta(node); no
 * ran_with), and json-c's parse of the text the epilog writes. */
json_object *fx_fragment(const char *node, struct roce_delta *d, const struct roce_fragment_meta *mp);
/* f's text (roce_fragment_write) parsed by json-c. */
json_object *fx_fragment_json(const struct roce_fragment *f, const char *job_id, bool with_schema);
/* o written as text and read as ReportDir's files are (roce_fragment_read,
 * no pool): 0, or -1 with err. */
int fx_fragment_read_json(json_object *o, const char *job_id, struct roce_fragment *f, struct roce_error *err);
/* frag read as above and appended to r; refused: recorded in r->errors
 * under source, -1 with err. */
int fx_report_add(struct roce_job_report *r, json_object *frag, const char *source, struct roce_error *err);
/* This process's CPU time in ms (CLOCK_PROCESS_CPUTIME_ID): what a test of
 * how a cost grows compares, whatever else runs on the machine. */
double fx_cpu_ms(void);
/* Stand-in for libslurm's ranged string: "first..last(n)" is enough to see the grouping. */
char *fx_nodelist(const char *const *names, size_t n);
/* Job 4242, merged and sorted: n1, n2, n3, n10 with two ports each; n2
 * lost packets on mlx5_0; n3 has GID index 5 and mlx5_1 at MTU 1024.  Two
 * errors: a fragment of job 7 (refused on the way in) and n1 again
 * (dropped by the sort). */
void fx_merged_job(struct roce_job_report *r);
/* A live sample of job on node (uid), as the health check builds it: ports
 * mlx5_0:1 (eth0) and mlx5_1:1 (eth1); the job started at 1000 s, the
 * sample before at 1300 s, this one at 1600 s; mlx5_0 sent 300 MiB since
 * the start (200 MiB since the sample before) and lost 7 packets (all
 * since the sample before); mlx5_1's GID moved from index 3 to 4 since the
 * sample before (a gid_changed event). */
void fx_live(struct roce_live *l, const char *job, const char *node, long uid);

#endif
