/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arena.h - memory that is freed all at once: a node fragment keeps its
 * strings and arrays in one (fragment.h), so the merge of 16,384 fragments
 * costs a malloc or two per fragment instead of a hundred, and freeing one
 * is a walk down a short chunk list.
 *
 * Blocks are never freed one by one: a block given up (an array that grew
 * elsewhere) stays in its chunk until the arena is freed.  A zeroed struct
 * roce_arena is an empty arena; it may be moved (copied by value) while it
 * holds memory, as the merge moves fragments.
 *
 * A pool (roce_arena_pool_new) serves arenas that are made by the
 * thousand and freed together, a large job's fragments: their chunks are
 * cut from large regions the kernel is asked to back with huge pages
 * (MADV_HUGEPAGE), so filling 100 MB costs about fifty page faults instead
 * of 28,000 (a fault of a fresh 4 KiB page took 5-27 us on the machines
 * measured, most of a 16,384-node merge's system time).  A pooled chunk is
 * freed with the pool, not with its arena.  A pool is one thread's.
 */
#ifndef ROCE_ARENA_H
#define ROCE_ARENA_H

#include <stddef.h>

struct roce_arena_chunk;
struct roce_arena_pool;

struct roce_arena {
	struct roce_arena_chunk *head; /* the chunk allocated from; older ones after it */
	size_t first;                  /* the first chunk's size when set before it is made; 0 a default */
	struct roce_arena_pool *pool;  /* where chunks come from when set; NULL: malloc */
};

/* size bytes, aligned for any type, uninitialised; NULL on ENOMEM. */
void *roce_arena_alloc(struct roce_arena *a, size_t size);
/* size bytes for text (no alignment); NULL on ENOMEM. */
char *roce_arena_chars(struct roce_arena *a, size_t size);
/* A copy of s (NULL on ENOMEM). */
char *roce_arena_strdup(struct roce_arena *a, const char *s);
/* Block old of old_size bytes (NULL, 0: none) as one of new_size >= old_size,
 * the new bytes zeroed: extended in place when it is the chunk's last block
 * and there is room, else copied (the old block is abandoned).  NULL on
 * ENOMEM, old then unchanged. */
void *roce_arena_grow(struct roce_arena *a, void *old, size_t old_size, size_t new_size);
/* Every block at once (a pooled chunk stays in its pool); a is empty again
 * (its first size and pool forgotten). */
void roce_arena_free(struct roce_arena *a);

/* An empty pool; NULL on ENOMEM. */
struct roce_arena_pool *roce_arena_pool_new(void);
/* One pool owning both (either may be NULL): from is joined into to, and
 * the arenas of each go on taking chunks from their own; freeing the
 * result frees both.  The result, all of it, is the calling thread's. */
struct roce_arena_pool *roce_arena_pool_join(struct roce_arena_pool *to, struct roce_arena_pool *from);
/* Every region at once: every arena that used p must be done with. */
void roce_arena_pool_free(struct roce_arena_pool *p);

#endif
