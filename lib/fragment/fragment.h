/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragment.h - one node's part of a job's fabric report, both directions:
 * the epilog's delta + verdicts -> the fragment JSON it writes to
 * ReportDir/<job id>/<node>.json (schema ROCE_FRAGMENT_SCHEMA), and that
 * JSON -> struct roce_fragment for the merge, checked strictly (jsonin.h).
 * Also the two names a fragment is filed under: the job id and the node.
 * Pure.
 *
 * Fragments may sit on a shared file system and are read by root: every
 * string the parser keeps is escaped (printable.h), so no terminal escape
 * or newline reaches an admin's screen or the exposition format.
 */
#ifndef ROCE_FRAGMENT_H
#define ROCE_FRAGMENT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/arena.h"
#include "pipeline/delta.h"
#include "base/error.h"
#include "fragment/ranwith.h"
#include "fragment/verdicts.h"

#define ROCE_FRAGMENT_SCHEMA "slurm-roce/fragment/1"
#define ROCE_JOBID_MAX 24
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

/* A node's fragment as the report keeps it (its job id is the report's).
 * Every string and array it points to is in its arena (one malloc per
 * fragment, usually; all freed at once by roce_fragment_free), but the
 * string literals a job verdict's code and fix point to (report_verdicts.c);
 * ran_with is malloc'd.  Nothing in it is freed or replaced on its own. */
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

/* The fragment the epilog writes; NULL on ENOMEM. */
json_object *roce_fragment_build(const struct roce_fragment_meta *m, const struct roce_delta *d,
                                 const struct roce_verdict_list *v);

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

/* The same as a json-c tree (json-c's parse of the text), for the callers
 * that add to it or compare trees; NULL on ENOMEM. */
json_object *roce_fragment_to_json(const struct roce_fragment *f, const char *job_id, bool with_schema);

void roce_fragment_free(struct roce_fragment *f);

/* A job id as Slurm's prolog gives it: 1-10 digits, no leading zero, <= 4294967295. */
bool roce_fragment_job_id_ok(const char *s);
/* A node name usable as a file name: [A-Za-z0-9._-], 1-63 bytes, not starting with '.' or '-'. */
bool roce_fragment_node_name_ok(const char *s);

#endif
