/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spank-initfail-shim.c - preloaded by spank-initfail.sh into slurmd and
 * slurmstepd: Slurm's spank_option_register() answers ESPANK_BAD_ARG in the
 * remote context while the file TRIGGER exists, as it would if another
 * plugin held --roce, so that the real plugin's slurm_spank_init fails in
 * slurmstepd and Slurm's real failure handling runs.  Slurm's function is
 * called in every other case.  Stands in for Slurm, never for our code.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <unistd.h>
#include <slurm/spank.h>

#ifndef TRIGGER
#error "build with -DTRIGGER='\"/path\"'"
#endif

spank_err_t spank_option_register(spank_t sp, struct spank_option *opt)
{
	spank_err_t (*real)(spank_t, struct spank_option *);
	if (spank_context() == S_CTX_REMOTE && access(TRIGGER, F_OK) == 0)
		return ESPANK_BAD_ARG;
	*(void **)&real = dlsym(RTLD_NEXT, "spank_option_register");
	return real ? real(sp, opt) : ESPANK_ERROR;
}
