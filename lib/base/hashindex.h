/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hashindex.h - an index from keys to the positions of entries in the
 * caller's array: found and added in constant time on average, whatever
 * the keys.  The index keeps only each entry's hash and position; the
 * caller keeps the entries and says whether the entry at a position has
 * the key looked for.
 *
 * Keys come from files others write (fragments: verdict codes, device
 * names), so the hash is keyed: SipHash-1-3 with a key drawn at random once
 * per process (getrandom), and no set of names can be made to collide on
 * purpose.  Only which entry is found depends on the index, never an
 * order: output stays the same from run to run.
 */
#ifndef ROCE_HASHINDEX_H
#define ROCE_HASHINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct roce_hashindex_slot {
	uint64_t hash;
	size_t pos; /* the entry's position + 1; 0: an empty slot */
};

/* A zeroed one is empty. */
struct roce_hashindex {
	struct roce_hashindex_slot *slot;
	size_t cap, n; /* cap: 0 or a power of two, at least twice n */
};

/* The hash of len bytes at data. */
uint64_t roce_hashindex_hash(const void *data, size_t len);

/* Whether the entry at pos has the key the caller looks for (arg). */
typedef bool (*roce_hashindex_eq_fn)(size_t pos, const void *arg);

/* The position of an entry with that hash for which eq says yes, or
 * SIZE_MAX when there is none. */
size_t roce_hashindex_find(const struct roce_hashindex *x, uint64_t hash, roce_hashindex_eq_fn eq, const void *arg);
/* Index the entry at pos under hash (not found before: the caller looked).
 * 0, or -1 on ENOMEM (the index is unchanged). */
int roce_hashindex_add(struct roce_hashindex *x, uint64_t hash, size_t pos);
/* Empty again; a small index keeps its memory for the next keys. */
void roce_hashindex_clear(struct roce_hashindex *x);
void roce_hashindex_free(struct roce_hashindex *x);

#endif
