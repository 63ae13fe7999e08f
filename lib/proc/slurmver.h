/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmver.h - the Slurm release this build is for, against the installed one.
 *
 * Slurm loads a SPANK plugin only into the major.minor it was built for
 * (plugin_version under mask 0xffff00).  After a Slurm upgrade an `optional`
 * plugstack line leaves the plugin out without a word in slurmd's log
 * beyond "Incompatible Slurm plugin version", and users meet srun's
 * "unrecognized option '--roce'"; a `required` one stops slurmd.  The plugin
 * itself cannot say so (it is not loaded), so roce-check does: it asks the
 * installed Slurm its version and compares.  Asking execs slurmd, which
 * costs more than the whole check: `--version` always asks, a check asks
 * only when the program that answers is another file than the last time
 * (roce_slurmver_cached).
 */
#ifndef ROCE_SLURMVER_H
#define ROCE_SLURMVER_H

#include <stdbool.h>
#include <stddef.h>

/* "22.05": the release slurm/slurm_version.h named at build time. */
const char *roce_slurmver_built(void);

/* The version in a `slurmd -V` / `sinfo -V` line ("slurm-wlm 24.11.5",
 * "slurm 22.05.8"): its last word when it starts with MAJOR.MINOR.
 * 0 with out set ("24.11.5"), -1 when the line holds no version. */
int roce_slurmver_parse(const char *line, char *out, size_t len);

/* Same major.minor ("22.05" and "22.05.8": true; "22.05" and "24.11.5": false). */
bool roce_slurmver_same_release(const char *a, const char *b);

/* The installed Slurm's version: `slurmd -V` (compute nodes), else
 * `sinfo -V` (login nodes), found in PATH, each given timeout_ms.
 * 0 with out set, -1 when neither answered with a version. */
int roce_slurmver_installed(char *out, size_t len, int timeout_ms);

/* roce_slurmver_installed's answer, asked only when it may have changed:
 * dir (a cache directory of root's: TopologyCache's, /var/cache/slurm-roce)
 * keeps one record per program path, "slurmver-<hash>", with what that file
 * was (device, inode, size, mtime, ctime) when it answered and its answer
 * (a version, or none).  While the file PATH names is the same, its answer
 * is the record's and nothing is run; an upgrade (another inode) or an edit
 * makes it ask again.  No answer in time is not kept.  Without such a
 * directory (not root) it asks every time.  0 with out set, -1 when neither
 * program answered. */
int roce_slurmver_cached(const char *dir, char *out, size_t len, int timeout_ms);

/* How long each of slurmd -V and sinfo -V may take in a command's checks. */
#define ROCE_SLURMVER_TIMEOUT_MS 2000

/* --version of every command: "PROG (slurm-roce) VERSION", the Slurm release
 * built for, and the installed one. */
void roce_slurmver_print_version(const char *prog);

#endif
