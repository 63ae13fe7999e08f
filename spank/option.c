/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * option.c - the --roce option: its registration and callback, and the
 * request they saw (Slurm's side; what a value means is request.c's).
 */
#include "config.h"
#include "roce.h"

static struct roce_request option_request;

const struct roce_request *roce_option_request(void) { return &option_request; }

/* Called in srun/sbatch/salloc for each --roce they parse (the inherited
 * SLURM_SPANK__ variable, #SBATCH lines, the command line: the last one
 * wins, as for Slurm's own options), and in slurmstepd (twice before 24.05:
 * it only records).  An invalid value sticks: a later valid one must not
 * launder it, so the client refuses the job even if a valid --roce follows,
 * and slurmstepd warns and uses default=.  Refusing here makes the client
 * print "Invalid --roce argument" and exit non-zero. */
static int option_cb(int val, const char *optarg, int remote)
{
	(void)val;
	if (!option_request.given || option_request.valid)
		roce_request_parse(&option_request, optarg, "--roce");
	if (!option_request.valid && !remote) {
		slurm_error(ROCE_LOG "invalid --roce value \"%s\": " ROCE_VALID_MODES, option_request.raw);
		return -1;
	}
	return 0;
}

/* The table is not exported: sbatch/salloc on 22.05 ignore spank_options[]. */
static struct spank_option roce_opts[] = {
	{
	        .name = "roce",
	        .arginfo = "[off|warn|strict]", /* shown as --roce=[off|warn|strict] */
	        .usage = "check this job's RoCE fabric on every node and export the NCCL environment "
	                 "(warn: leave bad ports out; strict: fail on a bad fabric; off: do nothing). "
	                 "Without a value: the site's Mode= (roce.conf). Also: SLURM_ROCE=MODE",
	        .has_arg = 2,
	        .val = 0,
	        .cb = option_cb,
	},
	SPANK_OPTIONS_TABLE_END
};

int roce_option_register(spank_t sp)
{
	spank_err_t rc = spank_option_register(sp, &roce_opts[0]);
	if (rc != ESPANK_SUCCESS) {
		slurm_error(ROCE_LOG "cannot register --roce: %s", spank_strerror(rc));
		return -1;
	}
	return 0;
}

int roce_option_getopt(spank_t sp, char **optarg)
{
	return spank_option_getopt(sp, &roce_opts[0], optarg) == ESPANK_SUCCESS ? 0 : -1;
}
