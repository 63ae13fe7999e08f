/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodectl.h - this node's Slurm state, drain and resume through sinfo and
 * scontrol, for the programs: roce-check --drain (the health check) and
 * roce-prolog's gate.  Each command runs with a deadline and is killed
 * after it (lib/proc/command.h): a slurmctld that does not answer (stopped,
 * or slurmd not yet registered) costs at most ROCE_NODECTL_TIMEOUT_MS per
 * command, and is said as such.  What to do is check_drain.c's
 * (lib/check/check.h); the plugin does the same through libslurm
 * (spank/drain.c).
 */
#ifndef ROCE_NODECTL_H
#define ROCE_NODECTL_H

#include <stddef.h>

#define ROCE_NODECTL_TIMEOUT_MS 10000

/* The node's state as slurmctld has it: its ROCE_DRAIN_STATE_* bits,
 * sinfo's state word (word, wlen bytes: "drained", "idle") and its reason
 * (reason, rlen bytes: "" when sinfo says "none").  0, or -1 with why
 * (ylen bytes) saying what went wrong. */
int roce_nodectl_state(const char *node, unsigned *bits, char *word, size_t wlen, char *reason, size_t rlen, char *why,
                       size_t ylen);

/* scontrol update NodeName=node State=DRAIN Reason=reason (no shell). */
int roce_nodectl_drain(const char *node, const char *reason, char *why, size_t len);

/* scontrol update NodeName=node State=RESUME. */
int roce_nodectl_resume(const char *node, char *why, size_t len);

/* Does the job prolog run at allocation (scontrol show config: PrologFlags
 * has Alloc, or Contain, which implies it)?  1 yes, 0 no, -1 unknown (why
 * says why). */
int roce_nodectl_prolog_alloc(char *why, size_t len);

#endif
