/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_arena.c - memory freed all at once (lib/base/arena.h), as a fragment keeps it. */
#include "config.h"
#include "unit.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif
#include "base/printable.h"

/* Blocks are aligned for any type, text is packed, and every block stays
 * as written while the arena takes chunk after chunk. */
static void blocks_survive_chunks(void **state)
{
	(void)state;
	struct roce_arena a = { 0 };
	char *strs[500];
	uint64_t *arrs[500];
	char *c = roce_arena_chars(&a, 3);   /* leaves the head unaligned */
	assert_non_null(c);
	for (int i = 0; i < 500; i++) {
		char text[32];
		snprintf(text, sizeof(text), "string %d", i);
		assert_non_null(strs[i] = roce_arena_strdup(&a, text));
		assert_non_null(arrs[i] = roce_arena_alloc(&a, (size_t)(i % 7 + 1) * sizeof(uint64_t)));
		assert_int_equal((uintptr_t)arrs[i] % alignof(max_align_t), 0);
		for (int k = 0; k <= i % 7; k++)
			arrs[i][k] = (uint64_t)i * 100 + (uint64_t)k;
	}
	for (int i = 0; i < 500; i++) {
		char text[32];
		snprintf(text, sizeof(text), "string %d", i);
		assert_string_equal(strs[i], text);
		for (int k = 0; k <= i % 7; k++)
			assert_true(arrs[i][k] == (uint64_t)i * 100 + (uint64_t)k);
	}
	/* larger than any chunk: a chunk of its own */
	char *big = roce_arena_alloc(&a, 100000);
	assert_non_null(big);
	memset(big, 'x', 100000);
	assert_string_equal(strs[499], "string 499");
	roce_arena_free(&a);
	assert_null(a.head);
}

/* An array grows with its entries kept and the new ones zeroed: in place
 * when it is the last block, else copied (the first size given is used). */
static void grow_keeps_and_zeroes(void **state)
{
	(void)state;
	struct roce_arena a = { .first = 4096 };
	int *v = roce_arena_grow(&a, NULL, 0, 4 * sizeof(int));
	assert_non_null(v);
	for (int i = 0; i < 4; i++)
		assert_int_equal(v[i], 0);
	v[0] = 1, v[3] = 4;
	int *w = roce_arena_grow(&a, v, 4 * sizeof(int), 8 * sizeof(int));
	assert_ptr_equal(w, v);   /* the last block: in place */
	assert_int_equal(w[0], 1);
	assert_int_equal(w[3], 4);
	assert_int_equal(w[7], 0);
	w[7] = 8;
	assert_non_null(roce_arena_strdup(&a, "between"));
	int *x = roce_arena_grow(&a, w, 8 * sizeof(int), 16 * sizeof(int));
	assert_ptr_not_equal(x, w);   /* no longer the last: copied */
	assert_int_equal(x[0], 1);
	assert_int_equal(x[7], 8);
	for (int i = 8; i < 16; i++)
		assert_int_equal(x[i], 0);
	/* past the chunk: copied into a new one */
	int *y = roce_arena_grow(&a, x, 16 * sizeof(int), 4096 * sizeof(int));
	assert_non_null(y);
	assert_int_equal(y[7], 8);
	assert_int_equal(y[4095], 0);
	roce_arena_free(&a);
}

/* The escaped copy in an arena is the escaped copy. */
static void printable_in_arena(void **state)
{
	(void)state;
	struct roce_arena a = { 0 };
	const char *texts[] = { "mlx5_0", "a\nb\x1b[31m\xff\\", "", NULL };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *heap = roce_printable_dup(texts[i]);
		char *in = roce_printable_dup_in(&a, texts[i]);
		assert_non_null(in);
		assert_string_equal(in, heap);
		free(heap);
	}
	roce_arena_free(&a);
}

/* Many arenas from one pool: each block its own, aligned, kept as written
 * while the pool takes region after region (more than one 32 MiB region's
 * worth here); freeing an arena leaves the pool's memory to the pool, and
 * a chunk too large for the pool is malloc'd and freed with its arena
 * (ASan and valgrind see a leak or a double free). */
static void pooled_arenas(void **state)
{
	(void)state;
	enum { N = 96, BLOCK = 500 << 10 };
	struct roce_arena_pool *pool = roce_arena_pool_new();
	assert_non_null(pool);
	struct roce_arena a[N];
	unsigned char *b[N];
	for (int i = 0; i < N; i++) {
		a[i] = (struct roce_arena){ .pool = pool, .first = BLOCK };
		b[i] = roce_arena_alloc(&a[i], BLOCK);
		assert_non_null(b[i]);
		assert_int_equal((uintptr_t)b[i] % alignof(max_align_t), 0);
		memset(b[i], i, BLOCK);
	}
	for (int i = 0; i < N; i++)
		for (int k = 0; k < BLOCK; k += 4093)
			assert_int_equal(b[i][k], (unsigned char)i);
#ifdef __SANITIZE_ADDRESS__
	/* the byte after a pooled chunk is ASan's, as after a malloc'd block */
	for (int i = 0; i < N; i++) {
		assert_false(__asan_address_is_poisoned(b[i] + BLOCK - 1));
		assert_true(__asan_address_is_poisoned(b[i] + BLOCK));
	}
#endif
	/* larger than a pool gives: malloc'd, freed by roce_arena_free */
	char *big = roce_arena_alloc(&a[0], 8u << 20);
	assert_non_null(big);
	memset(big, 1, 8u << 20);
	for (int i = 0; i < N; i += 2)
		roce_arena_free(&a[i]);
	assert_null(a[0].pool);
	for (int i = 1; i < N; i += 2)
		assert_int_equal(b[i][BLOCK - 1], (unsigned char)i);
	for (int i = 1; i < N; i += 2)
		roce_arena_free(&a[i]);
	roce_arena_pool_free(pool);
	roce_arena_pool_free(NULL);
}

/* Two threads' pools joined into one: every block of both still there,
 * later chunks still cut (also for an arena of the pool joined away: a
 * report's nodes get their verdicts after the merge), one free releases it
 * all.  Under ASan, a pool freed by the join is a use after free here. */
static void pools_join(void **state)
{
	(void)state;
	struct roce_arena_pool *p = roce_arena_pool_new(), *q = roce_arena_pool_new();
	assert_non_null(p);
	assert_non_null(q);
	struct roce_arena a = { .pool = p }, b = { .pool = q }, c = { 0 };
	char *x = roce_arena_strdup(&a, "from p"), *y = roce_arena_strdup(&b, "from q");
	struct roce_arena_pool *both = roce_arena_pool_join(p, q);
	assert_ptr_equal(both, p);
	assert_ptr_equal(roce_arena_pool_join(NULL, both), both);
	assert_ptr_equal(roce_arena_pool_join(both, NULL), both);
	c.pool = both;
	char *z = roce_arena_strdup(&c, "after the join");
	/* larger than b's first chunk: a new one, from q */
	char *w = roce_arena_alloc(&b, 4 * 1024);
	assert_non_null(w);
	memset(w, 'w', 4 * 1024);
	assert_string_equal(x, "from p");
	assert_string_equal(y, "from q");
	assert_string_equal(z, "after the join");
	assert_int_equal(w[0], 'w');
	assert_int_equal(w[4 * 1024 - 1], 'w');
	roce_arena_free(&a);
	roce_arena_free(&b);
	roce_arena_free(&c);
	roce_arena_pool_free(both);
}

/* The transparent huge page mode: "always", "madvise" or "never" (the
 * bracketed word), or "" when the kernel has none. */
static void thp_mode(char *mode, size_t len)
{
	char line[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	mode[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
		if (close)
			snprintf(mode, len, "%.*s", (int)(close - open - 1), open + 1);
	}
	fclose(f);
}

/* The kernel's word on the mapping holding p: its smaps "THPeligible" line
 * (1: a huge page may back it), -1 when not found. */
static int thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	int eligible = -1;
	bool in = false;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && sscanf(line, "THPeligible: %d", &eligible) == 1)
			break;
	}
	fclose(f);
	return eligible;
}

/* A pool's region is advised for huge pages: where the kernel has them in
 * "madvise" or "always" mode, smaps says the mapping is eligible (whether
 * a huge page is free at the fault is the kernel's business). */
static void pool_asks_for_huge_pages(void **state)
{
	(void)state;
	char mode[16];
	thp_mode(mode, sizeof(mode));
	if (strcmp(mode, "madvise") != 0 && strcmp(mode, "always") != 0)
		skip();
	struct roce_arena_pool *pool = roce_arena_pool_new();
	struct roce_arena a = { .pool = pool }, m = { 0 };
	char *pooled = roce_arena_alloc(&a, 4096), *plain = roce_arena_alloc(&m, 4096);
	assert_non_null(pooled);
	assert_non_null(plain);
	pooled[0] = plain[0] = 1;
	assert_int_equal(thp_eligible(pooled), 1);
	if (strcmp(mode, "madvise") == 0)
		assert_int_equal(thp_eligible(plain), 0);   /* the check can fail: malloc's heap is not advised */
	roce_arena_free(&a);
	roce_arena_free(&m);
	roce_arena_pool_free(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_survive_chunks),
		cmocka_unit_test(grow_keeps_and_zeroes),
		cmocka_unit_test(printable_in_arena),
		cmocka_unit_test(pooled_arenas),
		cmocka_unit_test(pools_join),
		cmocka_unit_test(pool_asks_for_huge_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
