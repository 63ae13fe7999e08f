/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * responder.h - the path probe's answering half (issue 27): one UDP socket
 * per rail address of the job on this node, bound to that address only
 * (never the wildcard), answering each probe that carries the job's tag
 * (probewire.h) and comes from an address it was told is the job's, with
 * what arrived: the size and the TOS byte (IP_RECVTOS).  It answers at most
 * ROCE_RESPONDER_ANSWERS_MAX probes over its life, each with a datagram no
 * larger than the probe; everything else is counted and dropped.  It lives
 * as long as its caller serves it (prober.h's loop, under a deadline).
 */
#ifndef ROCE_RESPONDER_H
#define ROCE_RESPONDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "base/error.h"
#include "probe/probewire.h"

#define ROCE_RESPONDER_SOCKETS_MAX 32 /* a rail each */
#define ROCE_RESPONDER_PEERS_MAX 64   /* the ring neighbours' addresses, a few per rail */
#define ROCE_RESPONDER_ANSWERS_MAX 256

struct roce_responder_stats {
	unsigned answered;
	unsigned untagged; /* not a probe of ours: no tag, another key, malformed */
	unsigned stranger; /* tagged, but from an address that is not the job's */
	unsigned over;     /* past ROCE_RESPONDER_ANSWERS_MAX */
	unsigned done;     /* dones from the job's addresses: their probers have finished */
};

struct roce_responder {
	struct roce_probewire_key key;
	size_t n;
	int fd[ROCE_RESPONDER_SOCKETS_MAX];
	uint16_t port[ROCE_RESPONDER_SOCKETS_MAX]; /* the bound port, host order */
	size_t n_peers;
	struct sockaddr_storage peers[ROCE_RESPONDER_PEERS_MAX]; /* addresses only: the port is not compared */
	struct roce_responder_stats stats;
	uint8_t *buf; /* ROCE_PROBEWIRE_MAX + 1: a larger datagram is seen truncated */
};

/* Sockets on local[0..n) (each an address with a port, 0 any), with
 * IP_RECVTOS or IPV6_RECVTCLASS.  0, or -1 with err naming the address
 * (or ENOMEM); nothing is left open then. */
int roce_responder_open(struct roce_responder *r, const struct roce_probewire_key *key,
                        const struct sockaddr_storage *local, size_t n, struct roce_error *err);
/* The addresses whose probes get an answer (at most
 * ROCE_RESPONDER_PEERS_MAX; more is -1). */
int roce_responder_allow(struct roce_responder *r, const struct sockaddr_storage *peers, size_t n);
/* Read every datagram waiting on socket i and answer those to answer. */
void roce_responder_handle(struct roce_responder *r, size_t i);
void roce_responder_close(struct roce_responder *r);

#endif
