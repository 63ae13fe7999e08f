/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probewire.c - the path probe's datagrams: built, parsed as hostile, tagged. */
#include "config.h"

#include <string.h>

#include "base/sha256.h"
#include "probe/probewire.h"

#define TAG_AT 24
#define TAG_LEN 16
#define BLOCK 64 /* SHA-256's block */

static const uint8_t magic[4] = { 'R', 'P', 'R', 'B' };

/* HMAC-SHA256 (RFC 2104) of the header's first TAG_AT bytes, cut to TAG_LEN. */
static void tag_of(const struct roce_probewire_key *key, const uint8_t *hdr, uint8_t out[TAG_LEN])
{
	uint8_t in[BLOCK + ROCE_SHA256_LEN > BLOCK + TAG_AT ? BLOCK + ROCE_SHA256_LEN : BLOCK + TAG_AT];
	uint8_t inner[ROCE_SHA256_LEN], full[ROCE_SHA256_LEN];
	memset(in, 0x36, BLOCK);
	for (size_t i = 0; i < ROCE_PROBEWIRE_KEY_LEN; i++)
		in[i] ^= key->k[i];
	memcpy(in + BLOCK, hdr, TAG_AT);
	roce_sha256(in, BLOCK + TAG_AT, inner);
	memset(in, 0x5c, BLOCK);
	for (size_t i = 0; i < ROCE_PROBEWIRE_KEY_LEN; i++)
		in[i] ^= key->k[i];
	memcpy(in + BLOCK, inner, ROCE_SHA256_LEN);
	roce_sha256(in, BLOCK + ROCE_SHA256_LEN, full);
	memcpy(out, full, TAG_LEN);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int roce_probewire_build(const struct roce_probewire_key *key, struct roce_probewire_msg *m, uint8_t *buf, size_t len)
{
	bool probe = m->kind == ROCE_PROBEWIRE_PROBE;
	if (probe ? (len < ROCE_PROBEWIRE_HDR || len > ROCE_PROBEWIRE_MAX) : len != ROCE_PROBEWIRE_HDR)
		return -1;
	if (probe) {
		m->bytes = (uint32_t)len;
		m->tos_known = false;
	}
	if (m->kind == ROCE_PROBEWIRE_DONE) {
		m->bytes = 0;
		m->tos = 0;
		m->tos_known = false;
	}
	memset(buf, 0, len);
	memcpy(buf, magic, sizeof(magic));
	buf[4] = 1;
	buf[5] = (uint8_t)m->kind;
	put16(buf + 6, m->seq);
	put32(buf + 8, m->bytes);
	buf[12] = m->tos;
	buf[13] = m->tos_known ? 1 : 0;
	put32(buf + 16, (uint32_t)(m->session >> 32));
	put32(buf + 20, (uint32_t)m->session);
	tag_of(key, buf, buf + TAG_AT);
	return 0;
}

int roce_probewire_parse(const struct roce_probewire_key *key, const uint8_t *buf, size_t len,
                         struct roce_probewire_msg *m)
{
	uint8_t want[TAG_LEN], diff = 0;
	if (len < ROCE_PROBEWIRE_HDR || len > ROCE_PROBEWIRE_MAX || memcmp(buf, magic, sizeof(magic)) != 0 ||
	    buf[4] != 1 || buf[5] < ROCE_PROBEWIRE_PROBE || buf[5] > ROCE_PROBEWIRE_DONE || buf[13] > 1 ||
	    buf[14] || buf[15])
		return -1;
	tag_of(key, buf, want);
	for (size_t i = 0; i < TAG_LEN; i++)
		diff |= (uint8_t)(want[i] ^ buf[TAG_AT + i]);
	if (diff)
		return -1;
	m->kind = (enum roce_probewire_kind)buf[5];
	m->seq = (uint16_t)(buf[6] << 8 | buf[7]);
	m->bytes = get32(buf + 8);
	m->tos = buf[12];
	m->tos_known = buf[13] == 1;
	m->session = (uint64_t)get32(buf + 16) << 32 | get32(buf + 20);
	if (m->kind == ROCE_PROBEWIRE_PROBE ? (m->bytes != len || m->tos_known)
	    : m->kind == ROCE_PROBEWIRE_DONE
	            ? (len != ROCE_PROBEWIRE_HDR || m->bytes || m->tos || m->tos_known)
	            : (len != ROCE_PROBEWIRE_HDR || m->bytes < ROCE_PROBEWIRE_HDR || m->bytes > ROCE_PROBEWIRE_MAX))
		return -1;
	return 0;
}

unsigned roce_probewire_ip_udp(int family) { return (family == 6 ? 40u : 20u) + 8u; }

/* BTH 12, RETH 16, immediate data 4, ICRC 4: the largest packet of an RDMA
 * write (its only packet, with immediate data), as NCCL sends them. */
unsigned roce_probewire_roce_size(int family, int mtu)
{
	return roce_probewire_ip_udp(family) + 12u + 16u + 4u + (unsigned)mtu + 4u;
}
