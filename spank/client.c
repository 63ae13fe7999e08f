/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * client.c - srun, sbatch and salloc (local and allocator contexts).
 *
 * The client only validates: --roce values are refused by the option
 * callback (option.c); here SLURM_ROCE gets the same treatment, so a typo is
 * an error at submission rather than a silently unchecked job, also for an
 * `optional` plugin (whose init_post_opt errors Slurm ignores).  The request
 * also goes to the job's Prolog/Epilog environment as SPANK_ROCE_MODE (the
 * mode itself is decided on the node, where roce.conf is).
 */
#include "config.h"
#include "roce.h"

#include <stdlib.h>

/* A broken plugstack line leaves the client's checks out (slurmstepd judges it by mode). */
static bool config_ok;
/* srun started inside an allocation (sbatch, salloc): its job prolog ran with that allocation's request. */
static bool in_allocation;

int roce_client_init(spank_t sp, int ac, char **av)
{
	struct roce_plugargs config;
	struct roce_error err;

	if (roce_option_register(sp) < 0)
		return -1;
	/* before srun makes an allocation of its own, which sets it */
	in_allocation = getenv("SLURM_JOB_ID") != NULL;
	config_ok = roce_plugargs_parse(ac, av, &config, &err) == 0;
	if (!config_ok)
		slurm_error(ROCE_LOG "plugstack.conf: %s", err.msg);
	return 0;
}

bool roce_client_in_allocation(void) { return in_allocation; }

const struct roce_request *roce_client_request(struct roce_request *env_req)
{
	const struct roce_request *r = roce_option_request();
	const char *v;

	if (r->given)
		return r;
	if (!(v = getenv(ROCE_ENV_MODE)) || !*v)
		return NULL;
	roce_request_parse(env_req, v, ROCE_ENV_MODE);
	return env_req;
}

int roce_client_init_post_opt(spank_t sp)
{
	struct roce_request env_req;
	const struct roce_request *r;

	if (!config_ok || !(r = roce_client_request(&env_req)))
		return 0;
	if (!r->valid) {
		slurm_error(ROCE_LOG "invalid %s=\"%s\": " ROCE_VALID_MODES, r->source, r->raw);
		/* Slurm drops this callback's error for an `optional` plugin (the line
		 * README recommends) and submits the job unchecked: refuse it here.
		 * Nothing has been allocated yet; the client is the user's process. */
		exit(1);
	}
	/* Only reaches the prolog for allocations (sbatch, salloc, srun without one). */
	spank_job_control_setenv(sp, "ROCE_MODE", r->site_mode ? ROCE_REQUEST_SITE : roce_mode_name(r->mode), 1);
	return 0;
}
