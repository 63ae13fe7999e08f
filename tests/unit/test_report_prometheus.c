/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_prometheus.c - the Prometheus exposition of a report. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "report/report_prometheus.h"

static void t_prometheus(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	char *text = NULL;
	size_t len = 0;
	roce_report_init(&r, "4242");
	fx_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_PORT_RCV_DATA].value = 123456;
	d.ports[0].c[ROCE_C_RP_CNP_IGNORED].value = 2;
	json_object *f = fx_fragment("n1", &d, NULL);
	/* a hostile subject reaches the exposition escaped */
	json_object *v = json_object_array_get_idx(json_object_object_get(f, "verdicts"), 0);
	json_object_object_add(v, "subject", json_object_new_string("a\"b\\c"));
	assert_int_equal(fx_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(roce_report_prometheus_print(out, &r), 0);
	fclose(out);
	assert_non_null(strstr(text, "# TYPE roce_job_port_counter_delta gauge\n"));
	assert_non_null(strstr(text, "roce_job_port_counter_delta{slurm_job_id=\"4242\",node=\"n1\",device=\"mlx5_0\",port=\"1\","
	                             "counter=\"port_rcv_bytes\"} 123456\n"));
	assert_non_null(strstr(text, "roce_job_port_pfc_pause_frames{slurm_job_id=\"4242\",node=\"n1\",device=\"mlx5_0\",port=\"1\","
	                             "priority=\"3\",direction=\"rx\"} 0\n"));
	/* kept as a\"b\\c (printable.h: the backslash escaped), then escaped for the exposition */
	assert_non_null(strstr(text, "subject=\"a\\\"b\\\\\\\\c\",code=\"ecn_reaction_disabled\",severity=\"warn\"} 1\n"));
	/* every sample line belongs to the family announced just before it */
	char family[128] = "";
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "# TYPE ", 7) == 0) {
			sscanf(line + 7, "%127s", family);
			continue;
		}
		if (line[0] == '#')
			continue;
		assert_int_equal(strncmp(line, family, strlen(family)), 0);
		assert_true(line[strlen(family)] == '{');
	}
	free(text);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_prometheus),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
