/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trend.c - link-quality counters between health checks (trend.h).  Pure. */
#include "config.h"
#include "pipeline/trend.h"
#include "check/check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void roce_trend_init(struct roce_trend *t) { memset(t, 0, sizeof(*t)); }

void roce_trend_free(struct roce_trend *t)
{
	free(t->ports);
	roce_trend_init(t);
}

const struct roce_trend_port *roce_trend_port_find(const struct roce_trend *t, const char *device, unsigned port)
{
	for (size_t i = 0; t && i < t->n_ports; i++)
		if (t->ports[i].port == port && strcmp(t->ports[i].device, device) == 0)
			return &t->ports[i];
	return NULL;
}

/* One counter: c holds the previous state on entry, the next on return. */
static void advance(struct roce_trend_counter *c, const struct roce_counter_sample *s, int64_t now_s, int64_t window_s)
{
	uint64_t grew = 0;

	if (!roce_reading_ok(&s->read))
		return; /* not read now: nothing to judge, the baseline stays */
	if (c->known && s->value > c->value)
		grew = s->value - c->value;
	/* A value below the baseline is a wrap or a reset: the new baseline, no growth. */
	c->value = s->value;
	c->known = true;
	if (grew) {
		/* Growth after a quiet window starts a new episode. */
		if (c->last_growth_s && now_s - c->last_growth_s >= window_s)
			c->growth = 0;
		c->growth = c->growth + grew < c->growth ? UINT64_MAX : c->growth + grew;
		c->last_growth_s = now_s;
	} else if (c->last_growth_s && now_s - c->last_growth_s >= window_s) {
		/* Quiet for the whole window: the flap has settled. */
		c->growth = 0;
		c->last_growth_s = 0;
	}
}

int roce_trend_update(const struct roce_trend *prev, const struct roce_snapshot *now, int64_t now_s,
                      const struct roce_trend_rules *rules, struct roce_trend *next)
{
	roce_trend_init(next);
	next->time_s = now_s;
	if (now->n_ports == 0)
		return 0;
	next->ports = calloc(now->n_ports, sizeof(*next->ports));
	if (!next->ports)
		return -1;
	for (size_t i = 0; i < now->n_ports; i++) {
		const struct roce_port_sample *ps = &now->ports[i];
		const struct roce_trend_port *old = roce_trend_port_find(prev, ps->device, ps->port);
		struct roce_trend_port *p = &next->ports[next->n_ports++];
		snprintf(p->device, sizeof(p->device), "%s", ps->device);
		p->port = ps->port;
		for (int c = 0; c < ROCE_N_COUNTERS; c++) {
			if (!rules->threshold[c])
				continue;
			if (old)
				p->c[c] = old->c[c];
			advance(&p->c[c], &ps->c[c], now_s, rules->window_s);
		}
	}
	return 0;
}

uint64_t roce_trend_sick_growth(const struct roce_trend_counter *c, uint64_t threshold)
{
	return threshold && c->last_growth_s && c->growth >= threshold ? c->growth : 0;
}

uint64_t roce_trend_sick_at(const struct roce_trend_counter *c, uint64_t threshold, int64_t at_s, int64_t window_s)
{
	uint64_t g = roce_trend_sick_growth(c, threshold);
	return g && at_s - c->last_growth_s < window_s ? g : 0;
}

struct roce_trend_rules roce_trend_rules_of(const struct roce_policy *p)
{
	return (struct roce_trend_rules){ p->trend_threshold, p->trend_window_s };
}

/* "symbol_error +120 (threshold 10), link_downed +2 (threshold 1)" and the
 * first counter's short drain text. */
static size_t sick_list(const struct roce_trend_port *tp, const struct roce_policy *p, char *buf, size_t len,
                        char *first, size_t first_len)
{
	size_t n = 0, used = 0;
	buf[0] = first[0] = '\0';
	for (int c = 0; c < ROCE_N_COUNTERS; c++) {
		uint64_t g = roce_trend_sick_growth(&tp->c[c], p->trend_threshold[c]);
		if (!g)
			continue;
		if (!n++)
			snprintf(first, first_len, "%.16s port %u %.24s +%" PRIu64, tp->device, tp->port,
			         roce_counter_defs[c].name, g);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s +%" PRIu64 " (threshold %" PRIu64 ")",
			                         n > 1 ? ", " : "", roce_counter_defs[c].name, g,
			                         p->trend_threshold[c]);
	}
	return n;
}

int roce_trend_findings(const struct roce_trend *t, const struct roce_policy *p, struct roce_check_result *r)
{
	bool fail = p->trend == ROCE_ACTION_FAIL;
	char list[384], reason[128];

	if (p->trend == ROCE_ACTION_IGNORE)
		return 0;
	for (size_t i = 0; i < t->n_ports; i++) {
		const struct roce_trend_port *tp = &t->ports[i];
		if (!sick_list(tp, p, list, sizeof(list), reason, sizeof(reason)))
			continue;
		/* Slurm's reason is short: the first counter (finding.h keeps 63 bytes) */
		reason[60] = 0;
		if (roce_finding_addf(r, "counter_trend", tp->device, tp->port, fail ? ROCE_FAIL : ROCE_WARN, "grew",
		                      fail ? ROCE_FINDING_HARDWARE : 0, fail ? reason : NULL,
		                      "%s port %u: link-quality counters grew between health checks within %d s: %s: "
		                      "%s; it clears after %d s without growth",
		                      tp->device, tp->port, p->trend_window_s, list, ROCE_TREND_FIX,
		                      p->trend_window_s) < 0)
			return -1;
		for (size_t k = 0; fail && k < r->n_ports; k++)
			if (r->ports[k].port == tp->port && strcmp(r->ports[k].device, tp->device) == 0)
				r->ports[k].healthy = false;
	}
	roce_check_decide(r, p);
	return 0;
}
