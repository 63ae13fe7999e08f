/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch.h - files the unit tests write: a scratch directory of their own
 * under $TMPDIR (/tmp when unset), files and directories in it, and its
 * removal.  Every helper but fx_tmpdir and fx_rmtree (which cmocka setups
 * and teardowns return) fails the test (cmocka) when it cannot do its part.
 * Include after unit.h; tests/unit/libunit.la (scratch.c) is in every unit
 * test's LDADD.
 */
#ifndef ROCE_SCRATCH_H
#define ROCE_SCRATCH_H

#include <stddef.h>

/* A fresh directory "$TMPDIR/<name>.XXXXXX" (mode 0700, as mkdtemp makes
 * it), its path in path (len bytes).  0, or -1 (too long, or not made). */
int fx_tmpdir(char *path, size_t len, const char *name);
/* path and everything below it removed (as rm -rf, without a shell: a test
 * may have changed PATH); symbolic links are removed, never followed.
 * 0, or -1 when something could not be removed. */
int fx_rmtree(const char *path);
/* dir/rel and the directories on the way (as mkdir -p, mode 0755). */
void fx_mkdirs(const char *dir, const char *rel);
/* dir/rel written with the formatted text (replaced when it exists), its
 * parent directories made first. */
__attribute__((format(printf, 3, 4))) void fx_putf(const char *dir, const char *rel, const char *fmt, ...);

#endif
