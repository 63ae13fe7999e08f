/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * livereport.h - roce-report --live: a running job's live files
 * (ReportDir/<jobid>/<node>.live, live.h) read into one view, and the nodes
 * where the job has already ended (their fragment is there).
 *
 * livereport.c reads the directory (not pure) as reportdir.c reads
 * fragments: the directory without following a link, each "<node>.live" a
 * regular file opened without following a symlink, at most
 * ROCE_LIVE_FILE_MAX bytes, through the strict reader (live_json.c); it must
 * be that node's file of this job, owned by root or its job_uid.  A file
 * that fails any of that is named in errors and skipped; dot files (a
 * writer's temporaries) are not read.  The printers are pure:
 * livereport_text.c, livereport_json.c, livereport_prometheus.c.
 */
#ifndef ROCE_LIVEREPORT_H
#define ROCE_LIVEREPORT_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"
#include "fragment/fragment.h"
#include "fragment/live.h"

/* Live files read at most (a job on more nodes shows its first ones, said). */
#define ROCE_LIVEREPORT_NODES_MAX 65536

struct roce_livereport {
	char job_id[ROCE_JOBID_MAX];
	struct roce_live *nodes; /* by node name, in natural order */
	size_t n_nodes;
	char (*ended)[64]; /* nodes with a fragment: the job ended there (their live files are not read) */
	size_t n_ended;
	char **errors; /* "<file>: why", escaped */
	size_t n_errors;
	size_t skipped; /* live files beyond ROCE_LIVEREPORT_NODES_MAX */
	int64_t now_ns; /* when it was read: the samples' ages */
};

void roce_livereport_init(struct roce_livereport *r, const char *job_id);
void roce_livereport_free(struct roce_livereport *r);

/* Every live file and fragment name of dir (ReportDir/<jobid>) into r.  -1
 * only when dir cannot be read or memory runs out (err says why). */
int roce_livereport_load(struct roce_livereport *r, const char *dir, struct roce_error *err);

/* Only the nodes whose job_uid is uid (what a user sees of a job: theirs
 * only); uid < 0 keeps them all. */
void roce_livereport_keep_uid(struct roce_livereport *r, long uid);

/* One interval of port p of node l as a fragment node and port, for the
 * numbers of report_metric.h (its one definition of the rates, loss,
 * timeouts ...): n gets the interval's seconds, fp the counters.  Both
 * point into p and l (nothing to free). */
void roce_livereport_metric_port(const struct roce_live *l, const struct roce_live_port *p,
                                 const struct roce_live_interval *iv, struct roce_fragment *n,
                                 struct roce_fragment_port *fp);

/* "3m", "42s", "5h": how long ago ns was at r's now ("-" unknown). */
const char *roce_livereport_age(const struct roce_livereport *r, int64_t ns, char *buf, size_t len);

#endif
