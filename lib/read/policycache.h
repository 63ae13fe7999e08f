/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policycache.h - the last roce.conf that parsed, kept in StateDir, so that
 * a bad edit (Ecm=warn for Ecn=warn) pushed to every node does not take the
 * running nodes down (roce.conf(5), A BAD FILE).
 *
 * Root's readers on a node (the plugin in slurmstepd, the job prolog and
 * epilog) keep a copy of each file that parsed: StateDir/policy-HASH.conf
 * (HASH of the file's path; the file's bytes and a closing comment naming
 * it), root's 0600 in root's 0700 StateDir (safefile.h: nobody else can
 * write or swap it), written only when it changed.  When the file does not
 * parse, the copy is parsed again, for this node, and used instead.  A
 * marker per version of the bad file (policy-HASH.bad-VERSION, all removed
 * once the file parses) lets the first reader of each version log it and
 * the others stay quiet: one log line per change of the file, not one per
 * step.  StateDir is the one the file itself names (the keys that parsed),
 * unless the caller gives another (a plugstack StateDir= word).
 */
#ifndef ROCE_POLICYCACHE_H
#define ROCE_POLICYCACHE_H

#include <stdbool.h>
#include "base/error.h"
#include "read/policy.h"

struct roce_policycache_outcome {
	bool cached;           /* the file did not parse: the policy is its last good copy's */
	bool first;            /* the first reader of this version of the bad file: log it (always, without save) */
	char saved[32];        /* when the copy was written ("2026-11-30T12:00:00Z"), for the log */
	struct roce_error bad; /* why the file did not parse ("" when it did) */
};

/*
 * Read path (missing_ok: a missing file leaves p as it is) for node (NULL:
 * this node) into p, which holds the defaults.  When it parses and save,
 * keep its copy (root: nothing is written when StateDir is not root's).
 * When it does not, the last good copy.  0 with p usable (o->cached says
 * which); -1 with err (the file's first problem, and that there is no good
 * copy) and p holding every key of the file that parsed.  state_dir NULL:
 * the file's StateDir.
 */
int roce_policycache_load(struct roce_policy *p, const char *path, bool missing_ok, const char *node, bool save,
                          const char *state_dir, struct roce_policycache_outcome *o, struct roce_error *err);

#endif
