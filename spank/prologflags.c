/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prologflags.c - whether the job prolog runs at allocation, as slurmctld's
 * configuration says (roce.h): the prolog gate fails a prolog only then,
 * and srun waits for fingerprints only then.  One RPC (the whole
 * configuration, a few KiB) per process.
 */
#include "config.h"
#include "roce.h"

#include <slurm/slurm.h>

int roce_prologflags_alloc(void)
{
	static int known = -2;
	slurm_conf_t *conf = NULL;
	if (known != -2)
		return known;
	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS || !conf)
		return known = -1;
	/* Contain and X11 imply Alloc (slurm.conf(5)); slurmctld's copy has
	 * Alloc set for them already, Contain is checked as well all the same */
	known = conf->prolog_flags & (PROLOG_FLAG_ALLOC | PROLOG_FLAG_CONTAIN) ? 1 : 0;
#if HAVE_DECL_SLURM_FREE_CONF /* 26.05's name */
	slurm_free_conf(conf);
#else
	slurm_free_ctl_conf(conf);
#endif
	return known;
}
