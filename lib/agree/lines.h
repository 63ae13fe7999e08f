/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lines.h - what the job-wide agreement says: one short line per
 * difference, naming groups of nodes in hostlist form ("RDMA MTU 4096 on
 * node[1,3]; 1024 on node2").  A line never passes ROCE_LINE_MAX bytes
 * (with srun's "roce: warning: " under 200 characters): clauses that do not
 * fit are counted ("; +2 more"), a node list that does not fit is cut
 * ("node[1-3,5,..."); the fix is in spank-roce(8).  Pure.
 */
#ifndef ROCE_LINES_H
#define ROCE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include "base/nodelist.h"

#define ROCE_LINE_MAX 180
#define ROCE_LINES_MAX 24

/* What a line is about (agree.h says what each mode does with it). */
enum roce_line_kind {
	ROCE_LINE_TRIM = 0, /* a rail not on every node: warn leaves it out, strict fails */
	ROCE_LINE_MUST,     /* differs where NCCL needs the same: strict fails */
	ROCE_LINE_SHOULD,   /* differs where it should not: said in both modes */
	ROCE_LINE_UNKNOWN,  /* nodes not compared: unknown, never a pass */
};

struct roce_line {
	enum roce_line_kind kind;
	char text[ROCE_LINE_MAX];
};

struct roce_lines {
	size_t n;
	size_t dropped; /* lines beyond ROCE_LINES_MAX */
	struct roce_line line[ROCE_LINES_MAX];
};

/* A line being written. */
struct roce_line_build {
	char text[ROCE_LINE_MAX];
	size_t len;
	size_t clauses; /* after the head */
	size_t more;    /* clauses that did not fit */
};

/* Start a line with head (printf). */
void roce_lines_start(struct roce_line_build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add a clause (printf), after "; " unless it is the first after the head;
 * one that does not fit (with room for "; +N more") is counted instead. */
void roce_lines_clause(struct roce_line_build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add "VALUE on NODES" as a clause: names[0..n) compressed by fn, cut to
 * what fits.  false on ENOMEM. */
bool roce_lines_group(struct roce_line_build *b, roce_nodelist_fn fn, const char *value, const char *const *names,
                      size_t n);
/* The same, the node list first: "NODES: TEXT". */
bool roce_lines_nodes_first(struct roce_line_build *b, roce_nodelist_fn fn, const char *const *names, size_t n,
                            const char *text);
/* The line, with "; +N more" where clauses were counted, into l. */
void roce_lines_end(struct roce_lines *l, enum roce_line_kind kind, struct roce_line_build *b);
/* Any line of kind? */
bool roce_lines_have(const struct roce_lines *l, enum roce_line_kind kind);

#endif
