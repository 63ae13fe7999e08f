/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prober.c - the path probe's asking half: DF set, the job's DSCP, a deadline, O(1) datagrams. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/clock.h"
#include "probe/prober.h"
#include "probe/sockaddr.h"

#define STANDARD_MTU 1500u

static void add_size(struct roce_prober_target *t, unsigned s)
{
	size_t i = 0;
	if (t->n_sizes == ROCE_PROBER_SIZES_MAX)
		return;
	while (i < t->n_sizes && t->sizes[i].ip_size < s)
		i++;
	if (i < t->n_sizes && t->sizes[i].ip_size == s)
		return;
	memmove(&t->sizes[i + 1], &t->sizes[i], (t->n_sizes - i) * sizeof(t->sizes[0]));
	t->sizes[i] = (struct roce_prober_size){ .ip_size = s, .tos_arrived = -1 };
	t->n_sizes++;
}

void roce_prober_sizes(struct roce_prober_target *t, int family, int active_mtu, unsigned netdev_mtu)
{
	unsigned smallest = roce_probewire_ip_udp(family) + ROCE_PROBEWIRE_HDR;
	unsigned largest = roce_probewire_ip_udp(family) + ROCE_PROBEWIRE_MAX;
	t->n_sizes = 0;
	add_size(t, smallest);
	if (active_mtu > 0 && (netdev_mtu == 0 || netdev_mtu > STANDARD_MTU))
		add_size(t, STANDARD_MTU);
	if (active_mtu >= 256 && active_mtu <= 4096)
		add_size(t, roce_probewire_roce_size(family, active_mtu));
	if (netdev_mtu >= smallest && netdev_mtu <= largest)
		add_size(t, netdev_mtu);
}

/* The target's socket: DF, its TOS, its netdev, bound to its rail address,
 * connected to the neighbour (the kernel then takes datagrams from there only). */
static int open_target(struct roce_prober_target *t)
{
	int v6 = t->local.ss_family == AF_INET6, lvl = v6 ? IPPROTO_IPV6 : IPPROTO_IP;
	int df = v6 ? IPV6_PMTUDISC_DO : IP_PMTUDISC_DO, one = 1;
	const char *what = "socket";
	char shown[ROCE_SOCKADDR_TEXT_MAX];
	t->fd = socket(t->local.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (t->fd < 0)
		goto fail;
	what = "DF";
	if (setsockopt(t->fd, lvl, v6 ? IPV6_MTU_DISCOVER : IP_MTU_DISCOVER, &df, sizeof(df)) < 0 ||
	    (v6 && setsockopt(t->fd, IPPROTO_IPV6, IPV6_DONTFRAG, &one, sizeof(one)) < 0))
		goto fail;
	what = "TOS";
	if (setsockopt(t->fd, lvl, v6 ? IPV6_TCLASS : IP_TOS, &t->tos, sizeof(t->tos)) < 0)
		goto fail;
	what = "SO_BINDTODEVICE";
	if (t->netdev[0] && setsockopt(t->fd, SOL_SOCKET, SO_BINDTODEVICE, t->netdev, (socklen_t)strlen(t->netdev)) < 0)
		goto fail;
	what = "bind";
	if (bind(t->fd, (const struct sockaddr *)&t->local, roce_sockaddr_len(&t->local)) < 0)
		goto fail;
	what = "connect";
	if (connect(t->fd, (const struct sockaddr *)&t->peer, roce_sockaddr_len(&t->peer)) < 0)
		goto fail;
	return 0;
fail:
	snprintf(t->setup_err, sizeof(t->setup_err), "%s from %s: %s", what, roce_sockaddr_text(&t->local, shown),
	         strerror(errno));
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	return -1;
}

static bool size_final(const struct roce_prober_size *s) { return s->state != ROCE_PROBER_UNANSWERED; }

static bool target_done(const struct roce_prober_target *t)
{
	if (t->fd == -1)
		return true;
	for (size_t i = 0; i < t->n_sizes; i++)
		if (!size_final(&t->sizes[i]))
			return false;
	return true;
}

#define SECOND_TRY_MS 60

/* One try of every size still unanswered. */
static void send_round(struct roce_prober *p, struct roce_prober_target *t, uint8_t *buf)
{
	unsigned hdrs = roce_probewire_ip_udp(t->local.ss_family == AF_INET6 ? 6 : 4);
	for (size_t i = 0; i < t->n_sizes && t->fd >= 0; i++) {
		struct roce_prober_size *s = &t->sizes[i];
		struct roce_probewire_msg m = {
			.kind = ROCE_PROBEWIRE_PROBE, .seq = (uint16_t)i, .tos = (uint8_t)t->tos, .session = p->session
		};
		if (size_final(s) || s->ip_size < hdrs || roce_probewire_build(&p->key, &m, buf, s->ip_size - hdrs) < 0)
			continue;
		if (send(t->fd, buf, s->ip_size - hdrs, MSG_DONTWAIT) >= 0)
			t->sent++;
		else if (errno == EMSGSIZE)
			s->state = ROCE_PROBER_TOO_BIG_HERE;
		else if (errno == ECONNREFUSED)
			t->refused = true;
		else if (errno != EAGAIN && errno != EINTR) {
			s->state = ROCE_PROBER_SEND_FAILED;
			s->err = errno;
		}
	}
}

/* Tell each neighbour's responder that this prober has finished (a
 * datagram lost is only time: it answers until its own deadline). */
static void send_done(struct roce_prober *p, uint8_t *buf)
{
	for (size_t i = 0; i < p->n; i++) {
		struct roce_probewire_msg m = { .kind = ROCE_PROBEWIRE_DONE, .session = p->session };
		if (p->t[i].fd >= 0 && roce_probewire_build(&p->key, &m, buf, ROCE_PROBEWIRE_HDR) == 0)
			(void)!send(p->t[i].fd, buf, ROCE_PROBEWIRE_HDR, MSG_DONTWAIT); /* not counted in sent: no probe */
	}
}

/* Every answer waiting on t's socket. */
static void read_answers(struct roce_prober *p, struct roce_prober_target *t)
{
	unsigned hdrs = roce_probewire_ip_udp(t->local.ss_family == AF_INET6 ? 6 : 4);
	uint8_t buf[ROCE_PROBEWIRE_HDR + 1];
	for (;;) {
		struct roce_probewire_msg m;
		ssize_t got = recv(t->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == ECONNREFUSED) {
			t->refused = true;
			continue;
		}
		if (got < 0)
			return;
		if (roce_probewire_parse(&p->key, buf, (size_t)got, &m) < 0 || m.kind != ROCE_PROBEWIRE_ANSWER ||
		    m.session != p->session || m.seq >= t->n_sizes)
			continue;
		struct roce_prober_size *s = &t->sizes[m.seq];
		if (m.bytes + hdrs != s->ip_size || s->state != ROCE_PROBER_UNANSWERED)
			continue;
		s->state = ROCE_PROBER_PASSED;
		s->tos_arrived = m.tos_known ? m.tos : -1;
	}
}

static bool all_done(const struct roce_prober *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (!target_done(&p->t[i]))
			return false;
	return true;
}

/* Wait for the next datagram on any socket, at most until `until`. */
static void wait_and_read(struct roce_prober *p, struct roce_responder *r, int64_t until)
{
	struct pollfd fds[ROCE_PROBER_TARGETS_MAX + ROCE_RESPONDER_SOCKETS_MAX];
	size_t n = 0, nr = r ? r->n : 0;
	int64_t left = until - roce_clock_ms();
	for (size_t i = 0; i < nr; i++)
		fds[n++] = (struct pollfd){ .fd = r->fd[i], .events = POLLIN };
	for (size_t i = 0; i < p->n; i++)
		fds[n++] = (struct pollfd){ .fd = p->t[i].fd, .events = POLLIN }; /* -1: poll skips it */
	if (poll(fds, n, left < 0 ? 0 : left > 1000 ? 1000 : (int)left) <= 0)
		return;
	for (size_t i = 0; i < nr; i++)
		if (fds[i].revents)
			roce_responder_handle(r, i);
	for (size_t i = 0; i < p->n; i++)
		if (fds[nr + i].revents && p->t[i].fd >= 0)
			read_answers(p, &p->t[i]);
}

int roce_prober_run(struct roce_prober *p, struct roce_responder *r, int64_t deadline_ms, int64_t serve_until_ms,
                    struct roce_error *err)
{
	int64_t start = roce_clock_ms(), next = start, now;
	int tries = 0;
	uint8_t *buf = malloc(ROCE_PROBEWIRE_MAX);
	if (!buf) {
		roce_error_set(err, "probe: %s", strerror(errno));
		return -1;
	}
	while (p->session == 0 && getrandom(&p->session, sizeof(p->session), 0) != (ssize_t)sizeof(p->session))
		p->session = (uint64_t)start ^ ((uint64_t)getpid() << 32); /* no entropy: freshness is all it is for */
	for (size_t i = 0; i < p->n; i++) {
		p->t[i].fd = -1;
		p->t[i].setup_err[0] = '\0';
		open_target(&p->t[i]);
	}
	while ((now = roce_clock_ms()) < deadline_ms && !all_done(p)) {
		if (now >= next && tries < ROCE_PROBER_TRIES) {
			for (size_t i = 0; i < p->n; i++)
				send_round(p, &p->t[i], buf);
			tries++;
			next = start + (deadline_ms - start) * tries / ROCE_PROBER_TRIES;
			/* the second try soon: a first lost to a neighbour that had not yet read our
			 * file (its responder answers known addresses only) costs little */
			if (tries == 1 && next > start + SECOND_TRY_MS)
				next = start + SECOND_TRY_MS;
		}
		wait_and_read(p, r, tries < ROCE_PROBER_TRIES && next < deadline_ms ? next : deadline_ms);
	}
	send_done(p, buf);
	while (r && roce_clock_ms() < serve_until_ms)
		wait_and_read(p, r, serve_until_ms);
	for (size_t i = 0; i < p->n; i++)
		if (p->t[i].fd >= 0) {
			close(p->t[i].fd);
			p->t[i].fd = -2; /* probed (-1: not, setup_err says why) */
		}
	free(buf);
	return 0;
}

enum roce_prober_verdict roce_prober_verdict(const struct roce_prober_target *t, unsigned *largest, int *dscp_arrived)
{
	bool all = t->n_sizes > 0, local = t->setup_err[0] != '\0';
	*largest = 0;
	*dscp_arrived = -1;
	for (size_t i = 0; i < t->n_sizes; i++) {
		const struct roce_prober_size *s = &t->sizes[i];
		if (s->state == ROCE_PROBER_PASSED) {
			*largest = s->ip_size;
			if (*dscp_arrived < 0 && s->tos_arrived >= 0)
				*dscp_arrived = s->tos_arrived >> 2;
		} else
			all = false;
		local |= s->state == ROCE_PROBER_SEND_FAILED || s->state == ROCE_PROBER_TOO_BIG_HERE;
	}
	if (local && !*largest)
		return ROCE_PROBER_LOCAL;
	if (!*largest)
		return ROCE_PROBER_NO_ANSWER;
	if (!all)
		return ROCE_PROBER_SIZE;
	for (size_t i = 0; i < t->n_sizes; i++)
		if (t->sizes[i].tos_arrived < 0 || t->sizes[i].tos_arrived >> 2 != t->tos >> 2)
			return ROCE_PROBER_DSCP;
	return ROCE_PROBER_OK;
}

void roce_prober_describe(const struct roce_prober_target *t, char *buf, size_t len)
{
	unsigned largest, top = t->n_sizes ? t->sizes[t->n_sizes - 1].ip_size : 0;
	int dscp;
	const struct roce_prober_size *bad = NULL;
	for (size_t i = 0; i < t->n_sizes && !bad; i++)
		if (t->sizes[i].state == ROCE_PROBER_SEND_FAILED || t->sizes[i].state == ROCE_PROBER_TOO_BIG_HERE)
			bad = &t->sizes[i];
	switch (roce_prober_verdict(t, &largest, &dscp)) {
	case ROCE_PROBER_OK: snprintf(buf, len, "ok"); break;
	case ROCE_PROBER_NO_ANSWER: snprintf(buf, len, "no answer%s", t->refused ? " (port unreachable)" : ""); break;
	case ROCE_PROBER_SIZE:
		snprintf(buf, len, "largest size that passed %u of %u%s", largest, top,
		         bad && bad->state == ROCE_PROBER_TOO_BIG_HERE ? " (above this node's own path MTU)" : "");
		break;
	case ROCE_PROBER_DSCP:
		if (dscp < 0)
			snprintf(buf, len, "DSCP %d sent, the one that arrived was not read", t->tos >> 2);
		else
			snprintf(buf, len, "DSCP %d sent, %d arrived", t->tos >> 2, dscp);
		break;
	case ROCE_PROBER_LOCAL:
		if (t->setup_err[0])
			snprintf(buf, len, "not probed: %s", t->setup_err);
		else if (bad && bad->state == ROCE_PROBER_TOO_BIG_HERE)
			snprintf(buf, len, "not probed: %u bytes are above this node's own path MTU", bad->ip_size);
		else
			snprintf(buf, len, "not probed: sending %u bytes: %s", bad ? bad->ip_size : 0,
			         strerror(bad ? bad->err : 0));
		break;
	}
}
