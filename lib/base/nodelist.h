/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodelist.h - node names as one list for a message ("n1","n2","n3" ->
 * "n[1-3]").  The compression is the caller's: libslurm's hostlist where
 * the program links it (roce-report) or runs inside a Slurm command (the
 * plugin in srun), or roce_nodelist_ranged; lib/ does not link libslurm.
 */
#ifndef ROCE_NODELIST_H
#define ROCE_NODELIST_H

#include <stddef.h>

/* Compress a list of node names; returns a malloc'd string, NULL on failure. */
typedef char *(*roce_nodelist_fn)(const char *const *names, size_t n);

/* Slurm's hostlist form without libslurm (for a worker process, where
 * libslurm's locks are not to be taken): runs of names that differ only in
 * a number in order ("n1","n2","n3","n7") -> "n[1-3,7]"; zero-padded numbers
 * keep their width ("n01".."n03" -> "n[01-03]").  A roce_nodelist_fn. */
char *roce_nodelist_ranged(const char *const *names, size_t n);

/* names compressed by fn, else (fn NULL or failing) joined with commas;
 * malloc'd, NULL on ENOMEM. */
char *roce_nodelist(roce_nodelist_fn fn, const char *const *names, size_t n);

#endif
