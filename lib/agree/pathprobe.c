/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pathprobe.c - one node's half of the path probe: key, responder, neighbours' files, probes. */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "agree/pathprobe.h"
#include "base/clock.h"
#include "probe/responder.h"
#include "probe/sockaddr.h"

#define PAUSE_MIN_MS 10 /* a healthy job's prologs start within tens of ms of each other */
#define PAUSE_MAX_MS 200

/* Neighbour's file: 0 read, 1 not yet, -1 refused (why in words). */
struct neighbour {
	const char *name;
	int state;
	struct roce_probeshare file;
	char why[ROCE_ERR_MAX];
	int64_t seen; /* when state left 1 (roce_clock_ms) */
};

static int self_index(const struct roce_pathprobe_in *in)
{
	for (size_t i = 0; i < in->n_nodes; i++)
		if (!strcmp(in->nodes[i], in->self))
			return (int)i;
	return -1;
}

static void try_read(const struct roce_pathprobe_in *in, struct neighbour *nb)
{
	struct roce_error e;
	if (nb->state != 1)
		return;
	nb->state = roce_probeshare_read(in->shared_dir, in->job_id, nb->name, in->since, &nb->file, &e);
	if (nb->state != 1)
		nb->seen = roce_clock_ms();
	if (nb->state < 0)
		snprintf(nb->why, sizeof(nb->why), "%.64s's probe file was refused: %.400s", nb->name, e.msg);
}

/* The responder, its file written; -1 with err. */
static int start(const struct roce_pathprobe_in *in, struct roce_responder *r, struct roce_error *err)
{
	struct roce_probewire_key key;
	struct roce_probeshare mine = { .written = time(NULL), .n = in->n_rails };
	struct sockaddr_storage local[ROCE_PROBESHARE_RAILS_MAX];
	if (in->n_rails > ROCE_PROBESHARE_RAILS_MAX || getrandom(key.k, sizeof(key.k), 0) != (ssize_t)sizeof(key.k)) {
		roce_error_set(err, "probe: no key (%s)",
		               in->n_rails > ROCE_PROBESHARE_RAILS_MAX ? "too many rails" : strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < in->n_rails; i++)
		local[i] = in->rails[i].addr;
	if (roce_responder_open(r, &key, local, in->n_rails, err) < 0)
		return -1;
	mine.key = key;
	for (size_t i = 0; i < in->n_hosts && mine.n_hosts < ROCE_PROBESHARE_HOSTS_MAX; i++)
		mine.hosts[mine.n_hosts++] = in->hosts[i];
	for (size_t i = 0; i < in->n_rails; i++) {
		snprintf(mine.rails[i].rail, sizeof(mine.rails[i].rail), "%s", in->rails[i].rail);
		mine.rails[i].addr = in->rails[i].addr;
		roce_sockaddr_set_port(&mine.rails[i].addr, r->port[i]);
	}
	if (roce_probeshare_write(in->shared_dir, in->job_id, in->self, &mine, err) < 0) {
		roce_responder_close(r);
		return -1;
	}
	return 0;
}

/* Serve r for ms (an empty prober's loop). */
static void serve(struct roce_responder *r, int64_t ms)
{
	struct roce_prober none = { .n = 0 };
	struct roce_error e;
	int64_t until = roce_clock_ms() + ms;
	roce_prober_run(&none, r, until, until, &e);
}

/* The responder answers the previous node's addresses only. */
static void allow_prev(struct roce_responder *r, const struct neighbour *prev)
{
	struct sockaddr_storage peers[ROCE_PROBESHARE_RAILS_MAX];
	size_t n = prev->state == 0 ? prev->file.n : 0;
	for (size_t i = 0; i < n; i++)
		peers[i] = prev->file.rails[i].addr;
	roce_responder_allow(r, peers, n);
}

/* Wait for both neighbours' files, answering meanwhile. */
static void wait_files(const struct roce_pathprobe_in *in, struct roce_responder *r, struct neighbour *next,
                       struct neighbour *prev, int64_t until)
{
	int64_t pause = PAUSE_MIN_MS;
	for (;;) {
		try_read(in, next);
		try_read(in, prev);
		allow_prev(r, prev);
		if ((next->state != 1 && prev->state != 1) || roce_clock_ms() >= until)
			return;
		serve(r, pause < until - roce_clock_ms() ? pause : until - roce_clock_ms());
		pause = pause * 2 > PAUSE_MAX_MS ? PAUSE_MAX_MS : pause * 2;
	}
}

/* Answer the previous node while it may still be probing: until it says it
 * has finished (a done datagram, probewire.h), or until until, or
 * (linger_ms set) linger_ms after its file was read, which it wrote before
 * it began waiting for ours: it probes as soon as it reads ours, and ours
 * was there first.  A file that comes late is still read, and answered. */
static void linger(const struct roce_pathprobe_in *in, struct roce_responder *r, struct neighbour *prev, int64_t until)
{
	int64_t pause = PAUSE_MIN_MS;
	for (;;) {
		try_read(in, prev);
		allow_prev(r, prev);
		int64_t now = roce_clock_ms(), end = until;
		if (in->linger_ms > 0 && prev->state != 1 && prev->seen + in->linger_ms < end)
			end = prev->seen + in->linger_ms;
		if (now >= end || r->stats.done > 0) /* the previous node said it has finished */
			return;
		serve(r, pause < end - now ? pause : end - now);
		/* its file read, its done is awaited at the shortest pause (a poll); unread, SharedDir is not asked so often */
		pause = prev->state != 1 ? PAUSE_MIN_MS : pause * 2 > PAUSE_MAX_MS ? PAUSE_MAX_MS : pause * 2;
	}
}

/* getaddrinfo(name) within ms (a stuck DNS server must not hold the
 * prolog): the list, or NULL (not resolved, or not in time). */
struct lookup {
	struct gaicb req;
	struct addrinfo hints;
	char name[ROCE_FP_NODE_MAX];
};

static struct addrinfo *resolve(const char *name, int ms)
{
	struct lookup *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->hints.ai_family = AF_UNSPEC;
	l->hints.ai_socktype = SOCK_STREAM;
	l->req.ar_name = l->name;
	l->req.ar_request = &l->hints;
	struct gaicb *list[1] = { &l->req };
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	if (getaddrinfo_a(GAI_NOWAIT, list, 1, NULL) != 0) {
		free(l);
		return NULL;
	}
	gai_suspend((const struct gaicb *const *)list, 1, &ts); /* done, the time up, or a signal */
	if (gai_error(&l->req) == EAI_INPROGRESS)
		gai_cancel(&l->req);
	int e = gai_error(&l->req);
	if (e == EAI_INPROGRESS)
		return NULL; /* l stays glibc's lookup thread's (a prolog's child exits soon after) */
	struct addrinfo *res = e == 0 ? l->req.ar_result : NULL;
	free(l);
	return res;
}

/* The next node's name resolved as its bootstrap would, against what it announced. */
static void check_name(const struct neighbour *next, int ms, struct roce_pathprobe_result *out)
{
	if (next->file.n_hosts == 0)
		return;
	struct addrinfo *res = resolve(next->name, ms);
	bool found = false;
	for (const struct addrinfo *a = res; a && !found; a = a->ai_next) {
		struct sockaddr_storage got = { 0 };
		memcpy(&got, a->ai_addr, a->ai_addrlen < sizeof(got) ? a->ai_addrlen : sizeof(got));
		for (size_t i = 0; i < next->file.n_hosts && !found; i++)
			found = roce_sockaddr_same_host(&got, &next->file.hosts[i]);
	}
	if (res && !found) {
		struct sockaddr_storage first = { 0 };
		char text[ROCE_SOCKADDR_TEXT_MAX];
		memcpy(&first, res->ai_addr, res->ai_addrlen < sizeof(first) ? res->ai_addrlen : sizeof(first));
		snprintf(out->name_got, sizeof(out->name_got), "%s", roce_sockaddr_text(&first, text));
	}
	if (res)
		freeaddrinfo(res);
}

/* Targets for the rails the next node has; the others said in out. */
static void plan(const struct roce_pathprobe_in *in, const struct neighbour *next, struct roce_prober *p,
                 size_t *rail_of, struct roce_pathprobe_result *out)
{
	for (size_t i = 0; i < in->n_rails; i++) {
		const struct roce_pathprobe_rail *mine = &in->rails[i];
		const struct roce_probeshare_rail *theirs = NULL;
		snprintf(out->rails[i].rail, sizeof(out->rails[i].rail), "%s", mine->rail);
		out->rails[i].verdict = ROCE_PROBER_LOCAL; /* not probed (words say why): no path failure */
		out->rails[i].dscp = -1;
		for (size_t k = 0; next->state == 0 && k < next->file.n && !theirs; k++)
			if (!strcmp(next->file.rails[k].rail, mine->rail))
				theirs = &next->file.rails[k];
		if (!theirs) {
			snprintf(out->rails[i].words, sizeof(out->rails[i].words), "%.*s",
			         (int)sizeof(out->rails[i].words) - 1,
			         next->state < 0   ? next->why
			         : next->state > 0 ? "no probe file from the next node in time"
			                           : "the next node has no address on this rail");
			continue;
		}
		struct roce_prober_target *t = &p->t[p->n];
		memset(t, 0, sizeof(*t));
		t->local = mine->addr;
		roce_sockaddr_set_port(&t->local, 0);
		snprintf(t->netdev, sizeof(t->netdev), "%s", mine->netdev);
		t->peer = theirs->addr;
		t->tos = in->tos >= 0 && in->tos <= 255 ? in->tos : 0; /* no traffic class: the default, 0 */
		roce_prober_sizes(t, mine->addr.ss_family == AF_INET6 ? 6 : 4, mine->active_mtu, mine->netdev_mtu);
		rail_of[p->n++] = i;
	}
	out->n = in->n_rails;
}

int roce_pathprobe_run(const struct roce_pathprobe_in *in, struct roce_pathprobe_result *out, struct roce_error *err)
{
	int64_t t0 = roce_clock_ms();
	int me = self_index(in);
	struct roce_responder r;
	struct roce_prober p = { .n = 0 };
	size_t rail_of[ROCE_PROBER_TARGETS_MAX];
	memset(out, 0, sizeof(*out));
	if (me < 0 || in->n_nodes < 2 || in->n_rails == 0)
		return 0; /* nothing to probe: a one-node job, no rails */
	if (start(in, &r, err) < 0)
		return -1;
	struct neighbour next = { .name = in->nodes[((size_t)me + 1) % in->n_nodes], .state = 1 };
	struct neighbour prev = { .name = in->nodes[((size_t)me + in->n_nodes - 1) % in->n_nodes], .state = 1 };
	snprintf(out->peer, sizeof(out->peer), "%s", next.name);
	wait_files(in, &r, &next, &prev, t0 + in->wait_ms);
	plan(in, &next, &p, rail_of, out);
	p.key = next.file.key;
	if (roce_prober_run(&p, &r, roce_clock_ms() + in->probe_ms, 0, err) < 0) {
		roce_responder_close(&r);
		return -1;
	}
	out->ms = (double)(roce_clock_ms() - t0);
	linger(in, &r, &prev, t0 + in->serve_ms);
	for (size_t k = 0; k < p.n; k++) {
		size_t i = rail_of[k];
		out->rails[i].verdict = roce_prober_verdict(&p.t[k], &out->rails[i].largest, &out->rails[i].dscp);
		roce_prober_describe(&p.t[k], out->rails[i].words, sizeof(out->rails[i].words));
	}
	out->answered = r.stats.answered;
	roce_responder_close(&r);
	if (next.state == 0 && in->resolve_ms > 0)
		check_name(&next, in->resolve_ms, out);
	return 0;
}
