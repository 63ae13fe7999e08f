/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixtures_report.h - inputs for the report's unit tests (test_verdicts,
 * test_fragment, test_report, test_reportdir, test_report_*): a delta of
 * healthy ports, a node's meta, a fragment as roce-report reads it, and a
 * merged 4-node job.  Include after unit.h.
 */
#ifndef ROCE_FIXTURES_REPORT_H
#define ROCE_FIXTURES_REPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* n_ports ports "mlx5_<i>":1 on "eth<i>", every counter read and zero, PFC
 * read and on for priority 3. */
static inline void make_delta(struct roce_delta *d, size_t n_ports, double seconds)
{
	memset(d, 0, sizeof(*d));
	d->seconds = seconds;
	d->gid_index = 3;
	d->traffic_class = 106;
	d->ports = calloc(n_ports, sizeof(*d->ports));
	d->n_ports = n_ports;
	for (size_t i = 0; i < n_ports; i++) {
		struct roce_port_delta *p = &d->ports[i];
		snprintf(p->device, sizeof(p->device), "mlx5_%zu", i);
		p->port = 1;
		snprintf(p->netdev, sizeof(p->netdev), "eth%zu", i);
		p->gid_index = 3;
		p->active_mtu = 4096;
		p->netdev_mtu = 9000;
		p->pfc_status = ROCE_DELTA_OK;
		p->pfc_enabled = 1u << 3;
	}
}

/* Job 4242 of uid 1000 on node, 10 s, PFC priority 3. */
static inline struct roce_fragment_meta meta(const char *node)
{
	struct roce_fragment_meta m = { .job_id = "4242", .node = node, .job_uid = 1000,
	                                .start_ns = 1000000000, .end_ns = 11000000000, .pfc_priority = 3 };
	return m;
}

/* Build a fragment (mp = NULL: meta(node)) and parse it back through JSON
 * text, as roce-report reads it. */
static inline json_object *fragment(const char *node, struct roce_delta *d, const struct roce_fragment_meta *mp)
{
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = mp ? *mp : meta(node);
	m.node = node;
	assert_int_equal(roce_verdicts_from_delta(d, &m, &v), 0);
	json_object *o = roce_fragment_build(&m, d, &v);
	assert_non_null(o);
	json_object *back = json_tokener_parse(json_object_to_json_string(o));
	json_object_put(o);
	roce_verdict_list_free(&v);
	return back;
}

/* Stand-in for libslurm's ranged string: "first..last(n)" is enough to see the grouping. */
static inline char *test_nodelist(const char *const *names, size_t n)
{
	char *s = malloc(160);
	snprintf(s, 160, "%s..%s(%zu)", names[0], names[n - 1], n);
	return s;
}

/* Job 4242, merged and sorted: n1, n2, n3, n10 with two ports each; n2
 * lost packets on mlx5_0; n3 has GID index 5 and mlx5_1 at MTU 1024.  Two
 * errors: a fragment of job 7 (refused on the way in) and n1 again
 * (dropped by the sort). */
static inline void merged_job(struct roce_job_report *r)
{
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(r, "4242");
	const char *nodes[] = { "n10", "n2", "n1", "n3" };
	for (size_t i = 0; i < 4; i++) {
		make_delta(&d, 2, 10);
		if (i == 3) {
			d.ports[1].active_mtu = 1024;   /* one port of one node differs */
			d.gid_index = 5;
		}
		if (i == 1)
			d.ports[0].c[ROCE_C_PACKET_SEQ_ERR].value = 3;
		json_object *f = fragment(nodes[i], &d, NULL);
		assert_int_equal(roce_report_add(r, f, nodes[i], &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
	}
	/* another job's fragment is refused; a duplicate is taken, then dropped by the sort */
	make_delta(&d, 1, 10);
	struct roce_fragment_meta other = meta("n9");
	other.job_id = "7";
	json_object *f = fragment("n9", &d, &other);
	assert_int_equal(roce_report_add(r, f, "n9.json", &err), -1);
	assert_non_null(strstr(err.msg, "fragment of job 7"));
	json_object_put(f);
	f = fragment("n1", &d, NULL);
	assert_int_equal(roce_report_add(r, f, "again", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	roce_report_sort(r);
}

#endif
