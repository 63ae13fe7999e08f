/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probeagree.c - a rail whose path probe failed anywhere is left out everywhere, named. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "agree/probeagree.h"
#include "agree/rails.h"

void roce_probeagree_words(const struct roce_fp_probe_result *r, char *buf, size_t len)
{
	switch (r->verdict) {
	case ROCE_FP_PROBE_NO_ANSWER: snprintf(buf, len, "no answer"); break;
	case ROCE_FP_PROBE_SIZE: snprintf(buf, len, "largest size that passed %u of %u", r->largest, r->of); break;
	case ROCE_FP_PROBE_DSCP:
		if (r->arrived < 0)
			snprintf(buf, len, "DSCP %d sent, the one that arrived was not read", r->sent);
		else
			snprintf(buf, len, "DSCP %d sent, %d arrived", r->sent, r->arrived);
		break;
	case ROCE_FP_PROBE_LOCAL:
		snprintf(buf, len, "not probed (no probe file from it in time, or no send: the prolog's log says)");
		break;
	default: snprintf(buf, len, "ok");
	}
}

/* A path that failed; a rail not probed (LOCAL: the neighbour's file never
 * came, this node could not send) is no path failure, only said. */
static bool failed(const struct roce_fp_port *p)
{
	return p->probe.verdict != ROCE_FP_PROBE_NONE && p->probe.verdict != ROCE_FP_PROBE_OK &&
	       p->probe.verdict != ROCE_FP_PROBE_LOCAL;
}

static bool any_said(const struct roce_fingerprint *f)
{
	for (size_t i = 0; i < f->n_ports; i++)
		if (f->ports[i].probe.verdict > ROCE_FP_PROBE_OK)
			return true;
	return false;
}

/* One line: "path NODE -> PEER on RAIL: WORDS"; TRIM for a failure. */
static void say(struct roce_lines *lines, const char *node, const struct roce_fp_port *p, const char *rail)
{
	struct roce_line_build b;
	char words[96];
	roce_probeagree_words(&p->probe, words, sizeof(words));
	roce_lines_start(&b, "path %.64s -> %.64s on %s: %s", node, p->probe.peer, rail, words);
	roce_lines_end(lines, failed(p) ? ROCE_LINE_TRIM : ROCE_LINE_SHOULD, &b);
}

void roce_probeagree_names(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n,
                           struct roce_lines *lines)
{
	for (size_t i = 0; i < n; i++) {
		struct roce_line_build b;
		if (!fps[i] || !fps[i]->resolves.peer[0])
			continue;
		roce_lines_start(&b, "%.64s resolves %.64s to %s, not an address %.64s has (/etc/hosts or DNS)", nodes[i],
		                 fps[i]->resolves.peer, fps[i]->resolves.got, fps[i]->resolves.peer);
		roce_lines_end(lines, ROCE_LINE_SHOULD, &b);
	}
}

size_t roce_probeagree_failed(const struct roce_rails *ref, const bool *agreed,
                              const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n,
                              struct roce_lines *lines, bool drop[ROCE_FP_PORTS_MAX])
{
	size_t dropped = 0;
	memset(drop, 0, ROCE_FP_PORTS_MAX * sizeof(drop[0]));
	roce_probeagree_names(fps, nodes, n, lines);
	for (size_t i = 0; i < n; i++) {
		int port_of[ROCE_FP_PORTS_MAX];
		if (!fps[i] || !any_said(fps[i]))
			continue; /* the common case: no fit needed */
		roce_rails_fit(ref, fps[i], port_of);
		for (size_t c = 0; c < ref->n; c++) {
			int pi = port_of[c];
			if (!agreed[c] || pi < 0 || fps[i]->ports[pi].probe.verdict <= ROCE_FP_PROBE_OK)
				continue;
			say(lines, nodes[i], &fps[i]->ports[pi], ref->key[c]);
			if (!failed(&fps[i]->ports[pi]))
				continue;
			dropped += !drop[c];
			drop[c] = true;
		}
	}
	return dropped;
}
