/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checkconfig.h - roce-check's view of the configuration: --check-config
 * (roce.conf and the plugin's plugstack line judged as the plugin judges
 * them, every problem as file:line, before they reach a node), and the
 * configuration findings a health check prints (a node whose plugstack does
 * not load spank_roce.so, a roce.conf that does not parse).
 */
#ifndef ROCE_CHECKCONFIG_H
#define ROCE_CHECKCONFIG_H

#include <stdbool.h>
#include <stdio.h>

struct checkconfig_args {
	const char *config;    /* roce.conf; NULL: the plugstack line's config=, else the default */
	const char *plugstack; /* a plugstack file; NULL: the one slurm.conf names */
	const char *node;      /* NodeName= sections for this node; NULL: this node */
};

/* --check-config: problems on err ("roce-check: FILE:LINE: ..."), what was
 * judged on out.  0 good, 2 a problem in roce.conf or the plugstack words. */
int checkconfig_run(const struct checkconfig_args *a, FILE *out, FILE *err);

/* The health check's finding on the plugstack: one line in roce-check's
 * text format on out when this node's plugstack does not load the plugin,
 * or that cannot be told; nothing when it does.  A configuration finding:
 * never a drain, never the exit status. */
void checkconfig_plugstack_finding(const char *plugstack, FILE *out);

/* The health check's findings on the directories roce.conf names: one WARN
 * line "dirs" for each of StateDir, ReportDir and SharedDir that the
 * prolog and epilog would refuse (owned by another user, as under NFS's
 * root_squash; writable by others; a symbolic link), and for a StateDir on
 * a shared file system.  A directory not there yet is made by the first
 * job: no finding.  Never a drain, never the exit status. */
struct roce_policy;
void checkconfig_dirs_finding(const struct roce_policy *p, FILE *out);

/* The finding for a roce.conf that did not parse, checked with its last
 * good copy instead (text format, on out). */
void checkconfig_cached_finding(const char *why, const char *saved, FILE *out);

#endif
