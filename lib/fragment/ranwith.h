/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ranwith.h - what a job ran with on a node: the NCCL variables each step
 * had (the plugin's exported value, or the user's own when they set one)
 * beside the value the check chose.  The step records it in
 * StateDir/<jobid>.ranwith.json (root's, 0600, through safefile.h; every
 * step of the job on the node merges into it, a user's value once seen is
 * kept), the epilog takes it into the node's fragment ("ran_with") with a
 * user_override verdict for each user value that differs, and the report
 * shows it (report_ranwith.h).
 */
#ifndef ROCE_RANWITH_H
#define ROCE_RANWITH_H

#include <json-c/json.h>
#include <stdbool.h>
#include "base/error.h"
#include "fragment/verdicts.h"

#define ROCE_RANWITH_VARS 8
#define ROCE_RANWITH_VALUE 512 /* longer values are cut */

struct roce_ranwith_var {
	char name[32];
	char value[ROCE_RANWITH_VALUE];   /* what the step had */
	char checked[ROCE_RANWITH_VALUE]; /* what the check chose */
	bool user;                        /* the user's own value, not the checked one */
};

struct roce_ranwith {
	struct roce_ranwith_var v[ROCE_RANWITH_VARS];
	size_t n;
};

/* Add or replace name's entry (value: what the step has; user: set by the
 * user), copied as they are (cut to fit): the fragment's reader escapes them. */
void roce_ranwith_set(struct roce_ranwith *rw, const char *name, const char *value, const char *checked, bool user);

/* The step's record merged into StateDir/<job_id>.<node>.ranwith.json
 * (statename.h: node as slurmid.h checks it).  -1 with err. */
int roce_ranwith_record(const char *state_dir, const char *job_id, const char *node, const struct roce_ranwith *rw,
                        struct roce_error *err);
/* The epilog: the node's record from the StateDir fd into *rw (empty when
 * there is none; <job_id>.ranwith.json, the name from before per-node
 * names, when the node's is absent), and the file removed.  -1 with err
 * when it is unusable. */
int roce_ranwith_take(int state_fd, const char *job_id, const char *node, struct roce_ranwith *rw,
                      struct roce_error *err);

/* JSON, the fragment's "ran_with": [{name, value, checked, user}, ...]. */
json_object *roce_ranwith_to_json(const struct roce_ranwith *rw);
/* The fragment's array into *rw, strings made printable.  -1 with err. */
int roce_ranwith_from_json(json_object *a, struct roce_ranwith *rw, struct roce_error *err);

/* A user_override verdict (warn) per user value that differs from the checked one. */
int roce_ranwith_verdicts(const struct roce_ranwith *rw, struct roce_verdict_list *out);

#endif
