/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arena.c - memory freed all at once (arena.h). */
#include "config.h"
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The least a chunk holds: the first chunk when a->first is not set; a
 * later one (a fragment larger than its text promised) large enough that
 * a few verdicts more need no other, small enough to cost little per node. */
#define CHUNK_MIN 1024

struct roce_arena_chunk {
	struct roce_arena_chunk *next;
	size_t used, cap;            /* bytes of data */
	size_t last;                 /* offset of the last aligned block, for roce_arena_grow */
	max_align_t data[];
};

/* A new head chunk with room for at least size bytes. */
static struct roce_arena_chunk *chunk_new(struct roce_arena *a, size_t size)
{
	size_t cap = !a->head && a->first ? a->first : CHUNK_MIN;
	if (cap < size)
		cap = size;
	if (cap > SIZE_MAX - sizeof(struct roce_arena_chunk))
		return NULL;
	struct roce_arena_chunk *c = malloc(sizeof(*c) + cap);
	if (!c)
		return NULL;
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

void *roce_arena_alloc(struct roce_arena *a, size_t size)
{
	return take(a, size, alignof(max_align_t));
}

char *roce_arena_chars(struct roce_arena *a, size_t size)
{
	return take(a, size, 1);
}

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
		c->used = c->last + new_size;   /* the last block: extended where it is */
	} else {
		if (!(b = roce_arena_alloc(a, new_size)))
			return NULL;
		if (old_size)
			memcpy(b, old, old_size);   /* old stays in its chunk, unused, until the arena is freed */
	}
	memset(b + old_size, 0, new_size - old_size);
	return b;
}

void roce_arena_free(struct roce_arena *a)
{
	for (struct roce_arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->first = 0;
}
