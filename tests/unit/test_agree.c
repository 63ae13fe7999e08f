/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_agree.c - the job-wide agreement (lib/agree/agree.c, rails.c,
 * compare.c, lines.c) over hand-built fingerprints: rails matched by
 * identity (NVIDIA/nccl issue 1277's two HGX nodes, swapped device names,
 * a crossed cable or address, hostile layouts), everything else the
 * fingerprint carries compared, the value srun passes to the step, and
 * each node's restriction of its own plan; and the fingerprint's strict
 * parser (lib/agree/fingerprint.c).
 */
#include "config.h"
#include "unit.h"
#include "agree/agreed.h"
#include "agree/probeagree.h"
#include "base/model.h"
#include "check/finding.h"
#include "read/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A node with ports "mlx5_0:1@4096/eth0" ... (mtu given per port); no rails
 * known (the ports are known by their names). */
static void fp_make(struct roce_fingerprint *f, const char *node, int n, const char *const *devs, const int *mtu)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->job_id, sizeof(f->job_id), "42");
	snprintf(f->node, sizeof(f->node), "%s", node);
	f->gid_index = 3;
	f->addr_family = 4;
	f->traffic_class = 104;
	f->pfc_priority = 3;
	f->trust = ROCE_TRUST_DSCP;
	snprintf(f->driver, sizeof(f->driver), "24.10-1.1.4");
	for (int i = 0; i < n; i++) {
		struct roce_fp_port *p = &f->ports[i];
		snprintf(p->device, sizeof(p->device), "%s", devs[i]);
		p->port = 1;
		snprintf(p->netdev, sizeof(p->netdev), "eth%s",
		         strrchr(devs[i], '_') ? strrchr(devs[i], '_') + 1 : "0");
		p->active_mtu = mtu ? mtu[i] : 4096;
		p->netdev_mtu = 9000;
		p->rate_gbps = 100;
		p->ecn_np = p->ecn_rp = 1;
		struct roce_fp_device *d = &f->devices[f->n_devices++];
		snprintf(d->device, sizeof(d->device), "%s", devs[i]);
		snprintf(d->hca_type, sizeof(d->hca_type), "MT4123");
		snprintf(d->board_id, sizeof(d->board_id), "MT_0000000223");
		snprintf(d->fw_ver, sizeof(d->fw_ver), "20.39.1002");
	}
	f->n_ports = (size_t)n;
}

/* The same with rails: port i of devs on subnet rails[i]. */
static void fp_rails(struct roce_fingerprint *f, const char *node, int n, const char *const *devs,
                     const char *const *rails)
{
	fp_make(f, node, n, devs, NULL);
	for (int i = 0; i < n; i++)
		snprintf(f->ports[i].rail, sizeof(f->ports[i].rail), "%s", rails[i]);
}

/* The compression a test can check: "n1+n3" (the ranged one has its own test). */
static char *plus_list(const char *const *names, size_t n)
{
	char *s = calloc(1, 512);
	for (size_t i = 0; s && i < n; i++)
		snprintf(s + strlen(s), 512 - strlen(s), "%s%s", i ? "+" : "", names[i]);
	return s;
}

/* The lines, one per row, for a whole-text comparison. */
static const char *all_lines(const struct roce_agreement *a)
{
	static char buf[ROCE_LINES_MAX * (ROCE_LINE_MAX + 4)];
	buf[0] = '\0';
	for (size_t i = 0; i < a->lines.n; i++) {
		assert_true(strlen(a->lines.line[i].text) < ROCE_LINE_MAX);
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "\n" : "", a->lines.line[i].text);
	}
	return buf;
}

/* apply what a says (under warn) to self: its NCCL_IB_HCA */
static const char *exported(const struct roce_agreement *a, const struct roce_fingerprint *self)
{
	static struct roce_plan plan;
	char buf[ROCE_AGREE_ENV_MAX], why[256];
	struct roce_agreed d;
	struct roce_error err;
	memset(&plan, 0, sizeof(plan));
	plan.valid = true;
	plan.n_vars = 1;
	snprintf(plan.vars[0].name, sizeof(plan.vars[0].name), "NCCL_IB_HCA");
	snprintf(plan.vars[0].value, sizeof(plan.vars[0].value), "=before");
	assert_int_equal(roce_agreed_encode(a, roce_agree_verdict(a, false), "42.1", buf, sizeof(buf)), 0);
	assert_int_equal(roce_agreed_decode(buf, &d, &err), 0);
	if (d.verdict != ROCE_AGREED_RAILS)
		return "(no rails)";
	roce_agreed_apply(&d, self, &plan, why, sizeof(why));
	return plan.valid ? roce_plan_get(&plan, "NCCL_IB_HCA") : "(none)";
}

static const char *const two[] = { "mlx5_0", "mlx5_1" };
static const char *const one[] = { "mlx5_0" };
static const char *const nodes3[] = { "node1", "node2", "node3" };
static const char *const S2[] = { "192.0.2.0/26", "192.0.2.64/26" };

static void test_all_same(void **state)
{
	(void)state;
	struct roce_fingerprint f[3];
	for (int i = 0; i < 3; i++)
		fp_make(&f[i], nodes3[i], 2, two, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 2);
	assert_string_equal(a.ref.key[a.rails[1].col], "mlx5_1:1");
	assert_int_equal(a.lines.n, 0);
	assert_null(a.missing);
	assert_string_equal(a.uses, "=mlx5_0:1,mlx5_1:1");
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_RAILS);
	roce_agree_free(&a);
	/* nodes that offer the same share one fingerprint: fitted once, the same answer */
	const struct roce_fingerprint *shared[] = { &f[0], &f[0], &f[0] };
	assert_int_equal(roce_agree(shared, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 2);
	roce_agree_free(&a);
}

/* node3 with mlx5_1 down (rails unknown: known by name). */
static void test_rail_missing(void **state)
{
	(void)state;
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 2, two, NULL);
	fp_make(&f[1], "node2", 2, two, NULL);
	fp_make(&f[2], "node3", 1, one, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED);
	assert_int_equal(a.n_rails, 1);
	assert_string_equal(all_lines(&a), "node3: mlx5_1:1 missing");
	assert_int_equal(a.lines.line[0].kind, ROCE_LINE_TRIM);
	assert_string_equal(a.uses, "=mlx5_0:1");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_RAILS);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	assert_string_equal(exported(&a, &f[0]), "=mlx5_0:1");
	roce_agree_free(&a);
}

/* A port only node2 has is named on node2; the order is most nodes'. */
static void test_order_and_extra(void **state)
{
	(void)state;
	static const char *const rev[] = { "mlx5_1", "mlx5_0", "mlx5_2" };
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 2, two, NULL);
	fp_make(&f[1], "node2", 3, rev, NULL);
	fp_make(&f[2], "node3", 2, two, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.n_rails, 2);
	assert_string_equal(a.ref.key[a.rails[0].col], "mlx5_0:1");
	assert_string_equal(a.ref.key[a.rails[1].col], "mlx5_1:1");
	assert_string_equal(all_lines(&a), "node2: mlx5_2:1 is not on every node");
	assert_string_equal(exported(&a, &f[1]), "=mlx5_0:1,mlx5_1:1");
	roce_agree_free(&a);
}

/* node2 at MTU 1500 on both netdevs: RDMA MTU 1024 there, named by groups. */
static void test_mtu_groups(void **state)
{
	(void)state;
	static const int small[] = { 1024, 1024 };
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 2, two, NULL);
	fp_make(&f[1], "node2", 2, two, small);
	fp_make(&f[2], "node3", 2, two, NULL);
	f[2].traffic_class = 96;
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_MISMATCH);
	assert_string_equal(all_lines(&a),
	                    "the step's nodes differ where NCCL needs the same: RDMA MTU 4096 on node1+node3; "
	                    "1024 on node2\n"
	                    "the step's nodes differ where NCCL needs the same: traffic class 104 on "
	                    "node1+node2; 96 on node3");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_RAILS);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	/* warn runs with the rails: the MTU it warned about is not held against node2 */
	char buf[ROCE_AGREE_ENV_MAX];
	assert_int_equal(roce_agreed_encode(&a, ROCE_AGREED_RAILS, "42.1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2;42.1;rails;mlx5_0:1,mlx5_1:1;0@0,1@0");
	assert_string_equal(exported(&a, &f[1]), "=mlx5_0:1,mlx5_1:1");
	roce_agree_free(&a);
	/* one rail at another MTU on node2: that rail alone is compared as "4096/1024" */
	static const int half[] = { 4096, 1024 };
	fp_make(&f[1], "node2", 2, two, half);
	f[2].traffic_class = 104;
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a), "the step's nodes differ where NCCL needs the same: RDMA MTU 4096 on "
	                                   "node1,node3; 4096/1024 on node2");
	assert_int_equal(roce_agreed_encode(&a, ROCE_AGREED_RAILS, "42.1", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2;42.1;rails;mlx5_0:1,mlx5_1:1;0@4096,1@0");
	roce_agree_free(&a);
	/* GID family */
	fp_make(&f[1], "node2", 2, two, NULL);
	f[2].addr_family = 6;
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a), "the step's nodes differ where NCCL needs the same: GID family ipv4 on "
	                                   "node1,node2; ipv6 on node3");
	roce_agree_free(&a);
}

static void test_empty_and_missing(void **state)
{
	(void)state;
	static const char *const other[] = { "mlx5_1" };
	struct roce_fingerprint f[3];
	fp_make(&f[0], "node1", 1, one, NULL);
	fp_make(&f[1], "node2", 1, other, NULL);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], NULL };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED | ROCE_AGREE_EMPTY | ROCE_AGREE_MISSING);
	assert_int_equal(a.n_rails, 0);
	assert_string_equal(a.missing, "node3");
	assert_int_equal(a.n_missing, 1);
	assert_string_equal(all_lines(&a), "node2: mlx5_0:1 missing\nnode2: mlx5_1:1 is not on every node");
	/* unknown is never a pass: warn goes per node, strict fails */
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_OWN);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	roce_agree_free(&a);
	/* no usable port on node2 (a failed node): one line, empty, no NCCL variables */
	fp_make(&f[1], "node2", 0, NULL, NULL);
	f[1].verdict = ROCE_FP_FAIL;
	fp_make(&f[2], "node3", 1, one, NULL);
	const struct roce_fingerprint *fps2[] = { &f[0], &f[1], &f[2] };
	assert_int_equal(roce_agree(fps2, nodes3, 3, plus_list, NULL, &a), 0);
	assert_true(a.flags & ROCE_AGREE_EMPTY);
	assert_string_equal(all_lines(&a), "node2: no usable RoCE port");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_EMPTY);
	roce_agree_free(&a);
	/* a node whose prolog could not check: unknown, said as that */
	roce_fingerprint_unchecked(&(struct roce_policy){ .addr_family = 2, .pfc_priority = 3 }, "42", "node2", &f[1]);
	assert_int_equal(roce_agree(fps2, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_MISSING);
	assert_null(a.missing);
	assert_string_equal(all_lines(&a),
	                    "node2: the job prolog could not check the fabric (slurmd's log there): unknown");
	assert_int_equal(a.lines.line[0].kind, ROCE_LINE_UNKNOWN);
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_OWN);
	roce_agree_free(&a);
	/* nothing read at all */
	const struct roce_fingerprint *none[] = { NULL, NULL, NULL };
	assert_int_equal(roce_agree(none, nodes3, 3, plus_list, NULL, &a), 0);
	assert_string_equal(a.missing, "node1+node2+node3");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_OWN);
	roce_agree_free(&a);
}

/* ------------------------------------------------------------------ rails by identity */

/* NVIDIA/nccl issue 1277: two HGX H100 nodes, four 400G RoCE rails (one
 * subnet each), named mlx5_0,3,5,8 on one node and mlx5_0,1,4,5 on the
 * other.  By device name only mlx5_0 and mlx5_5 are on both, and mlx5_5 is
 * rail 3 on one node and rail 4 on the other. */
static void test_issue_1277(void **state)
{
	(void)state;
	static const char *const a_dev[] = { "mlx5_0", "mlx5_3", "mlx5_5", "mlx5_8" };
	static const char *const b_dev[] = { "mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5" };
	static const char *const rails[] = { "192.0.2.0/26", "192.0.2.64/26", "192.0.2.128/26", "192.0.2.192/26" };
	static const char *const names[] = { "hgx1", "hgx2" };
	struct roce_fingerprint f[2];
	struct roce_agreement a;
	fp_rails(&f[0], "hgx1", 4, a_dev, rails);
	fp_rails(&f[1], "hgx2", 4, b_dev, rails);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1] };
	assert_int_equal(roce_agree(fps, names, 2, NULL, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 4);
	assert_int_equal(a.lines.n, 0);
	assert_string_equal(a.uses, "the rails 192.0.2.0/26, 192.0.2.64/26, 192.0.2.128/26, 192.0.2.192/26");
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_RAILS);
	/* each node exports its own names, in the rails' order */
	assert_string_equal(exported(&a, &f[0]), "=mlx5_0:1,mlx5_3:1,mlx5_5:1,mlx5_8:1");
	assert_string_equal(exported(&a, &f[1]), "=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1");
	roce_agree_free(&a);

	/* as the nodes are: five more ports each (200G and 25G, storage and
	 * management) between the rails, on other subnets; Rails= names the four */
	static const char *const a_all[] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4",
		                             "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8" };
	static const char *const a_net[] = { rails[0], "198.51.100.0/24", "198.51.100.0/24", rails[1], "203.0.113.0/24",
		                             rails[2], "198.51.100.0/24", "198.51.100.0/24", rails[3] };
	static const char *const b_all[] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4",
		                             "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8" };
	static const char *const b_net[] = { rails[0], rails[1],         "198.51.100.0/24", "198.51.100.0/24", rails[2],
		                             rails[3], "203.0.113.0/24", "198.51.100.0/24", "198.51.100.0/24" };
	struct roce_policy p;
	struct roce_error err;
	roce_policy_defaults(&p);
	assert_int_equal(roce_policy_set_kv(&p, "Rails=r1@192.0.2.0/26,r2@192.0.2.64/26,r3@192.0.2.128/26,r4@192.0.2.192/26",
	                                    "test", &err),
	                 0);
	fp_rails(&f[0], "hgx1", 9, a_all, a_net);
	fp_rails(&f[1], "hgx2", 9, b_all, b_net);
	assert_int_equal(roce_agree(fps, names, 2, NULL, &p, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_string_equal(all_lines(&a), "");
	assert_string_equal(exported(&a, &f[0]), "=mlx5_0:1,mlx5_3:1,mlx5_5:1,mlx5_8:1");
	assert_string_equal(exported(&a, &f[1]), "=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1");
	roce_agree_free(&a);
}

/* Two nodes whose rails carry the same subnets under swapped device names
 * (node2's first slot is called mlx5_1): all agreed, each its own names. */
static void test_swapped_names(void **state)
{
	(void)state;
	static const char *const swapped[] = { "mlx5_1", "mlx5_0" };
	static const char *const names[] = { "node1", "node2" };
	struct roce_fingerprint f[2];
	struct roce_agreement a;
	fp_rails(&f[0], "node1", 2, two, S2);
	fp_rails(&f[1], "node2", 2, swapped, S2);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1] };
	assert_int_equal(roce_agree(fps, names, 2, NULL, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.lines.n, 0);
	assert_string_equal(exported(&a, &f[0]), "=mlx5_0:1,mlx5_1:1");
	assert_string_equal(exported(&a, &f[1]), "=mlx5_1:1,mlx5_0:1");
	roce_agree_free(&a);
}

/* A port on another rail's subnet (a crossed cable or a mistyped address):
 * named as such, its rail left out under warn, strict fails. */
static void test_crossed(void **state)
{
	(void)state;
	static const char *const same0[] = { "192.0.2.0/26", "192.0.2.0/26" };
	static const char *const same1[] = { "192.0.2.64/26", "192.0.2.64/26" };
	static const char *const swap[] = { "192.0.2.64/26", "192.0.2.0/26" };
	struct roce_fingerprint f[3];
	struct roce_agreement a;
	fp_rails(&f[0], "node1", 2, two, S2);
	fp_rails(&f[1], "node2", 2, two, S2);
	fp_rails(&f[2], "node3", 2, two, same0);
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED);
	assert_string_equal(all_lines(&a),
	                    "node3: mlx5_1:1 is on 192.0.2.0/26 at 192.0.2.64/26's place (a crossed cable or address)");
	assert_int_equal(a.n_rails, 1);
	assert_string_equal(a.uses, "=mlx5_0:1");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_RAILS);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	assert_string_equal(exported(&a, &f[2]), "=mlx5_0:1"); /* not the crossed mlx5_1 */
	roce_agree_free(&a);
	/* the first port moved: it is the crossed one, the second keeps its rail */
	fp_rails(&f[2], "node3", 2, two, same1);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a),
	                    "node3: mlx5_0:1 is on 192.0.2.64/26 at 192.0.2.0/26's place (a crossed cable or address)");
	assert_string_equal(a.uses, "=mlx5_1:1");
	assert_string_equal(exported(&a, &f[2]), "=mlx5_1:1");
	assert_string_equal(exported(&a, &f[0]), "=mlx5_1:1");
	roce_agree_free(&a);
	/* two cables swapped: one of them is named, its rail left out */
	fp_rails(&f[2], "node3", 2, two, swap);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED);
	assert_string_equal(all_lines(&a),
	                    "node3: mlx5_0:1 is on 192.0.2.64/26 out of the rails' order (a crossed cable or address)");
	assert_int_equal(a.n_rails, 1);
	assert_string_equal(exported(&a, &f[2]), "=mlx5_1:1");
	roce_agree_free(&a);
	/* a node lacking a rail is not crossed: named with the rail's subnet */
	fp_rails(&f[2], "node3", 1, (const char *const[]){ "mlx5_1" }, (const char *const[]){ "192.0.2.64/26" });
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a), "node3: 192.0.2.0/26 missing");
	assert_string_equal(exported(&a, &f[2]), "=mlx5_1:1");
	roce_agree_free(&a);
}

/* Hostile layouts: two ports on one subnet everywhere, a subnet that
 * overlaps a rail's, a port whose rail is unknown beside known ones, a
 * node with a rail of its own, 32 rails. */
static void test_hostile_layouts(void **state)
{
	(void)state;
	static const char *const flat[] = { "192.0.2.0/24", "192.0.2.0/24" };
	static const char *const wide[] = { "192.0.2.0/24", "192.0.2.64/26" };
	static const char *const three[] = { "mlx5_0", "mlx5_1", "mlx5_2" };
	static const char *const own[] = { "192.0.2.0/26", "192.0.2.64/26", "198.51.100.0/24" };
	struct roce_fingerprint f[3];
	struct roce_agreement a;
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	/* duplicate rails: one subnet for both ports on every node (a flat network): both agreed, by place */
	for (int i = 0; i < 3; i++)
		fp_rails(&f[i], nodes3[i], 2, two, flat);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 2);
	roce_agree_free(&a);
	fp_rails(&f[2], "node3", 1, one, flat);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a), "node3: 192.0.2.0/24 #2 missing");
	roce_agree_free(&a);
	/* an overlapping subnet (/24 where the rail is /26) is another rail, at the rail's place */
	fp_rails(&f[0], "node1", 2, two, S2);
	fp_rails(&f[1], "node2", 2, two, S2);
	fp_rails(&f[2], "node3", 2, two, wide);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a),
	                    "node3: mlx5_0:1 is on 192.0.2.0/24 at 192.0.2.0/26's place (a crossed cable or address)");
	assert_string_equal(exported(&a, &f[2]), "=mlx5_1:1");
	roce_agree_free(&a);
	/* a rail unknown on node3 (its address was not read): known by its name, never taken for the subnet */
	fp_rails(&f[2], "node3", 2, two, S2);
	f[2].ports[1].rail[0] = '\0';
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a), "node3: 192.0.2.64/26 missing\nnode3: mlx5_1:1 is on no known rail (its "
	                                   "address was not read)");
	assert_int_equal(a.n_rails, 1);
	roce_agree_free(&a);
	/* a rail of node3's own beside the others' */
	fp_rails(&f[2], "node3", 3, three, own);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a), "node3: mlx5_2:1 (198.51.100.0/24) is on a rail not every node has");
	assert_int_equal(a.n_rails, 2);
	roce_agree_free(&a);
	/* 32 rails: all agreed, the value fits */
	char dev[32][12], net[32][24];
	const char *devp[32], *netp[32];
	for (int i = 0; i < 32; i++) {
		snprintf(dev[i], sizeof(dev[i]), "mlx5_%d", i);
		snprintf(net[i], sizeof(net[i]), "2001:db8:%x::/64", i + 1);
		devp[i] = dev[i];
		netp[i] = net[i];
	}
	for (int i = 0; i < 3; i++)
		fp_rails(&f[i], nodes3[i], 32, devp, netp);
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_int_equal(a.n_rails, 32);
	char buf[ROCE_AGREE_ENV_MAX];
	assert_int_equal(roce_agreed_encode(&a, ROCE_AGREED_RAILS, "42.1", buf, sizeof(buf)), 0);
	roce_agree_free(&a);
}

/* Rails=: rails named in messages, exported in its order, ports on none left out quietly. */
static void test_site_rails(void **state)
{
	(void)state;
	static const char *const rev[] = { "192.0.2.64/26", "192.0.2.0/26" };
	static const char *const with_mgmt[] = { "192.0.2.64/26", "198.51.100.0/24", "192.0.2.0/26" };
	static const char *const three[] = { "mlx5_0", "mlx5_1", "mlx5_2" };
	struct roce_policy p;
	struct roce_error err;
	struct roce_fingerprint f[3];
	struct roce_agreement a;
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	roce_policy_defaults(&p);
	assert_int_equal(roce_policy_set_kv(&p, "Rails=east@192.0.2.0/26,west@192.0.2.64/26", "test", &err), 0);
	fp_rails(&f[0], "node1", 2, two, rev);
	fp_rails(&f[1], "node2", 3, three, with_mgmt);
	fp_rails(&f[2], "node3", 1, (const char *const[]){ "mlx5_0" }, (const char *const[]){ "192.0.2.64/26" });
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &p, &a), 0);
	assert_string_equal(all_lines(&a), "node3: east (192.0.2.0/26) missing");
	assert_int_equal(a.n_rails, 1);
	roce_agree_free(&a);
	fp_rails(&f[2], "node3", 2, two, rev);
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, &p, &a), 0);
	assert_int_equal(a.flags, 0);
	/* Rails= order (east first), each node its own names */
	assert_string_equal(exported(&a, &f[0]), "=mlx5_1:1,mlx5_0:1");
	assert_string_equal(exported(&a, &f[1]), "=mlx5_2:1,mlx5_0:1");
	roce_agree_free(&a);
}

/* ------------------------------------------------------------------ everything else compared */

static void test_compared(void **state)
{
	(void)state;
	struct roce_fingerprint f[3];
	struct roce_agreement a;
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	for (int i = 0; i < 3; i++)
		fp_rails(&f[i], nodes3[i], 2, two, S2);
	/* node3 at 25 Gb/s, on other firmware, driver, PFC priority, trust, ECN, GID index */
	f[2].ports[0].rate_gbps = f[2].ports[1].rate_gbps = 25;
	snprintf(f[2].devices[1].fw_ver, sizeof(f[2].devices[1].fw_ver), "20.40.1000");
	snprintf(f[2].driver, sizeof(f[2].driver), "5.8-4.1.5.0");
	f[2].pfc_priority = 4;
	f[2].trust = ROCE_TRUST_PCP;
	f[2].ports[1].ecn_rp = 0;
	f[2].gid_index = 5;
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_DRIFT);
	assert_string_equal(all_lines(&a),
	                    "the step's nodes differ: link rate 100 Gb/s on node1,node2; 25 Gb/s on node3\n"
	                    "the step's nodes differ: firmware of MT4123 (MT_0000000223) 20.39.1002 on node1,node2; "
	                    "20.39.1002+20.40.1000 on node3\n"
	                    "the step's nodes differ: mlx5_core 24.10-1.1.4 on node1,node2; 5.8-4.1.5.0 on node3\n"
	                    "the step's nodes differ: PFC priority 3 on node1,node2; 4 on node3\n"
	                    "the step's nodes differ: priority trust dscp on node1,node2; pcp on node3\n"
	                    "the step's nodes differ: ECN on on node1,node2; roce_rp off on node3\n"
	                    "the step's nodes differ: GID index 3 on node1,node2; 5 on node3");
	for (size_t i = 0; i < a.lines.n; i++)
		assert_int_equal(a.lines.line[i].kind, ROCE_LINE_SHOULD);
	/* NCCL runs with them: strict names them and runs, every rail kept */
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_RAILS);
	assert_int_equal(a.n_rails, 2);
	roce_agree_free(&a);
	/* one port slow: by rail */
	f[2].ports[0].rate_gbps = 100;
	for (int i = 0; i < 2; i++)
		fp_rails(&f[i], nodes3[i], 2, two, S2);
	fp_rails(&f[2], "node3", 2, two, S2);
	f[2].ports[1].rate_gbps = 25;
	assert_int_equal(roce_agree(fps, nodes3, 3, NULL, NULL, &a), 0);
	assert_string_equal(all_lines(&a),
	                    "the step's nodes differ: link rate 100 Gb/s on node1,node2; 100/25 Gb/s on node3");
	roce_agree_free(&a);
}

/* Many groups: a line stays short, naming what fits and counting the rest. */
static void test_short_lines(void **state)
{
	(void)state;
	enum { N = 64 };
	static struct roce_fingerprint f[N];
	const struct roce_fingerprint *fps[N];
	char names[N][32];
	const char *np[N];
	struct roce_agreement a;
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "gpu-rack%02d-node%03d", i / 8, i);
		np[i] = names[i];
		fp_rails(&f[i], names[i], 2, two, S2);
		f[i].traffic_class = i % 12; /* 12 groups */
		if (i % 2)
			f[i].ports[1].rail[0] = '\0'; /* half of them without a known rail */
		fps[i] = &f[i];
	}
	assert_int_equal(roce_agree(fps, np, N, roce_nodelist_ranged, NULL, &a), 0);
	assert_true(a.lines.n >= 2);
	for (size_t i = 0; i < a.lines.n; i++) {
		if (strlen(a.lines.line[i].text) + strlen("roce: warning: ") >= 200)
			fail_msg("%zu characters: %s", strlen(a.lines.line[i].text), a.lines.line[i].text);
	}
	assert_non_null(strstr(all_lines(&a), "traffic class 0 on gpu-rack00-node000,gpu-rack01-node012,"));
	assert_non_null(strstr(all_lines(&a), " more"));
	roce_agree_free(&a);
}

/* ------------------------------------------------------------------ the step's value */

static void test_encode_decode(void **state)
{
	(void)state;
	struct roce_fingerprint f;
	fp_make(&f, "node1", 2, two, NULL);
	const struct roce_fingerprint *fps[] = { &f };
	struct roce_agreement a;
	struct roce_agreed d;
	struct roce_error err;
	char buf[ROCE_AGREE_ENV_MAX];
	assert_int_equal(roce_agree(fps, nodes3, 1, NULL, NULL, &a), 0);
	assert_int_equal(roce_agreed_encode(&a, ROCE_AGREED_RAILS, "42.3", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2;42.3;rails;mlx5_0:1,mlx5_1:1;0@4096,1@4096");
	assert_int_equal(roce_agreed_decode(buf, &d, &err), 0);
	assert_int_equal(d.verdict, ROCE_AGREED_RAILS);
	assert_string_equal(d.step, "42.3");
	assert_int_equal(d.ref.n, 2);
	assert_int_equal(d.n_rails, 2);
	assert_string_equal(d.ref.key[d.rails[1].col], "mlx5_1:1");
	assert_int_equal(d.rails[1].active_mtu, 4096);
	assert_int_equal(roce_agreed_encode(&a, ROCE_AGREED_FAIL, "42.3", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2;42.3;fail");
	assert_int_equal(roce_agreed_decode(buf, &d, &err), 0);
	assert_int_equal(d.verdict, ROCE_AGREED_FAIL);
	assert_int_equal(roce_agreed_encode(&a, ROCE_AGREED_RAILS, "42.3", buf, 10), -1);
	roce_agree_free(&a);
	assert_int_equal(roce_agreed_decode("2;42.3;rails;192.0.2.0/26,2001:db8::/64;1@4096,0@0", &d, &err), 0);
	assert_string_equal(d.ref.key[1], "2001:db8::/64");
	/* forged or broken values are refused, never half-used */
	static const char *const bad[] = {
		"",
		"1;42.3;rails;mlx5_0:1@4096",
		"2;42.3;rails",
		"2;42.3;rails;mlx5_0:1",
		"2;42.3;fail;mlx5_0:1;0@4096",
		"2;42.3;maybe",
		"2;4x;own",
		"2;42.3;rails;mlx5_0:0;0@4096",
		"2;42.3;rails;mlx5_0:1;0@9000",
		"2;42.3;rails;../x:1;0@4096",
		"2;42.3;rails;mlx5_0:1;1@4096",
		"2;42.3;rails;mlx5_0:1;0@4096,0@4096",
		"2;42.3;rails;mlx5_0:1;0@4096;x",
		"2;42.3;rails;,;0@1",
		"2;42.3;rails;mlx5_0:1;0@-1",
		"2;42.3;rails;mlx5_0:1;00@4096",
		"2;42.3;rails;192.0.2.1/26;0@4096",
		"2;42.3;rails;2001:0db8::/64;0@0",
		"2;42.3;rails;mlx5_0:1,,mlx5_1:1;0@0",
		"2;42.3;rails;mlx5_0:1;",
		"2;42.3;rails;mlx5_0:1;x@1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (roce_agreed_decode(bad[i], &d, &err) != -1)
			fail_msg("\"%s\" decoded", bad[i]);
		assert_int_equal(d.n_rails, 0);
	}
	char longv[ROCE_AGREE_ENV_MAX + 10];
	memset(longv, 'a', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(roce_agreed_decode(longv, &d, &err), -1);
}

static void plan_of(struct roce_plan *p, const char *hca, const char *ifs)
{
	memset(p, 0, sizeof(*p));
	p->valid = true;
	snprintf(p->vars[0].name, sizeof(p->vars[0].name), "NCCL_IB_HCA");
	snprintf(p->vars[0].value, sizeof(p->vars[0].value), "%s", hca);
	snprintf(p->vars[1].name, sizeof(p->vars[1].name), "NCCL_SOCKET_IFNAME");
	snprintf(p->vars[1].value, sizeof(p->vars[1].value), "%s", ifs);
	snprintf(p->vars[2].name, sizeof(p->vars[2].name), "NCCL_IB_GID_INDEX");
	snprintf(p->vars[2].value, sizeof(p->vars[2].value), "3");
	p->n_vars = 3;
}

/* A node can only remove: an agreed rail it does not have healthy is left out. */
static void test_apply(void **state)
{
	(void)state;
	struct roce_fingerprint self;
	struct roce_plan plan;
	struct roce_agreed d;
	struct roce_error err;
	char why[256];
	fp_make(&self, "node1", 2, two, NULL);

	/* the agreement's order wins; the node's own locality-narrowed list does not */
	assert_int_equal(roce_agreed_decode("2;42.0;rails;mlx5_1:1,mlx5_0:1;0@4096,1@4096", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1", "=eth0");
	assert_int_equal(roce_agreed_apply(&d, &self, &plan, why, sizeof(why)), 0);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_1:1,mlx5_0:1");
	assert_string_equal(roce_plan_get(&plan, "NCCL_SOCKET_IFNAME"), "=eth1,eth0");
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_GID_INDEX"), "3");

	/* forged: a rail this node does not have, or at another MTU, is never added */
	assert_int_equal(roce_agreed_decode("2;42.0;rails;mlx5_0:1,mlx5_7:1,mlx5_1:1;0@4096,1@4096,2@1024", &d, &err),
	                 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	assert_int_equal(roce_agreed_apply(&d, &self, &plan, why, sizeof(why)), 2);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_0:1");
	assert_string_equal(why, "mlx5_7:1 has no healthy port here, mlx5_1:1 has another RDMA MTU here");

	/* forged: a rail named twice is taken once; a plan that lacked the netdevs gets them */
	assert_int_equal(roce_agreed_decode("2;42.0;rails;mlx5_1:1,mlx5_0:1,mlx5_1:1;0@4096,1@4096,2@4096", &d, &err),
	                 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	plan.vars[1] = plan.vars[2];
	plan.n_vars = 2;
	assert_int_equal(roce_agreed_apply(&d, &self, &plan, why, sizeof(why)), 1);
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_HCA"), "=mlx5_1:1,mlx5_0:1");
	assert_string_equal(roce_plan_get(&plan, "NCCL_SOCKET_IFNAME"), "=eth1,eth0");
	assert_string_equal(roce_plan_get(&plan, "NCCL_IB_GID_INDEX"), "3");
	assert_int_equal(plan.n_vars, 3);

	/* a subnet rail where this node knows its port by name only: not taken */
	assert_int_equal(roce_agreed_decode("2;42.0;rails;192.0.2.0/26;0@4096", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	assert_int_equal(roce_agreed_apply(&d, &self, &plan, why, sizeof(why)), 1);
	assert_false(plan.valid);

	/* nothing left: no plan */
	assert_int_equal(roce_agreed_decode("2;42.0;rails;mlx5_9:1;0@4096", &d, &err), 0);
	plan_of(&plan, "=mlx5_0:1,mlx5_1:1", "=eth0,eth1");
	assert_int_equal(roce_agreed_apply(&d, &self, &plan, why, sizeof(why)), 1);
	assert_false(plan.valid);
}

/* ------------------------------------------------------------------ the parser */

static const char good[] =
	"{\"schema\":\"slurm-roce/fingerprint/5\",\"job_id\":\"42\",\"verdict\":\"warn\","
	"\"gid_index\":3,\"addr_family\":4,\"traffic_class\":104,\"pfc_priority\":3,\"trust\":\"dscp\","
	"\"driver\":\"24.10-1.1.4\",\"problems\":[{\"status\":\"warn\",\"check\":\"pfc\",\"cause\":\"missing\","
	"\"subjects\":\"mlx5_0:1\"}],\"problems_more\":0,\"devices\":[{\"device\":\"mlx5_0\",\"hca_type\":\"MT4123\","
	"\"board_id\":\"MT_0000000223\",\"fw_ver\":\"20.39.1002\"}],\"ports\":["
	"{\"device\":\"mlx5_0\",\"port\":1,\"netdev\":\"eth0\",\"rail\":\"192.0.2.0/26\",\"active_mtu\":4096,"
	"\"netdev_mtu\":9000,\"rate_gbps\":100,\"ecn_np\":1,\"ecn_rp\":1}]}";

#define PORT_JSON(dev)                                                                             \
	"{\"device\":\"" dev                                                                       \
	"\",\"port\":1,\"netdev\":\"eth0\",\"rail\":\"\",\"active_mtu\":4096,\"netdev_mtu\":9000," \
	"\"rate_gbps\":100,\"ecn_np\":-1,\"ecn_rp\":-1}"

static int parse_with(const char *from, const char *to, struct roce_error *err)
{
	char text[4096];
	struct roce_fingerprint f;
	const char *at = strstr(good, from);
	assert_non_null(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return roce_fingerprint_parse(text, strlen(text), "42", "node1", &f, err);
}

/* A bonded port (RoCE LAG): its ECN is its members', where the kernel keeps
 * it; the bond netdev has none.  On only when on for every member. */
static void test_bond_ecn(void **state)
{
	(void)state;
	struct roce_policy pol;
	roce_policy_defaults(&pol);
	struct roce_node node;
	roce_node_init(&node);
	struct roce_netdev *nd = roce_node_add_netdev(&node, "bond0");
	assert_non_null(nd);
	assert_non_null(roce_node_add_netdev(&node, "eth2"));
	assert_non_null(roce_node_add_netdev(&node, "eth3"));
	nd = roce_node_find_netdev(&node, "bond0");
	roce_reading_set(&nd->members_read, ROCE_OK, 0, NULL);
	nd->n_members = 2;
	snprintf(nd->members[0], sizeof(nd->members[0]), "eth2");
	snprintf(nd->members[1], sizeof(nd->members[1]), "eth3");
	roce_reading_set(&nd->ecn.read, ROCE_MISSING, ENOENT, "no ecn/ on a bond");
	for (int m = 0; m < 2; m++) {
		struct roce_netdev *e = roce_node_find_netdev(&node, m ? "eth3" : "eth2");
		roce_reading_set(&e->ecn.read, ROCE_OK, 0, NULL);
		memset(e->ecn.np, 1, sizeof(e->ecn.np));
		memset(e->ecn.rp, 1, sizeof(e->ecn.rp));
	}
	struct roce_port_result pr = { .device = "mlx5_bond_0", .port = 1, .netdev = "bond0", .roce = true,
		                       .healthy = true, .gid_index = 3, .active_mtu = 4096, .netdev_mtu = 9000 };
	struct roce_check_result check = { .ports = &pr, .n_ports = 1, .gid_index = 3, .traffic_class = 106 };
	struct roce_fingerprint *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	roce_fingerprint_from_check(&pol, &node, &check, "42", "n1", f);
	assert_int_equal(f->n_ports, 1);
	assert_int_equal(f->ports[0].ecn_np, 1);
	assert_int_equal(f->ports[0].ecn_rp, 1);
	/* one member's reaction point off: the port's is off */
	roce_node_find_netdev(&node, "eth3")->ecn.rp[pol.pfc_priority] = 0;
	roce_fingerprint_from_check(&pol, &node, &check, "42", "n1", f);
	assert_int_equal(f->ports[0].ecn_np, 1);
	assert_int_equal(f->ports[0].ecn_rp, 0);
	/* one member unread: unknown, never on */
	roce_reading_set(&roce_node_find_netdev(&node, "eth2")->ecn.read, ROCE_MISSING, ENOENT, "no ecn/");
	roce_fingerprint_from_check(&pol, &node, &check, "42", "n1", f);
	assert_int_equal(f->ports[0].ecn_np, -1);
	assert_int_equal(f->ports[0].ecn_rp, 0);
	free(f);
	roce_node_free(&node);
}

/* The address the path probe sends from, and its netdev: the GID's own (a
 * VLAN's: RoCE's packets leave tagged there), the port's when the GID's
 * netdev was not read. */
static void test_port_addr(void **state)
{
	(void)state;
	static struct roce_gid gid = { .index = 3, .raw = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 12 } };
	static struct roce_port port = { .num = 1, .gids = &gid, .n_gids = 1 };
	static struct roce_device dev = { .name = "mlx5_0", .ports = &port, .n_ports = 1 };
	struct roce_node node;
	roce_node_init(&node);
	node.devices = &dev;
	node.n_devices = 1;
	roce_reading_set(&gid.read, ROCE_OK, 0, NULL);
	roce_reading_set(&gid.ndev_read, ROCE_OK, 0, NULL);
	snprintf(gid.ndev, sizeof(gid.ndev), "eth0.100");
	struct roce_port_result pr = { .device = "mlx5_0", .port = 1, .netdev = "eth0", .roce = true,
		                       .healthy = true, .gid_index = 3 };
	struct roce_check_result check = { .ports = &pr, .n_ports = 1, .gid_index = 3 };
	uint8_t addr[16];
	char netdev[IF_NAMESIZE];
	assert_int_equal(roce_fingerprint_port_addr(&node, &check, "mlx5_0", 1, addr, netdev), AF_INET);
	assert_memory_equal(addr, ((const uint8_t[]){ 192, 0, 2, 12 }), 4);
	assert_string_equal(netdev, "eth0.100");
	roce_reading_set(&gid.ndev_read, ROCE_MISSING, ENOENT, "no ndevs/3");
	assert_int_equal(roce_fingerprint_port_addr(&node, &check, "mlx5_0", 1, addr, netdev), AF_INET);
	assert_string_equal(netdev, "eth0");
	/* another port, or a GID index the port does not have: unknown */
	assert_int_equal(roce_fingerprint_port_addr(&node, &check, "mlx5_0", 2, addr, netdev), 0);
	pr.gid_index = 4;
	assert_int_equal(roce_fingerprint_port_addr(&node, &check, "mlx5_0", 1, addr, netdev), 0);
	/* an IPv6 RoCE v2 GID (2001:db8:1::c): the address is the GID itself */
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 0x0c };
	memcpy(gid.raw, v6, sizeof(v6));
	pr.gid_index = 3;
	assert_int_equal(roce_fingerprint_port_addr(&node, &check, "mlx5_0", 1, addr, netdev), AF_INET6);
	assert_memory_equal(addr, v6, 16);
}

static void test_parse(void **state)
{
	(void)state;
	struct roce_fingerprint f, g;
	struct roce_error err;
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "42", "node1", &f, &err), 0);
	assert_int_equal(f.verdict, ROCE_FP_WARN);
	assert_int_equal(f.n_ports, 1);
	assert_int_equal(f.ports[0].active_mtu, 4096);
	assert_string_equal(f.ports[0].rail, "192.0.2.0/26");
	assert_string_equal(f.devices[0].fw_ver, "20.39.1002");
	assert_int_equal(f.trust, ROCE_TRUST_DSCP);
	assert_int_equal(f.n_problems, 1);
	assert_int_equal(f.problems[0].status, ROCE_WARN);
	assert_string_equal(f.problems[0].subjects, "mlx5_0:1");
	/* schema 3 (a prolog not yet upgraded): no problems, read */
	char v3[4096];
	const char *pa = strstr(good, ",\"problems\""), *pz = strstr(good, ",\"devices\"");
	snprintf(v3, sizeof(v3), "%.*s3%.*s%s", (int)(strstr(good, "/5") + 1 - good), good,
	         (int)(pa - strstr(good, "/5") - 2), strstr(good, "/5") + 2, pz);
	assert_int_equal(roce_fingerprint_parse(v3, strlen(v3), "42", "node1", &g, &err), 0);
	assert_int_equal(g.n_problems, 0);
	assert_int_equal(g.n_ports, 1);
	/* schema 4 (problems, no probes): read */
	char v4[4096];
	snprintf(v4, sizeof(v4), "%s", good);
	strstr(v4, "/5")[1] = '4';
	assert_int_equal(roce_fingerprint_parse(v4, strlen(v4), "42", "node1", &g, &err), 0);
	assert_int_equal(g.n_problems, 1);
	/* round trip through the writer */
	json_object *o = roce_fingerprint_to_json(&f);
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_string_equal(t, good);
	assert_int_equal(roce_fingerprint_parse(t, strlen(t), NULL, NULL, &g, &err), 0);
	json_object_put(o);

	/* the node is the name it was filed under; another job's is refused */
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "42", "node2", &f, &err), 0);
	assert_string_equal(f.node, "node2");
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "43", "node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "job_id"));
	assert_int_equal(f.n_ports, 0);
	assert_int_equal(roce_fingerprint_parse(good, strlen(good), "42", "../node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "node name"));
	/* garbage, truncation, too big */
	assert_int_equal(roce_fingerprint_parse("garbage", 7, "42", "node1", &f, &err), -1);
	assert_int_equal(roce_fingerprint_parse(good, strlen(good) - 3, "42", "node1", &f, &err), -1);
	assert_int_equal(roce_fingerprint_parse(good, ROCE_FP_TEXT_MAX + 1, "42", "node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "more than a fingerprint's"));
	/* schema, unknown members, ranges, names, words */
	struct { const char *from, *to, *says; } cases[] = {
		{ "fingerprint/5", "fingerprint/2", "schema" },
		{ "fingerprint/5", "fingerprint/3", "problems\" in a schema 3" },
		{ ",\"problems_more\":0", "", "problems_more" },
		{ "\"status\":\"warn\"", "\"status\":\"pass\"", "status" },
		{ "\"check\":\"pfc\"", "\"check\":\"pfc\\u001b[2J\"", "problem" },
		{ "\"cause\":\"missing\"", "\"cause\":\"missing; rm -rf\"", "problem" },
		{ "\"cause\":\"missing\"", "\"cause\":\"\"", "problem" },
		{ "\"subjects\":\"mlx5_0:1\"", "\"subjects\":\"mlx5_0:1 node9\"", "problem" },
		{ "\"subjects\":\"mlx5_0:1\"", "\"subjects\":\"mlx5_0:1\",\"node\":\"n\"", "unknown member" },
		{ "\"problems_more\":0", "\"problems_more\":-1", "problems_more" },
		{ "\"verdict\"", "\"node\":\"node1\",\"verdict\"", "unknown member \"node\"" }, /* version 1's */
		{ "\"verdict\"", "\"sl\":3,\"verdict\"", "unknown member \"sl\"" },
		{ "\"rate_gbps\"", "\"addr\":\"192.0.2.5\",\"rate_gbps\"", "unknown member \"addr\"" },
		{ "\"warn\"", "\"fine\"", "verdict" },
		{ "\"port\":1", "\"port\":0", "port" },
		{ "\"active_mtu\":4096", "\"active_mtu\":9000", "active_mtu" },
		{ "\"gid_index\":3", "\"gid_index\":256", "gid_index" },
		{ "\"addr_family\":4", "\"addr_family\":5", "addr_family" },
		{ "\"traffic_class\":104", "\"traffic_class\":\"104\"", "traffic_class" },
		{ "\"mlx5_0\",\"port\"", "\"../../x\",\"port\"", "device" },
		{ "\"eth0\"", "\"eth0\\u001b[31m\"", "netdev" },
		{ "\"job_id\":\"42\"", "\"job_id\":\"042\"", "job_id" },
		{ "\"192.0.2.0/26\"", "\"192.0.2.5/26\"", "rail" },
		{ "\"192.0.2.0/26\"", "\"2001:0db8::/64\"", "rail" },
		{ "\"192.0.2.0/26\"", "\"192.0.2.0/26,x\"", "rail" },
		{ "\"ecn_np\":1", "\"ecn_np\":2", "ecn_np" },
		{ "\"dscp\"", "\"both\"", "trust" },
		{ "\"20.39.1002\"", "\"20.39 1002\"", "fw_ver" },
		{ "\"24.10-1.1.4\"", "\"24.10\\n\"", "driver" },
		{ "\"MT4123\"", "\"MT4123;rm\"", "hca_type" },
		{ "\"warn\"", "\"unchecked\"", "unchecked node lists ports" },
		{ "]}", "," PORT_JSON("mlx5_0") "]}", "twice" },
		{ "\"fw_ver\":\"20.39.1002\"}",
		  "\"fw_ver\":\"20.39.1002\"},{\"device\":\"mlx5_0\",\"hca_type\":\"\","
		  "\"board_id\":\"\",\"fw_ver\":\"\"}",
		  "twice" },
		{ "\"ports\":[", "\"ports\":{}, \"x\":[", "unknown member" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_with(cases[i].from, cases[i].to, &err), -1);
		if (!strstr(err.msg, cases[i].says))
			fail_msg("case %zu: \"%s\" does not name %s", i, err.msg, cases[i].says);
	}
	/* more than 32 ports */
	char big[16384] = "";
	snprintf(big, sizeof(big), "%.*s", (int)(strstr(good, "\"ports\":[") - good + 9), good);
	for (int i = 0; i < 33; i++) {
		char dev[16], port[512];
		snprintf(dev, sizeof(dev), "mlx5_%d", i);
		snprintf(port, sizeof(port), PORT_JSON("%s"), dev);
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s%s", i ? "," : "", port);
	}
	strcat(big, "]}");
	assert_int_equal(roce_fingerprint_parse(big, strlen(big), "42", "node1", &f, &err), -1);
	assert_non_null(strstr(err.msg, "at most 32"));
}

/* The path probe (Probe=ip): a rail whose probe failed between two nodes
 * is left out on every node, one line per node pair and rail; a probe that
 * passed changes nothing (and is the same bytes on every node). */
static void test_probe_drops_rail(void **state)
{
	(void)state;
	static const char *const subnets[] = { "192.0.2.0/26", "192.0.2.64/26" };
	struct roce_fingerprint f[3];
	for (int i = 0; i < 3; i++) {
		fp_rails(&f[i], nodes3[i], 2, two, subnets);
		f[i].ports[0].probe.verdict = f[i].ports[1].probe.verdict = ROCE_FP_PROBE_OK;
	}
	const struct roce_fingerprint *fps[] = { &f[0], &f[1], &f[2] };
	struct roce_agreement a;
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 2);
	roce_agree_free(&a);
	/* a rail not probed (node3's file came too late for node2): said, never dropped, strict passes */
	f[1].ports[1].probe = (struct roce_fp_probe_result){ ROCE_FP_PROBE_LOCAL, "node3", 0, 9000, 26, -1 };
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, 0);
	assert_int_equal(a.n_rails, 2);
	assert_non_null(strstr(all_lines(&a), "path node2 -> node3 on 192.0.2.64/26: not probed"));
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_RAILS);
	roce_agree_free(&a);
	/* node2 -> node3 on the second rail: a 1500 hop between hosts at 9000 */
	f[1].ports[1].probe = (struct roce_fp_probe_result){ ROCE_FP_PROBE_SIZE, "node3", 1500, 9000, 26, 26 };
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED);
	assert_int_equal(a.n_rails, 1);
	assert_string_equal(all_lines(&a),
	                    "path node2 -> node3 on 192.0.2.64/26: largest size that passed 1500 of 9000");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_RAILS);
	assert_int_equal(roce_agree_verdict(&a, true), ROCE_AGREED_FAIL);
	assert_string_equal(exported(&a, &f[0]), "=mlx5_0:1");
	roce_agree_free(&a);
	/* and node3 -> node1 on the first: unreachable; a DSCP re-marked: nothing is left */
	f[2].ports[0].probe = (struct roce_fp_probe_result){ ROCE_FP_PROBE_NO_ANSWER, "node1", 0, 9000, 26, -1 };
	f[0].ports[0].probe = (struct roce_fp_probe_result){ ROCE_FP_PROBE_DSCP, "node2", 9000, 9000, 26, 0 };
	assert_int_equal(roce_agree(fps, nodes3, 3, plus_list, NULL, &a), 0);
	assert_int_equal(a.flags, ROCE_AGREE_TRIMMED | ROCE_AGREE_EMPTY);
	assert_string_equal(all_lines(&a),
	                    "path node1 -> node2 on 192.0.2.0/26: DSCP 26 sent, 0 arrived\n"
	                    "path node2 -> node3 on 192.0.2.64/26: largest size that passed 1500 of 9000\n"
	                    "path node3 -> node1 on 192.0.2.0/26: no answer");
	assert_int_equal(roce_agree_verdict(&a, false), ROCE_AGREED_EMPTY);
	roce_agree_free(&a);
	char words[96];
	roce_probeagree_words(&(struct roce_fp_probe_result){ ROCE_FP_PROBE_DSCP, "n", 1, 1, 26, -1 }, words,
	                      sizeof(words));
	assert_string_equal(words, "DSCP 26 sent, the one that arrived was not read");
}

/* "probe" in the fingerprint: written only when probed, {"verdict":"ok"} alone when it passed, parsed strictly. */
static void test_probe_json(void **state)
{
	(void)state;
	static const char *const subnets[] = { "192.0.2.0/26", "192.0.2.64/26" };
	struct roce_fingerprint f, back;
	struct roce_error err = { "" };
	fp_rails(&f, "node1", 2, two, subnets);
	json_object *o = roce_fingerprint_to_json(&f);
	assert_null(strstr(json_object_to_json_string(o), "probe"));
	json_object_put(o);
	f.ports[0].probe.verdict = ROCE_FP_PROBE_OK;
	f.ports[1].probe = (struct roce_fp_probe_result){ ROCE_FP_PROBE_SIZE, "node2", 1500, 9000, 26, 26 };
	o = roce_fingerprint_to_json(&f);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"ecn_rp\":1,\"probe\":{\"verdict\":\"ok\"}}"));
	assert_non_null(strstr(text, "\"probe\":{\"verdict\":\"size\",\"peer\":\"node2\",\"largest\":1500,\"of\":9000,"
	                             "\"sent\":26,\"arrived\":26}"));
	assert_null(strstr(text, "resolves"));
	assert_int_equal(roce_fingerprint_parse(text, strlen(text), "42", "node1", &back, &err), 0);
	assert_int_equal(back.ports[0].probe.verdict, ROCE_FP_PROBE_OK);
	assert_int_equal(back.ports[1].probe.verdict, ROCE_FP_PROBE_SIZE);
	assert_string_equal(back.ports[1].probe.peer, "node2");
	assert_int_equal(back.ports[1].probe.largest, 1500);
	char hostile[8192];
	static const struct {
		const char *from, *to, *says;
	} cases[] = {
		{ "{\"verdict\":\"ok\"}", "{\"verdict\":\"ok\",\"peer\":\"x\"}", "unknown member \"peer\"" },
		{ "{\"verdict\":\"ok\"}", "{\"verdict\":\"none\"}", "verdict" },
		{ "{\"verdict\":\"ok\"}", "\"ok\"", "probe" },
		{ "\"peer\":\"node2\"", "\"peer\":\"../x\"", "peer" },
		{ "\"largest\":1500", "\"largest\":9001", "largest" },
		{ "\"arrived\":26", "\"arrived\":64", "arrived" },
		{ ",\"arrived\":26", "", "arrived" },
		{ "fingerprint\\/5", "fingerprint\\/4", "\"probe\" in a schema 4" }, /* json-c escapes the slash */
		{ "\"problems_more\":0", "\"problems_more\":0,\"resolves\":{\"peer\":\"node3\",\"got\":\"x\"}", "resolves" },
		{ "\"problems_more\":0", "\"problems_more\":0,\"resolves\":{\"peer\":\"../n\",\"got\":\"10.0.0.1\"}",
		  "resolves" },
		{ "\"problems_more\":0",
		  "\"problems_more\":0,\"resolves\":{\"peer\":\"node3\",\"got\":\"10.0.0.1\",\"via\":\"dns\"}",
		  "unknown member \"via\"" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(text, cases[i].from);
		assert_non_null(at);
		snprintf(hostile, sizeof(hostile), "%.*s%s%s", (int)(at - text), text, cases[i].to,
		         at + strlen(cases[i].from));
		if (roce_fingerprint_parse(hostile, strlen(hostile), "42", "node1", &back, &err) == 0)
			fail_msg("case %zu taken", i);
		if (!strstr(err.msg, cases[i].says))
			fail_msg("case %zu: \"%s\" does not name %s", i, err.msg, cases[i].says);
	}
	json_object_put(o);
	/* a wrong name: written, read back, refused in schema 4, said by the agreement */
	fp_rails(&f, "node1", 2, two, subnets);
	snprintf(f.resolves.peer, sizeof(f.resolves.peer), "node2");
	snprintf(f.resolves.got, sizeof(f.resolves.got), "192.0.2.99");
	o = roce_fingerprint_to_json(&f);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"resolves\":{\"peer\":\"node2\",\"got\":\"192.0.2.99\"}"));
	assert_int_equal(roce_fingerprint_parse(text, strlen(text), "42", "node1", &back, &err), 0);
	assert_string_equal(back.resolves.got, "192.0.2.99");
	snprintf(hostile, sizeof(hostile), "%s", text);
	strstr(hostile, "fingerprint\\/5")[13] = '4';
	assert_int_equal(roce_fingerprint_parse(hostile, strlen(hostile), "42", "node1", &back, &err), -1);
	assert_non_null(strstr(err.msg, "\"resolves\" in a schema 4"));
	json_object_put(o);
	struct roce_fingerprint g[3];
	const struct roce_fingerprint *gp[3] = { &g[0], &g[1], &g[2] };
	static struct roce_lines lines; /* large: not for the stack */
	memset(&lines, 0, sizeof(lines));
	for (int i = 0; i < 3; i++)
		fp_rails(&g[i], nodes3[i], 2, two, subnets);
	g[1].resolves = f.resolves;
	snprintf(g[1].resolves.peer, sizeof(g[1].resolves.peer), "node3");
	roce_probeagree_names(gp, nodes3, 3, &lines);
	assert_int_equal(lines.n, 1);
	assert_string_equal(lines.line[0].text,
	                    "node2 resolves node3 to 192.0.2.99, not an address node3 has (/etc/hosts or DNS)");
	assert_int_equal(lines.line[0].kind, ROCE_LINE_SHOULD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_same),
		cmocka_unit_test(test_rail_missing),
		cmocka_unit_test(test_order_and_extra),
		cmocka_unit_test(test_mtu_groups),
		cmocka_unit_test(test_empty_and_missing),
		cmocka_unit_test(test_issue_1277),
		cmocka_unit_test(test_swapped_names),
		cmocka_unit_test(test_crossed),
		cmocka_unit_test(test_hostile_layouts),
		cmocka_unit_test(test_site_rails),
		cmocka_unit_test(test_compared),
		cmocka_unit_test(test_short_lines),
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_bond_ecn),
		cmocka_unit_test(test_port_addr),
		cmocka_unit_test(test_probe_drops_rail),
		cmocka_unit_test(test_probe_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
