/*
 * client.c - srun, sbatch and salloc (local and allocator contexts).
 *
 * The client only validates: --roce values are refused by the option
 * callback (args.c); here SLURM_ROCE gets the same treatment, so a typo is
 * an error at submission rather than a silently unchecked job.  The mode
 * also goes to the job's Prolog/Epilog environment as SPANK_ROCE_MODE.
 */
#include "config.h"
#include "roce.h"

#include <stdlib.h>

int roce_client_init_post_opt(spank_t sp, const struct roce_args *a)
{
	(void)a;
	struct roce_request env_req;
	const struct roce_request *r = roce_option_request();

	if (!r->given) {
		const char *v = getenv(ROCE_ENV_MODE);
		if (!v || !*v)
			return 0;
		roce_request_parse(&env_req, v, ROCE_ENV_MODE);
		r = &env_req;
	}
	if (!r->valid) {
		slurm_error(ROCE_LOG "invalid %s=\"%s\": " ROCE_VALID_MODES, r->source, r->raw);
		return -1;
	}
	/* Only reaches the prolog for allocations (sbatch, salloc, srun without one). */
	spank_job_control_setenv(sp, "ROCE_MODE", r->site_mode ? "site" : roce_mode_name(r->mode), 1);
	return 0;
}
