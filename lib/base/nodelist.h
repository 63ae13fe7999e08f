/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodelist.h - node names as one list for a message ("n1","n2","n3" ->
 * "n[1-3]").  The compression is the caller's: libslurm's hostlist where
 * the program links it (roce-report) or runs inside a Slurm command (the
 * plugin in srun); lib/ does not link libslurm.
 */
#ifndef ROCE_NODELIST_H
#define ROCE_NODELIST_H

#include <stddef.h>

/* Compress a list of node names; returns a malloc'd string, NULL on failure. */
typedef char *(*roce_nodelist_fn)(const char *const *names, size_t n);

/* names compressed by fn, else (fn NULL or failing) joined with commas;
 * malloc'd, NULL on ENOMEM. */
char *roce_nodelist(roce_nodelist_fn fn, const char *const *names, size_t n);

#endif
