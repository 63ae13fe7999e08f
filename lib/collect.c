/*
 * collect.c - run every collector for one node under one deadline.
 */
#include "config.h"
#include "collect.h"
#include "netlink.h"
#include "rdma.h"
#include "verbs.h"

#include <time.h>

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int roce_collect(struct roce_node *node, const struct roce_policy *policy,
                 const struct roce_collect_opts *opts)
{
	const char *root = opts && opts->sysfs_root ? opts->sysfs_root : policy->sysfs_root;
	struct roce_gid_want want = {
		.index = policy->gid_index,
		.addr_family = policy->addr_family,
		.full = opts && opts->full_gids,
	};
	long start = now_ms();
	int rc = 0;

	if (roce_collect_rdma(node, root, &want) < 0)
		rc = -1;
	roce_collect_gdr(node, root);
	/* Its outcome is per port in the model (verbs_read: done, or why not). */
	if (opts && opts->verbs)
		roce_collect_verbs(node);
	if (!opts || opts->netlink) {
		/* sysfs reads cannot be interrupted; netlink gets what is left. */
		long left = policy->timeout_ms - (now_ms() - start);
		if (roce_collect_netlink(node, left > 1 ? (int)left : 1) < 0)
			rc = rc ? rc : 0;   /* recorded per netdev in the model */
	}
	return rc;
}
