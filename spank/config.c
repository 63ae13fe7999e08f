/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.c - the site policy as the plugin reads it on a node (slurmstepd,
 * the job prolog and epilog, all root): the plugstack words and roce.conf,
 * or, when roce.conf does not parse, its last good copy
 * (lib/read/policycache.h), said once per change of the file in slurmd's
 * log rather than once per step.
 */
#include "config.h"
#include "roce.h"

#include <stdlib.h>

int roce_config_policy(const struct roce_plugargs *c, struct roce_policy *p, struct roce_error *err)
{
	struct roce_policycache_outcome o;
	const char *node = getenv("SLURMD_NODENAME");

	if (roce_plugargs_policy(c, p, &o, err) < 0)
		return -1;
	if (o.cached && o.first)
		slurm_error(ROCE_LOG "%s: %s: using its last good copy (saved %s) until the file is fixed "
		                     "(roce-check --check-config lists every problem)",
		            node ? node : "(unknown node)", o.bad.msg, o.saved);
	else if (o.cached)
		slurm_debug(ROCE_LOG "%s: %s: using its last good copy", node ? node : "(unknown node)", o.bad.msg);
	return 0;
}
