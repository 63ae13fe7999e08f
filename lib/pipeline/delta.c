/* SPDX-License-Identifier: GPL-2.0-or-later */
/* delta.c - per-port counter deltas of two snapshots (delta.h). */
#include "config.h"
#include "pipeline/delta.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void roce_delta_counter(const struct roce_counter_def *def, uint64_t start, uint64_t end, bool port_reset,
                        struct roce_counter_delta *out)
{
	uint64_t max = def->width >= 64 ? UINT64_MAX : ((uint64_t)1 << def->width) - 1;
	memset(out, 0, sizeof(*out));
	out->status = ROCE_DELTA_OK;
	if (start > max || end > max) {
		/* Wider than we believed: trust nothing but monotony. */
		max = UINT64_MAX;
	}
	if (end >= start) {
		out->value = (end - start) * def->scale;
		if (def->saturates && end == max)
			out->status = ROCE_DELTA_SATURATED;
		return;
	}
	/* end < start: a 32-bit counter wraps, unless the port itself was reset
	 * (its 64-bit counters went back too); saturating and 64-bit counters
	 * never wrap within a job. */
	if (max == UINT32_MAX && !def->saturates && !port_reset) {
		out->status = ROCE_DELTA_WRAPPED;
		out->value = (max - start + 1 + end) * def->scale;
		return;
	}
	out->status = ROCE_DELTA_RESET;
	out->value = end * def->scale;
}

static const struct roce_port_sample *find_sample(const struct roce_snapshot *s, const char *dev, unsigned port)
{
	for (size_t i = 0; i < s->n_ports; i++)
		if (s->ports[i].port == port && strcmp(s->ports[i].device, dev) == 0)
			return &s->ports[i];
	return NULL;
}

/* A reading that failed, at start or end, as text. */
static void unread_why(char *why, const char *when, const struct roce_reading *r)
{
	snprintf(why, ROCE_WHY_MAX, "%s: %s%s%.160s", when, roce_status_name(r->status), r->why[0] ? ": " : "", r->why);
}

/* Did a counter that cannot wrap (64-bit or saturating) go backwards?  Then
 * the port was reset, and a smaller 32-bit value is a reset too. */
static bool port_was_reset(const struct roce_port_sample *a, const struct roce_port_sample *b)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const struct roce_counter_def *def = &roce_counter_defs[i];
		if ((def->width == 64 || def->saturates) && roce_reading_ok(&a->c[i].read) &&
		    roce_reading_ok(&b->c[i].read) && b->c[i].value < a->c[i].value)
			return true;
	}
	return false;
}

static void pfc_delta(struct roce_port_delta *pd, const struct roce_pfc_sample *a, const struct roce_pfc_sample *b)
{
	pd->pfc_enabled = b->enabled;
	if (!roce_reading_ok(&a->read) || !roce_reading_ok(&b->read)) {
		pd->pfc_status = ROCE_DELTA_UNREAD;
		unread_why(pd->pfc_why, !roce_reading_ok(&a->read) ? "start" : "end",
		           !roce_reading_ok(&a->read) ? &a->read : &b->read);
		return;
	}
	pd->pfc_status = ROCE_DELTA_OK;
	for (int p = 0; p < ROCE_PRIOS; p++) {
		/* ieee_pfc counters are u64: going back means the driver restarted. */
		if (b->requests[p] < a->requests[p] || b->indications[p] < a->indications[p])
			pd->pfc_status = ROCE_DELTA_RESET;
	}
	for (int p = 0; p < ROCE_PRIOS; p++) {
		pd->pfc_requests[p] =
		        pd->pfc_status == ROCE_DELTA_RESET ? b->requests[p] : b->requests[p] - a->requests[p];
		pd->pfc_indications[p] =
		        pd->pfc_status == ROCE_DELTA_RESET ? b->indications[p] : b->indications[p] - a->indications[p];
	}
}

/* A port in one snapshot only: nothing to subtract. */
static void all_unread(struct roce_port_delta *pd, const char *why)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		pd->c[i].status = ROCE_DELTA_UNREAD;
		snprintf(pd->c[i].why, sizeof(pd->c[i].why), "%s", why);
	}
	pd->pfc_status = ROCE_DELTA_UNREAD;
	snprintf(pd->pfc_why, sizeof(pd->pfc_why), "%s", why);
}

#define AT_START "at job start: "
#define AT_END "at job end: "

void roce_delta_check_why(char *why, bool end, const char *what)
{
	const char *prefix = end ? AT_END : AT_START;
	size_t cut = ROCE_WHY_MAX - 4;
	if (snprintf(why, ROCE_WHY_MAX, "%s%s", prefix, what) < ROCE_WHY_MAX)
		return;
	while (cut > strlen(prefix) && why[cut] != ' ')
		cut--;
	if (cut == strlen(prefix)) /* one word longer than the room: cut inside it */
		cut = ROCE_WHY_MAX - 4;
	memcpy(why + cut, "...", 4);
}

bool roce_delta_check_why_is(const char *why, const char *check)
{
	size_t n = strlen(check);
	if (strncmp(why, AT_START, strlen(AT_START)) == 0)
		why += strlen(AT_START);
	else if (strncmp(why, AT_END, strlen(AT_END)) == 0)
		why += strlen(AT_END);
	return strncmp(why, check, n) == 0 && why[n] == ':';
}

/* The worse of the prolog's (a) and the epilog's (b) check, with when; the
 * prolog's on a tie: it is what the job started with. */
static void worse_check(int a, const char *a_why, int b, const char *b_why, int *check, char *why)
{
	bool end = b > a;
	*check = end ? b : a;
	why[0] = '\0';
	if (*check > 0) /* not pass, not unchecked */
		roce_delta_check_why(why, end, end ? b_why : a_why);
}

static void port_delta(struct roce_port_delta *pd, const struct roce_port_sample *a, const struct roce_port_sample *b)
{
	const struct roce_port_sample *any = b ? b : a;
	memset(pd, 0, sizeof(*pd));
	snprintf(pd->device, sizeof(pd->device), "%s", any->device);
	pd->port = any->port;
	snprintf(pd->netdev, sizeof(pd->netdev), "%s", any->netdev);
	pd->gid_index = any->gid_index;
	pd->gid_index_start = a ? a->gid_index : -1;
	snprintf(pd->gid_addr_start, sizeof(pd->gid_addr_start), "%s", a ? a->gid_addr : "");
	snprintf(pd->gid_addr_end, sizeof(pd->gid_addr_end), "%s", b ? b->gid_addr : "");
	pd->active_mtu = any->active_mtu;
	pd->netdev_mtu = any->netdev_mtu;
	snprintf(pd->state_start, sizeof(pd->state_start), "%s", a ? a->state : "");
	snprintf(pd->state_end, sizeof(pd->state_end), "%s", b ? b->state : "");
	worse_check(a ? a->check : -1, a ? a->check_why : "", b ? b->check : -1, b ? b->check_why : "", &pd->check,
	            pd->check_why);
	pd->rate_mbps = any->rate_mbps;
	snprintf(pd->fw_ver, sizeof(pd->fw_ver), "%s", any->fw_ver);
	pd->presence = !a ? ROCE_PORT_APPEARED : !b ? ROCE_PORT_VANISHED : ROCE_PORT_BOTH;
	if (pd->presence != ROCE_PORT_BOTH) {
		all_unread(pd, a ? "port vanished during the job" : "port appeared during the job");
		return;
	}
	pd->reset = port_was_reset(a, b);
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		struct roce_counter_delta *cd = &pd->c[i];
		if (!roce_reading_ok(&a->c[i].read)) {
			cd->status = ROCE_DELTA_UNREAD;
			unread_why(cd->why, "start", &a->c[i].read);
		} else if (!roce_reading_ok(&b->c[i].read)) {
			cd->status = ROCE_DELTA_UNREAD;
			unread_why(cd->why, "end", &b->c[i].read);
		} else {
			roce_delta_counter(&roce_counter_defs[i], a->c[i].value, b->c[i].value, pd->reset, cd);
			if (cd->status == ROCE_DELTA_RESET)
				pd->reset = true;
		}
	}
	pfc_delta(pd, &a->pfc, &b->pfc);
}

int roce_delta_compute(const struct roce_snapshot *start, const struct roce_snapshot *end, struct roce_delta *out)
{
	memset(out, 0, sizeof(*out));
	out->gid_index = end->gid_index;
	out->traffic_class = end->traffic_class;
	out->trust = end->trust;
	worse_check(start->check, start->check_why, end->check, end->check_why, &out->check, out->check_why);
	out->seconds = end->time_ns >= start->time_ns ? (double)(end->time_ns - start->time_ns) / 1e9 : -1.0;
	size_t cap = start->n_ports + end->n_ports;
	if (cap == 0)
		return 0;
	out->ports = calloc(cap, sizeof(*out->ports));
	if (!out->ports)
		return -1;
	/* Start order first, then ports that only the end snapshot has. */
	for (size_t i = 0; i < start->n_ports; i++) {
		const struct roce_port_sample *a = &start->ports[i];
		port_delta(&out->ports[out->n_ports++], a, find_sample(end, a->device, a->port));
	}
	for (size_t i = 0; i < end->n_ports; i++) {
		const struct roce_port_sample *b = &end->ports[i];
		if (!find_sample(start, b->device, b->port))
			port_delta(&out->ports[out->n_ports++], NULL, b);
	}
	return 0;
}

void roce_delta_free(struct roce_delta *d)
{
	free(d->ports);
	d->ports = NULL;
	d->n_ports = 0;
}

const char *roce_delta_status_name(enum roce_delta_status s)
{
	switch (s) {
	case ROCE_DELTA_OK: return "ok";
	case ROCE_DELTA_WRAPPED: return "wrapped";
	case ROCE_DELTA_SATURATED: return "saturated";
	case ROCE_DELTA_RESET: return "reset";
	case ROCE_DELTA_UNREAD: return "unread";
	}
	return "?";
}

const char *roce_delta_presence_name(enum roce_port_presence p)
{
	switch (p) {
	case ROCE_PORT_BOTH: return "present";
	case ROCE_PORT_VANISHED: return "vanished";
	case ROCE_PORT_APPEARED: return "appeared";
	}
	return "?";
}

bool roce_delta_gid_changed(const struct roce_port_delta *pd)
{
	if (pd->presence != ROCE_PORT_BOTH || pd->gid_index_start < 0 || pd->gid_index < 0)
		return false;
	return pd->gid_index_start != pd->gid_index ||
	       (pd->gid_addr_start[0] && pd->gid_addr_end[0] && strcmp(pd->gid_addr_start, pd->gid_addr_end) != 0);
}
