/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobmain.h - the shared main of roce-prolog and roce-epilog: options, Slurm's environment, lib/job/job.h. */
#ifndef ROCE_JOBMAIN_H
#define ROCE_JOBMAIN_H
enum roce_jobmain_kind { ROCE_JOBMAIN_PROLOG, ROCE_JOBMAIN_EPILOG };
int roce_jobmain(int argc, char **argv, enum roce_jobmain_kind kind);
#endif
