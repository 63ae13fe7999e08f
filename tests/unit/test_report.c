/* test_report.c - verdicts, fragments, merge and the three output formats,
 * over deltas built in memory and fragment directories written here. */
#include "config.h"
#include "unit.h"

#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/* One port, every counter read and zero, PFC read. */
static void make_delta(struct roce_delta *d, size_t n_ports, double seconds)
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

static const struct roce_job_verdict *find(const struct roce_verdict_list *l, const char *code)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].code, code) == 0)
			return &l->v[i];
	return NULL;
}

static struct roce_fragment_meta meta(const char *node)
{
	struct roce_fragment_meta m = { .job_id = "4242", .node = node, .job_uid = 1000,
	                                .start_ns = 1000000000, .end_ns = 11000000000, .pfc_priority = 3 };
	return m;
}

static void t_clean_job_no_verdicts(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_fragment_meta m = meta("n1");
	make_delta(&d, 2, 10);
	d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = 1 << 30;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_int_equal(v.n, 0);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

static void t_verdicts(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	const char *shared[] = { "4243" };
	struct roce_fragment_meta m = meta("n1");
	m.shared_with = shared;
	m.n_shared = 1;
	make_delta(&d, 2, 10);
	struct roce_port_delta *p = &d.ports[0];
	p->c[ROCE_C_OUT_OF_SEQUENCE].value = 12;
	p->c[ROCE_C_LOCAL_ACK_TIMEOUT_ERR].value = 2;
	p->c[ROCE_C_RP_CNP_IGNORED].value = 50;
	p->c[ROCE_C_LINK_DOWNED].value = 1;
	p->c[ROCE_C_NP_CNP_SENT].value = 9;
	p->pfc_indications[3] = 200000;   /* 20000/s over 10 s: a storm */
	d.ports[1].pfc_requests[3] = 10;  /* 1/s: ordinary pauses */
	d.ports[1].reset = true;
	d.ports[1].c[ROCE_C_PACKET_SEQ_ERR].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[1].c[ROCE_C_PACKET_SEQ_ERR].why, ROCE_WHY_MAX, "end: missing: no hw_counters");

	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	const struct roce_job_verdict *x;
	assert_non_null(x = find(&v, "packet_loss"));
	assert_int_equal(x->severity, ROCE_SEV_WARN);
	assert_string_equal(x->subject, "mlx5_0:1");
	assert_non_null(strstr(x->message, "out_of_sequence 12"));
	assert_non_null(strstr(x->fix, "PFC is on for priority 3"));
	assert_non_null(x = find(&v, "rdma_timeouts"));
	assert_non_null(strstr(x->message, "2 RDMA transport timeouts"));
	assert_non_null(x = find(&v, "ecn_reaction_disabled"));
	assert_non_null(strstr(x->fix, "/sys/class/net/eth0/ecn/roce_rp/enable"));
	assert_non_null(x = find(&v, "link_down"));
	assert_int_equal(x->severity, ROCE_SEV_FAIL);
	assert_non_null(x = find(&v, "congestion"));
	assert_int_equal(x->severity, ROCE_SEV_INFO);
	assert_non_null(x = find(&v, "pause_storm"));
	assert_string_equal(x->subject, "mlx5_0:1 prio 3");
	assert_non_null(strstr(x->message, "20000 per second"));
	assert_non_null(x = find(&v, "pfc_pauses"));
	assert_string_equal(x->subject, "mlx5_1:1 prio 3");
	assert_non_null(x = find(&v, "shared_node"));
	assert_non_null(strstr(x->message, "4243"));
	assert_non_null(x = find(&v, "counter_reset"));
	assert_string_equal(x->subject, "mlx5_1:1");
	assert_non_null(x = find(&v, "counters_unread"));
	assert_non_null(strstr(x->message, "1 of"));
	assert_null(find(&v, "retries_exceeded"));
	roce_verdict_list_free(&v);

	/* vanished port: one verdict, no counter noise */
	d.ports[1].presence = ROCE_PORT_VANISHED;
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_non_null(find(&v, "port_vanished"));
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

static void t_names(void **state)
{
	(void)state;
	assert_true(roce_job_id_ok("1"));
	assert_true(roce_job_id_ok("4294967295"));
	assert_false(roce_job_id_ok("4294967296"));
	assert_false(roce_job_id_ok("0"));
	assert_false(roce_job_id_ok("012"));
	assert_false(roce_job_id_ok("12_3"));
	assert_false(roce_job_id_ok("../1"));
	assert_false(roce_job_id_ok(""));
	assert_false(roce_job_id_ok(NULL));
	assert_true(roce_node_name_ok("node-01.a_b"));
	assert_false(roce_node_name_ok(".hidden"));
	assert_false(roce_node_name_ok("a/b"));
	assert_false(roce_node_name_ok("n\n1"));
	assert_false(roce_node_name_ok(""));
}

/* Build a fragment and parse it back through JSON text, as roce-report does. */
static json_object *fragment(const char *node, struct roce_delta *d, const struct roce_fragment_meta *mp)
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

static void t_fragment_schema(void **state)
{
	(void)state;
	struct roce_delta d;
	make_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = 4000;   /* already bytes */
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].status = ROCE_DELTA_WRAPPED;
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 16;
	d.ports[0].c[ROCE_C_ROCE_ADP_RETRANS].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[0].c[ROCE_C_ROCE_ADP_RETRANS].why, ROCE_WHY_MAX, "start: missing");
	json_object *f = fragment("n1", &d, NULL), *port, *c, *m;
	assert_string_equal(json_object_get_string(json_object_object_get(f, "schema")), ROCE_FRAGMENT_SCHEMA);
	assert_string_equal(json_object_get_string(json_object_object_get(f, "name")), "n1");
	assert_int_equal(json_object_get_int(json_object_object_get(f, "job_uid")), 1000);
	port = json_object_array_get_idx(json_object_object_get(f, "ports"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(port, "device")), "mlx5_0");
	c = json_object_object_get(port, "counters");
	assert_int_equal(json_object_get_int64(json_object_object_get(c, "port_xmit_bytes")), 4000);
	assert_false(json_object_object_get_ex(c, "port_xmit_data", &m));
	assert_true(json_object_object_get_ex(c, "roce_adp_retrans", &m));
	assert_null(m);   /* unread: null, never 0 */
	assert_int_equal(json_object_get_int(json_object_object_get(c, "out_of_sequence")), 16);
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_object_get(port, "counter_status"),
	                                                                  "out_of_sequence")), "wrapped");
	json_object_put(f);
	roce_delta_free(&d);
}

static char *test_nodelist(const char *const *names, size_t n)
{
	/* Stand-in for libslurm's ranged string: "first..last(n)" is enough to see the grouping. */
	char *s = malloc(160);
	snprintf(s, 160, "%s..%s(%zu)", names[0], names[n - 1], n);
	return s;
}

static void t_merge(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(&r, "4242");
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
		assert_int_equal(roce_report_add(&r, f, nodes[i], &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
	}
	/* another job's fragment and a duplicate are refused */
	make_delta(&d, 1, 10);
	struct roce_fragment_meta other = meta("n9");
	other.job_id = "7";
	json_object *f = fragment("n9", &d, &other);
	assert_int_equal(roce_report_add(&r, f, "n9.json", &err), -1);
	assert_non_null(strstr(err.msg, "fragment of job 7"));
	json_object_put(f);
	f = fragment("n1", &d, NULL);
	assert_int_equal(roce_report_add(&r, f, "again", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);

	roce_report_sort(&r);
	assert_int_equal(r.n_nodes, 4);
	assert_int_equal(r.n_errors, 2);
	assert_int_equal(roce_report_job_uid(&r), 1000);

	json_object *o = roce_report_json(&r, test_nodelist), *cons, *x;
	assert_string_equal(json_object_get_string(json_object_object_get(o, "nodelist")), "n1..n10(4)");
	x = json_object_array_get_idx(json_object_object_get(o, "nodes"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(x, "name")), "n1");
	cons = json_object_object_get(o, "consistency");
	x = json_object_object_get(cons, "active_mtu");
	assert_false(json_object_get_boolean(json_object_object_get(x, "consistent")));
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_object_get(x, "values"), "4096,1024")),
	                    "n3..n3(1)");
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_object_get(x, "values"), "4096")),
	                    "n1..n10(3)");
	x = json_object_object_get(cons, "gid_index");
	assert_false(json_object_get_boolean(json_object_object_get(x, "consistent")));
	x = json_object_object_get(cons, "pfc_priorities");
	assert_true(json_object_get_boolean(json_object_object_get(x, "consistent")));
	x = json_object_array_get_idx(json_object_object_get(o, "verdicts"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(x, "code")), "packet_loss");
	assert_string_equal(json_object_get_string(json_object_object_get(x, "nodes")), "n2..n2(1)");
	/* the streamed document is the same document */
	char *streamed = NULL;
	size_t slen = 0;
	FILE *sout = open_memstream(&streamed, &slen);
	assert_int_equal(roce_report_print_json(sout, &r, test_nodelist), 0);
	fclose(sout);
	json_object *parsed = json_tokener_parse(streamed);
	assert_non_null(parsed);
	assert_true(json_object_equal(parsed, o));
	json_object_put(parsed);
	free(streamed);
	json_object_put(o);

	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(roce_report_print_text(out, &r, test_nodelist), 0);
	fclose(out);
	assert_non_null(strstr(text, "RoCE fabric report for job 4242: 4 node(s) n1..n10(4), 10.0 s"));
	assert_non_null(strstr(text, "RDMA MTU           DIFFERS: 4096 on n1..n10(3); 4096,1024 on n3..n3(1)"));
	assert_non_null(strstr(text, "RoCE v2 GID index  DIFFERS: 3 on n1..n10(3); 5 on n3..n3(1)"));
	assert_non_null(strstr(text, "warn packet_loss on 1 node(s): n2..n2(1)"));
	assert_non_null(strstr(text, "fragment of job 7"));
	free(text);
	roce_report_free(&r);
}

static void t_prometheus(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	char *text = NULL;
	size_t len = 0;
	roce_report_init(&r, "4242");
	make_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_PORT_RCV_DATA].value = 123456;
	d.ports[0].c[ROCE_C_RP_CNP_IGNORED].value = 2;
	json_object *f = fragment("n1", &d, NULL);
	/* a hostile subject reaches the exposition escaped */
	json_object *v = json_object_array_get_idx(json_object_object_get(f, "verdicts"), 0);
	json_object_object_add(v, "subject", json_object_new_string("a\"b\\c"));
	assert_int_equal(roce_report_add(&r, f, "n1", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(roce_report_print_prometheus(out, &r), 0);
	fclose(out);
	assert_non_null(strstr(text, "# TYPE roce_job_port_counter_delta gauge\n"));
	assert_non_null(strstr(text, "roce_job_port_counter_delta{job=\"4242\",node=\"n1\",device=\"mlx5_0\",port=\"1\","
	                             "counter=\"port_rcv_bytes\"} 123456\n"));
	assert_non_null(strstr(text, "roce_job_port_pfc_pause_frames{job=\"4242\",node=\"n1\",device=\"mlx5_0\",port=\"1\","
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

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void t_load_dir(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_report.XXXXXX", cmd[64];
	struct roce_error err;
	struct roce_job_report r;
	struct roce_delta d;
	assert_non_null(mkdtemp(dir));
	make_delta(&d, 1, 10);
	json_object *f = fragment("n1", &d, NULL);
	write_file(dir, "n1.json", json_object_to_json_string(f));
	write_file(dir, "n2.json", json_object_to_json_string(f));   /* n1's content under n2's name */
	write_file(dir, ".n3.json.0123456789abcdef", "{\"partial");    /* an epilog's temporary */
	write_file(dir, "n4.json", "{\"schema\": \"slurm-roce/fragment/1\", \"job_id\": \"4242\"");
	char target[PATH_MAX];
	snprintf(target, sizeof(target), "%s/n1.json", dir);
	char link[PATH_MAX];
	snprintf(link, sizeof(link), "%s/n5.json", dir);
	assert_int_equal(symlink(target, link), 0);
	/* a FIFO (never opened) and, as root, a fragment of uid 1000's job whose
	 * file someone else owns (on a file system without ACLs they could write it) */
	snprintf(target, sizeof(target), "%s/n6.json", dir);
	assert_int_equal(mkfifo(target, 0644), 0);
	bool root = geteuid() == 0;
	if (root) {
		json_object *f7 = fragment("n7", &d, NULL);
		write_file(dir, "n7.json", json_object_to_json_string(f7));
		json_object_put(f7);
		snprintf(target, sizeof(target), "%s/n7.json", dir);
		assert_int_equal(chown(target, 5000, 5000), 0);
	}
	json_object_put(f);
	roce_delta_free(&d);

	roce_report_init(&r, "4242");
	assert_int_equal(roce_report_load_dir(&r, dir, &err), 0);
	roce_report_sort(&r);
	assert_int_equal(r.n_nodes, 1);
	assert_int_equal(r.n_errors, root ? 5 : 4);
	char all[2048] = "";
	for (size_t i = 0; i < r.n_errors; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s\n", r.errors[i]);
	assert_non_null(strstr(all, "n2.json: the node name inside does not match"));
	assert_non_null(strstr(all, "n4.json: not valid JSON"));
	assert_non_null(strstr(all, "n5.json: cannot read"));   /* symlinks are not followed */
	assert_non_null(strstr(all, "n6.json: not a regular file (a FIFO)"));
	if (root)
		assert_non_null(strstr(all, "n7.json: owned by uid 5000, neither root nor its job_uid 1000"));
	roce_report_free(&r);
	/* the job directory itself through a symlink: not followed */
	char linked[PATH_MAX];
	snprintf(linked, sizeof(linked), "%s.link", dir);
	assert_int_equal(symlink(dir, linked), 0);
	roce_report_init(&r, "4242");
	assert_int_equal(roce_report_load_dir(&r, linked, &err), -1);
	assert_non_null(strstr(err.msg, "is a symbolic link"));
	roce_report_free(&r);
	unlink(linked);

	roce_report_init(&r, "4242");
	assert_int_equal(roce_report_load_dir(&r, "/nonexistent/4242", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/4242"));
	roce_report_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Fragments of two instances of job 4242 (the id given again to another
 * user): whose job it is, and the other instance's fragments dropped by name. */
static void t_instances(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	struct roce_fragment_meta m[3] = { meta("n1"), meta("n2"), meta("n3") };
	m[1].job_uid = 2000;   /* the later user, on n2 and n3 */
	m[2].job_uid = 2000;
	m[1].end_ns = m[2].end_ns = 99000000000;
	roce_report_init(&r, "4242");
	make_delta(&d, 1, 10);
	for (int i = 0; i < 3; i++) {
		json_object *f = fragment(m[i].node, &d, &m[i]);
		assert_int_equal(roce_report_add(&r, f, m[i].node, &err), 0);
		json_object_put(f);
	}
	roce_delta_free(&d);
	assert_int_equal(roce_report_job_uid(&r), 2000);   /* the newest */
	roce_report_keep_uid(&r, 2000);
	roce_report_sort(&r);
	assert_int_equal(r.n_nodes, 2);
	assert_int_equal(r.n_errors, 1);
	assert_string_equal(r.errors[0], "n1.json: job_uid 1000 is not the job's (uid 2000)");
	roce_report_keep_uid(&r, 3000);   /* nobody's: all dropped, each named */
	assert_int_equal(r.n_nodes, 0);
	assert_int_equal(r.n_errors, 3);
	assert_int_equal(roce_report_job_uid(&r), -1);
	roce_report_free(&r);
}

/* json-c reads "seconds": Infinity; a fragment saying so is refused, not printed as inf. */
static void t_non_finite(void **state)
{
	(void)state;
	struct roce_job_report r;
	struct roce_delta d;
	struct roce_error err;
	make_delta(&d, 1, 10);
	json_object *f = fragment("n1", &d, NULL);
	roce_delta_free(&d);
	const char *text = json_object_to_json_string_ext(f, JSON_C_TO_STRING_PLAIN);
	char *bad = malloc(strlen(text) + 32);
	const char *at = strstr(text, "\"seconds\":");
	assert_non_null(at);
	const char *end = at + strlen("\"seconds\":") + strspn(at + strlen("\"seconds\":"), "0123456789.e+-");
	sprintf(bad, "%.*s\"seconds\":Infinity%s", (int)(at - text), text, end);
	json_object_put(f);
	f = json_tokener_parse(bad);
	free(bad);
	assert_non_null(f);   /* json-c takes it ... */
	roce_report_init(&r, "4242");
	assert_int_equal(roce_report_add(&r, f, "n1.json", &err), -1);   /* ... we do not */
	assert_non_null(strstr(err.msg, "\"seconds\" is not a finite number"));
	assert_int_equal(r.n_nodes, 0);
	json_object_put(f);
	roce_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_clean_job_no_verdicts),
		cmocka_unit_test(t_verdicts),
		cmocka_unit_test(t_names),
		cmocka_unit_test(t_fragment_schema),
		cmocka_unit_test(t_merge),
		cmocka_unit_test(t_prometheus),
		cmocka_unit_test(t_load_dir),
		cmocka_unit_test(t_instances),
		cmocka_unit_test(t_non_finite),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
