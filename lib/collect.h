/*
 * collect.h - run every collector for one node under one deadline.
 */
#ifndef ROCE_COLLECT_H
#define ROCE_COLLECT_H

#include "model.h"
#include "policy.h"

struct roce_collect_opts {
	const char *sysfs_root;   /* NULL = "/sys" */
	bool full_gids;           /* dump whole GID tables */
	bool netlink;             /* false: skip rtnetlink/DCB (tests of sysfs only) */
	bool verbs;               /* query libibverbs where devices exist */
};

/* Fill node (roce_node_init'ed).  Nothing is returned: every outcome, a
 * missing subsystem or out of memory included, is a reading in the model. */
void roce_collect(struct roce_node *node, const struct roce_policy *policy, const struct roce_collect_opts *opts);

#endif
