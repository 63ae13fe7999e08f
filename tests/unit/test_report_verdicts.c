/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_verdicts.c - the job-level verdicts of the merge (report_verdicts.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "report/report_verdicts.h"

/* The merged report of n nodes: each node's one port moved data[i] bytes
 * each way (UINT64_MAX: the counter was not read at job end). */
static void merged(struct roce_job_report *r, size_t n, const uint64_t *data)
{
	struct roce_error err;
	roce_report_init(r, "4242");
	for (size_t i = 0; i < n; i++) {
		struct roce_delta d;
		char name[16];
		snprintf(name, sizeof(name), "n%zu", i + 1);
		fx_delta(&d, 1, 10);
		for (int k = ROCE_C_PORT_XMIT_DATA; k <= ROCE_C_PORT_RCV_DATA; k++) {
			struct roce_counter_delta *c = &d.ports[0].c[k];
			if (data[i] == UINT64_MAX) {
				c->status = ROCE_DELTA_UNREAD;
				snprintf(c->why, ROCE_WHY_MAX, "end: unreadable: counters/port_rcv_data: EIO");
			} else {
				c->value = data[i];
			}
		}
		json_object *f = fx_fragment(name, &d, NULL);
		assert_int_equal(fx_report_add(r, f, name, &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
	}
	roce_report_sort(r);
}

static const struct roce_fragment_verdict *find(const struct roce_fragment *n, const char *code)
{
	for (size_t i = 0; i < n->n_verdicts; i++)
		if (strcmp(n->verdicts[i].code, code) == 0)
			return &n->verdicts[i];
	return NULL;
}

static void t_no_rdma_traffic(void **state)
{
	(void)state;
	struct roce_job_report r;
	/* n1 silent, n2 just under the floor, n3 busy, n4 unread: unknown */
	const uint64_t data[] = { 0, ROCE_NO_RDMA_FLOOR_BYTES - 4, 1ull << 34, UINT64_MAX };
	merged(&r, 4, data);
	assert_int_equal(roce_report_verdicts(&r), 0);
	const struct roce_fragment_verdict *v;
	assert_non_null(v = find(&r.nodes[0], "no_rdma_traffic"));
	assert_string_equal(v->subject, "node");
	assert_int_equal(v->severity, ROCE_SEV_WARN);
	assert_string_equal(v->message, "a 4-node job whose 1 RoCE port(s) on this node moved no RDMA data: 0 bytes sent, "
	                                "0 received (port_xmit_data, port_rcv_data; under 1024 KiB per port)");
	assert_non_null(strstr(v->fix, "NCCL_IB_HCA"));
	assert_non_null(strstr(v->fix, "NCCL_DEBUG=INFO"));
	assert_non_null(v = find(&r.nodes[1], "no_rdma_traffic"));
	assert_non_null(strstr(v->message, "1048572 bytes sent"));
	assert_null(find(&r.nodes[2], "no_rdma_traffic"));
	assert_null(find(&r.nodes[3], "no_rdma_traffic"));
	/* the printers' groups see it as any verdict */
	struct roce_report_groups gs = { 0 };
	assert_int_equal(roce_report_verdict_groups(&r, &gs), 0);
	bool grouped = false;
	for (size_t i = 0; i < gs.n; i++)
		if (strcmp(gs.g[i].key, "no_rdma_traffic") == 0)
			grouped = gs.g[i].n == 2;
	assert_true(grouped);
	roce_report_groups_free(&gs);
	roce_report_free(&r);
}

/* One node: nothing to talk to over the fabric, no verdict. */
static void t_single_node(void **state)
{
	(void)state;
	struct roce_job_report r;
	const uint64_t data[] = { 0 };
	merged(&r, 1, data);
	assert_int_equal(roce_report_verdicts(&r), 0);
	assert_null(find(&r.nodes[0], "no_rdma_traffic"));
	roce_report_free(&r);
}

/* A port that vanished, or a node without RoCE ports: unknown, no verdict. */
static void t_unknown(void **state)
{
	(void)state;
	struct roce_job_report r;
	const uint64_t data[] = { 0, 0 };
	merged(&r, 2, data);
	r.nodes[0].ports[0].presence = ROCE_PORT_VANISHED;
	r.nodes[1].n_ports = 0;
	assert_int_equal(roce_report_verdicts(&r), 0);
	assert_null(find(&r.nodes[0], "no_rdma_traffic"));
	assert_null(find(&r.nodes[1], "no_rdma_traffic"));
	r.nodes[1].n_ports = 1;   /* freed with the report */
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_no_rdma_traffic),
		cmocka_unit_test(t_single_node),
		cmocka_unit_test(t_unknown),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
