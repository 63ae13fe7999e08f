/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth.h - node health across jobs (roce-report --nodes): jobs' merged
 * reports, one at a time, folded into one row per node port, then ranked by
 * how many jobs saw a problem there.  Pure: the caller loads each job
 * (reportdir.h) and drops it before the next, so memory grows with the node
 * ports seen, never with the jobs.
 *
 * A problem is one of the job report's verdicts (verdicts.c decides; this
 * file only sorts its codes into six kinds), counted once per job and
 * row.  A verdict about no port ("node") counts for the node's own row
 * (device ""), which is shown only when it has a problem.
 *
 * Linear in what is folded in: a row is found by its key's hash
 * (hashindex.h), a verdict's port by name (report_ports.h), both once per
 * fragment, whatever names a fragment carries; a row keeps its device
 * name whole, as long as a fragment may carry it, so a node port has one
 * row however many jobs saw it.
 */
#ifndef ROCE_NODEHEALTH_H
#define ROCE_NODEHEALTH_H

#include <stddef.h>
#include <stdint.h>
#include "fragment/fragment.h"
#include "base/model.h" /* ROCE_NAME_MAX */
#include "base/hashindex.h"
#include "report/report.h"
#include "report/report_ports.h"

enum roce_nodehealth_problem {
	ROCE_NH_LOSS,        /* packet_loss */
	ROCE_NH_TIMEOUT,     /* rdma_timeouts, retries_exceeded */
	ROCE_NH_PAUSE_STORM, /* pause_storm */
	ROCE_NH_LINK_DOWN,   /* link_down, port_down */
	ROCE_NH_SLOW_LINK,   /* check_failed by the link rate check (check_link.c) */
	ROCE_NH_TREND,       /* counter_trend: the health check saw link-quality counters grow between jobs */
	ROCE_NH_N
};
/* "loss", "timeouts", "pause_storm", "link_down", "slow_link", "counter_trend": JSON keys, label values. */
const char *roce_nodehealth_problem_key(enum roce_nodehealth_problem p);
/* "Loss", "RDMA timeouts", ...: column headings. */
const char *roce_nodehealth_problem_title(enum roce_nodehealth_problem p);

struct roce_nodehealth_row {
	char node[64];      /* a fragment's node name (escaped, <= 63 bytes) */
	const char *device; /* whole, in the rows' arena (< ROCE_FRAGMENT_DEVICE_MAX); "" = the node itself */
	unsigned port;
	unsigned seen;                 /* jobs that had this node port */
	unsigned bad;                  /* of those, jobs with any problem here */
	unsigned jobs[ROCE_NH_N];      /* jobs with each problem here */
	char last_job[ROCE_JOBID_MAX]; /* the latest job with a problem here ("" none) */
	int64_t last_ns;               /* its end on this node (ns since the epoch; 0 unknown) */
	size_t stamp;                  /* the job being added, and what it had here so far */
	unsigned mask;
};

struct roce_nodehealth {
	struct roce_nodehealth_row *rows; /* in the order first seen until ranked */
	size_t n, cap;
	struct roce_hashindex index;    /* (node, device, port) -> rows[] */
	struct roce_arena names;        /* the rows' device names */
	struct roce_report_ports ports; /* the fragment being added, its ports by name */
	size_t jobs;                    /* jobs added */
	size_t jobs_bad;                /* of those, jobs with any problem */
	int64_t first_ns, last_ns;      /* the span the jobs' ends cover (0: none known) */
	/* What the caller chose, for the printers to say: */
	int64_t since_ns; /* jobs that ended before were left out; 0 = none */
	long uid;         /* only this user's jobs; -1 = every user's */
	size_t unusable;  /* fragments that could not be used (the caller counts) */
};

/* Empty, every user's jobs, no --since. */
void roce_nodehealth_init(struct roce_nodehealth *h);
void roce_nodehealth_free(struct roce_nodehealth *h);

/* Fold in one job's merged report (after roce_report_sort and
 * roce_report_verdicts).  A job without nodes is not counted.  0, -1 on
 * ENOMEM (h then holds part of the job). */
int roce_nodehealth_add(struct roce_nodehealth *h, const struct roce_job_report *r);

/* The newest end of any node of r (ns), 0 when none is known: what --since compares. */
int64_t roce_nodehealth_job_end(const struct roce_job_report *r);

/* Sort rows for printing: most jobs with a problem first, then most
 * problems counted, then the fewest jobs seen (a port sick in 3 of 3 jobs
 * before one sick in 3 of 300), then node (natural order) and port.  No
 * more roce_nodehealth_add after this. */
void roce_nodehealth_rank(struct roce_nodehealth *h);

/* "mlx5_0:1", or "node" for the node's own row. */
const char *roce_nodehealth_port_name(const struct roce_nodehealth_row *row, char *buf, size_t len);

#endif
