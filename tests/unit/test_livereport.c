/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_livereport.c - a running job's live files read into one view (livereport.c) and its printers. */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fixtures.h"

#include "report/livereport.h"
#include "report/livereport_json.h"
#include "report/livereport_prometheus.h"
#include "report/livereport_text.h"
#include "report/report_metric.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_livereport.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The live file of job on node as the health check writes it, filed as name. */
static void put_live(const char *name, const char *job, const char *node, long uid)
{
	struct roce_live l;
	fx_live(&l, job, node, uid);
	json_object *o = roce_live_json_build(&l);
	put(name, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	roce_live_free(&l);
}

static bool has_error(const struct roce_livereport *r, const char *file, const char *why)
{
	for (size_t i = 0; i < r->n_errors; i++)
		if (strncmp(r->errors[i], file, strlen(file)) == 0 && strstr(r->errors[i], why))
			return true;
	return false;
}

static void t_load(void **state)
{
	(void)state;
	struct roce_livereport r;
	struct roce_error err = { "" };
	char path[256], target[256];
	put_live("gpu10.live", "4711", "gpu10", 1000);
	put_live("gpu02.live", "4711", "gpu02", 1000);
	put_live("gpu01.live", "4711", "gpu01", 1001);
	/* ended there: its fragment is what counts, its live file is not read */
	put("gpu03.json", "{}");
	put("gpu03.live", "not read");
	put_live(".gpu04.live.1234", "4711", "gpu04", 1000); /* a writer's temporary */
	put("bad.live", "{\"schema\": \"slurm-roce/live/1\"");
	put_live("gpu05.live", "4711", "gpu06", 1000); /* posing as another node */
	put_live("gpu07.live", "4712", "gpu07", 1000); /* another job's */
	put_live("x y.live", "4711", "x y", 1000);    /* not a node name: not a live file */
	snprintf(path, sizeof(path), "%s/gpu08.live", dir);
	snprintf(target, sizeof(target), "%s/gpu01.live", dir);
	assert_int_equal(symlink(target, path), 0);
	snprintf(path, sizeof(path), "%s/gpu09.live", dir);
	assert_int_equal(mkfifo(path, 0600), 0); /* refused without blocking */
	if (geteuid() == 0) {
		put_live("gpu11.live", "4711", "gpu11", 1000);
		snprintf(path, sizeof(path), "%s/gpu11.live", dir);
		assert_int_equal(chown(path, 4242, 0), 0); /* neither root's nor its job_uid's */
	}

	roce_livereport_init(&r, "4711");
	assert_int_equal(roce_livereport_load(&r, dir, &err), 0);
	assert_int_equal(r.n_nodes, 3);
	assert_string_equal(r.nodes[0].node, "gpu01");
	assert_string_equal(r.nodes[1].node, "gpu02");
	assert_string_equal(r.nodes[2].node, "gpu10");
	assert_int_equal(r.n_ended, 1);
	assert_string_equal(r.ended[0], "gpu03");
	assert_true(has_error(&r, "bad.live", "not valid JSON"));
	assert_true(has_error(&r, "gpu05.live", "not this job's and node's"));
	assert_true(has_error(&r, "gpu07.live", "not this job's and node's"));
	assert_true(has_error(&r, "gpu08.live", "cannot read"));
	assert_true(has_error(&r, "gpu09.live", "cannot read"));
	if (geteuid() == 0)
		assert_true(has_error(&r, "gpu11.live", "owned by uid 4242, neither root nor its job_uid 1000"));
	assert_int_equal(r.n_errors, geteuid() == 0 ? 6 : 5);
	assert_true(r.now_ns > 0);

	/* a user's view: their nodes only */
	roce_livereport_keep_uid(&r, 1000);
	assert_int_equal(r.n_nodes, 2);
	assert_string_equal(r.nodes[0].node, "gpu02");
	roce_livereport_free(&r);

	roce_livereport_init(&r, "4711");
	assert_int_equal(roce_livereport_load(&r, "/nonexistent/4711", &err), -1);
	roce_livereport_free(&r);
}

/* An interval as report_metric.h reads it: the one definition of rates and loss. */
static void t_metrics(void **state)
{
	(void)state;
	struct roce_live l;
	struct roce_fragment n;
	struct roce_fragment_port p;
	double v;
	fx_live(&l, "4711", "gpu01", 1000);
	roce_livereport_metric_port(&l, &l.ports[0], &l.ports[0].since_start, &n, &p);
	assert_true(n.seconds > 599.99 && n.seconds < 600.01);
	assert_int_equal(roce_report_metric_value(&n, &p, ROCE_METRIC_TX_RATE, &v), ROCE_METRIC_EXACT);
	assert_true(v > 524287.9 && v < 524288.1); /* 300 MiB in 600 s */
	assert_int_equal(roce_report_metric_value(&n, &p, ROCE_METRIC_LOSS, &v), ROCE_METRIC_EXACT);
	assert_true(v == 7);
	assert_int_equal(roce_report_metric_value(&n, &p, ROCE_METRIC_PAUSE, &v), ROCE_METRIC_UNREAD);
	roce_livereport_metric_port(&l, &l.ports[0], &l.ports[0].since_last, &n, &p);
	assert_int_equal(roce_report_metric_value(&n, &p, ROCE_METRIC_TX_RATE, &v), ROCE_METRIC_EXACT);
	assert_true(v > 699050.6 && v < 699050.7); /* 200 MiB in 300 s */
	roce_live_free(&l);
}

static char *printed(int (*print)(FILE *, const struct roce_livereport *), const struct roce_livereport *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	assert_non_null(mem);
	assert_int_equal(print(mem, r), 0);
	fclose(mem);
	return text;
}

static void view(struct roce_livereport *r)
{
	roce_livereport_init(r, "4711");
	r->nodes = calloc(2, sizeof(*r->nodes));
	fx_live(&r->nodes[0], "4711", "gpu01", 1000);
	fx_live(&r->nodes[1], "4711", "gpu02", 1000);
	r->n_nodes = 2;
	r->ended = calloc(1, sizeof(*r->ended));
	snprintf(r->ended[0], sizeof(r->ended[0]), "gpu03");
	r->n_ended = 1;
	r->now_ns = 1720LL * 1000000000; /* two minutes after the samples */
}

static void t_text(void **state)
{
	(void)state;
	struct roce_livereport r;
	view(&r);
	char *t = printed(roce_livereport_text_print, &r);
	assert_non_null(strstr(t, "RoCE live view of job 4711: 2 node(s), started 1970-01-01T00:16:40Z; samples "
	                          "taken 2m to 2m ago\n"));
	const char *row = strstr(t, "\ngpu01            mlx5_0:1     eth0     ACTIVE        2m");
	assert_non_null(row);
	/* since the start: 512.0KiB/s, loss 7; since the sample before (300 s): 683KiB/s, loss 7 */
	assert_non_null(strstr(row, "512KiB/s       0B/s        7        0        0        -        0    300s   683KiB/s"));
	assert_non_null(strstr(t, "Seen while the job runs:\n  fail gpu01 mlx5_1:1 gid_changed: the RoCE v2 GID was "
	                          "index 3 (192.0.2.11) at job start and is index 4 (192.0.2.11) now (seen from "
	                          "1970-01-01T00:26:40Z, still at the latest sample)\n       fix: "));
	assert_non_null(strstr(t, "The job has ended on 1 node(s) (roce-report 4711 shows their report): gpu03\n"));
	free(t);
	roce_livereport_free(&r);
}

static void t_json(void **state)
{
	(void)state;
	struct roce_livereport r;
	view(&r);
	char *t = printed(roce_livereport_json_print, &r);
	json_object *o = json_tokener_parse(t);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "schema")), "slurm-roce/live-report/1");
	json_object *n = json_object_array_get_idx(json_object_object_get(o, "nodes"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(n, "sampled")), "1970-01-01T00:26:40Z");
	json_object *p = json_object_array_get_idx(json_object_object_get(n, "ports"), 0);
	json_object *m = json_object_object_get(json_object_object_get(p, "since_last"), "metrics");
	assert_int_equal(json_object_get_int(json_object_object_get(m, "loss")), 7);
	assert_int_equal((int64_t)json_object_get_double(json_object_object_get(m, "tx")), 699050);
	assert_null(json_object_object_get(m, "pause"));
	json_object *e = json_object_array_get_idx(json_object_object_get(n, "events"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(e, "code")), "gid_changed");
	assert_string_equal(json_object_get_string(json_object_object_get(e, "severity")), "fail");
	assert_true(json_object_get_boolean(json_object_object_get(e, "now")));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(json_object_object_get(o, "ended"), 0)),
	                    "gpu03");
	json_object_put(o);
	free(t);
	roce_livereport_free(&r);
}

static void t_prometheus(void **state)
{
	(void)state;
	struct roce_livereport r;
	view(&r);
	/* a subject as a hostile file could have had it (kept escaped by the reader, quoted here) */
	snprintf(r.nodes[1].events[0].subject, sizeof(r.nodes[1].events[0].subject), "a\"b\\c");
	char *t = printed(roce_livereport_prometheus_print, &r);
	assert_non_null(strstr(t, "\nroce_live_sample_timestamp_seconds{slurm_job_id=\"4711\",node=\"gpu01\"} 1600.000\n"));
	assert_non_null(strstr(t, "\nroce_live_port_rate_bytes_per_second{slurm_job_id=\"4711\",node=\"gpu01\","
	                          "device=\"mlx5_0\",port=\"1\",since=\"last\",metric=\"tx\"} 699050.7\n"));
	assert_non_null(strstr(t, "\nroce_live_port_count{slurm_job_id=\"4711\",node=\"gpu01\",device=\"mlx5_0\","
	                          "port=\"1\",since=\"start\",metric=\"loss\"} 7\n"));
	assert_null(strstr(t, "metric=\"pause\""));
	assert_non_null(strstr(t, "\nroce_live_event{slurm_job_id=\"4711\",node=\"gpu02\",subject=\"a\\\"b\\\\c\","
	                          "code=\"gid_changed\",severity=\"fail\"} 1\n"));
	free(t);
	roce_livereport_free(&r);
}

static void t_age(void **state)
{
	(void)state;
	struct roce_livereport r = { .now_ns = 1000000LL * 1000000000 };
	char buf[16];
	assert_string_equal(roce_livereport_age(&r, r.now_ns - 42000000000LL, buf, sizeof(buf)), "42s");
	assert_string_equal(roce_livereport_age(&r, r.now_ns - 600LL * 1000000000, buf, sizeof(buf)), "10m");
	assert_string_equal(roce_livereport_age(&r, r.now_ns - 5 * 3600LL * 1000000000, buf, sizeof(buf)), "5h");
	assert_string_equal(roce_livereport_age(&r, r.now_ns - 3 * 86400LL * 1000000000, buf, sizeof(buf)), "3d");
	assert_string_equal(roce_livereport_age(&r, r.now_ns + 5000000000LL, buf, sizeof(buf)), "0s");
	assert_string_equal(roce_livereport_age(&r, 0, buf, sizeof(buf)), "-");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup_teardown(t_load, setup, teardown),
		cmocka_unit_test(t_metrics),
		cmocka_unit_test(t_text),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_prometheus),
		cmocka_unit_test(t_age),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
