/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * initfail.c - preloaded by tests/e2e/spank-initfail.sh into slurmd and
 * slurmstepd: Slurm's spank_option_register() answers ESPANK_BAD_ARG in the
 * remote context while the file "<this .so's path>.trigger" exists, as it
 * would if another plugin held --roce, so that the real plugin's
 * slurm_spank_init fails in slurmstepd and Slurm's real failure handling
 * runs.  Slurm's function is called in every other case.  Stands in for
 * Slurm, never for our code.  Built by "make check" without sanitizers (it
 * is preloaded ahead of their runtimes); the test copies it into its scratch
 * directory, so the trigger file is the test's own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <slurm/spank.h>

/* "<path of this shared object>.trigger" exists. */
static int triggered(void)
{
	Dl_info self;
	char path[PATH_MAX];
	if (!dladdr((void *)triggered, &self) || !self.dli_fname)
		return 0;
	if (snprintf(path, sizeof(path), "%s.trigger", self.dli_fname) >= (int)sizeof(path))
		return 0;
	return access(path, F_OK) == 0;
}

spank_err_t spank_option_register(spank_t sp, struct spank_option *opt)
{
	spank_err_t (*real)(spank_t, struct spank_option *);
	if (spank_context() == S_CTX_REMOTE && triggered())
		return ESPANK_BAD_ARG;
	*(void **)&real = dlsym(RTLD_NEXT, "spank_option_register");
	return real ? real(sp, opt) : ESPANK_ERROR;
}
