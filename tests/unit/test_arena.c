/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_arena.c - memory freed all at once (lib/arena.h), as a fragment keeps it. */
#include "config.h"
#include "unit.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "printable.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_survive_chunks),
		cmocka_unit_test(grow_keeps_and_zeroes),
		cmocka_unit_test(printable_in_arena),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
