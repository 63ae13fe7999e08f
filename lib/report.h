/*
 * report.h - per-job fabric report: verdicts from a counter delta, the
 * per-node JSON fragment, and the merge of every node's fragment into one
 * job report printed as text, JSON or Prometheus exposition.
 *
 * Pure: no file system access except roce_report_load_dir().  Node lists
 * are compressed by a caller-supplied function (roce-report uses libslurm's
 * hostlist; lib/ does not link libslurm because the SPANK plugin, which
 * links lib/, runs inside slurmd).
 */
#ifndef ROCE_REPORT_H
#define ROCE_REPORT_H

#include <json-c/json.h>
#include <stdio.h>
#include <sys/types.h>
#include "delta.h"
#include "error.h"

#define ROCE_FRAGMENT_SCHEMA "slurm-roce/fragment/1"
#define ROCE_JOBID_MAX 24
/* Average PFC pause frames per second on one priority above which we call it a storm. */
#define ROCE_PAUSE_STORM_RATE 10000.0

enum roce_severity { ROCE_SEV_INFO = 0, ROCE_SEV_WARN, ROCE_SEV_FAIL };
const char *roce_severity_name(enum roce_severity s);

struct roce_job_verdict {
	char code[32];           /* "packet_loss", "link_down", ... */
	enum roce_severity severity;
	char subject[96];        /* "mlx5_0:1", or "node" */
	char message[320];       /* what the counters say, with numbers */
	char fix[320];           /* likely cause and what to check */
};

struct roce_verdict_list {
	struct roce_job_verdict *v;
	size_t n, cap;
};
void roce_verdict_list_free(struct roce_verdict_list *l);

/* Everything about the node's job that is not a counter. */
struct roce_fragment_meta {
	const char *job_id;
	const char *node;
	uid_t job_uid;
	int64_t start_ns, end_ns;    /* CLOCK_REALTIME; 0 = unknown */
	const char *const *shared_with; /* other job ids on this node during the job */
	size_t n_shared;
	int pfc_priority;            /* policy's PFC priority, -1 none */
	const char *note;            /* e.g. "no prolog snapshot", may be NULL */
	bool no_start;               /* there was no usable prolog snapshot (note says why) */
};

/* Verdicts for one node.  Returns 0, -1 on ENOMEM. */
int roce_verdicts_from_delta(const struct roce_delta *d, const struct roce_fragment_meta *m,
                             struct roce_verdict_list *out);

/* The node's fragment (schema ROCE_FRAGMENT_SCHEMA). */
json_object *roce_fragment_build(const struct roce_fragment_meta *m, const struct roce_delta *d,
                                 const struct roce_verdict_list *v);

/* ---------------------------------------------------------------- merge */

/* Compact per-node data kept while merging: linear in nodes x ports. */
struct roce_report_port;
struct roce_report_node;

struct roce_job_report {
	char job_id[ROCE_JOBID_MAX];
	struct roce_report_node *nodes;
	size_t n_nodes, cap_nodes;
	char **errors;               /* fragments that could not be used, and why */
	size_t n_errors;
};

void roce_report_init(struct roce_job_report *r, const char *job_id);
void roce_report_free(struct roce_job_report *r);

/* Add one parsed fragment; source names it in errors.  A fragment of another
 * job, a duplicate node or a malformed fragment is recorded in r->errors and
 * skipped (returns -1 with err set); ENOMEM also returns -1. */
int roce_report_add(struct roce_job_report *r, json_object *frag, const char *source, struct roce_error *err);

/* Read every "<node>.json" in dir (dot files are temporaries and ignored).
 * -1 only when dir itself cannot be read (err says why). */
int roce_report_load_dir(struct roce_job_report *r, const char *dir, struct roce_error *err);

/* The uid recorded by the fragments: -1 when none or when they disagree. */
long roce_report_job_uid(const struct roce_job_report *r);

/* Sort nodes by name (natural order) before printing. */
void roce_report_sort(struct roce_job_report *r);

/* Compress a list of node names ("n1","n2","n3" -> "n[1-3]"); returns a
 * malloc'd string.  NULL = join with commas. */
typedef char *(*roce_nodelist_fn)(const char *const *names, size_t n);

int roce_report_print_text(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist);
json_object *roce_report_json(const struct roce_job_report *r, roce_nodelist_fn nodelist);
/* The same document streamed node by node (memory: one node's JSON at a time). */
int roce_report_print_json(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist);
int roce_report_print_prometheus(FILE *out, const struct roce_job_report *r);

/* A job id as Slurm's prolog gives it: 1-10 digits, no leading zero, <= 4294967295. */
bool roce_job_id_ok(const char *s);
/* A node name usable as a file name: [A-Za-z0-9._-], 1-63 bytes, not starting with '.' or '-'. */
bool roce_node_name_ok(const char *s);

#endif
