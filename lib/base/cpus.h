/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpus.h - how many CPUs this process may run on: the bound of the report
 * tools' threads (reading fragments, printing a large report).  Counts the
 * affinity mask, so taskset, a cgroup's cpuset and Slurm's task binding
 * are respected; sysconf's count of online CPUs would not be.
 */
#ifndef ROCE_CPUS_H
#define ROCE_CPUS_H

#include <stddef.h>

/* The CPUs in this thread's affinity mask, at least 1. */
size_t roce_cpus_usable(void);

#endif
