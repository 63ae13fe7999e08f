/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netclass.c - class/net/<if>/ files of the port netdevs.
 *
 * speed is printed by the kernel as "%d" of the ethtool speed: Mb/s, -1
 * while the link is down (some drivers fail the read with EINVAL instead:
 * that is a reading, not a speed).
 */
#include "config.h"
#include "netclass.h"
#include "sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int roce_netclass_parse_speed(const char *s, int *mbps)
{
	if (strcmp(s, "-1") == 0) {
		*mbps = -1;
		return 0;
	}
	if (!isdigit((unsigned char)s[0]))
		return -1;
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v == 0 || v > ROCE_SPEED_MAX_MBPS)
		return -1;
	*mbps = (int)v;
	return 0;
}

static void read_speed(const char *root, struct roce_netdev *nd)
{
	char rel[64], buf[32];
	nd->speed_mbps = -1;
	/* The name was checked by roce_netdev_name_ok() before it got here. */
	snprintf(rel, sizeof(rel), "class/net/%s/speed", nd->name);
	if (roce_sysfs_read(root, rel, buf, sizeof(buf), &nd->speed_read) < 0)
		return;
	if (roce_netclass_parse_speed(buf, &nd->speed_mbps) < 0) {
		nd->speed_mbps = -1;
		roce_reading_set(&nd->speed_read, ROCE_MALFORMED, 0, "%s/%s: \"%.24s\" is not a speed in Mb/s", root, rel, buf);
	}
}

void roce_netclass_collect(struct roce_node *node, const char *sysfs_root)
{
	for (size_t i = 0; i < node->n_netdevs; i++)
		if (roce_netdev_name_ok(node->netdevs[i].name))
			read_speed(sysfs_root, &node->netdevs[i]);
}
