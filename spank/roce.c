/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce.c - the SPANK plugin "roce": each callback is a switch on the
 * context, each case one call into that context's file.
 *
 * Only slurm_spank_* and plugin_* symbols are exported (Makefile.am,
 * -export-symbols-regex), so libroce's names cannot clash with Slurm's or
 * another plugin's.  Slurm passes every callback the plugstack words (ac,
 * av); only init and the job script callbacks read them.
 */
#include "config.h"
#include "roce.h"

SPANK_PLUGIN(roce, 1);

#if HAVE_DECL_SLURM_SPANK_INIT_FAILURE_MODE
/* Our init fails in slurmstepd only when --roce cannot be registered (another
 * plugin, or a second plugstack line, has it): a site mistake that no node
 * causes, so fail the job rather than drain every node it lands on. */
int slurm_spank_init_failure_mode = ESPANK_JOB_FAILURE;
#endif

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	switch (spank_context()) {
	case S_CTX_LOCAL:
	case S_CTX_ALLOCATOR: return roce_client_init(sp, ac, av);
	case S_CTX_REMOTE: return roce_slurmstepd_init(sp, ac, av);
	case S_CTX_JOB_SCRIPT: return roce_jobscript_init(sp);
	default: /* slurmd loads us only because init exists: nothing to do there */ return 0;
	}
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void)ac, (void)av;
	switch (spank_context()) {
	case S_CTX_LOCAL:
	case S_CTX_ALLOCATOR: return roce_client_init_post_opt(sp);
	case S_CTX_REMOTE: return roce_slurmstepd_init_post_opt(sp);
	default: return 0;
	}
}

/* srun only, once per step, after the step exists and before it is launched. */
int slurm_spank_local_user_init(spank_t sp, int ac, char **av)
{
	if (spank_context() == S_CTX_LOCAL)
		return roce_jobwide_srun(sp, ac, av);
	return 0;
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
	(void)ac, (void)av;
	if (spank_remote(sp) == 1)
		roce_slurmstepd_user_init();
	return 0;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	(void)ac, (void)av;
	if (spank_remote(sp) == 1)
		roce_slurmstepd_task_init();
	return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	(void)sp, (void)ac, (void)av;
	if (spank_context() == S_CTX_REMOTE)
		roce_slurmstepd_exit();
	return 0;
}

int slurm_spank_job_prolog(spank_t sp, int ac, char **av) { return roce_jobscript_run(sp, ac, av, true); }

int slurm_spank_job_epilog(spank_t sp, int ac, char **av) { return roce_jobscript_run(sp, ac, av, false); }
