/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bond.c - the members of a bonded port netdev (see bond.h).
 *
 * bonding/slaves exists only on a bond master, and lists its ports in the
 * order they were enslaved.  (The lower_<dev> links would name them too,
 * but a VLAN device has one as well: the bonding directory says "bond".)
 */
#include "config.h"
#include "collect/bond.h"
#include "base/printable.h"
#include "read/sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int roce_bond_parse_slaves(const char *s, struct roce_netdev *nd, char *why, size_t whylen)
{
	nd->n_members = 0;
	const char *p = s;
	while (*p) {
		size_t len = strcspn(p, " ");
		char name[IF_NAMESIZE], shown[48];
		if (len == 0 || len >= sizeof(name)) {
			snprintf(why, whylen, "\"%s\" is not space-separated netdev names",
			         roce_printable(s, shown, sizeof(shown)));
			goto bad;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (!roce_netdev_name_ok(name)) {
			snprintf(why, whylen, "\"%s\" is not a netdev name",
			         roce_printable(name, shown, sizeof(shown)));
			goto bad;
		}
		for (size_t i = 0; i < nd->n_members; i++)
			if (!strcmp(nd->members[i], name)) {
				snprintf(why, whylen, "%s is listed twice", name);
				goto bad;
			}
		if (nd->n_members == ROCE_BOND_MEMBERS_MAX) {
			snprintf(why, whylen, "more than %d members", ROCE_BOND_MEMBERS_MAX);
			goto bad;
		}
		memcpy(nd->members[nd->n_members++], name, len + 1);
		p += len;
		if (*p == ' ' && p[1] == '\0') {
			snprintf(why, whylen, "a trailing space");
			goto bad;
		}
		if (*p == ' ')
			p++;
	}
	return 0;
bad:
	nd->n_members = 0;
	return -1;
}

/* One netdev (by index: adding members may move the array). */
static void read_members(struct roce_node *node, size_t i, const char *root)
{
	struct roce_netdev *nd = &node->netdevs[i];
	char rel[96], buf[256], why[128];
	snprintf(rel, sizeof(rel), "class/net/%s/bonding/slaves", nd->name);
	if (roce_sysfs_read(root, rel, buf, sizeof(buf), &nd->members_read) < 0)
		return; /* MISSING: not a bond */
	if (!buf[0]) {
		roce_reading_set(&nd->members_read, ROCE_MALFORMED, 0, "%s/%s: a bond without a member port", root,
		                 rel);
		return;
	}
	if (roce_bond_parse_slaves(buf, nd, why, sizeof(why)) < 0) {
		roce_reading_set(&nd->members_read, ROCE_MALFORMED, 0, "%s/%s: %s", root, rel, why);
		return;
	}
	char members[ROCE_BOND_MEMBERS_MAX][IF_NAMESIZE];
	size_t n = nd->n_members;
	memcpy(members, nd->members, sizeof(members));
	for (size_t m = 0; m < n; m++)
		if (!roce_node_add_netdev(node, members[m])) {
			roce_reading_set(&node->netdevs[i].members_read, ROCE_UNREADABLE, ENOMEM, "out of memory");
			node->netdevs[i].n_members = 0;
			return;
		}
}

void roce_bond_collect(struct roce_node *node, const char *sysfs_root)
{
	/* the port netdevs only: members appended here are not bonds themselves */
	size_t n = node->n_netdevs;
	for (size_t i = 0; i < n; i++)
		if (roce_netdev_name_ok(node->netdevs[i].name))
			read_members(node, i, sysfs_root);
}
