/*
 * collect.c - run every collector for one node under one deadline.
 */
#include "config.h"
#include "collect.h"
#include "clock.h"
#include "netlink.h"
#include "rdma.h"
#include "verbs.h"

void roce_collect(struct roce_node *node, const struct roce_policy *policy, const struct roce_collect_opts *opts)
{
	const char *root = opts && opts->sysfs_root ? opts->sysfs_root : policy->sysfs_root;
	struct roce_gid_want want = {
		.index = policy->gid_index,
		.addr_family = policy->addr_family,
		.full = opts && opts->full_gids,
	};
	int64_t start = roce_clock_ms();

	/* Every outcome, out of memory included, is recorded in the model. */
	roce_collect_rdma(node, root, &want);
	roce_collect_gdr(node, root);
	if (opts && opts->verbs)
		roce_collect_verbs(node);
	if (!opts || opts->netlink) {
		/* sysfs reads cannot be interrupted; netlink gets what is left. */
		int64_t left = policy->timeout_ms - (roce_clock_ms() - start);
		roce_collect_netlink(node, left > 1 ? (int)left : 1);
	}
}
