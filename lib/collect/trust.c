/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trust.c - MLNX_OFED's qos/trust and qos/dscp2prio of the port netdevs.
 *
 * mlnx_qos reads dscp2prio as a header line and then "DSCP PRIO" pairs
 * (../shared/notes/fabric.md); any other layout is refused, never guessed
 * at: a map read wrongly would pass a node whose RoCE traffic is lossy.
 */
#include "config.h"
#include "collect/trust.h"
#include "read/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *roce_trust_mode_name(int m)
{
	switch (m) {
	case ROCE_TRUST_PCP: return "pcp";
	case ROCE_TRUST_DSCP: return "dscp";
	default: return "unknown";
	}
}

int roce_trust_parse_mode(const char *s, enum roce_trust_mode *mode)
{
	if (strcmp(s, "pcp") == 0)
		*mode = ROCE_TRUST_PCP;
	else if (strcmp(s, "dscp") == 0)
		*mode = ROCE_TRUST_DSCP;
	else
		return -1;
	return 0;
}

/* "D P" with single spaces or tabs around, both decimal: 0, else -1. */
static int parse_pair(const char *line, size_t len, int *dscp, int *prio)
{
	char tmp[32], *end;
	if (len >= sizeof(tmp))
		return -1;
	memcpy(tmp, line, len);
	tmp[len] = '\0';
	const char *p = tmp;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	long d = strtol(p, &end, 10);
	if (end == p || (*end != ' ' && *end != '\t'))
		return -1;
	p = end;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	long q = strtol(p, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end || end - p > 4 || d > 999 || q > 999)
		return -1;
	*dscp = (int)d;
	*prio = (int)q;
	return 0;
}

int roce_trust_parse_dscp2prio(const char *s, struct roce_dscp_map *m, char *why, size_t whylen)
{
	memset(m->prio, -1, sizeof(m->prio));
	m->n = 0;
	const char *nl = strchr(s, '\n');
	/* The header: text, not a pair (a file of pairs alone is another layout). */
	int d, q;
	if (!s[0] || isdigit((unsigned char)s[0]) || parse_pair(s, nl ? (size_t)(nl - s) : strlen(s), &d, &q) == 0) {
		snprintf(why, whylen, "line 1 is not a header line");
		return -1;
	}
	unsigned lineno = 1;
	for (const char *line = nl ? nl + 1 : NULL; line && *line; line = nl ? nl + 1 : NULL) {
		lineno++;
		nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (parse_pair(line, len, &d, &q) < 0) {
			snprintf(why, whylen, "line %u \"%.*s\" is not \"DSCP PRIO\"", lineno,
			         (int)(len > 24 ? 24 : len), line);
			goto bad;
		}
		if (d >= ROCE_DSCP_MAX || q >= ROCE_PRIOS) {
			snprintf(why, whylen, "line %u: DSCP %d or priority %d out of range (0-63, 0-7)", lineno, d, q);
			goto bad;
		}
		if (m->prio[d] >= 0) {
			snprintf(why, whylen, "line %u: DSCP %d mapped twice", lineno, d);
			goto bad;
		}
		m->prio[d] = (int8_t)q;
		m->n++;
	}
	if (m->n == 0) {
		snprintf(why, whylen, "no \"DSCP PRIO\" line");
		return -1;
	}
	return 0;
bad:
	memset(m->prio, -1, sizeof(m->prio));
	m->n = 0;
	return -1;
}

/* The netdev whose qos/ holds nd's trust: nd itself, or the one lower
 * device of a VLAN (class/net/<vlan>/lower_<dev>, made by the kernel).
 * true when the listing shows that nd has no qos/ and out is nd: then
 * every file under it is missing, as a read of one would find (no
 * class/net/<nd>, or one that is not a directory: the same MISSING). */
static bool qos_netdev(const char *root, const struct roce_netdev *nd, char *out, size_t len)
{
	char rel[64], **names = NULL;
	size_t n = 0;
	struct roce_reading r = { 0 };
	snprintf(out, len, "%s", nd->name);
	snprintf(rel, sizeof(rel), "class/net/%s", nd->name);
	if (roce_sysfs_list(root, rel, &names, &n, &r) < 0)
		return r.status == ROCE_MISSING && (r.err == ENOENT || r.err == ENOTDIR);
	bool has_qos = false;
	const char *lower = NULL;
	for (size_t i = 0; i < n; i++) {
		has_qos |= strcmp(names[i], "qos") == 0;
		if (strncmp(names[i], "lower_", 6) == 0 && roce_netdev_name_ok(names[i] + 6))
			lower = names[i] + 6;
	}
	if (!has_qos && lower)
		snprintf(out, len, "%s", lower);
	roce_sysfs_names_free(names, n);
	return !has_qos && !lower;
}

/* no_qos: qos_netdev() found no qos/ (the read would be MISSING). */
static void read_dscp2prio(const char *root, struct roce_trust *t, bool no_qos)
{
	char rel[64], why[128];
	char *buf = malloc(ROCE_SYSFS_VALUE_MAX + 1);
	struct roce_dscp_map *m = &t->dscp2prio;
	memset(m->prio, -1, sizeof(m->prio));
	if (!buf) {
		roce_reading_set(&m->read, ROCE_UNREADABLE, ENOMEM, "out of memory");
		return;
	}
	snprintf(rel, sizeof(rel), "class/net/%s/qos/dscp2prio", t->from);
	if (no_qos)
		roce_reading_set(&m->read, ROCE_MISSING, ENOENT, "%s/%s does not exist", root, rel);
	else if (roce_sysfs_read(root, rel, buf, ROCE_SYSFS_VALUE_MAX + 1, &m->read) == 0) {
		if (roce_trust_parse_dscp2prio(buf, m, why, sizeof(why)) < 0)
			roce_reading_set(&m->read, ROCE_MALFORMED, 0, "%s/%s: %s (not the layout mlnx_qos reads)", root,
			                 rel, why);
	} else if (m->read.status == ROCE_MISSING) {
		roce_reading_set(&m->read, ROCE_MISSING, ENOENT, "%s/%s does not exist", root, rel);
	}
	free(buf);
}

static void read_trust(const char *root, struct roce_netdev *nd)
{
	struct roce_trust *t = &nd->trust;
	char rel[64], buf[32];
	bool no_qos = qos_netdev(root, nd, t->from, sizeof(t->from));
	snprintf(rel, sizeof(rel), "class/net/%s/qos/trust", t->from);
	if (no_qos)
		roce_reading_set(&t->read, ROCE_MISSING, ENOENT, "%s/%s does not exist", root, rel);
	else if (roce_sysfs_read(root, rel, buf, sizeof(buf), &t->read) == 0 && roce_trust_parse_mode(buf, &t->mode) < 0)
		roce_reading_set(&t->read, ROCE_MALFORMED, 0, "%s/%s: \"%.24s\" is not pcp or dscp", root, rel, buf);
	else if (t->read.status == ROCE_MISSING)
		roce_reading_set(&t->read, ROCE_MISSING, ENOENT, "%s/%s does not exist", root, rel);
	read_dscp2prio(root, t, no_qos);
}

void roce_trust_collect(struct roce_node *node, const char *sysfs_root)
{
	for (size_t i = 0; i < node->n_netdevs; i++)
		if (roce_netdev_name_ok(node->netdevs[i].name))
			read_trust(sysfs_root, &node->netdevs[i]);
}
