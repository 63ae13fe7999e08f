/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugargs.h - the plugin's plugstack words: what follows spank_roce.so on
 * its plugstack.conf line (config=PATH, default=MODE, roce.conf Key=Value),
 * and the policy they make.  Here, not in spank/, so that roce-check
 * --check-config judges a line exactly as the plugin does.
 *
 * The words are the site's, but still copied only into bounded buffers and
 * printed through roce_printable().
 */
#ifndef ROCE_PLUGARGS_H
#define ROCE_PLUGARGS_H

#include "base/error.h"
#include "read/policy.h"
#include "read/policycache.h"

#define ROCE_PLUGARGS_MAX_KV 64

struct roce_plugargs {
	char conf_file[256];            /* "" = ROCE_DEFAULT_CONFIG, missing file allowed */
	enum roce_mode default_mode;    /* for jobs that did not ask */
	char *kv[ROCE_PLUGARGS_MAX_KV]; /* roce.conf Key=Value words, in order (point into argv) */
	int n_kv;
};

/* Every word is read; -1 with err naming the first bad one (c holds every
 * word that parsed).  Pure. */
int roce_plugargs_parse(int ac, char **av, struct roce_plugargs *c, struct roce_error *err);

/* The roce.conf the words name (config=, else the default). */
const char *roce_plugargs_file(const struct roce_plugargs *c);

/*
 * Defaults, then the roce.conf file for this node, then the Key=Value words
 * (which win).  o NULL: the file as it is, -1 on any problem.  o set (root
 * on a node: slurmstepd, the job prolog and epilog): a file that does not
 * parse gives its last good copy (policycache.h; o says so, and whether to
 * log it); the copy is kept in the words' StateDir= if they name one.
 */
int roce_plugargs_policy(const struct roce_plugargs *c, struct roce_policy *p, struct roce_policycache_outcome *o,
                         struct roce_error *err);

/* For a reader that needs only keys (a NULL-terminated list: srun's
 * SharedDir, TimeoutMs, Mode): as roce_plugargs_policy without o, but a
 * problem of the file counts only when it touches one of them (policyfile.h).
 * 0 with *other set to a problem that was let pass ("" none). */
int roce_plugargs_policy_keys(const struct roce_plugargs *c, const char *const *keys, struct roce_policy *p,
                              struct roce_error *other, struct roce_error *err);

#endif
