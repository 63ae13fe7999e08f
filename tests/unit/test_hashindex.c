/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_hashindex.c - keys to positions by a keyed hash (lib/base/hashindex.c). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashindex.h"

#define N 100000

static char keys[N][12];

struct probe {
	const char *key;
};

static bool eq(size_t pos, const void *arg)
{
	return strcmp(keys[pos], ((const struct probe *)arg)->key) == 0;
}

static size_t find(const struct roce_hashindex *x, const char *key)
{
	struct probe p = { key };
	return roce_hashindex_find(x, roce_hashindex_hash(key, strlen(key)), eq, &p);
}

static void t_add_find(void **state)
{
	(void)state;
	struct roce_hashindex x = { 0 };
	assert_int_equal(find(&x, "c0"), SIZE_MAX); /* empty */
	for (size_t i = 0; i < N; i++) {
		snprintf(keys[i], sizeof(keys[i]), "c%zu", i);
		assert_int_equal(find(&x, keys[i]), SIZE_MAX);
		assert_int_equal(roce_hashindex_add(&x, roce_hashindex_hash(keys[i], strlen(keys[i])), i), 0);
	}
	assert_int_equal(x.n, N);
	assert_true(x.cap >= 2 * N && (x.cap & (x.cap - 1)) == 0);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(find(&x, keys[i]), i);
	assert_int_equal(find(&x, "c100000"), SIZE_MAX);
	assert_int_equal(find(&x, ""), SIZE_MAX);
	/* a large index is given back when cleared; a small one is kept */
	roce_hashindex_clear(&x);
	assert_int_equal(x.n, 0);
	assert_int_equal(x.cap, 0);
	assert_int_equal(find(&x, "c1"), SIZE_MAX);
	assert_int_equal(roce_hashindex_add(&x, roce_hashindex_hash("c1", 2), 1), 0);
	size_t cap = x.cap;
	roce_hashindex_clear(&x);
	assert_int_equal(x.cap, cap);
	assert_int_equal(find(&x, "c1"), SIZE_MAX);
	roce_hashindex_free(&x);
}

/* Entries of the same hash are told apart by eq: found whatever collides. */
static void t_collisions(void **state)
{
	(void)state;
	struct roce_hashindex x = { 0 };
	for (size_t i = 0; i < 1000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
		assert_int_equal(roce_hashindex_add(&x, 42, i), 0);
	}
	for (size_t i = 0; i < 1000; i++) {
		struct probe p = { keys[i] };
		assert_int_equal(roce_hashindex_find(&x, 42, eq, &p), i);
		assert_int_equal(roce_hashindex_find(&x, 43, eq, &p), SIZE_MAX);
	}
	roce_hashindex_free(&x);
}

static void t_hash(void **state)
{
	(void)state;
	/* the same bytes, the same hash (within a process); length counts */
	assert_true(roce_hashindex_hash("mlx5_0:1", 8) == roce_hashindex_hash("mlx5_0:1", 8));
	assert_true(roce_hashindex_hash("a", 1) != roce_hashindex_hash("a\0", 2));
	assert_true(roce_hashindex_hash("", 0) != roce_hashindex_hash("\0", 1));
	/* every tail length of a block hashes apart */
	const char *s = "0123456789abcdefg";
	for (size_t i = 0; i < strlen(s); i++)
		for (size_t j = 0; j < i; j++)
			assert_true(roce_hashindex_hash(s, i) != roce_hashindex_hash(s, j));
	/* the low bits (the slot) spread: 4096 keys over 4096 slots, no slot with many */
	unsigned count[4096] = { 0 }, most = 0;
	for (size_t i = 0; i < 4096; i++) {
		char k[16];
		snprintf(k, sizeof(k), "mlx5_%zu:1", i);
		unsigned c = ++count[roce_hashindex_hash(k, strlen(k)) & 4095];
		most = c > most ? c : most;
	}
	assert_true(most < 12);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_add_find),
		cmocka_unit_test(t_collisions),
		cmocka_unit_test(t_hash),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
