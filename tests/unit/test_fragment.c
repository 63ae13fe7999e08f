/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_fragment.c - the fragment schema both ways (the names it is filed under: test_slurmid.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include "fragment/fragment.h"
#include "fragment/fragment_read.h"

static void t_fragment_schema(void **state)
{
	(void)state;
	struct roce_delta d;
	fx_delta(&d, 1, 10);
	d.ports[0].c[ROCE_C_PORT_XMIT_DATA].value = 4000;   /* already bytes */
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].status = ROCE_DELTA_WRAPPED;
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 16;
	d.ports[0].c[ROCE_C_ROCE_ADP_RETRANS].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[0].c[ROCE_C_ROCE_ADP_RETRANS].why, ROCE_WHY_MAX, "start: missing");
	json_object *f = fx_fragment("n1", &d, NULL), *port, *c, *m;
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

/* Parsed and written again, a fragment is the same document: the reader
 * and the writer agree on every key. */
static void t_round_trip(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_fragment n;
	struct roce_error err;
	const char *shared[] = { "4243" };
	struct roce_fragment_meta m = fx_meta("n1");
	m.shared_with = shared;
	m.n_shared = 1;
	m.note = "a note";
	fx_delta(&d, 2, 10);
	d.ports[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 12;
	d.ports[0].rate_mbps = 25000;
	snprintf(d.ports[0].fw_ver, sizeof(d.ports[0].fw_ver), "20.39.1002");
	d.ports[1].presence = ROCE_PORT_APPEARED;
	d.ports[1].pfc_status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[1].pfc_why, sizeof(d.ports[1].pfc_why), "end: no DCB");
	d.ports[1].c[ROCE_C_NP_CNP_SENT].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[1].c[ROCE_C_NP_CNP_SENT].why, ROCE_WHY_MAX, "start: missing");
	snprintf(d.ports[0].state_start, 24, "DOWN");
	snprintf(d.ports[0].state_end, 24, "ACTIVE");
	d.ports[0].check = ROCE_FAIL;
	snprintf(d.ports[0].check_why, ROCE_WHY_MAX, "at job start: port_state: DOWN");
	d.ports[1].check = -1;
	d.check = ROCE_WARN;
	snprintf(d.check_why, ROCE_WHY_MAX, "at job start: pfc: unknown");
	json_object *f = fx_fragment("n1", &d, &m);
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), 0);
	assert_string_equal(n.name, "n1");
	assert_int_equal(n.n_ports, 2);
	assert_string_equal(n.ports[0].state_start, "DOWN");
	assert_string_equal(n.ports[0].state_end, "ACTIVE");
	assert_int_equal(n.ports[0].check, ROCE_FAIL);
	assert_string_equal(n.ports[0].check_why, "at job start: port_state: DOWN");
	assert_null(n.ports[1].state_start);
	assert_int_equal(n.ports[1].check, -1);
	assert_null(n.ports[1].check_why);
	assert_int_equal(n.check, ROCE_WARN);
	roce_fragment_free(&n);
	/* a fragment written before these keys existed still parses */
	json_object *old = json_tokener_parse(json_object_to_json_string(f));
	json_object *p0 = json_object_array_get_idx(json_object_object_get(old, "ports"), 0);
	json_object_object_del(p0, "state_start");
	json_object_object_del(p0, "check");
	json_object_object_del(p0, "check_why");
	json_object_object_del(old, "check");
	assert_int_equal(fx_fragment_read_json(old, "4242", &n, &err), 0);
	assert_null(n.ports[0].state_start);
	assert_int_equal(n.ports[0].check, -1);
	assert_int_equal(n.check, -1);
	roce_fragment_free(&n);
	/* hostile text is escaped, as every string kept from a fragment */
	json_object_object_add(p0, "check_why", json_object_new_string("at job end: \x1b[31mred"));
	assert_int_equal(fx_fragment_read_json(old, "4242", &n, &err), 0);
	assert_null(strchr(n.ports[0].check_why, '\x1b'));
	roce_fragment_free(&n);
	/* "ran_with" is passed over and read again from its text: a value that
	 * starts with an escape (a user's quoted NCCL_IB_HCA) is read as written
	 * (the skip once undid that escape into the text itself). */
	struct roce_ranwith rw = { .n = 0 };
	roce_ranwith_set(&rw, "NCCL_IB_HCA", "\"mlx5_0\"", "=mlx5_0:1", true);
	json_object_object_add(old, "ran_with", roce_ranwith_to_json(&rw));
	assert_int_equal(fx_fragment_read_json(old, "4242", &n, &err), 0);
	assert_non_null(n.ran_with);
	assert_string_equal(n.ran_with->v[0].value, "\"mlx5_0\"");
	roce_fragment_free(&n);
	json_object_object_del(old, "ran_with");
	/* a check that is not a verdict name is refused, naming the key */
	json_object_object_add(p0, "check", json_object_new_string("bad"));
	assert_int_equal(fx_fragment_read_json(old, "4242", &n, &err), -1);
	assert_non_null(strstr(err.msg, "ports[0]: \"check\": unknown value"));
	json_object_put(old);
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), 0);
	assert_int_equal(n.ports[0].rate_mbps, 25000);
	assert_string_equal(n.ports[0].fw_ver, "20.39.1002");
	assert_int_equal(n.ports[1].rate_mbps, 0);   /* unknown: not written, read as unknown */
	assert_null(n.ports[1].fw_ver);
	assert_true(n.n_verdicts > 0);
	json_object *again = fx_fragment_json(&n, "4242", true);
	assert_true(json_object_equal(again, f));
	json_object_put(again);
	/* the report's nodes[] form: the same without the schema */
	again = fx_fragment_json(&n, "4242", false);
	assert_false(json_object_object_get_ex(again, "schema", NULL));
	json_object_object_del(f, "schema");
	assert_true(json_object_equal(again, f));
	json_object_put(again);
	roce_fragment_free(&n);
	json_object_put(f);
	roce_delta_free(&d);
}

/* Parse text as a fragment of job 4242; returns the parser's verdict and
 * leaves its message in err. */
static int parse_text(const char *text, struct roce_error *err)
{
	struct roce_fragment n;
	json_object *o = json_tokener_parse(text);
	assert_non_null(o);
	int rc = fx_fragment_read_json(o, "4242", &n, err);
	if (rc == 0)
		roce_fragment_free(&n);
	else
		assert_null(n.name);   /* emptied on failure */
	json_object_put(o);
	return rc;
}

/* The trust mode, both ways; a fragment without it (an older release) loads as unknown. */
static void t_trust(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_fragment n;
	struct roce_error err;
	fx_delta(&d, 1, 10);
	d.trust = ROCE_TRUST_PCP;
	json_object *f = fx_fragment("n1", &d, NULL);
	assert_string_equal(json_object_get_string(json_object_object_get(f, "trust")), "pcp");
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), 0);
	assert_int_equal(n.trust, ROCE_TRUST_PCP);
	roce_fragment_free(&n);

	json_object_object_del(f, "trust");
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), 0);
	assert_int_equal(n.trust, ROCE_TRUST_UNKNOWN);
	roce_fragment_free(&n);

	json_object_object_add(f, "trust", json_object_new_string("vlan"));
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), -1);
	assert_string_equal(err.msg, "\"trust\": unknown value \"vlan\"");
	json_object_object_add(f, "trust", json_object_new_int(1));
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), -1);
	json_object_put(f);

	d.trust = ROCE_TRUST_UNKNOWN;   /* not known: not written */
	f = fx_fragment("n1", &d, NULL);
	assert_null(json_object_object_get(f, "trust"));
	json_object_put(f);
	roce_delta_free(&d);
}

static void t_refused(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_error err;
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, NULL);
	char *good = strdup(json_object_to_json_string_ext(f, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(f);
	roce_delta_free(&d);

	assert_int_equal(parse_text(good, &err), 0);
	assert_int_equal(parse_text("[1]", &err), -1);
	assert_string_equal(err.msg, "not a JSON object");
	struct { const char *from, *to, *why; } bad[] = {
		{ "slurm-roce/fragment/1", "slurm-roce/fragment/2", "unknown schema \"slurm-roce/fragment/2\"" },
		{ "\"job_id\":\"4242\"", "\"job_id\":\"7\"", "fragment of job 7, not 4242" },
		{ "\"name\":\"n1\"", "\"name\":\"a/b\"", "\"name\" is not a node name" },
		{ "\"port\":1,", "\"port\":300,", "ports[0]: " },
		{ "\"out_of_sequence\":0", "\"out_of_sequence\":-1", "ports[0]: counter out_of_sequence is not a counter value" },
		{ "\"shared_with\":[]", "\"shared_with\":[\"x\"]", "shared_with[0] is not a job id" },
		{ "\"netdev_mtu\":9000,", "\"netdev_mtu\":9000,\"rate_mbps\":0,", "ports[0]: " },
		{ "\"netdev_mtu\":9000,", "\"netdev_mtu\":9000,\"fw_ver\":7,", "ports[0]: " },
		{ "\"reset\":false", "\"reset\":\"no\"", "ports[0]: \"reset\" missing or not a boolean" },
		{ "\"requests\":[0,", "\"requests\":[", "ports[0]: \"requests\" must have 8 entries" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[16384];
		const char *at = strstr(good, bad[i].from);
		assert_non_null(at);
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, bad[i].to, at + strlen(bad[i].from));
		assert_int_equal(parse_text(text, &err), -1);
		assert_non_null(strstr(err.msg, bad[i].why));
	}
	/* the file reader: JSON's own grammar, errors naming the byte */
	struct { const char *from, *to, *why; } text_bad[] = {
		{ "\"seconds\":", "\"seconds\":1e999,\"x\":", "\"seconds\" is not a finite number" },
		{ "\"job_uid\":1000", "\"job_uid\":1000,\"job_uid\":1000", "\"job_uid\" given twice" },
		{ "\"counters\":{", "\"counters\":{\"symbol_error\":1,\"x\":{\"y\":[]},", "ports[0]: \"symbol_error\" given twice" },
		{ "\"seconds\":", "\"seconds\":Infinity,\"x\":", ": expected a value" },
		{ "\"job_uid\":", "\"job_uid\" ", "not valid JSON at byte" },
		{ "\"name\":\"n1\"", "\"name\":\"n\\u0031\"", NULL },
		{ "\"name\":\"n1\"", "\"name\":\"n1\x01\"", "control character in a string" },
		{ "\"verdicts\":[", "\"verdicts\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "verdicts[0]: verdict is not an object" },
		{ "\"shared_with\":[]", "\"shared_with\":[],\"deep\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
		  "nested too deep" },
	};
	for (size_t i = 0; i < sizeof(text_bad) / sizeof(text_bad[0]); i++) {
		char text[16384];
		struct roce_fragment n;
		const char *at = strstr(good, text_bad[i].from);
		assert_non_null(at);
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, text_bad[i].to, at + strlen(text_bad[i].from));
		int rc = roce_fragment_read(NULL, text, strlen(text), "4242", &n, &err);
		if (!text_bad[i].why) {
			assert_int_equal(rc, 0);
			assert_string_equal(n.name, "n1");
			roce_fragment_free(&n);
			continue;
		}
		assert_int_equal(rc, -1);
		assert_null(n.name);
		if (!strstr(err.msg, text_bad[i].why))
			fail_msg("%zu: %s", i, err.msg);
	}
	/* trailing text, and no object at all */
	char *extra = malloc(strlen(good) + 4);
	struct roce_fragment n;
	sprintf(extra, "%s {}", good);
	assert_int_equal(roce_fragment_read(NULL, extra, strlen(extra), "4242", &n, &err), -1);
	assert_non_null(strstr(err.msg, "text after the value"));
	strcpy(extra, "");
	assert_int_equal(roce_fragment_read(NULL, extra, 0, "4242", &n, &err), -1);
	assert_string_equal(err.msg, "not valid JSON at byte 0: expected a value");
	free(extra);
	free(good);
}

/* The good fragment (one port, 10 s) with key set to value, read: 0 or -1 with err. */
static int with_value(const char *key, json_object *value, struct roce_error *err)
{
	struct roce_delta d;
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, NULL);
	roce_delta_free(&d);
	json_object *at = f;
	char path[64];
	snprintf(path, sizeof(path), "%s", key);
	/* "ports.0.counters.port_xmit_bytes": down the objects and arrays */
	for (char *k = strtok(path, "."), *next; k; k = next) {
		next = strtok(NULL, ".");
		if (!next) {
			json_object_object_add(at, k, value);
			break;
		}
		at = json_object_is_type(at, json_type_array) ? json_object_array_get_idx(at, (size_t)atoi(k))
		                                               : json_object_object_get(at, k);
		assert_non_null(at);
	}
	int rc = parse_text(json_object_to_json_string_ext(f, JSON_C_TO_STRING_PLAIN), err);
	json_object_put(f);
	return rc;
}

static json_object *verdicts(size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *v = json_object_new_object();
		char code[16];
		snprintf(code, sizeof(code), "c%zu", i);
		json_object_object_add(v, "code", json_object_new_string(code));
		json_object_object_add(v, "severity", json_object_new_string("info"));
		json_object_object_add(v, "subject", json_object_new_string("node"));
		json_object_object_add(v, "message", json_object_new_string("m"));
		json_object_object_add(v, "fix", json_object_new_string("f"));
		json_object_array_add(a, v);
	}
	return a;
}

/* What no epilog writes is refused, naming the key: every rate the printers
 * show divides by "seconds" ("seconds": 5e-324 made them infinite and the
 * HTML heat map index its levels with INT_MIN), a counter beyond what a
 * port counts, more verdicts than the rules give a node. */
static void t_implausible(void **state)
{
	(void)state;
	struct roce_error err;
	const double fine[] = { -1, 0, 0.001, 10, 3e8 }, wrong[] = { 5e-324, 0.0005, -2, -0.5, 1e9 };
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++)
		assert_int_equal(with_value("seconds", json_object_new_double(fine[i]), &err), 0);
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		assert_int_equal(with_value("seconds", json_object_new_double(wrong[i]), &err), -1);
		if (!strstr(err.msg, "\"seconds\" = ") || !strstr(err.msg, "is not what an epilog writes"))
			fail_msg("%g: %s", wrong[i], err.msg);
	}
	/* 10 s + a minute at twice 800 Gb/s: 2e11 B/s x 70 s */
	assert_int_equal(with_value("ports.0.counters.port_xmit_bytes", json_object_new_int64(14000000000000), &err), 0);
	assert_int_equal(with_value("ports.0.counters.port_xmit_bytes", json_object_new_int64(14000000000001), &err),
	                 -1);
	assert_string_equal(err.msg, "ports[0]: \"port_xmit_bytes\" = 14000000000001 is more than a port counts in 10 s");
	assert_int_equal(with_value("ports.0.counters.link_downed", json_object_new_int64(INT64_MAX), &err), -1);
	assert_non_null(strstr(err.msg, "\"link_downed\""));
	json_object *req = json_object_new_array();
	for (int q = 0; q < ROCE_PRIOS; q++)
		json_object_array_add(req, json_object_new_int64(q == 3 ? 20000000000000 : 0));
	assert_int_equal(with_value("ports.0.pfc.requests", req, &err), -1);
	assert_non_null(strstr(err.msg, "ports[0]: \"pfc requests\" = 20000000000000"));
	/* one port: the node rules, the port rules (PFC one per priority; counter_trend the last added),
	 * a user_override per NCCL variable, and the path probe's (one for the port, two for the node) */
	assert_int_equal(roce_verdicts_max(1) + ROCE_RANWITH_VARS + 1 + 2, 43);
	assert_int_equal(with_value("verdicts", verdicts(43), &err), 0);
	assert_int_equal(with_value("verdicts", verdicts(44), &err), -1);
	assert_string_equal(err.msg, "\"verdicts\": 44 for 1 port(s), more than an epilog writes (at most 43)");
}

/* Strings from a fragment are kept escaped: no terminal escape survives. */
static void t_escaped(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_fragment n;
	struct roce_error err;
	struct roce_fragment_meta m = fx_meta("n1");
	m.note = "\x1b[2Jcleared\n";
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, &m);
	assert_int_equal(fx_fragment_read_json(f, "4242", &n, &err), 0);
	assert_string_equal(n.note, "\\x1b[2Jcleared\\n");
	roce_fragment_free(&n);
	json_object_put(f);
	roce_delta_free(&d);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_fragment_schema),
		cmocka_unit_test(t_round_trip),
		cmocka_unit_test(t_trust),
		cmocka_unit_test(t_refused),
		cmocka_unit_test(t_implausible),
		cmocka_unit_test(t_escaped),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
