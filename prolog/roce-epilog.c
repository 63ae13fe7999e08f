/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * roce-epilog - job epilog half of the RoCE fabric report, for sites that run
 * Epilog= scripts or an epilog.d instead of the SPANK plugin.
 *
 *   roce-epilog [--config FILE] [--sysfs-root DIR]
 *
 * Same environment as roce-prolog.  Snapshots the counters again, writes the
 * node's fragment ReportDir/<jobid>/<node>.json and removes the prolog's
 * snapshot.  Exit 0 also when the report cannot be written (full disk,
 * unwritable directory: logged to stderr and syslog), so the node is never
 * drained for it.  Exit 2 on usage errors.
 */
#include "config.h"
#include "jobmain.h"

int main(int argc, char **argv) { return roce_jobmain(argc, argv, ROCE_JOBMAIN_EPILOG); }
