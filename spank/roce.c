/*
 * roce.c - the SPANK plugin "roce": dispatch on spank_context().
 *
 * Only slurm_spank_* and plugin_* symbols are exported (Makefile.am,
 * -export-symbols-regex), so libroce's names cannot clash with Slurm's or
 * another plugin's.
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

static struct roce_args args;
static bool args_ok;
static struct roce_error args_err;

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();

	/* slurmd loads us only because init exists: nothing to do there. */
	if (ctx == S_CTX_SLURMD || ctx == S_CTX_ERROR)
		return 0;
	if (roce_option_register(sp) < 0)
		return -1;
	args_ok = roce_args_parse(ac, av, &args, &args_err) == 0;
	if (!args_ok && ctx != S_CTX_REMOTE) {
		/* Bad plugstack.conf: the clients say so; slurmstepd judges by mode. */
		slurm_error(ROCE_LOG "plugstack.conf: %s", args_err.msg);
	}
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	switch (spank_context()) {
	case S_CTX_LOCAL:
	case S_CTX_ALLOCATOR:
		return args_ok ? roce_client_init_post_opt(sp, &args) : 0;
	case S_CTX_REMOTE:
		return roce_remote_init_post_opt(sp, &args, args_ok ? NULL : args_err.msg);
	default:
		return 0;
	}
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	return spank_remote(sp) == 1 ? roce_remote_user_init(sp) : 0;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	return spank_remote(sp) == 1 ? roce_remote_task_init(sp) : 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (spank_context() == S_CTX_REMOTE)
		roce_remote_exit();
	(void)sp;
	return 0;
}

#if ROCE_HAVE_JOBREPORT
int slurm_spank_job_prolog(spank_t sp, int ac, char **av)
{
	return roce_job_script(sp, ac, av, true);
}

int slurm_spank_job_epilog(spank_t sp, int ac, char **av)
{
	return roce_job_script(sp, ac, av, false);
}
#endif
