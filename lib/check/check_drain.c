/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_drain.c - the Slurm drain reason of a check result (its hardware
 * findings in a short, fixed vocabulary), and whether a node already
 * drained is ours to drain again: the one rule both adapters (the plugin's
 * slurmstepd side, roce-check --drain) ask.  Pure.
 */
#include "config.h"
#include "check/check.h"

#include <stdio.h>
#include <string.h>

/* Short, fixed vocabulary: Slurm shows the reason in sinfo -R. */
static void short_reason(const struct roce_finding *f, char *buf, size_t len)
{
	if (f->reason[0])
		snprintf(buf, len, "%s", f->reason);
	else if (strcmp(f->check, "port_state") == 0)
		snprintf(buf, len, "%s port %u DOWN", f->device, f->port);
	else if (strcmp(f->check, "netdev") == 0)
		snprintf(buf, len, "%s port %u netdev down", f->device, f->port);
	else if (strcmp(f->check, "gid") == 0)
		snprintf(buf, len, "%s port %u no RoCE v2 GID", f->device, f->port);
	else if (strcmp(f->check, "hca") == 0)
		snprintf(buf, len, "%s missing", f->device);
	else
		snprintf(buf, len, "%s %s", f->subject, f->check);
}

int roce_check_drain_reason(const struct roce_check_result *r, char *buf, size_t len)
{
	const struct roce_finding *first = NULL;
	size_t more = 0;
	for (size_t i = 0; i < r->n_findings; i++) {
		if (!r->findings[i].hardware)
			continue;
		if (!first)
			first = &r->findings[i];
		else
			more++;
	}
	if (!first)
		return 0;
	char what[160];
	short_reason(first, what, sizeof(what));
	if (more)
		snprintf(buf, len, ROCE_DRAIN_PREFIX "%s (+%zu more)", what, more);
	else
		snprintf(buf, len, ROCE_DRAIN_PREFIX "%s", what);
	return 1;
}

bool roce_check_drain_leave_alone(unsigned state, const char *reason)
{
	if (!(state & (ROCE_DRAIN_STATE_DRAIN | ROCE_DRAIN_STATE_DOWN | ROCE_DRAIN_STATE_FAIL)))
		return false;
	/* sinfo prints "none" for no reason */
	return reason && reason[0] && strcmp(reason, "none") != 0 &&
	       strncmp(reason, ROCE_DRAIN_PREFIX, strlen(ROCE_DRAIN_PREFIX)) != 0;
}
