/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netclass.c - class/net/<if>/ files of the port netdevs.
 *
 * speed is printed by the kernel as "%d" of the ethtool speed: Mb/s, -1
 * while the link is down (some drivers fail the read with EINVAL instead:
 * that is a reading, not a speed).
 */
#include "config.h"
#include "collect/netclass.h"
#include "read/sysfs.h"

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

int roce_netclass_parse_uint(const char *s, int max, int *v)
{
	if (!isdigit((unsigned char)s[0]) || strlen(s) > 3)
		return -1;
	char *end;
	long n = strtol(s, &end, 10);
	if (*end || n > max)
		return -1;
	*v = (int)n;
	return 0;
}

/* The directories of ecn/'s values, opened once per netdev (a value in a
 * directory that could not be opened is read by its whole path: the same
 * reading, the same message).  Each value is then a name in its own
 * directory: on sysfs no look before its open, elsewhere no check after
 * it when the directory is private (readfile.h's ROCE_READFILE_DIR_*). */
enum { ECN_NP_ENABLE, ECN_RP_ENABLE, ECN_NP, ECN_DIRS };
static const char *const ecn_dir_name[ECN_DIRS] = { "roce_np/enable", "roce_rp/enable", "roce_np" };

/* One ecn/ value (file dir k's name; rel for messages) into *v (-1 when
 * not read); the first failure is the reading. */
static void read_ecn_value(const char *root, struct roce_netdev *nd, const struct roce_sysfs_dir *dirs, int k,
                           const char *name, int max, int *v)
{
	char rel[128], buf[32];
	struct roce_reading r = { 0 };
	*v = -1;
	snprintf(rel, sizeof(rel), "class/net/%s/ecn/%s/%s", nd->name, ecn_dir_name[k], name);
	int rc = dirs[k].fd >= 0 ? roce_sysfs_read_in(&dirs[k], name, buf, sizeof(buf), &r)
	                         : roce_sysfs_read(root, rel, buf, sizeof(buf), &r);
	if (rc == 0 && roce_netclass_parse_uint(buf, max, v) < 0) {
		*v = -1;
		roce_reading_set(&r, ROCE_MALFORMED, 0, "%s/%s: \"%.24s\" is not 0-%d", root, rel, buf, max);
	}
	if (r.status != ROCE_OK && roce_reading_ok(&nd->ecn.read))
		nd->ecn.read = r;
}

static void read_ecn(const char *root, struct roce_netdev *nd)
{
	char rel[64], **names = NULL, file[48];
	size_t n = 0;
	snprintf(rel, sizeof(rel), "class/net/%s/ecn", nd->name);
	if (roce_sysfs_list(root, rel, &names, &n, &nd->ecn.read) < 0) {
		if (nd->ecn.read.status == ROCE_MISSING)
			roce_reading_set(&nd->ecn.read, ROCE_MISSING, ENOENT, "%s/%s does not exist", root, rel);
		memset(nd->ecn.np, -1, sizeof(nd->ecn.np));
		memset(nd->ecn.rp, -1, sizeof(nd->ecn.rp));
		nd->ecn.cnp_dscp = nd->ecn.cnp_prio = -1;
		return;
	}
	roce_sysfs_names_free(names, n);
	roce_reading_set(&nd->ecn.read, ROCE_OK, 0, NULL);
	struct roce_sysfs_dir dirs[ECN_DIRS];
	for (int k = 0; k < ECN_DIRS; k++) {
		char sub[128];
		snprintf(sub, sizeof(sub), "%s/%s", rel, ecn_dir_name[k]);
		roce_sysfs_dir_open(&dirs[k], root, sub);
	}
	for (int p = 0; p < ROCE_PRIOS; p++) {
		int v;
		snprintf(file, sizeof(file), "%d", p);
		read_ecn_value(root, nd, dirs, ECN_NP_ENABLE, file, 1, &v);
		nd->ecn.np[p] = (int8_t)v;
		read_ecn_value(root, nd, dirs, ECN_RP_ENABLE, file, 1, &v);
		nd->ecn.rp[p] = (int8_t)v;
	}
	read_ecn_value(root, nd, dirs, ECN_NP, "cnp_dscp", 63, &nd->ecn.cnp_dscp);
	read_ecn_value(root, nd, dirs, ECN_NP, "cnp_802p_prio", 7, &nd->ecn.cnp_prio);
	for (int k = 0; k < ECN_DIRS; k++)
		roce_sysfs_dir_close(&dirs[k]);
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
		roce_reading_set(&nd->speed_read, ROCE_MALFORMED, 0, "%s/%s: \"%.24s\" is not a speed in Mb/s", root,
		                 rel, buf);
	}
}

void roce_netclass_collect(struct roce_node *node, const char *sysfs_root, bool ecn)
{
	for (size_t i = 0; i < node->n_netdevs; i++)
		if (roce_netdev_name_ok(node->netdevs[i].name)) {
			read_speed(sysfs_root, &node->netdevs[i]);
			if (ecn)
				read_ecn(sysfs_root, &node->netdevs[i]);
		}
}
