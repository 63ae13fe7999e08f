/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hashindex.c - keys to positions by a keyed hash (hashindex.h). */
#include "config.h"
#include "base/hashindex.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- SipHash-1-3 */

static uint64_t sip_key[2];
static pthread_once_t sip_once = PTHREAD_ONCE_INIT;

/* Drawn once per process.  Without getrandom (very early boot) the key is
 * weaker, not fixed: the clock and the pid. */
static void sip_init(void)
{
	if (getrandom(sip_key, sizeof(sip_key), GRND_NONBLOCK) == (ssize_t)sizeof(sip_key))
		return;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sip_key[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)getpid();
	sip_key[1] = (uint64_t)ts.tv_sec * 0xc2b2ae3d27d4eb4fu ^ (uint64_t)(uintptr_t)&ts;
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static void sip_round(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = ROTL(v[1], 13);
	v[1] ^= v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3];
	v[3] = ROTL(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = ROTL(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = ROTL(v[1], 17);
	v[1] ^= v[2];
	v[2] = ROTL(v[2], 32);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = x << 8 | p[i];
	return x;
}

uint64_t roce_hashindex_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	pthread_once(&sip_once, sip_init);
	uint64_t v[4] = { sip_key[0] ^ 0x736f6d6570736575u, sip_key[1] ^ 0x646f72616e646f6du,
		          sip_key[0] ^ 0x6c7967656e657261u, sip_key[1] ^ 0x7465646279746573u };
	size_t whole = len - len % 8;
	for (size_t i = 0; i < whole; i += 8) {
		uint64_t m = le64(p + i);
		v[3] ^= m;
		sip_round(v);
		v[0] ^= m;
	}
	unsigned char last[8] = { 0 };
	memcpy(last, p + whole, len % 8);
	uint64_t m = le64(last) | (uint64_t)len << 56;
	v[3] ^= m;
	sip_round(v);
	v[0] ^= m;
	v[2] ^= 0xff;
	for (int i = 0; i < 3; i++)
		sip_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* ---------------------------------------------------------------- the index */

size_t roce_hashindex_find(const struct roce_hashindex *x, uint64_t hash, roce_hashindex_eq_fn eq, const void *arg)
{
	if (!x->cap)
		return SIZE_MAX;
	for (size_t i = hash & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
		const struct roce_hashindex_slot *s = &x->slot[i];
		if (!s->pos)
			return SIZE_MAX;
		if (s->hash == hash && eq(s->pos - 1, arg))
			return s->pos - 1;
	}
}

/* Linear probing: the first empty slot from the hash's own. */
static void put(struct roce_hashindex_slot *slot, size_t cap, uint64_t hash, size_t pos)
{
	size_t i = hash & (cap - 1);
	while (slot[i].pos)
		i = (i + 1) & (cap - 1);
	slot[i] = (struct roce_hashindex_slot){ hash, pos };
}

int roce_hashindex_add(struct roce_hashindex *x, uint64_t hash, size_t pos)
{
	if (2 * (x->n + 1) > x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		struct roce_hashindex_slot *slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return -1;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slot[i].pos)
				put(slot, cap, x->slot[i].hash, x->slot[i].pos);
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	put(x->slot, x->cap, hash, pos + 1);
	x->n++;
	return 0;
}

/* Slots kept by a clear: an index reused for many small key sets (a
 * fragment's ports) must not clear a large one's slots each time. */
#define KEEP_SLOTS 1024

void roce_hashindex_clear(struct roce_hashindex *x)
{
	if (x->cap > KEEP_SLOTS)
		roce_hashindex_free(x);
	else if (x->cap)
		memset(x->slot, 0, x->cap * sizeof(*x->slot));
	x->n = 0;
}

void roce_hashindex_free(struct roce_hashindex *x)
{
	free(x->slot);
	memset(x, 0, sizeof(*x));
}
