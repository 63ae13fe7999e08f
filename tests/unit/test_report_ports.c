/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_report_ports.c - a fragment's verdicts matched to its ports by name (lib/report/report_ports.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_ports.h"

static struct roce_fragment_port port(char *device, unsigned n)
{
	return (struct roce_fragment_port){ .device = device, .port = n, .check = -1 };
}

static struct roce_fragment_verdict verdict(char *subject)
{
	return (struct roce_fragment_verdict){ .code = "c", .subject = subject, .message = "", .fix = "" };
}

static void t_match(void **state)
{
	(void)state;
	/* the longest device a fragment keeps: 63 bytes, each escaped to 4 */
	char longest[ROCE_FRAGMENT_DEVICE_MAX], long_subject[ROCE_FRAGMENT_DEVICE_MAX + 16];
	for (size_t i = 0; i < ROCE_NAME_MAX - 1; i++)
		memcpy(longest + 4 * i, "\\x01", 4);
	longest[ROCE_FRAGMENT_DEVICE_MAX - 1] = '\0';
	snprintf(long_subject, sizeof(long_subject), "%s:2 prio 3", longest);
	struct roce_fragment_port ports[] = { port("mlx5_0", 1), port("mlx5_1", 1), port("mlx5_10", 1),
		                              port("mlx5_1", 1), port(longest, 2) };
	struct roce_fragment_verdict v[] = { verdict("mlx5_1:1"), verdict("mlx5_1:1 prio 3"), verdict("node"),
		                             verdict("mlx5_9:1"),  verdict("mlx5_10:1"),      verdict("mlx5_1:1"),
		                             verdict(long_subject), verdict("mlx5_1") };
	struct roce_fragment n = { .name = "n1", .ports = ports, .n_ports = 5, .verdicts = v, .n_verdicts = 8 };
	struct roce_report_ports x = { 0 };
	bool exact;
	assert_int_equal(roce_report_ports_index(&x, &n), 0);
	const long want[] = { 1, 1, -1, -1, 2, 1, 4, -1 };
	const bool whole[] = { true, false, true, true, true, true, false, true };
	for (size_t k = 0; k < 8; k++) {
		assert_int_equal(roce_report_ports_of(&x, &v[k], &exact), want[k]);
		assert_int_equal(exact, whole[k]);
	}
	assert_int_equal(roce_report_ports_find(&x, "mlx5_0:1xyz", 8), 0);
	/* each port's exact verdicts, in order: mlx5_1:1 (the first of two ports so named) has 0 and 5 */
	assert_int_equal(roce_report_ports_verdicts(&x), 0);
	const size_t first[] = { 0, 0, 2, 3, 3, 3 };
	assert_memory_equal(x.first, first, sizeof(first));
	assert_int_equal(x.by[0], 0);
	assert_int_equal(x.by[1], 5);
	assert_int_equal(x.by[2], 4);
	/* reused for another fragment */
	struct roce_fragment m = { .name = "n2", .ports = ports, .n_ports = 1, .verdicts = v, .n_verdicts = 1 };
	assert_int_equal(roce_report_ports_index(&x, &m), 0);
	assert_int_equal(roce_report_ports_of(&x, &v[0], &exact), -1);
	assert_int_equal(roce_report_ports_verdicts(&x), 0);
	assert_int_equal(x.first[1], 0);
	roce_report_ports_free(&x);
}

/* Linear: 4096 ports, 65,536 verdicts, each looked up once. */
static void t_many(void **state)
{
	(void)state;
	enum { P = 4096, V = 65536 };
	struct roce_fragment_port *ports = calloc(P, sizeof(*ports));
	struct roce_fragment_verdict *v = calloc(V, sizeof(*v));
	char (*dev)[16] = calloc(P, sizeof(*dev)), (*subj)[24] = calloc(V, sizeof(*subj));
	assert_true(ports && v && dev && subj);
	for (size_t i = 0; i < P; i++) {
		snprintf(dev[i], sizeof(dev[i]), "mlx5_%zu", i);
		ports[i] = port(dev[i], 1);
	}
	for (size_t k = 0; k < V; k++) {
		snprintf(subj[k], sizeof(subj[k]), "mlx5_%zu:1", (k * 7919) % P);
		v[k] = verdict(subj[k]);
	}
	struct roce_fragment n = { .name = "n1", .ports = ports, .n_ports = P, .verdicts = v, .n_verdicts = V };
	struct roce_report_ports x = { 0 };
	assert_int_equal(roce_report_ports_index(&x, &n), 0);
	assert_int_equal(roce_report_ports_verdicts(&x), 0);
	assert_int_equal(x.first[P], V);
	for (size_t i = 0; i < P; i++)
		for (size_t k = x.first[i]; k < x.first[i + 1]; k++)
			assert_int_equal(atoi(v[x.by[k]].subject + 5), i);
	roce_report_ports_free(&x);
	free(ports);
	free(v);
	free(dev);
	free(subj);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_match),
		cmocka_unit_test(t_many),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
