/* SPDX-License-Identifier: GPL-2.0-or-later */
/* responder.c - the path probe's answering half: bound to the job's rail addresses only. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/responder.h"
#include "probe/sockaddr.h"

static int open_one(const struct sockaddr_storage *a, uint16_t *port, struct roce_error *err)
{
	int v6 = a->ss_family == AF_INET6, one = 1;
	char shown[ROCE_SOCKADDR_TEXT_MAX];
	struct sockaddr_storage bound;
	socklen_t len = sizeof(bound);
	int fd = socket(a->ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	if (setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_RECVTCLASS : IP_RECVTOS, &one, sizeof(one)) < 0 ||
	    (v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) < 0) ||
	    bind(fd, (const struct sockaddr *)a, roce_sockaddr_len(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&bound, &len) < 0)
		goto fail;
	*port = roce_sockaddr_port(&bound);
	return fd;
fail:
	roce_error_set(err, "probe responder on %s: %s", roce_sockaddr_text(a, shown), strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int roce_responder_open(struct roce_responder *r, const struct roce_probewire_key *key,
                        const struct sockaddr_storage *local, size_t n, struct roce_error *err)
{
	memset(r, 0, sizeof(*r));
	r->key = *key;
	if (n > ROCE_RESPONDER_SOCKETS_MAX) {
		roce_error_set(err, "probe responder: %zu addresses, at most %d", n, ROCE_RESPONDER_SOCKETS_MAX);
		return -1;
	}
	r->buf = malloc(ROCE_PROBEWIRE_MAX + 1);
	if (!r->buf) {
		roce_error_set(err, "probe responder: %s", strerror(errno));
		return -1;
	}
	for (; r->n < n; r->n++) {
		r->fd[r->n] = open_one(&local[r->n], &r->port[r->n], err);
		if (r->fd[r->n] < 0) {
			roce_responder_close(r);
			return -1;
		}
	}
	return 0;
}

int roce_responder_allow(struct roce_responder *r, const struct sockaddr_storage *peers, size_t n)
{
	if (n > ROCE_RESPONDER_PEERS_MAX)
		return -1;
	memcpy(r->peers, peers, n * sizeof(peers[0]));
	r->n_peers = n;
	return 0;
}

static bool allowed(const struct roce_responder *r, const struct sockaddr_storage *from)
{
	for (size_t i = 0; i < r->n_peers; i++)
		if (roce_sockaddr_same_host(&r->peers[i], from))
			return true;
	return false;
}

/* The TOS byte the kernel handed over with the datagram, -1 none. */
static int tos_of(struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS && c->cmsg_len >= CMSG_LEN(1))
			return *(const uint8_t *)CMSG_DATA(c);
		if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(int))) {
			int v;
			memcpy(&v, CMSG_DATA(c), sizeof(v));
			return v >= 0 && v <= 255 ? v : -1;
		}
	}
	return -1;
}

static void answer(struct roce_responder *r, int fd, const struct roce_probewire_msg *probe, int tos,
                   const struct sockaddr_storage *to)
{
	uint8_t out[ROCE_PROBEWIRE_HDR];
	struct roce_probewire_msg a = { .kind = ROCE_PROBEWIRE_ANSWER,
		                        .seq = probe->seq,
		                        .bytes = probe->bytes,
		                        .tos = tos < 0 ? 0 : (uint8_t)tos,
		                        .tos_known = tos >= 0,
		                        .session = probe->session };
	if (r->stats.answered >= ROCE_RESPONDER_ANSWERS_MAX) {
		r->stats.over++;
		return;
	}
	if (roce_probewire_build(&r->key, &a, out, sizeof(out)) < 0)
		return;
	/* a lost answer is the prober's to retry: never wait here */
	if (sendto(fd, out, sizeof(out), MSG_DONTWAIT, (const struct sockaddr *)to, roce_sockaddr_len(to)) ==
	    (ssize_t)sizeof(out))
		r->stats.answered++;
}

void roce_responder_handle(struct roce_responder *r, size_t i)
{
	uint8_t *buf = r->buf;
	for (;;) {
		struct sockaddr_storage from;
		union {
			char b[CMSG_SPACE(sizeof(int)) * 4];
			struct cmsghdr align;
		} ctl;
		struct iovec iov = { buf, ROCE_PROBEWIRE_MAX + 1 };
		struct msghdr mh = { .msg_name = &from,
			             .msg_namelen = sizeof(from),
			             .msg_iov = &iov,
			             .msg_iovlen = 1,
			             .msg_control = ctl.b,
			             .msg_controllen = sizeof(ctl.b) };
		struct roce_probewire_msg m;
		ssize_t got = recvmsg(r->fd[i], &mh, MSG_DONTWAIT);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return;
		if ((mh.msg_flags & MSG_TRUNC) || roce_probewire_parse(&r->key, buf, (size_t)got, &m) < 0 ||
		    m.kind == ROCE_PROBEWIRE_ANSWER)
			r->stats.untagged++;
		else if (!allowed(r, &from))
			r->stats.stranger++;
		else if (m.kind == ROCE_PROBEWIRE_DONE)
			r->stats.done++; /* never answered */
		else
			answer(r, r->fd[i], &m, tos_of(&mh), &from);
	}
}

void roce_responder_close(struct roce_responder *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->fd[i] >= 0)
			close(r->fd[i]);
	r->n = 0;
	free(r->buf);
	r->buf = NULL;
}
