/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_metric.c - one number per port and metric. */
#include "config.h"
#include "unit.h"

#include <string.h>
#include "fixtures.h"

#include "report/report_metric.h"

/* One node of 10 s, one port: the metric's value and status. */
static void port_of(struct roce_job_report *r, struct roce_delta *d)
{
	struct roce_error err;
	roce_report_init(r, "4242");
	json_object *f = fx_fragment("n1", d, NULL);
	assert_int_equal(fx_report_add(r, f, "n1", &err), 0);
	json_object_put(f);
	roce_delta_free(d);
}

static void t_values(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	double v;
	fx_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = 1000;
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 4;
	d.ports[0].c[ROCE_C_PACKET_SEQ_ERR].value = 3;
	d.ports[0].c[ROCE_C_IMPLIED_NAK_SEQ_ERR].status = ROCE_DELTA_RESET;
	d.ports[0].c[ROCE_C_IMPLIED_NAK_SEQ_ERR].value = 2;
	d.ports[0].c[ROCE_C_LOCAL_ACK_TIMEOUT_ERR].status = ROCE_DELTA_UNREAD;
	d.ports[0].pfc_requests[3] = 5;
	d.ports[0].pfc_indications[0] = 6;
	port_of(&r, &d);
	const struct roce_fragment *n = &r.nodes[0];
	const struct roce_fragment_port *p = &n->ports[0];
	assert_int_equal(roce_report_metric_value(n, p, ROCE_METRIC_LOSS, &v), ROCE_METRIC_LOWER_BOUND);
	assert_true(v == 9);                   /* the three summed; one reset: a lower bound */
	assert_int_equal(roce_report_metric_value(n, p, ROCE_METRIC_TX_RATE, &v), ROCE_METRIC_EXACT);
	assert_true(v == 100);                 /* 1000 bytes in 10 s */
	assert_int_equal(roce_report_metric_value(n, p, ROCE_METRIC_TIMEOUT, &v), ROCE_METRIC_UNREAD);
	assert_true(v == 0);
	assert_int_equal(roce_report_metric_value(n, p, ROCE_METRIC_PAUSE, &v), ROCE_METRIC_EXACT);
	assert_true(v == 11);                  /* sent and received, every priority */
	r.nodes[0].seconds = 0;                /* a rate needs a duration */
	assert_int_equal(roce_report_metric_value(n, p, ROCE_METRIC_RX_RATE, &v), ROCE_METRIC_UNREAD);
	/* a duration no epilog writes (the reader refuses it; here it got past):
	 * an infinite rate is not read, never a number */
	r.nodes[0].seconds = 5e-324;
	assert_int_equal(roce_report_metric_value(n, p, ROCE_METRIC_TX_RATE, &v), ROCE_METRIC_UNREAD);
	assert_true(v == 0);
	roce_report_free(&r);
}

static void t_names(void **state)
{
	(void)state;
	char buf[32];
	for (int m = 0; m < ROCE_METRIC_N; m++) {
		assert_true(strlen(roce_report_metric_key((enum roce_report_metric)m)) > 0);
		for (int k = 0; k < m; k++)
			assert_string_not_equal(roce_report_metric_key((enum roce_report_metric)m),
			                        roce_report_metric_key((enum roce_report_metric)k));
	}
	assert_string_equal(roce_report_metric_key(ROCE_METRIC_LOSS), "loss");
	assert_true(roce_report_metric_is_rate(ROCE_METRIC_TX_RATE));
	assert_false(roce_report_metric_is_rate(ROCE_METRIC_LOSS));
	assert_string_equal(roce_report_metric_short(999, false, buf, sizeof(buf)), "999");
	assert_string_equal(roce_report_metric_short(1234, false, buf, sizeof(buf)), "1.2k");
	assert_string_equal(roce_report_metric_short(56789000, false, buf, sizeof(buf)), "57M");
	assert_string_equal(roce_report_metric_short(2.0 * (1 << 30), true, buf, sizeof(buf)), "2.0GiB/s");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_values),
		cmocka_unit_test(t_names),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
