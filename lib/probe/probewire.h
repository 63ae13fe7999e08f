/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probewire.h - the path probe's datagrams (issue 27), as bytes.  Pure.
 *
 * A probe is a UDP datagram from a node's rail address to its ring
 * neighbour's address on the same rail; the answer tells what arrived.
 * Both carry a tag: the first 16 bytes of HMAC-SHA256 under the job's key
 * (a per-job secret its nodes share through SharedDir, root's only) over
 * the header, so a datagram from anyone without the key is no probe and no
 * answer.  Big-endian:
 *
 *    0  "RPRB"
 *    4  version (1)
 *    5  kind: 1 a probe, 2 an answer, 3 done (the prober has finished:
 *       its neighbour's responder need not wait for it any longer)
 *    6  seq: the prober's number for this datagram (echoed)
 *    8  a probe: the UDP payload bytes sent; an answer: those received
 *   12  a probe: the TOS byte sent; an answer: the TOS byte received
 *   13  an answer: 1 when the TOS byte was read (IP_RECVTOS), else 0
 *   14  zero
 *   16  session: the prober's random number for this run (echoed: an old
 *       answer replayed is no answer to this run)
 *   24  tag over bytes 0..23
 *   40  a probe only: zeros up to the size being probed
 *
 * An answer and a done are 40 bytes (a done's bytes 8..13 zero); an answer is never more than the probe it answers (no
 * amplification).  Every datagram read is hostile: the parsers check the
 * length, every field and the tag, in constant time for the tag.
 */
#ifndef ROCE_PROBEWIRE_H
#define ROCE_PROBEWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_PROBEWIRE_KEY_LEN 32
#define ROCE_PROBEWIRE_HDR 40    /* a probe's smallest payload, an answer's only size */
#define ROCE_PROBEWIRE_MAX 65507 /* the largest UDP payload over IPv4 */

enum roce_probewire_kind { ROCE_PROBEWIRE_PROBE = 1, ROCE_PROBEWIRE_ANSWER = 2, ROCE_PROBEWIRE_DONE = 3 };

struct roce_probewire_key {
	uint8_t k[ROCE_PROBEWIRE_KEY_LEN];
};

struct roce_probewire_msg {
	enum roce_probewire_kind kind;
	uint16_t seq;
	uint32_t bytes; /* UDP payload: sent (a probe), received (an answer) */
	uint8_t tos;
	bool tos_known; /* an answer: the responder read the TOS byte */
	uint64_t session;
};

/* m as a datagram of len bytes (a probe: len >= ROCE_PROBEWIRE_HDR, m->bytes
 * is set to len; an answer or a done: len == ROCE_PROBEWIRE_HDR) into buf.  -1 when
 * len does not fit the kind. */
int roce_probewire_build(const struct roce_probewire_key *key, struct roce_probewire_msg *m, uint8_t *buf, size_t len);

/* A datagram of len bytes -> m: 0, or -1 when it is no datagram of ours
 * under key (length, magic, version, kind, zero bytes, the tag; a probe
 * whose bytes is not len).  Constant time over the tag. */
int roce_probewire_parse(const struct roce_probewire_key *key, const uint8_t *buf, size_t len,
                         struct roce_probewire_msg *m);

/* The IP packet of a full RoCE v2 packet at RDMA MTU mtu (256..4096): the
 * IP (20 or 40 bytes for family 4 or 6) and UDP headers, BTH, RETH and
 * immediate data (an RDMA write's only packet), the payload and the ICRC. */
unsigned roce_probewire_roce_size(int family, int mtu);
/* The IP and UDP headers of family (4 or 6): an IP packet of size bytes
 * carries size minus this much UDP payload. */
unsigned roce_probewire_ip_udp(int family);

#endif
