/* SPDX-License-Identifier: GPL-2.0-or-later */
/* live.c - a node's live sample of a running job, from snapshots (live.h).  Pure. */
#include "config.h"
#include "fragment/live.h"
#include "fragment/verdicts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void roce_live_init(struct roce_live *l)
{
	memset(l, 0, sizeof(*l));
	l->job_uid = -1;
}

void roce_live_free(struct roce_live *l)
{
	free(l->ports);
	free(l->events);
	roce_live_init(l);
}

/* The changes the live view flags, with the job report's fix for the same
 * fault (verdicts.h). */
static const struct {
	const char *code;
	enum roce_severity severity;
	const char *fix;
} codes[] = {
	{ "gid_changed", ROCE_SEV_FAIL, ROCE_FIX_GID_CHANGED },
	{ "link_down", ROCE_SEV_FAIL, ROCE_FIX_LINK_DOWN },
};

static int code_index(const char *code)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].code, code) == 0)
			return (int)i;
	return -1;
}

int roce_live_event_severity(const char *code)
{
	int i = code_index(code);
	return i < 0 ? -1 : (int)codes[i].severity;
}

const char *roce_live_event_fix(const char *code)
{
	int i = code_index(code);
	return i < 0 ? NULL : codes[i].fix;
}

/* ---------------------------------------------------------------- intervals */

/* pd's counters over from_ns .. the sample; a port the sample before did
 * not have (pd NULL) has none. */
static void interval_of(struct roce_live_interval *iv, const struct roce_port_delta *pd, int64_t from_ns)
{
	memset(iv, 0, sizeof(*iv));
	iv->from_ns = from_ns;
	iv->pfc_status = ROCE_DELTA_UNREAD;
	for (int c = 0; c < ROCE_N_COUNTERS; c++)
		iv->cs[c] = ROCE_DELTA_UNREAD;
	if (!pd)
		return;
	for (int c = 0; c < ROCE_N_COUNTERS; c++) {
		iv->cs[c] = (uint8_t)pd->c[c].status;
		iv->c[c] = pd->c[c].status == ROCE_DELTA_UNREAD ? 0 : pd->c[c].value;
	}
	iv->pfc_status = (uint8_t)pd->pfc_status;
	if (pd->pfc_status != ROCE_DELTA_UNREAD) {
		memcpy(iv->pfc_req, pd->pfc_requests, sizeof(iv->pfc_req));
		memcpy(iv->pfc_ind, pd->pfc_indications, sizeof(iv->pfc_ind));
	}
}

static const struct roce_port_delta *delta_port(const struct roce_delta *d, const char *device, unsigned port)
{
	for (size_t i = 0; i < d->n_ports; i++)
		if (d->ports[i].port == port && strcmp(d->ports[i].device, device) == 0)
			return &d->ports[i];
	return NULL;
}

static void port_of(struct roce_live_port *lp, const struct roce_port_delta *ds, const struct roce_port_delta *dl,
                    int64_t start_ns, int64_t prev_ns)
{
	memset(lp, 0, sizeof(*lp));
	snprintf(lp->device, sizeof(lp->device), "%s", ds->device);
	lp->port = ds->port;
	snprintf(lp->netdev, sizeof(lp->netdev), "%s", ds->netdev);
	lp->presence = (uint8_t)ds->presence;
	snprintf(lp->state_start, sizeof(lp->state_start), "%s", ds->state_start);
	snprintf(lp->state_now, sizeof(lp->state_now), "%s", ds->state_end);
	/* a port that vanished keeps its start's index as the delta's */
	lp->gid_index_start = ds->gid_index_start;
	lp->gid_index_now = ds->presence == ROCE_PORT_VANISHED ? -1 : ds->gid_index;
	snprintf(lp->gid_addr_start, sizeof(lp->gid_addr_start), "%s", ds->gid_addr_start);
	snprintf(lp->gid_addr_now, sizeof(lp->gid_addr_now), "%s", ds->gid_addr_end);
	interval_of(&lp->since_start, ds, start_ns);
	interval_of(&lp->since_last, dl, prev_ns);
}

/* ---------------------------------------------------------------- events */

/* The event (code, subject) seen now: brought up to date, or added (a
 * sample keeps at most ROCE_LIVE_EVENTS_MAX: later ones are not kept). */
static void seen_now(struct roce_live *l, const char *code, const char *subject, const char *message)
{
	struct roce_live_event *e = NULL;
	for (size_t i = 0; i < l->n_events && !e; i++)
		if (strcmp(l->events[i].code, code) == 0 && strcmp(l->events[i].subject, subject) == 0)
			e = &l->events[i];
	if (!e) {
		if (l->n_events >= ROCE_LIVE_EVENTS_MAX)
			return;
		e = &l->events[l->n_events++];
		memset(e, 0, sizeof(*e));
		snprintf(e->code, sizeof(e->code), "%s", code);
		snprintf(e->subject, sizeof(e->subject), "%s", subject);
		e->first_ns = l->now_ns;
	}
	e->last_ns = l->now_ns;
	snprintf(e->message, sizeof(e->message), "%s", message);
}

static const char *addr(const char *a) { return a[0] ? a : "address not read"; }

/* The port's own sample in s, NULL when s has none. */
static const struct roce_port_sample *sample_port(const struct roce_snapshot *s, const char *device, unsigned port)
{
	for (size_t i = 0; i < s->n_ports; i++)
		if (s->ports[i].port == port && strcmp(s->ports[i].device, device) == 0)
			return &s->ports[i];
	return NULL;
}

/* The GID NCCL was given, against the job's start: moved or readdressed,
 * or no longer the routable RoCE v2 GID at all (a fixed GidIndex whose
 * GID moved: the check's finding now says where it is); else against the
 * sample before (it moved back, or an older snapshot kept no address). */
static void gid_event(struct roce_live *l, const char *subject, const struct roce_port_delta *ds,
                      const struct roce_port_delta *dl, const struct roce_port_sample *now)
{
	char msg[sizeof(l->events->message)];
	if (roce_delta_gid_changed(ds))
		snprintf(msg, sizeof(msg), "the RoCE v2 GID was index %d (%s) at job start and is index %d (%s) now",
		         ds->gid_index_start, addr(ds->gid_addr_start), ds->gid_index, addr(ds->gid_addr_end));
	else if (ds->presence == ROCE_PORT_BOTH && ds->gid_index_start >= 0 && ds->gid_index < 0 && now)
		snprintf(msg, sizeof(msg), "the RoCE v2 GID was index %d (%s) at job start and is not valid now: %s",
		         ds->gid_index_start, addr(ds->gid_addr_start),
		         strncmp(now->check_why, "gid: ", 5) == 0 ? now->check_why + 5
		                                                  : "the check found no valid GID");
	else if (dl && roce_delta_gid_changed(dl))
		snprintf(msg, sizeof(msg),
		         "the RoCE v2 GID was index %d (%s) at the sample before and is index %d (%s) now",
		         dl->gid_index_start, addr(dl->gid_addr_start), dl->gid_index, addr(dl->gid_addr_end));
	else
		return;
	seen_now(l, "gid_changed", subject, msg);
}

static bool not_active(const char *state) { return state[0] && strcmp(state, "ACTIVE") != 0; }

/* The link: gone or new since the job started, not ACTIVE now, or down
 * (link_downed grew) since the sample before. */
static void link_event(struct roce_live *l, const char *subject, const struct roce_port_delta *ds,
                       const struct roce_port_delta *dl)
{
	char msg[sizeof(l->events->message)] = "";
	size_t n = 0;
	uint64_t down =
	        dl && dl->c[ROCE_C_LINK_DOWNED].status != ROCE_DELTA_UNREAD ? dl->c[ROCE_C_LINK_DOWNED].value : 0;
	if (ds->presence == ROCE_PORT_VANISHED)
		n += (size_t)snprintf(msg, sizeof(msg), "the port disappeared during the job");
	else if (ds->presence == ROCE_PORT_APPEARED)
		n += (size_t)snprintf(msg, sizeof(msg), "the port appeared during the job");
	else if (not_active(ds->state_end))
		n += (size_t)snprintf(msg, sizeof(msg), "the port is %s now (%s at job start)", ds->state_end,
		                      ds->state_start[0] ? ds->state_start : "not read");
	if (down && n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - n, "%sthe link went down %" PRIu64 " time(s) since the sample before",
		         n ? "; " : "", down);
	if (msg[0])
		seen_now(l, "link_down", subject, msg);
}

/* ---------------------------------------------------------------- build */

int roce_live_build(struct roce_live *l, const struct roce_live_meta *m, const struct roce_snapshot *start,
                    const struct roce_snapshot *prev, const struct roce_snapshot *now,
                    const struct roce_live_event *prev_events, size_t n_prev)
{
	struct roce_delta ds = { 0 }, dl = { 0 };
	roce_live_init(l);
	snprintf(l->job_id, sizeof(l->job_id), "%s", m->job_id);
	snprintf(l->node, sizeof(l->node), "%s", m->node);
	l->job_uid = m->job_uid;
	l->samples = m->samples;
	l->start_ns = start->time_ns;
	l->now_ns = now->time_ns;
	if (n_prev > ROCE_LIVE_EVENTS_MAX)
		n_prev = ROCE_LIVE_EVENTS_MAX;
	if (roce_delta_compute(start, now, &ds) < 0 || roce_delta_compute(prev, now, &dl) < 0 ||
	    !(l->events = calloc(ROCE_LIVE_EVENTS_MAX, sizeof(*l->events))) ||
	    (ds.n_ports && !(l->ports = calloc(ds.n_ports, sizeof(*l->ports)))))
		goto fail;
	if (n_prev)
		memcpy(l->events, prev_events, n_prev * sizeof(*prev_events));
	l->n_events = n_prev;
	for (size_t i = 0; i < ds.n_ports; i++) {
		const struct roce_port_delta *p = &ds.ports[i], *q = delta_port(&dl, p->device, p->port);
		char subject[sizeof(l->events->subject)];
		port_of(&l->ports[l->n_ports++], p, q, start->time_ns, prev->time_ns);
		snprintf(subject, sizeof(subject), "%s:%u", p->device, p->port);
		gid_event(l, subject, p, q, sample_port(now, p->device, p->port));
		link_event(l, subject, p, q);
	}
	roce_delta_free(&ds);
	roce_delta_free(&dl);
	return 0;
fail:
	roce_delta_free(&ds);
	roce_delta_free(&dl);
	roce_live_free(l);
	return -1;
}
