/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * healthtrend.h - the health check's trend step (roce-check --health or
 * --drain, as root): this run's counters (a snapshot), the last run's state
 * from StateDir/trend.json, the next state written back, and trend.h's
 * findings added to the check result.  Not pure: reads and writes StateDir.
 */
#ifndef ROCE_HEALTHTREND_H
#define ROCE_HEALTHTREND_H

#include <stdbool.h>
#include <stdint.h>
#include "pipeline/trend.h"

struct roce_healthtrend {
	struct roce_trend state; /* after this run: what the exposition shows */
	bool kept;               /* the state was read (or is new) and written back */
	char why[1024];          /* when not kept: why (said on stderr) */
};

/*
 * The step at now_s (Unix seconds) with this run's counters (snap, taken
 * with the check result: the health check's one snapshot, which its live
 * samples use too).  A state that cannot be read or written is said in
 * out->why and the run is a first one (baselines only): never a pass made
 * up, never a failure of the node.  0, or -1 on ENOMEM.
 */
int roce_healthtrend_run(const struct roce_policy *p, const struct roce_snapshot *snap, struct roce_check_result *check,
                         int64_t now_s, struct roce_healthtrend *out);
void roce_healthtrend_free(struct roce_healthtrend *h);

/* The last run's state from StateDir (dfd): an empty one (time_s 0, as
 * before a first run) when there is none, or when it cannot be used (then
 * why says so).  Also what the job prolog and epilog carry into the job's
 * report (job.c). */
void roce_healthtrend_load(int dfd, struct roce_trend *t, char *why, size_t len);

#endif
