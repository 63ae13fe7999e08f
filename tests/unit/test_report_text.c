/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_text.c - the text report. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "report/report_text.h"

static char *text_of(const struct roce_job_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(roce_report_text_print(out, r, fx_nodelist), 0);
	fclose(out);
	return text;
}

static void t_text(void **state)
{
	(void)state;
	struct roce_job_report r;
	fx_merged_job(&r);
	char *text = text_of(&r);
	assert_non_null(strstr(text, "RoCE fabric report for job 4242: 4 node(s) n1..n10(4), 10.0 s"));
	assert_non_null(strstr(text, "RDMA MTU           DIFFERS: 4096 on n1..n10(3); 4096,1024 on n3..n3(1)"));
	assert_non_null(strstr(text, "RoCE v2 GID index  DIFFERS: 3 on n1..n10(3); 5 on n3..n3(1)"));
	assert_non_null(strstr(text, "PFC priorities     3 on every node"));
	assert_non_null(strstr(text, "warn packet_loss on 1 node(s): n2..n2(1)"));
	assert_non_null(strstr(text, "  warn n2 mlx5_0:1 packet_loss: packets were lost: out_of_sequence 0, "
	                             "packet_seq_err 3,"));
	assert_non_null(strstr(text, "error: fragment n9.json: fragment of job 7, not 4242\n"));
	free(text);
	roce_report_free(&r);
}

/* A port row: bytes humanised, lower bounds marked, unread counters "-". */
static void t_port_row(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
	fx_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = 3u << 30;
	d.ports[0].c[ROCE_C_PORT_RCV_DATA].status = ROCE_DELTA_UNREAD;
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].status = ROCE_DELTA_RESET;
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 5;
	d.ports[0].reset = true;
	d.ports[0].pfc_indications[3] = 7;
	json_object *f = fx_fragment("n1", &d, NULL);
	assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	char *text = text_of(&r);
	assert_non_null(strstr(text, "n1               mlx5_0:1     eth0        3.0 GiB          -  307.2 MiB"
	                             "          -     >=5       0        0        0        0       0        7        0 reset\n"));
	assert_null(strstr(text, "  none: no loss"));
	free(text);
	roce_report_free(&r);
}

/* A clean job: no "Node verdicts:" header with nothing under it. */
static void t_clean_job(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, NULL);
	assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	assert_int_equal(r.nodes[0].n_verdicts, 0);
	char *text = text_of(&r);
	assert_non_null(strstr(text, "RoCE fabric report for job 4242: 1 node(s)"));
	assert_null(strstr(text, "Node verdicts"));
	free(text);
	roce_report_free(&r);
}

/* A node whose policy checks no PFC (PfcPriority=none: pfc_priority -1 in
 * its fragment) and whose PFC was not read: "not checked", not "unknown";
 * one that checks PFC and could not read it: unknown. */
static void t_pfc_not_checked(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
	fx_delta(&d, 1, 10);
	d.ports[0].pfc_status = ROCE_DELTA_UNREAD;
	struct roce_fragment_meta m = fx_meta("n1");
	m.pfc_priority = -1;
	json_object *f = fx_fragment("n1", &d, &m);
	assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	char *text = text_of(&r);
	assert_non_null(strstr(text, "PFC priorities     not checked on every node"));
	free(text);
	m = fx_meta("n2");
	f = fx_fragment("n2", &d, &m);
	assert_int_equal(fx_report_add(&r, f, "n2", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	text = text_of(&r);
	assert_non_null(strstr(text, "PFC priorities     DIFFERS: not checked on n1"));
	assert_non_null(strstr(text, "unknown on n2"));
	free(text);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_text),
		cmocka_unit_test(t_port_row),
		cmocka_unit_test(t_clean_job),
		cmocka_unit_test(t_pfc_not_checked),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
