/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parprint.c - a list printed in order on several threads (parprint.h). */
#include "config.h"
#include "base/parprint.h"
#include "base/cpus.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define THREADS_MAX 8

/* Where a thread's chunk goes: kept from round to round, so that its
 * pages are touched once.  (A new open_memstream per chunk made json and
 * Prometheus slower than one thread: every round faulted in megabytes of
 * fresh pages.) */
struct text {
	char *buf;
	size_t len, cap;
};

static ssize_t text_write(void *cookie, const char *data, size_t n)
{
	struct text *t = cookie;
	if (n > t->cap - t->len) {
		size_t cap = t->cap ? t->cap : 1 << 16;
		while (n > cap - t->len)
			cap *= 2;
		char *grown = realloc(t->buf, cap);
		if (!grown) {
			errno = ENOMEM;
			return -1;
		}
		t->buf = grown;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, data, n);
	t->len += n;
	return (ssize_t)n;
}

/* One chunk of items, printed into its text. */
struct chunk {
	roce_parprint_fn fn;
	const void *arg;
	size_t begin, end;
	struct text *text;
	int rc, err;
	bool started;
	pthread_t tid;
};

static void *print_chunk(void *p)
{
	struct chunk *c = p;
	FILE *f = fopencookie(c->text, "w", (cookie_io_functions_t){ .write = text_write });
	c->rc = -1;
	c->text->len = 0;
	if (!f) {
		c->err = errno;
		return NULL;
	}
	/* Only this thread writes f: stdio's lock per call is pure cost
	 * (one per sample line of the Prometheus exposition). */
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	int rc = c->fn(f, c->begin, c->end, c->arg);
	c->err = errno;
	if (fclose(f) != 0)
		c->err = errno;
	else if (rc == 0)
		c->rc = 0;
	return NULL;
}

/* Up to k chunks from *at on, each on its own thread but the first, which
 * is the caller's; a thread that cannot start is run here instead. */
static size_t print_round(struct chunk *cs, struct text *texts, size_t k, size_t *at, size_t n, size_t chunk,
                          roce_parprint_fn fn, const void *arg)
{
	size_t m = 0;
	for (; m < k && *at < n; m++) {
		size_t end = n - *at > chunk ? *at + chunk : n;
		cs[m] = (struct chunk){ .fn = fn, .arg = arg, .begin = *at, .end = end, .text = &texts[m] };
		*at = end;
	}
	for (size_t i = 1; i < m; i++)
		cs[i].started = pthread_create(&cs[i].tid, NULL, print_chunk, &cs[i]) == 0;
	print_chunk(&cs[0]);
	for (size_t i = 1; i < m; i++) {
		if (cs[i].started)
			pthread_join(cs[i].tid, NULL);
		else
			print_chunk(&cs[i]);
	}
	return m;
}

/* The round's chunks to out in order. */
static int write_round(FILE *out, const struct chunk *cs, size_t m)
{
	for (size_t i = 0; i < m; i++) {
		if (cs[i].rc < 0) {
			errno = cs[i].err;
			return -1;
		}
		/* len 0: buf may be NULL, which fwrite must not get (UBSan) */
		if (cs[i].text->len && fwrite(cs[i].text->buf, 1, cs[i].text->len, out) != cs[i].text->len)
			return -1;
	}
	return 0;
}

int roce_parprint(FILE *out, size_t n, size_t chunk, roce_parprint_fn fn, const void *arg)
{
	size_t threads = roce_cpus_usable();
	if (threads > THREADS_MAX)
		threads = THREADS_MAX;
	if (chunk == 0 || n <= chunk || threads < 2)
		return fn(out, 0, n, arg);
	struct chunk cs[THREADS_MAX];
	struct text texts[THREADS_MAX] = { { 0 } };
	size_t at = 0;
	int rc = 0;
	while (rc == 0 && at < n) {
		size_t m = print_round(cs, texts, threads, &at, n, chunk, fn, arg);
		rc = write_round(out, cs, m);
	}
	for (size_t i = 0; i < threads; i++)
		free(texts[i].buf);
	return rc;
}
