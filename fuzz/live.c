/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live - a running job's live files (ReportDir/<job>/<node>.live), written by
 * each node's health check and read by roce-report --live: JSON text ->
 * roce_live_json_read(), the strict reader, then every output format of the
 * live view.  The input may hold several files separated by NUL bytes (the
 * nodes of one job).  An accepted file must write back to text that reads
 * back to the same numbers (round trip), keep every string printable and
 * every event code one of ours, within the bounds; the JSON view must be
 * valid JSON.
 */
#include "config.h"
#include "fuzz.h"
#include "base/printable.h"
#include "fragment/live.h"
#include "report/livereport.h"
#include "report/livereport_json.h"
#include "report/livereport_prometheus.h"
#include "report/livereport_text.h"

/* What the reader keeps is escaped: printable ASCII only. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

static void check_strings(const struct roce_live *l)
{
	for (size_t i = 0; i < l->n_ports; i++) {
		const struct roce_live_port *p = &l->ports[i];
		FUZZ_CHECK(printable(p->device) && printable(p->netdev) && printable(p->state_start) &&
		                   printable(p->state_now) && printable(p->gid_addr_start) && printable(p->gid_addr_now),
		           "a port's string kept unescaped");
	}
	for (size_t i = 0; i < l->n_events; i++)
		FUZZ_CHECK(printable(l->events[i].subject) && printable(l->events[i].message) &&
		                   roce_live_event_severity(l->events[i].code) >= 0 &&
		                   l->events[i].first_ns <= l->events[i].last_ns,
		           "an event kept unescaped, of an unknown code or out of order");
	FUZZ_CHECK(l->n_ports <= ROCE_LIVE_PORTS_MAX && l->n_events <= ROCE_LIVE_EVENTS_MAX, "bounds");
}

/* Written back and read again: the same numbers.  (Not the same text: a
 * kept string is escaped, and escaping an escaped backslash again doubles
 * it, as for fragments.) */
static void round_trip(const struct roce_live *l)
{
	struct roce_live back;
	struct roce_error err = { "" };
	json_object *o = roce_live_json_build(l);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	FUZZ_CHECK(text && roce_live_json_read(&back, text, strlen(text), &err) == 0, "its own text refused: %s",
	           err.msg);
	FUZZ_CHECK(back.n_ports == l->n_ports && back.n_events == l->n_events && back.now_ns == l->now_ns &&
	                   back.start_ns == l->start_ns && back.samples == l->samples && back.job_uid == l->job_uid,
	           "read back, not the same sample");
	for (size_t i = 0; i < l->n_ports; i++) {
		const struct roce_live_port *x = &l->ports[i], *y = &back.ports[i];
		FUZZ_CHECK(x->port == y->port && x->presence == y->presence && x->gid_index_now == y->gid_index_now &&
		                   x->gid_index_start == y->gid_index_start &&
		                   !memcmp(&x->since_start, &y->since_start, sizeof(x->since_start)) &&
		                   !memcmp(&x->since_last, &y->since_last, sizeof(x->since_last)),
		           "port %zu read back with other numbers", i);
	}
	for (size_t i = 0; i < l->n_events; i++)
		FUZZ_CHECK(l->events[i].first_ns == back.events[i].first_ns &&
		                   l->events[i].last_ns == back.events[i].last_ns &&
		                   !strcmp(l->events[i].code, back.events[i].code),
		           "event %zu read back otherwise", i);
	json_object_put(o);
	roce_live_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct roce_livereport r;
	if (size > 1 << 20)
		return 0;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	roce_livereport_init(&r, "4711");
	r.now_ns = 1700000600000000000LL;
	for (size_t off = 0; off < size;) {
		const uint8_t *nul = memchr(data + off, '\0', size - off);
		size_t len = nul ? (size_t)(nul - data) - off : size - off;
		struct roce_live l;
		struct roce_error err = { "" };
		if (roce_live_json_read(&l, (const char *)data + off, len, &err) < 0) {
			FUZZ_CHECK(err.msg[0] && !l.ports && !l.events, "refused without a reason, or not emptied");
		} else {
			check_strings(&l);
			round_trip(&l);
			struct roce_live *grown = realloc(r.nodes, (r.n_nodes + 1) * sizeof(*grown));
			if (!grown)
				abort();
			r.nodes = grown;
			r.nodes[r.n_nodes++] = l;
		}
		off += len + 1;
	}
	roce_livereport_text_print(null, &r);
	roce_livereport_prometheus_print(null, &r);
	char *text = NULL;
	size_t tlen = 0;
	FILE *mem = open_memstream(&text, &tlen);
	if (mem) {
		roce_livereport_json_print(mem, &r);
		fclose(mem);
		json_object *back = json_tokener_parse(text);
		FUZZ_CHECK(back || tlen == 0, "the JSON view does not parse: %.200s", text);
		json_object_put(back);
		free(text);
	}
	roce_livereport_free(&r);
	return 0;
}
