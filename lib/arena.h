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
 */
#ifndef ROCE_ARENA_H
#define ROCE_ARENA_H

#include <stddef.h>

struct roce_arena_chunk;

struct roce_arena {
	struct roce_arena_chunk *head;   /* the chunk allocated from; older ones after it */
	size_t first;                    /* the first chunk's size when set before it is made; 0 a default */
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
/* Every block at once; a is empty again (and its first size forgotten). */
void roce_arena_free(struct roce_arena *a);

#endif
