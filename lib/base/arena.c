/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arena.c - memory freed all at once (arena.h). */
#include "config.h"
#include "base/arena.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The least a chunk holds: the first chunk when a->first is not set; a
 * later one (a fragment larger than its text promised) large enough that
 * a few verdicts more need no other, small enough to cost little per node. */
#define CHUNK_MIN 1024

struct roce_arena_chunk {
	struct roce_arena_chunk *next;
	size_t used, cap; /* bytes of data */
	size_t last;      /* offset of the last aligned block, for roce_arena_grow */
	bool pooled;      /* in a pool's region: freed with the pool */
	max_align_t data[];
};

/* ---------------------------------------------------------------- pools */

#define HUGE_PAGE (2u << 20)     /* x86-64's and arm64's (4 KiB base pages) PMD size */
#define REGION (32u << 20)       /* address space only: what is not used is never touched */
#define POOLED_MAX (REGION / 16) /* a larger chunk is malloc'd */

/* Under AddressSanitizer a region is poisoned but for the chunks handed
 * out, each followed by a poisoned gap: ASan sees a pooled fragment's
 * overflow as it sees a malloc'd one's. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define REDZONE 64
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define REDZONE 0
#endif

struct region {
	struct region *next;
	void *map;
	size_t len;
};

struct roce_arena_pool {
	struct region *regions; /* the newest first: at..end is left of it */
	char *at, *end;
	struct roce_arena_pool *joined; /* pools joined into this one: freed with it */
};

struct roce_arena_pool *roce_arena_pool_new(void) { return calloc(1, sizeof(struct roce_arena_pool)); }

/* A new region, aligned to a huge page so that all of it can be one. */
static int region_new(struct roce_arena_pool *p)
{
	struct region *r = malloc(sizeof(*r));
	if (!r)
		return -1;
	r->len = REGION + HUGE_PAGE;
	r->map = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->map == MAP_FAILED) {
		free(r);
		return -1;
	}
	char *start = (char *)(((uintptr_t)r->map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	/* Advice only: without transparent huge pages (EINVAL) or with them
	 * off, the region is plain memory and still one mmap for many nodes. */
	(void)madvise(start, REGION, MADV_HUGEPAGE);
	ASAN_POISON_MEMORY_REGION(r->map, r->len);
	r->next = p->regions;
	p->regions = r;
	p->at = start;
	p->end = start + REGION;
	return 0;
}

/* size bytes for a chunk (aligned as malloc's), or NULL: the caller then mallocs. */
static void *pool_take(struct roce_arena_pool *p, size_t size)
{
	size_t take = (size + REDZONE + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (take > POOLED_MAX)
		return NULL;
	if ((!p->regions || take > (size_t)(p->end - p->at)) && region_new(p) < 0)
		return NULL;
	void *c = p->at;
	p->at += take;
	ASAN_UNPOISON_MEMORY_REGION(c, size);
	return c;
}

struct roce_arena_pool *roce_arena_pool_join(struct roce_arena_pool *to, struct roce_arena_pool *from)
{
	if (!to || !from)
		return to ? to : from;
	/* from (and what was joined into it) stays as it is, for the arenas
	 * that take chunks from it, and goes on to's list */
	struct roce_arena_pool *last = from;
	while (last->joined)
		last = last->joined;
	last->joined = to->joined;
	to->joined = from;
	return to;
}

void roce_arena_pool_free(struct roce_arena_pool *p)
{
	for (struct roce_arena_pool *next; p; p = next) {
		next = p->joined;
		for (struct region *r = p->regions, *rn; r; r = rn) {
			rn = r->next;
			ASAN_UNPOISON_MEMORY_REGION(r->map, r->len); /* the next mapping there is not ours */
			munmap(r->map, r->len);
			free(r);
		}
		free(p);
	}
}

/* ---------------------------------------------------------------- arenas */

/* A new head chunk with room for at least size bytes. */
static struct roce_arena_chunk *chunk_new(struct roce_arena *a, size_t size)
{
	size_t cap = !a->head && a->first ? a->first : CHUNK_MIN;
	if (cap < size)
		cap = size;
	if (cap > SIZE_MAX - sizeof(struct roce_arena_chunk))
		return NULL;
	struct roce_arena_chunk *c = a->pool ? pool_take(a->pool, sizeof(*c) + cap) : NULL;
	bool pooled = c != NULL;
	if (!c && !(c = malloc(sizeof(*c) + cap)))
		return NULL;
	c->pooled = pooled;
	c->next = a->head;
	c->used = 0;
	c->cap = cap;
	c->last = SIZE_MAX;
	a->head = c;
	return c;
}

/* size bytes at an offset that is a multiple of align. */
static void *take(struct roce_arena *a, size_t size, size_t align)
{
	struct roce_arena_chunk *c = a->head;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || at > c->cap || size > c->cap - at) {
		/* The rest of the old head is abandoned: only the head is allocated from. */
		if (!(c = chunk_new(a, size)))
			return NULL;
		at = 0;
	}
	c->used = at + size;
	if (align > 1)
		c->last = at;
	return (char *)c->data + at;
}

void *roce_arena_alloc(struct roce_arena *a, size_t size) { return take(a, size, alignof(max_align_t)); }

char *roce_arena_chars(struct roce_arena *a, size_t size) { return take(a, size, 1); }

char *roce_arena_strdup(struct roce_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = roce_arena_chars(a, n);
	return d ? memcpy(d, s, n) : NULL;
}

void *roce_arena_grow(struct roce_arena *a, void *old, size_t old_size, size_t new_size)
{
	struct roce_arena_chunk *c = a->head;
	char *b = old;
	if (old && c && c->last != SIZE_MAX && b == (char *)c->data + c->last && c->used == c->last + old_size &&
	    new_size - old_size <= c->cap - c->used) {
		c->used = c->last + new_size; /* the last block: extended where it is */
	} else {
		if (!(b = roce_arena_alloc(a, new_size)))
			return NULL;
		if (old_size)
			memcpy(b, old, old_size); /* old stays in its chunk, unused, until the arena is freed */
	}
	memset(b + old_size, 0, new_size - old_size);
	return b;
}

void roce_arena_free(struct roce_arena *a)
{
	for (struct roce_arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		if (!c->pooled)
			free(c);
	}
	a->head = NULL;
	a->first = 0;
	a->pool = NULL;
}
