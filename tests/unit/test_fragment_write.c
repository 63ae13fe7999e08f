/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fragment_write.c - the fragment writer against json-c itself: for
 * hostile strings, unread counters, PFC read and unread, every optional
 * member present and absent and awkward doubles, the writer's text is
 * exactly what json-c writes for the same document (its parse written
 * again with JSON_C_TO_STRING_PLAIN, the double written by
 * json_object_new_double's own serializer), and the text reads back
 * (roce_fragment_read) to the same fragment; the epilog's fragment, built
 * and written once, is the bytes its old tree path wrote.  CI runs this on
 * each Debian release's json-c, so a change in json-c's output shows up here.
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "fragment/fragment.h"
#include "fragment/fragment_read.h"
#include "base/printable.h"

static char all_controls[32], quotes[16], high[8], kilo[1025];

static void strings_init(void)
{
	for (int i = 1; i < 32; i++)
		all_controls[i - 1] = (char)i;                       /* 0x01-0x1f */
	strcpy(quotes, "\"q\\/b/\x7f</x>");                  /* " \ / DEL */
	strcpy(high, "\xc3\x28\xff\xe2\x82");                /* invalid UTF-8 */
	for (size_t i = 0; i < sizeof(kilo) - 1; i++)
		kilo[i] = (char)(i % 7 == 0 ? '/' : i % 5 == 0 ? '\n' : 'a' + i % 26);
}

/* Writer's text == json-c's for the same document; returns the text (malloc'd). */
static char *written(const struct roce_fragment *f, bool with_schema)
{
	struct roce_fragment_text t = { 0 };
	assert_int_equal(roce_fragment_write(&t, f, "4242", with_schema), 0);
	assert_int_equal(strlen(t.s), t.len);
	json_object *o = json_tokener_parse(t.s);
	assert_non_null(o);
	/* the parse keeps a double's text: write "seconds" by json-c's own format */
	json_object_object_add(o, "seconds", json_object_new_double(f->seconds));
	const char *again = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (strcmp(again, t.s) != 0) {
		size_t i = 0;
		while (again[i] && again[i] == t.s[i])
			i++;
		fail_msg("writer and json-c differ at byte %zu:\nwriter: %.80s\njson-c: %.80s", i, t.s + i, again + i);
	}
	json_object_put(o);
	return t.s;
}

static void same_str(const char *orig, const char *got)
{
	if (!orig) {
		assert_null(got);
		return;
	}
	char *want = roce_printable_dup(orig);   /* the reader escapes every string it keeps */
	assert_non_null(got);
	assert_string_equal(got, want);
	free(want);
}

static void same_port(const struct roce_fragment_port *a, const struct roce_fragment_port *b)
{
	same_str(a->device, b->device);
	same_str(a->netdev, b->netdev);
	assert_int_equal(a->port, b->port);
	assert_int_equal(a->presence, b->presence);
	assert_int_equal(a->reset, b->reset);
	assert_int_equal(a->gid_index, b->gid_index);
	assert_int_equal(a->active_mtu, b->active_mtu);
	assert_int_equal(a->netdev_mtu, b->netdev_mtu);
	assert_int_equal(a->rate_mbps, b->rate_mbps);
	same_str(a->fw_ver, b->fw_ver);
	same_str(a->state_start, b->state_start);
	same_str(a->state_end, b->state_end);
	assert_int_equal(a->check, b->check);
	same_str(a->check < 0 ? NULL : a->check_why, b->check_why);
	assert_int_equal(a->pfc_status, b->pfc_status);
	if (a->pfc_status == ROCE_DELTA_UNREAD) {
		same_str(a->pfc_why ? a->pfc_why : "", b->pfc_why);
	} else {
		assert_int_equal(a->pfc_enabled, b->pfc_enabled);
		assert_memory_equal(a->pfc_req, b->pfc_req, sizeof(a->pfc_req));
		assert_memory_equal(a->pfc_ind, b->pfc_ind, sizeof(a->pfc_ind));
	}
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		assert_int_equal(a->cs[i], b->cs[i]);
		if (a->cs[i] == ROCE_DELTA_UNREAD)
			same_str(a->why ? a->why[i] : NULL, b->why ? b->why[i] : NULL);
		else
			assert_true(a->c[i] == b->c[i]);
	}
}

/* f written with the schema, read back by the merge's reader: the same fragment. */
static void reads_back(const struct roce_fragment *f)
{
	char *text = written(f, true);
	struct roce_fragment g;
	struct roce_error err;
	if (roce_fragment_read(NULL, text, strlen(text), "4242", &g, &err) != 0)
		fail_msg("read back: %s", err.msg);
	same_str(f->name, g.name);
	assert_int_equal(f->uid, g.uid);
	assert_true(f->start_ns == g.start_ns && f->end_ns == g.end_ns);
	assert_memory_equal(&f->seconds, &g.seconds, sizeof(double));   /* "%.17g" round-trips exactly */
	assert_int_equal(f->n_shared, g.n_shared);
	for (size_t i = 0; i < f->n_shared; i++)
		assert_string_equal(f->shared[i], g.shared[i]);
	assert_int_equal(f->gid_index, g.gid_index);
	assert_int_equal(f->traffic_class, g.traffic_class);
	assert_int_equal(f->pfc_priority, g.pfc_priority);
	assert_int_equal(f->trust, g.trust);
	same_str(f->note, g.note);
	assert_int_equal(f->check, g.check);
	same_str(f->check < 0 ? NULL : f->check_why, g.check_why);
	assert_int_equal(f->n_ports, g.n_ports);
	for (size_t i = 0; i < f->n_ports; i++)
		same_port(&f->ports[i], &g.ports[i]);
	assert_int_equal(f->n_verdicts, g.n_verdicts);
	for (size_t i = 0; i < f->n_verdicts; i++) {
		same_str(f->verdicts[i].code, g.verdicts[i].code);
		same_str(f->verdicts[i].subject, g.verdicts[i].subject);
		same_str(f->verdicts[i].message, g.verdicts[i].message);
		same_str(f->verdicts[i].fix, g.verdicts[i].fix);
		assert_int_equal(f->verdicts[i].severity, g.verdicts[i].severity);
	}
	assert_int_equal(f->ran_with != NULL, g.ran_with != NULL);
	for (size_t i = 0; f->ran_with && i < f->ran_with->n; i++) {
		same_str(f->ran_with->v[i].value, g.ran_with->v[i].value);
		assert_int_equal(f->ran_with->v[i].user, g.ran_with->v[i].user);
	}
	roce_fragment_free(&g);
	free(text);
	free(written(f, false));   /* the report's nodes[] form, too */
}

static char *why_storage[ROCE_N_COUNTERS];

/* Port i: even ports bare (nothing optional, every counter read, PFC read),
 * odd ones everything optional with hostile text, unread counters and PFC. */
static void port_init(struct roce_fragment_port *p, int i)
{
	memset(p, 0, sizeof(*p));
	p->device = i % 2 ? quotes : "mlx5_0";
	p->netdev = i % 2 ? "e\x01\"/\\\x1f\x7f\xff" : "eth0";   /* IFNAMSIZ */
	p->port = 1 + (unsigned)i;
	p->presence = (uint8_t)(i % 3);
	p->reset = i % 2;
	p->gid_index = i % 2 ? -1 : 3;
	p->active_mtu = 4096;
	p->netdev_mtu = 9000;
	p->check = -1;
	for (int k = 0; k < ROCE_N_COUNTERS; k++)
		p->c[k] = (uint64_t)k * 1000003u;
	p->c[0] = UINT64_MAX;
	p->c[1] = (uint64_t)INT64_MAX + 1;
	p->pfc_enabled = 0x88;
	for (int k = 0; k < ROCE_PRIOS; k++)
		p->pfc_req[k] = p->pfc_ind[k] = (uint64_t)k << 40;
	if (i % 2 == 0)
		return;
	p->rate_mbps = 400000;
	p->fw_ver = high;
	p->state_start = "DOWN";
	p->state_end = quotes;
	p->check = ROCE_FAIL;
	p->check_why = all_controls;
	p->pfc_status = ROCE_DELTA_UNREAD;
	p->pfc_why = all_controls;
	p->why = why_storage;
	p->cs[2] = ROCE_DELTA_UNREAD;
	why_storage[2] = kilo;
	p->cs[3] = ROCE_DELTA_UNREAD;              /* unread with no reason: null, no counter_why */
	p->cs[4] = ROCE_DELTA_WRAPPED;
	p->cs[5] = ROCE_DELTA_RESET;
}

static void t_hostile(void **state)
{
	(void)state;
	struct roce_fragment_port ports[4];
	struct roce_fragment_verdict v[2] = {
		{ "loss", quotes, all_controls, high, ROCE_SEV_FAIL },
		{ "ok", "n1", kilo + 1, "", ROCE_SEV_INFO }, /* message: at most 1023 bytes */
	};
	char *shared[] = { "4243", "1" };
	struct roce_ranwith rw = { 0 };
	roce_ranwith_set(&rw, "NCCL_IB_HCA", quotes, "mlx5_0", true);
	roce_ranwith_set(&rw, "NCCL_IB_GID_INDEX", "3", all_controls, false);
	strings_init();
	for (int i = 0; i < 4; i++)
		port_init(&ports[i], i);
	struct roce_fragment f = {
		.name = "n1", .uid = 1000, .start_ns = 1, .end_ns = INT64_MAX, .seconds = 123456789.123,
		.shared = shared, .n_shared = 2, .gid_index = 3, .traffic_class = -1, .pfc_priority = 3,
		.trust = ROCE_TRUST_DSCP, .note = kilo, .check = ROCE_WARN, .check_why = all_controls,
		.ports = ports, .n_ports = 4, .verdicts = v, .n_verdicts = 2, .ran_with = &rw,
	};
	reads_back(&f);
	/* every optional member absent, nothing in the lists */
	struct roce_fragment bare = { .name = "n-2.x", .uid = 0, .seconds = 0, .traffic_class = 106,
		                      .trust = ROCE_TRUST_UNKNOWN, .check = -1, .check_why = "not written" };
	reads_back(&bare);
	bare.ports = ports;
	bare.n_ports = 1;
	reads_back(&bare);
}

static void t_doubles(void **state)
{
	(void)state;
	const double d[] = { 0, 1, 0.1, 1e-7, 1e21, 123456789.123, 10, 1e16, 1e17, 0.056330059, 2.5e-310,
		             1.7976931348623157e308, 4294967296.0, 3.0 / 7, -1, 0.001 };
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		struct roce_fragment f = { .name = "n1", .seconds = d[i], .check = -1 };
		/* what an epilog writes reads back; the rest is written as json-c
		 * writes it (the JSON report) and refused by the reader, naming it */
		if (d[i] == -1 || d[i] == 0 || (d[i] >= 0.001 && d[i] <= 10 * 365.25 * 86400)) {
			reads_back(&f);
			continue;
		}
		char *text = written(&f, true);
		struct roce_fragment g;
		struct roce_error err;
		assert_int_equal(roce_fragment_read(NULL, text, strlen(text), "4242", &g, &err), -1);
		assert_non_null(strstr(err.msg, "\"seconds\" = "));
		free(text);
	}
}

/* The epilog's fragment, built with ran_with and written once, is byte for
 * byte what it wrote before it went straight: the fragment without ran_with
 * as a json-c tree (the writer's text parsed), "ran_with" added to the tree
 * and the tree written by json-c. */
static void t_built(void **state)
{
	(void)state;
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	struct roce_ranwith rw = { .n = 0 };
	const char *shared[] = { "4243", "17" };
	strings_init();
	fx_delta(&d, 3, 12.5);
	d.trust = ROCE_TRUST_DSCP;
	d.ports[0].c[ROCE_C_PACKET_SEQ_ERR].value = 3;
	d.ports[1].presence = ROCE_PORT_VANISHED;
	d.ports[1].pfc_status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[1].pfc_why, sizeof(d.ports[1].pfc_why), "%s", all_controls);
	d.ports[2].c[ROCE_C_NP_CNP_SENT].status = ROCE_DELTA_UNREAD;
	snprintf(d.ports[2].c[ROCE_C_NP_CNP_SENT].why, ROCE_WHY_MAX, "%s", quotes);
	snprintf(d.ports[2].fw_ver, sizeof(d.ports[2].fw_ver), "%s", high);
	struct roce_fragment_meta m = fx_meta("n1");
	m.shared_with = shared;
	m.n_shared = 2;
	m.note = quotes;
	roce_ranwith_set(&rw, "NCCL_IB_HCA", quotes, "=mlx5_0:1", true);
	roce_ranwith_set(&rw, "NCCL_IB_GID_INDEX", "3", "3", false);
	assert_int_equal(roce_verdicts_from_delta(&d, &m, &v), 0);
	assert_int_equal(roce_ranwith_verdicts(&rw, &v), 0);
	for (int with = 0; with < 2; with++) {
		struct roce_fragment f, bare;
		struct roce_fragment_text t = { 0 }, t_bare = { 0 };
		const struct roce_ranwith *r = with ? &rw : NULL;
		assert_int_equal(roce_fragment_build(&f, &m, &d, &v, r), 0);
		assert_int_equal(roce_fragment_build(&bare, &m, &d, &v, NULL), 0);
		assert_int_equal(roce_fragment_write(&t, &f, m.job_id, true), 0);
		assert_int_equal(roce_fragment_write(&t_bare, &bare, m.job_id, true), 0);
		json_object *o = json_tokener_parse(t_bare.s);
		assert_non_null(o);
		if (r)
			json_object_object_add(o, "ran_with", roce_ranwith_to_json(r));
		assert_string_equal(t.s, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		assert_int_equal(f.ran_with != NULL, with);
		json_object_put(o);
		reads_back(&f);
		roce_fragment_write_free(&t);
		roce_fragment_write_free(&t_bare);
		roce_fragment_free(&f);
		roce_fragment_free(&bare);
	}
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
}

/* Out of memory half-way is not reached here; a reused buffer keeps the earlier text. */
static void t_appends(void **state)
{
	(void)state;
	struct roce_fragment_text t = { 0 };
	struct roce_fragment a = { .name = "a", .check = -1 }, b = { .name = "b", .check = -1 };
	assert_int_equal(roce_fragment_write(&t, &a, "7", false), 0);
	size_t first = t.len;
	assert_int_equal(roce_fragment_write(&t, &b, "7", false), 0);
	assert_memory_equal(t.s, t.s + first, 10);   /* {"job_id": */
	assert_non_null(strstr(t.s + first, "\"name\":\"b\""));
	assert_null(strstr(t.s + first, "\"name\":\"a\""));
	roce_fragment_write_free(&t);
	assert_null(t.s);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_hostile),
		cmocka_unit_test(t_doubles),
		cmocka_unit_test(t_built),
		cmocka_unit_test(t_appends),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
