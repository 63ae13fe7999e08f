/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkrun.h - roce-check's check itself: the pipeline in a worker with a
 * deadline (a task sharing roce-check's memory, or a forked one where a
 * worker was late before), the health check's counters and trend, and the
 * report in the format asked for (checkrun.c).  roce-check.c parses, then
 * drains or resumes from the outcome.
 */
#ifndef ROCE_CHECKRUN_H
#define ROCE_CHECKRUN_H

#include <stdbool.h>
#include "checkargs.h"
#include "base/error.h"
#include "pipeline/healthtrend.h"
#include "pipeline/pipeline.h"
#include "pipeline/snapshot.h"
#include "read/policy.h"

/* The outcome: plain data (a forked worker sends it; its report is in its memory file). */
struct outcome {
	int rc;                       /* the exit status */
	struct roce_error error;      /* "" or why there is no report (after "roce-check: ") */
	struct roce_error unrecorded; /* "" or why a stuck worker is not remembered */
	bool drain;                   /* a hardware fault: drain_reason is set */
	char drain_reason[256];
	char seen[1024]; /* the subjects the check looked at (check.h, roce_check_drain_seen) */
	bool task_left;  /* a shared task ended without finishing: _exit */
};

/* What the shared task fills in place. */
struct shared {
	int rc; /* roce_pipeline_run's */
	struct roce_error err;
	struct roce_pipeline run;
	struct roce_snapshot snap;     /* the health check's counters (measure) */
	struct roce_healthtrend trend; /* and its link-quality trend */
};

struct work {
	const struct args *a;
	const struct roce_policy *policy;
	int report, log;  /* memory files for a forked worker's report and any worker's stderr; -1 none */
	int snapshot;     /* memory file for the health check's counter snapshot (live samples); -1 none */
	bool shared_done; /* the shared task finished: shared is to print and free */
	struct shared shared;
};

/* The check, its worker's outcome in o (the report is printed by checkrun_print). */
void checkrun_run(struct work *w, struct outcome *o);
/* The worker's diagnostics, the report, then why there is none. */
void checkrun_print(const struct work *w, const struct outcome *o);
/* Does this run take the counters (the health check's snapshot and trend)? */
bool checkrun_wants_counters(const struct work *w);

#endif
