/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_health_prometheus.c - a node's health check as an exposition. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "check/check.h"
#include "report/health_prometheus.h"

static char *print(const struct roce_health_prometheus *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(roce_health_prometheus_print(out, h), 0);
	fclose(out);
	return text;
}

/* Every sample line belongs to the family announced just before it. */
static void families_hold(char *text)
{
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
}

static void t_healthy(void **state)
{
	(void)state;
	struct fx_check *f = fx_check_new(2);
	fx_check_run(f);
	struct roce_health_prometheus h = { .node = "gpu01", .now_s = 1796360606, .run = &f->check };
	char *text = print(&h);
	assert_non_null(strstr(text, "roce_health_timestamp_seconds{node=\"gpu01\"} 1796360606\n"));
	assert_non_null(strstr(text, "roce_health_drain{node=\"gpu01\",reason=\"\"} 0\n"));
	assert_non_null(strstr(text, "roce_health_port_healthy{node=\"gpu01\",device=\"mlx5_1\",port=\"1\","
	                             "netdev=\"eth1\"} 1\n"));
	/* a healthy node: the family, no finding */
	assert_non_null(strstr(text, "# TYPE roce_health_finding gauge\n"));
	assert_null(strstr(text, "roce_health_finding{"));
	families_hold(text);
	free(text);
	fx_check_free(f);
}

static void t_port_down(void **state)
{
	(void)state;
	struct fx_check *f = fx_check_new(2);
	struct roce_port *p = &f->node.devices[1].ports[0];
	p->state = 1;
	snprintf(p->state_name, sizeof(p->state_name), "DOWN");
	p->phys_state = 3;
	snprintf(p->phys_state_name, sizeof(p->phys_state_name), "Disabled");
	fx_check_run(f);
	char reason[256];
	assert_int_equal(roce_check_drain_reason(&f->check, reason, sizeof(reason)), 1);
	/* a hostile node name is escaped, never breaks the line */
	struct roce_health_prometheus h = { .node = "gpu\"01\n", .now_s = 5, .run = &f->check, .drain_reason = reason };
	char *text = print(&h);
	assert_non_null(
	        strstr(text, "roce_health_drain{node=\"gpu\\\"01\\n\",reason=\"roce: mlx5_1 port 1 DOWN\"} 1\n"));
	assert_non_null(strstr(text, "roce_health_port_healthy{node=\"gpu\\\"01\\n\",device=\"mlx5_1\",port=\"1\","
	                             "netdev=\"eth1\"} 0\n"));
	assert_non_null(strstr(text, "roce_health_port_healthy{node=\"gpu\\\"01\\n\",device=\"mlx5_0\",port=\"1\","
	                             "netdev=\"eth0\"} 1\n"));
	assert_non_null(strstr(text, "roce_health_finding{node=\"gpu\\\"01\\n\",device=\"mlx5_1\",port=\"1\","
	                             "check=\"port_state\",subject=\"mlx5_1:1\",status=\"fail\",hardware=\"1\"} 1\n"));
	families_hold(text);
	free(text);
	fx_check_free(f);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_healthy),
		cmocka_unit_test(t_port_down),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
