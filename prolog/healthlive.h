/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * healthlive.h - roce-check's live step as a health check (livesample.h):
 * the check's worker keeps its counter snapshot in a memory file, and after
 * the check and its drain roce-check samples every running job from it, in
 * a worker of its own, so that a slow ReportDir neither delays nor fails
 * the check.
 */
#ifndef ROCE_HEALTHLIVE_H
#define ROCE_HEALTHLIVE_H

#include "pipeline/snapshot.h"
#include "read/policy.h"

/* In the check's worker: s into the memory file fd (said on stderr when it
 * cannot be kept: no live samples this run). */
void healthlive_keep(int fd, const struct roce_snapshot *s);

/* After the check: a live sample of every job running here, from the
 * snapshot in fd (none there: not a health check, not root, Live=no).
 * node: --node, else $SLURMD_NODENAME, else the short host name.  Said on
 * stderr only when a running job got no sample. */
void healthlive_run(const struct roce_policy *p, const char *node, int fd);

#endif
