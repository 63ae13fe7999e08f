/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce-prolog - job prolog half of the RoCE fabric report, for sites that run
 * Prolog= scripts or a prolog.d instead of the SPANK plugin.
 *
 *   roce-prolog [--config FILE] [--sysfs-root DIR]
 *
 * Job id from SLURM_JOB_ID, node from SLURMD_NODENAME (else the host name),
 * job user from SLURM_JOB_UID.  Snapshots the node's RoCE counters into
 * StateDir.  Exit 0 also when the snapshot fails (logged to stderr and
 * syslog): reporting never fails a job.  The prolog gate does (a strict
 * job, SPANK_ROCE_MODE, or Gate=yes): a hardware fault drains the node and
 * exits 1, and Slurm requeues the job.  Exit 2 on usage errors.
 */
#include "config.h"
#include "jobmain.h"

int main(int argc, char **argv) { return roce_jobmain(argc, argv, ROCE_JOBMAIN_PROLOG); }
