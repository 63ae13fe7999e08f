/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snapshot - counter snapshots left in StateDir by the prolog and read back
 * by the epilog: JSON text -> json-c -> roce_snapshot_json_parse().  An
 * accepted snapshot must serialise back to JSON that parses to the same
 * snapshot (round trip), and its delta against itself must be computable.
 */
#include "config.h"
#include "fuzz.h"
#include "pipeline/delta.h"

static json_object *parse(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	if (!tok)
		return NULL;
	json_object *o = json_tokener_parse_ex(tok, text, (int)len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success || (size_t)tok->char_offset != len)) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

static bool has_duplicate_port(const struct roce_snapshot *s)
{
	for (size_t i = 0; i < s->n_ports; i++)
		for (size_t j = 0; j < i; j++)
			if (s->ports[i].port == s->ports[j].port && !strcmp(s->ports[i].device, s->ports[j].device))
				return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_snapshot s, back;
	struct roce_error err = { "" };
	if (size > 1 << 20)
		return 0;
	json_object *o = parse((const char *)data, size);
	if (!o)
		return 0;
	roce_snapshot_init(&s);
	roce_snapshot_init(&back);
	if (roce_snapshot_json_parse(&s, o, &err) < 0) {
		FUZZ_CHECK(err.msg[0] && memchr(err.msg, '\0', sizeof(err.msg)), "failure without a reason");
		goto out;
	}
	json_object *again = roce_snapshot_json_build(&s);
	FUZZ_CHECK(again, "accepted snapshot does not serialise");
	const char *text1 = json_object_to_json_string_ext(again, JSON_C_TO_STRING_PLAIN);
	json_object *reparsed = parse(text1, strlen(text1));
	FUZZ_CHECK(reparsed, "serialised snapshot is not JSON: %s", text1);
	FUZZ_CHECK(roce_snapshot_json_parse(&back, reparsed, &err) == 0, "round trip refused: %s", err.msg);
	json_object *third = roce_snapshot_json_build(&back);
	FUZZ_CHECK(!strcmp(text1, json_object_to_json_string_ext(third, JSON_C_TO_STRING_PLAIN)), "round trip changed the snapshot");
	struct roce_delta d;
	memset(&d, 0, sizeof(d));
	/* Finding 3 (fixed): two ports with the same device and number were
	 * accepted and the delta paired them crosswise; the parser refuses them now. */
	FUZZ_CHECK(!has_duplicate_port(&s), "accepted a snapshot with a duplicate port");
	if (roce_delta_compute(&s, &back, &d) == 0) {
		FUZZ_CHECK(d.n_ports == s.n_ports, "delta of %zu ports from %zu", d.n_ports, s.n_ports);
		for (size_t i = 0; i < d.n_ports; i++)
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				FUZZ_CHECK(d.ports[i].c[c].status == ROCE_DELTA_UNREAD || d.ports[i].c[c].value == 0 ||
				           d.ports[i].c[c].status == ROCE_DELTA_SATURATED,
				           "delta of a snapshot with itself: port %zu counter %d = %llu (%s)", i, c,
				           (unsigned long long)d.ports[i].c[c].value, roce_delta_status_name(d.ports[i].c[c].status));
		roce_delta_free(&d);
	}
	json_object_put(third);
	json_object_put(reparsed);
	json_object_put(again);
out:
	roce_snapshot_free(&s);
	roce_snapshot_free(&back);
	json_object_put(o);
	return 0;
}
