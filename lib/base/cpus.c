/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpus.c - the CPUs this process may use (cpus.h). */
#include "config.h"
#include "base/cpus.h"

#include <sched.h>

size_t roce_cpus_usable(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1; /* more than CPU_SETSIZE CPUs, or no answer: one is always right */
	int n = CPU_COUNT(&set);
	return n > 0 ? (size_t)n : 1;
}
