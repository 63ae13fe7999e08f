/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragment.h - one node's part of a job's fabric report, in memory: struct
 * roce_fragment, the one form both directions go through.  The epilog builds
 * it from the node's delta, verdicts and what the job ran with
 * (roce_fragment_build) and writes it once, as JSON text, to
 * ReportDir/<job id>/<node>.json (schema ROCE_FRAGMENT_SCHEMA); the merge
 * reads that text back into it (fragment_read.h) and writes it again as the
 * JSON report's nodes[] entries.  roce_fragment_write is the one writer of
 * the schema.  The names a fragment is filed under are base/slurmid.h's.
 * Pure.
 *
 * Fragments may sit on a shared file system and are read by root: every
 * string the reader keeps is escaped (printable.h), so no terminal escape
 * or newline reaches an admin's screen or the exposition format.
 */
#ifndef ROCE_FRAGMENT_H
#define ROCE_FRAGMENT_H

#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"
#include "pipeline/delta.h"
#include "base/error.h"
#include "fragment/ranwith.h"
#include "fragment/verdicts.h"

#define ROCE_FRAGMENT_SCHEMA "slurm-roce/fragment/1"
/* The longest device name a fragment keeps, NUL included: ROCE_NAME_MAX - 1
 * bytes as read, each at most 4 once escaped ("\xNN"). */
#define ROCE_FRAGMENT_DEVICE_MAX (4 * (ROCE_NAME_MAX - 1) + 1)

/* One port of a fragment: compact, as the merge keeps thousands of them. */
struct roce_fragment_port {
	char *device, *netdev;
	unsigned port;
	uint8_t presence; /* enum roce_port_presence */
	bool reset;
	int gid_index, active_mtu;
	unsigned netdev_mtu;
	unsigned rate_mbps;  /* 0 unknown */
	char *fw_ver;        /* NULL unknown */
	uint8_t pfc_status;  /* enum roce_delta_status */
	uint8_t pfc_enabled; /* bitmap of priorities */
	char *pfc_why;
	uint64_t pfc_req[ROCE_PRIOS], pfc_ind[ROCE_PRIOS];
	uint64_t c[ROCE_N_COUNTERS];
	uint8_t cs[ROCE_N_COUNTERS];   /* enum roce_delta_status */
	char **why;                    /* NULL, or ROCE_N_COUNTERS strings for UNREAD ones */
	char *state_start, *state_end; /* port state at prolog and epilog; NULL = not read */
	int8_t check;                  /* enum roce_verdict, the worse of prolog's and epilog's; -1 = none */
	char *check_why;               /* that finding and when; NULL = none */
};

struct roce_fragment_verdict {
	char *code, *subject, *message, *fix;
	uint8_t severity; /* enum roce_severity */
};

/* A node's fragment, as the epilog builds it and the report keeps it (its
 * job id is the report's).
 *
 * Its memory has one owner, its arena: every string, array and struct it
 * points to (ran_with too) is a block of the arena (usually one chunk per
 * fragment; from a pool when the reader was given one, fragment_read.h),
 * and roce_fragment_free frees them all at once and nothing else.  The one
 * exception: a verdict's code and fix may point to static text (a rule's
 * string literals, report_verdicts.c), which outlives any fragment.  So
 * nothing in a fragment is freed or replaced on its own, and a fragment may
 * be moved (copied by value, arena.h) while it holds memory. */
struct roce_fragment {
	struct roce_arena arena;
	char *name;
	long uid;
	long file_owner; /* uid owning the fragment's file; -1 not read from a file */
	double seconds;
	int64_t start_ns, end_ns;
	char **shared; /* job ids */
	size_t n_shared;
	int gid_index, traffic_class, pfc_priority;
	enum roce_trust_mode trust; /* UNKNOWN also for fragments written before trust was */
	char *note;                 /* NULL when none */
	int8_t check;               /* as a port's, for the findings about no port */
	char *check_why;
	struct roce_fragment_port *ports;
	size_t n_ports;
	struct roce_fragment_verdict *verdicts;
	size_t n_verdicts;
	struct roce_ranwith *ran_with; /* the NCCL values the job ran with; NULL not recorded */
};

/* The fragment the epilog writes, built into f's arena: the node's meta,
 * delta and verdicts, and rw (NULL or empty: no "ran_with") copied.  0, or
 * -1 on ENOMEM (f then empty).  Free f with roce_fragment_free. */
int roce_fragment_build(struct roce_fragment *f, const struct roce_fragment_meta *m, const struct roce_delta *d,
                        const struct roce_verdict_list *v, const struct roce_ranwith *rw);

/* f as JSON text, the one writer of the schema: the fragment file the epilog
 * writes ("schema" first) and the JSON report's nodes[] entries (without).
 * Byte for byte what json-c writes for the same document with
 * JSON_C_TO_STRING_PLAIN (slashes as "\\/", doubles as "%.17g" with ".0"
 * added to integral ones); tests/unit/test_fragment_write.c holds it to
 * json-c's bytes.  t: the text written so far, reused across fragments
 * (len reset by the caller). */
struct roce_fragment_text {
	char *s; /* NUL-terminated; NULL until the first write */
	size_t len, cap;
};

/* f appended to t (job_id is the report's: fragments keep none).  -1 on ENOMEM. */
int roce_fragment_write(struct roce_fragment_text *t, const struct roce_fragment *f, const char *job_id,
                        bool with_schema);
void roce_fragment_write_free(struct roce_fragment_text *t);

/* Every block of f's arena at once (arena.h); f is empty again. */
void roce_fragment_free(struct roce_fragment *f);

#endif
