/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_parprint.c - a list printed on several threads comes out as one call would write it (lib/base/parprint.h). */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpus.h"
#include "base/parprint.h"

#define CALLS_MAX 4096

/* What the printer saw: every call's range and thread; fail_at makes the
 * call covering that item fail. */
struct seen {
	pthread_mutex_t lock;
	size_t calls, begin[CALLS_MAX], end[CALLS_MAX];
	pthread_t thread[CALLS_MAX];
	size_t fail_at;
	size_t every;                /* print only items divisible by it (0: all) */
};

/* Item i is a line of varying length, so that chunk texts differ in size. */
static int lines(FILE *out, size_t begin, size_t end, const void *arg)
{
	struct seen *s = (struct seen *)arg;
	pthread_mutex_lock(&s->lock);
	if (s->calls < CALLS_MAX) {
		s->begin[s->calls] = begin;
		s->end[s->calls] = end;
		s->thread[s->calls] = pthread_self();
		s->calls++;
	}
	pthread_mutex_unlock(&s->lock);
	for (size_t i = begin; i < end; i++) {
		if (i == s->fail_at) {
			errno = EPROTO;
			return -1;
		}
		if (s->every && i % s->every)
			continue;
		fprintf(out, "item %zu %.*s\n", i, (int)(i % 97), "................................................."
		                                                   "................................................");
	}
	return ferror(out) ? -1 : 0;
}

static struct seen *seen_new(void)
{
	struct seen *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	pthread_mutex_init(&s->lock, NULL);
	s->fail_at = SIZE_MAX;
	return s;
}

/* The text of items [0, n) by roce_parprint (or by one call of lines). */
static char *print_all(size_t n, size_t chunk, bool parallel, struct seen *s, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	*rc = parallel ? roce_parprint(f, n, chunk, lines, s) : lines(f, 0, n, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void same_as_one_call(void **state)
{
	(void)state;
	const size_t chunk = 16;
	const size_t sizes[] = { 0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk, 7 * chunk + 3, 100 * chunk + 5 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct seen *s = seen_new();
		int rc1, rc2;
		char *want = print_all(sizes[k], chunk, false, s, &rc1);
		char *got = print_all(sizes[k], chunk, true, s, &rc2);
		assert_int_equal(rc1, 0);
		assert_int_equal(rc2, 0);
		assert_string_equal(got, want);
		free(want);
		free(got);
		free(s);
	}
}

/* Chunks that print nothing (a Prometheus family without samples there):
 * the output is still what one call writes. */
static void empty_chunks(void **state)
{
	(void)state;
	struct seen *s = seen_new();
	s->every = 300;
	int rc1, rc2;
	char *want = print_all(2000, 50, false, s, &rc1);
	char *got = print_all(2000, 50, true, s, &rc2);
	assert_int_equal(rc2, 0);
	assert_string_equal(got, want);
	free(want);
	free(got);
	free(s);
}

/* Every item in exactly one call, no call larger than a chunk (on one CPU:
 * one call of them all); one call when the items fit one chunk. */
static void chunks_cover_items_once(void **state)
{
	(void)state;
	struct seen *s = seen_new();
	int rc;
	free(print_all(1000, 64, true, s, &rc));
	assert_int_equal(rc, 0);
	unsigned char hit[1000] = { 0 };
	for (size_t c = 0; c < s->calls; c++) {
		assert_true(s->end[c] - s->begin[c] <= (roce_cpus_usable() > 1 ? 64 : 1000));
		for (size_t i = s->begin[c]; i < s->end[c]; i++)
			hit[i]++;
	}
	for (size_t i = 0; i < 1000; i++)
		assert_int_equal(hit[i], 1);
	if (roce_cpus_usable() > 1)
		assert_int_equal(s->calls, (1000 + 63) / 64);
	free(s);

	s = seen_new();
	free(print_all(64, 64, true, s, &rc));
	assert_int_equal(s->calls, 1);
	free(s);
}

/* With two CPUs or more, more than one thread prints; bound to one CPU
 * (taskset, a cpuset), only the caller, in a single call. */
static void threads_follow_affinity(void **state)
{
	(void)state;
	int rc;
	struct seen *s = seen_new();
	if (roce_cpus_usable() > 1) {
		free(print_all(4000, 100, true, s, &rc));
		bool other = false;
		for (size_t c = 0; c < s->calls; c++)
			other |= !pthread_equal(s->thread[c], pthread_self());
		assert_true(other);
	}
	free(s);

	cpu_set_t old, one;
	assert_int_equal(sched_getaffinity(0, sizeof(old), &old), 0);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &old)) {
			CPU_SET(c, &one);
			break;
		}
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	assert_int_equal(roce_cpus_usable(), 1);
	s = seen_new();
	free(print_all(4000, 100, true, s, &rc));
	assert_int_equal(rc, 0);
	assert_int_equal(s->calls, 1);
	assert_true(pthread_equal(s->thread[0], pthread_self()));
	assert_int_equal(sched_setaffinity(0, sizeof(old), &old), 0);
	free(s);
}

/* A chunk that fails: -1 with its errno, and nothing of it or after it is
 * written (the chunks before it may be; on one CPU, the items before it). */
static void failure_stops_output(void **state)
{
	(void)state;
	struct seen *s = seen_new();
	s->fail_at = 530;
	int rc;
	char *got = print_all(2000, 50, true, s, &rc);
	assert_int_equal(rc, -1);
	assert_int_equal(errno, EPROTO);
	assert_null(strstr(got, roce_cpus_usable() > 1 ? "item 500 " : "item 530 "));
	assert_null(strstr(got, "item 1999 "));
	free(got);
	free(s);
}

/* A stream that cannot be written: -1, not a crash or a silent success. */
static void unwritable_stream(void **state)
{
	(void)state;
	struct seen *s = seen_new();
	FILE *f = fopen("/dev/null", "r");
	assert_non_null(f);
	assert_int_equal(roce_parprint(f, 2000, 50, lines, s), -1);
	fclose(f);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_one_call),
		cmocka_unit_test(empty_chunks),
		cmocka_unit_test(chunks_cover_items_once),
		cmocka_unit_test(threads_follow_affinity),
		cmocka_unit_test(failure_stops_output),
		cmocka_unit_test(unwritable_stream),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
