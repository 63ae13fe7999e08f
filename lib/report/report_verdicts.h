/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_verdicts.h - the verdicts only the merge can give: those that need
 * to know the job's other nodes.  A fragment is written by one node's
 * epilog, which does not know how many nodes the job has (Slurm gives the
 * epilog's SPANK context the job id and user only); the merge counts the
 * fragments.  Pure.
 */
#ifndef ROCE_REPORT_VERDICTS_H
#define ROCE_REPORT_VERDICTS_H

#include "report/report.h"

/* Bytes a RoCE port may move in each direction during a job and still count
 * as "no RDMA traffic" (no_rdma_traffic): connection management and a stray
 * probe move kilobytes; a job whose NCCL uses RDMA moves its communicators'
 * setup and every inter-node collective through the port, megabytes at
 * least. */
#define ROCE_NO_RDMA_FLOOR_BYTES (1024u * 1024u)

/* Append the job-level verdicts to the nodes they are about (each node's
 * verdicts, so every printer lists them as the epilog's).  Call once, after
 * roce_report_sort.  0, -1 on ENOMEM. */
int roce_report_verdicts(struct roce_job_report *r);

#endif
