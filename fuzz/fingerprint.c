/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fingerprint - what srun reads from SharedDir and what slurmstepd reads
 * from ROCE_AGREEMENT, both hostile: the input holds fingerprint documents
 * separated by NUL bytes (a step's nodes, job 4242); each is parsed
 * strictly (lib/agree/fingerprint.c), the parsed ones are agreed on
 * (lib/agree/agree.c), the verdict encoded, decoded and applied on every node.
 * The last chunk is also decoded as a ROCE_AGREEMENT value.  Promises
 * checked: a parsed fingerprint writes back to one that parses the same;
 * what a node exports after the agreement is a subset of its own healthy
 * ports; every agreed rail fits a port on every node, no port two rails;
 * no line of what srun says is longer than a line may be, nor more than a
 * handful of lines for the nodes' problems, and each problem said is among
 * the keys the nodes are given.
 */
#include "config.h"
#include "fuzz.h"
#include "agree/agreed.h"
#include "agree/problems.h"

#define JOB "4242"
#define NODES_MAX 16

/* A port's probe as written back: the verdict, and how it failed. */
static bool same_probe(const struct roce_fp_probe_result *a, const struct roce_fp_probe_result *b)
{
	if (a->verdict != b->verdict)
		return false;
	if (a->verdict == ROCE_FP_PROBE_NONE || a->verdict == ROCE_FP_PROBE_OK)
		return true;
	return strcmp(a->peer, b->peer) == 0 && a->largest == b->largest && a->of == b->of && a->sent == b->sent &&
	       a->arrived == b->arrived;
}

static void check_round_trip(const struct roce_fingerprint *f)
{
	struct roce_fingerprint back;
	struct roce_error err;
	json_object *o = roce_fingerprint_to_json(f);
	FUZZ_CHECK(o, "no JSON for a parsed fingerprint");
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	FUZZ_CHECK(roce_fingerprint_parse(t, strlen(t), JOB, f->node[0] ? f->node : NULL, &back, &err) == 0,
	           "written back, refused: %s",
	           err.msg);
	FUZZ_CHECK(back.n_problems == f->n_problems && back.problems_more == f->problems_more &&
	                   memcmp(back.problems, f->problems, f->n_problems * sizeof(f->problems[0])) == 0,
	           "round trip changed the problems");
	FUZZ_CHECK(back.n_ports == f->n_ports && back.n_devices == f->n_devices && back.gid_index == f->gid_index &&
	                   back.traffic_class == f->traffic_class && back.trust == f->trust &&
	                   strcmp(back.driver, f->driver) == 0 && strcmp(back.resolves.peer, f->resolves.peer) == 0 &&
	                   strcmp(back.resolves.got, f->resolves.got) == 0,
	           "round trip changed the fingerprint");
	for (size_t i = 0; i < f->n_ports; i++)
		FUZZ_CHECK(strcmp(back.ports[i].rail, f->ports[i].rail) == 0 && back.ports[i].ecn_rp == f->ports[i].ecn_rp &&
		                   same_probe(&back.ports[i].probe, &f->ports[i].probe),
		           "round trip changed a port");
	json_object_put(o);
}

/* Every entry of the node's NCCL_IB_HCA is one of its own ports. */
static void check_apply(const struct roce_agreed *d, const struct roce_fingerprint *f)
{
	struct roce_plan plan = { .valid = true, .n_vars = 2 };
	char why[512], list[sizeof(plan.vars[0].value)];
	snprintf(plan.vars[0].name, sizeof(plan.vars[0].name), "NCCL_IB_HCA");
	snprintf(plan.vars[1].name, sizeof(plan.vars[1].name), "NCCL_SOCKET_IFNAME");
	(void)roce_agreed_apply(d, f, &plan, why, sizeof(why));
	if (!plan.valid)
		return;
	snprintf(list, sizeof(list), "%s", plan.vars[0].value + (plan.vars[0].value[0] == '=' ? 1 : 0));
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':');
		if (!colon)
			continue;   /* the value before the agreement (empty here) */
		*colon = '\0';
		FUZZ_CHECK(roce_fingerprint_port(f, tok, (unsigned)atoi(colon + 1)), "%s added a port it does not have",
		           f->node);
	}
}

/* The nodes' problems said once: a handful of short lines, every problem
 * of every node among the keys (unless they overflowed). */
static void say_problems(const struct roce_fingerprint *const *fps, const char *const *names, size_t n)
{
	struct roce_lines lines = { 0 };
	struct roce_problem_keys keys;
	char text[ROCE_SAID_ENV_MAX];
	FUZZ_CHECK(roce_problems_say(fps, names, n, roce_nodelist_ranged, &lines, &keys) == 0, "problems not said");
	FUZZ_CHECK(lines.n <= ROCE_PROBLEM_LINES + 1, "%zu lines for the problems", lines.n);
	for (size_t l = 0; l < lines.n; l++)
		FUZZ_CHECK(strlen(lines.line[l].text) < ROCE_LINE_MAX, "a problem line too long");
	if (keys.overflow || !roce_problem_keys_format(&keys, text, sizeof(text)))
		return;
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; fps[i] && p < fps[i]->n_problems; p++)
			FUZZ_CHECK(roce_problem_keys_have(text, roce_brief_key(&fps[i]->problems[p])), "a problem not keyed");
}

static void agree_on(struct roce_fingerprint *fp, bool *ok, size_t n)
{
	const struct roce_fingerprint *fps[NODES_MAX];
	const char *names[NODES_MAX];
	char alt[NODES_MAX][8];
	struct roce_agreement a;
	struct roce_agreed d;
	struct roce_error err;
	char env[ROCE_AGREE_ENV_MAX];
	for (size_t i = 0; i < n; i++) {
		snprintf(alt[i], sizeof(alt[i]), "n%zu", i);
		fps[i] = ok[i] ? &fp[i] : NULL;
		names[i] = ok[i] ? fp[i].node : alt[i];
	}
	FUZZ_CHECK(roce_agree(fps, names, n, roce_nodelist_ranged, NULL, &a) == 0, "agreement failed");
	/* every agreed rail has a port on every node checked, no port on two rails */
	for (size_t i = 0; i < n; i++) {
		int port_of[ROCE_FP_PORTS_MAX];
		if (!fps[i] || fps[i]->verdict == ROCE_FP_UNCHECKED)
			continue;
		roce_rails_fit(&a.ref, fps[i], port_of);
		for (size_t k = 0; k < a.n_rails; k++)
			FUZZ_CHECK(port_of[a.rails[k].col] >= 0 && (size_t)port_of[a.rails[k].col] < fps[i]->n_ports,
			           "agreed rail %s not on %s", a.ref.key[a.rails[k].col], names[i]);
		for (size_t k = 0; k < a.ref.n; k++)
			for (size_t k2 = k + 1; k2 < a.ref.n; k2++)
				FUZZ_CHECK(port_of[k] < 0 || port_of[k] != port_of[k2], "a port on two rails on %s", names[i]);
	}
	for (size_t l = 0; l < a.lines.n; l++)
		FUZZ_CHECK(strlen(a.lines.line[l].text) < ROCE_LINE_MAX, "a line too long");
	say_problems(fps, names, n);
	for (int strict = 0; strict < 2; strict++) {
		enum roce_agree_verdict v = roce_agree_verdict(&a, strict);
		if (roce_agreed_encode(&a, v, "4242.0", env, sizeof(env)) < 0)
			continue;
		FUZZ_CHECK(roce_agreed_decode(env, &d, &err) == 0, "own value refused: %s", env);
		for (size_t i = 0; i < n; i++)
			if (fps[i])
				check_apply(&d, fps[i]);
	}
	roce_agree_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct roce_fingerprint fp[NODES_MAX];
	bool ok[NODES_MAX] = { false };
	struct roce_error err;
	struct roce_agreed d;
	size_t n = 0, off = 0, last = 0;
	if (size > 1 << 18)
		return 0;
	while (off < size && n < NODES_MAX) {
		const uint8_t *nul = memchr(data + off, '\0', size - off);
		size_t len = nul ? (size_t)(nul - data) - off : size - off;
		err.msg[0] = '\0';
		ok[n] = roce_fingerprint_parse((const char *)data + off, len, JOB, NULL, &fp[n], &err) == 0;
		FUZZ_CHECK(ok[n] || err.msg[0], "refused without a reason");
		if (ok[n])
			check_round_trip(&fp[n]);
		last = off;
		off += len + 1;
		n++;
	}
	if (n)
		agree_on(fp, ok, n);
	/* the last chunk as the step's variable */
	char env[ROCE_AGREE_ENV_MAX + 16];
	size_t l = size - last < sizeof(env) - 1 ? size - last : sizeof(env) - 1;
	memcpy(env, data + last, l);
	env[l] = '\0';
	if (roce_agreed_decode(env, &d, &err) == 0) {
		FUZZ_CHECK(d.n_rails <= ROCE_FP_PORTS_MAX && d.ref.n <= ROCE_FP_PORTS_MAX, "too many rails decoded");
		for (size_t k = 0; k < d.ref.n; k++)
			FUZZ_CHECK(roce_rails_key_ok(d.ref.key[k]), "decoded a bad rail");
		for (size_t k = 0; k < d.n_rails; k++)
			FUZZ_CHECK(d.rails[k].col >= 0 && (size_t)d.rails[k].col < d.ref.n, "decoded a rail out of range");
		for (size_t i = 0; i < n; i++)
			if (ok[i])
				check_apply(&d, &fp[i]);
	}
	return 0;
}
