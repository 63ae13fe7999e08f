/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdma.c - RDMA devices, ports and GID tables from sysfs.
 *
 * GID tables have 256 entries per port and each read costs microseconds (a
 * firmware-backed attribute on some drivers), so reads are lazy: the
 * policy's index first, and a scan from index 0 up (NCCL's order) only when
 * that entry is not the routable RoCE v2 GID we expect, in auto mode, or
 * when a full dump is asked for.  Types and netdevs are read only for
 * non-empty GIDs (the kernel fails those reads with EINVAL on empty slots).
 */
#include "config.h"
#include "collect/rdma.h"
#include "base/printable.h"
#include "read/readfile.h"
#include "read/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define IB "class/infiniband"

/* ------------------------------------------------------------ value parsers */

int roce_rdma_parse_port_state(const char *s, int *num, char *name, size_t namelen)
{
	/* "%d: %s" as ib_port_state_str / phys_state_to_str print it. */
	char *end;
	if (!isdigit((unsigned char)s[0]))
		return -1;
	long v = strtol(s, &end, 10);
	if (v < 0 || v > 255 || end[0] != ':' || end[1] != ' ' || !end[2])
		return -1;
	const char *n = end + 2;
	size_t len = strlen(n);
	if (len >= namelen)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)n[i]) && n[i] != '_' && n[i] != ' ')
			return -1;
	*num = (int)v;
	memcpy(name, n, len + 1);
	return 0;
}

int roce_rdma_parse_gid(const char *s, uint8_t raw[16])
{
	/* Always the full form: eight groups of four hex digits. */
	if (strlen(s) != 39)
		return -1;
	for (int g = 0; g < 8; g++) {
		const char *p = s + g * 5;
		unsigned v = 0;
		for (int i = 0; i < 4; i++) {
			if (!isxdigit((unsigned char)p[i]))
				return -1;
			v = v * 16 + (unsigned)(isdigit((unsigned char)p[i])
			                                ? p[i] - '0'
			                                : (tolower((unsigned char)p[i]) - 'a' + 10));
		}
		if (g < 7 && p[4] != ':')
			return -1;
		raw[2 * g] = (uint8_t)(v >> 8);
		raw[2 * g + 1] = (uint8_t)v;
	}
	return 0;
}

int roce_rdma_parse_gid_type(const char *s, enum roce_gid_type *t)
{
	if (strcmp(s, "RoCE v2") == 0)
		*t = ROCE_GID_TYPE_ROCE_V2;
	else if (strcmp(s, "IB/RoCE v1") == 0 || strcmp(s, "RoCE v1") == 0 || strcmp(s, "IB") == 0)
		*t = ROCE_GID_TYPE_IB_ROCE_V1;
	else
		return -1;
	return 0;
}

int roce_rdma_parse_link_layer(const char *s, enum roce_link_layer *ll)
{
	if (strcmp(s, "Ethernet") == 0)
		*ll = ROCE_LL_ETHERNET;
	else if (strcmp(s, "InfiniBand") == 0)
		*ll = ROCE_LL_INFINIBAND;
	else
		return -1;
	return 0;
}

int roce_rdma_parse_rate(const char *s, unsigned *mbps)
{
	/* rate_show() prints "%d%s Gb/sec (%dX%s)" with ".5" for the half rates
	 * of the old IB speeds; the IB speed words come for Ethernet ports too. */
	char *end;
	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	unsigned long g = strtoul(s, &end, 10);
	if (errno || g >= ROCE_RATE_MAX_GBPS)
		return -1;
	unsigned half = 0;
	if (strncmp(end, ".5", 2) == 0) {
		half = 500;
		end += 2;
	}
	if (strncmp(end, " Gb/sec", 7) != 0)
		return -1;
	end += 7;
	size_t rest = strlen(end);
	if (rest && (strncmp(end, " (", 2) != 0 || end[rest - 1] != ')'))
		return -1;
	if (g == 0 && !half)
		return -1;
	*mbps = (unsigned)(g * 1000 + half);
	return 0;
}

/* Record that entries of a listing were refused: the first one by name, the
 * count of the others.  The reading is MALFORMED (the listing itself was
 * read; what else it held is still used). */
static void record_refused(struct roce_reading *r, const char *root, const char *rel, const char *name,
                           size_t n_refused, const char *what)
{
	char shown[48];
	char more[48] = "";
	roce_printable(name, shown, sizeof(shown));
	if (n_refused > 1)
		snprintf(more, sizeof(more), " (and %zu more)", n_refused - 1);
	roce_reading_set(r, ROCE_MALFORMED, 0, "%s/%s/\"%s\": not %s: ignored%s", root, rel, shown, what, more);
}

/* ------------------------------------------------------------ GID tables */

/* Where a port's GID files are read from: the port's directory (pd), and
 * for a scan of the whole table its gids/, gid_attrs/types/ and
 * gid_attrs/ndevs/ opened once (sub[], fd -1 when not), so that each of
 * the table's hundreds of files is a name in its own directory: what the
 * port's directory says of its own entries (readfile.h's
 * ROCE_READFILE_DIR_PRIVATE) is said of each of these for theirs, which
 * spares a check of every file after it is opened.  The same values and
 * the same messages: a directory's path and the name are the path read
 * from pd, and one that cannot be opened leaves its files to pd.  Not on
 * sysfs, where pd's files are already read without a look or a check. */
enum { GIDS, GID_TYPES, GID_NDEVS, GID_DIRS };
static const char *const gid_dir_name[GID_DIRS] = { "gids", "gid_attrs/types", "gid_attrs/ndevs" };
struct gid_dirs {
	const struct roce_sysfs_dir *pd;
	bool opened;
	struct roce_sysfs_dir sub[GID_DIRS];
};

static void gid_dirs_open(struct gid_dirs *dirs)
{
	for (int k = 0; k < GID_DIRS; k++)
		roce_sysfs_dir_open_in(&dirs->sub[k], dirs->pd, gid_dir_name[k]);
	dirs->opened = true;
}

static void gid_dirs_close(struct gid_dirs *dirs)
{
	if (!dirs->opened)
		return;
	for (int k = 0; k < GID_DIRS; k++)
		roce_sysfs_dir_close(&dirs->sub[k]);
	dirs->opened = false;
}

/* File index of kind k (name: "gids/<index>" and the like, for messages). */
static int read_gid_file(const struct gid_dirs *dirs, int k, int index, char *name, size_t namelen, char *buf,
                         size_t len, struct roce_reading *r)
{
	snprintf(name, namelen, "%s/%d", gid_dir_name[k], index);
	if (dirs->opened && dirs->sub[k].fd >= 0)
		return roce_sysfs_read_in(&dirs->sub[k], name + strlen(gid_dir_name[k]) + 1, buf, len, r);
	return roce_sysfs_read_in(dirs->pd, name, buf, len, r);
}

/* dirs: the port's directories (portdir below root, for messages). */
static int read_gid(const char *root, const char *portdir, const struct gid_dirs *dirs, int index,
                    struct roce_gid *g)
{
	char name[40], buf[64];
	memset(g, 0, sizeof(*g));
	g->index = index;
	if (read_gid_file(dirs, GIDS, index, name, sizeof(name), buf, sizeof(buf), &g->read) < 0)
		return -1;
	if (roce_rdma_parse_gid(buf, g->raw) < 0) {
		roce_reading_set(&g->read, ROCE_MALFORMED, 0, "%s/%s/%s: \"%.48s\" is not a GID", root, portdir, name,
		                 buf);
		return -1;
	}
	static const uint8_t zero[16];
	g->empty = memcmp(g->raw, zero, 16) == 0;
	if (g->empty)
		return 0;

	if (read_gid_file(dirs, GID_TYPES, index, name, sizeof(name), buf, sizeof(buf), &g->type_read) == 0 &&
	    roce_rdma_parse_gid_type(buf, &g->type) < 0)
		roce_reading_set(&g->type_read, ROCE_MALFORMED, 0, "%s/%s/%s: \"%.48s\" is not a GID type", root,
		                 portdir, name, buf);

	if (read_gid_file(dirs, GID_NDEVS, index, name, sizeof(name), g->ndev, sizeof(g->ndev), &g->ndev_read) == 0 &&
	    !roce_netdev_name_ok(g->ndev)) {
		roce_reading_set(&g->ndev_read, ROCE_MALFORMED, 0, "%s/%s/%s: \"%.48s\" is not a netdev name", root,
		                 portdir, name, g->ndev);
		g->ndev[0] = '\0';
	}
	return 0;
}

/* Insert in index order (binary search); capacity doubles, so a full scan
 * of a big table stays linear. */
static int keep_gid(struct roce_port *port, const struct roce_gid *g)
{
	size_t lo = 0, hi = port->n_gids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (port->gids[mid].index < g->index)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < port->n_gids && port->gids[lo].index == g->index)
		return 0;
	size_t n = port->n_gids;
	if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4, ...: full */
		struct roce_gid *v = realloc(port->gids, (n ? 2 * n : 1) * sizeof(*v));
		if (!v)
			return -1;
		port->gids = v;
	}
	memmove(&port->gids[lo + 1], &port->gids[lo], (n - lo) * sizeof(*g));
	port->gids[lo] = *g;
	port->n_gids++;
	return 0;
}

/*
 * No directory listing: the kernel creates gids/0..N-1, so the wanted index
 * is opened directly and a scan runs until the first missing entry (which
 * also gives the table size).  Listing and sorting 256 names per port cost
 * a third of a job prolog.
 */
static void scan_gid_table(const char *root, const char *portdir, struct gid_dirs *dirs, struct roce_port *port,
                           const struct roce_gid_want *want)
{
	struct roce_gid g;
	bool have_index = false;

	port->gid_table_size = -1;
	roce_reading_set(&port->gids_read, ROCE_OK, 0, NULL);
	if (!want->full && want->index >= 0 && want->index < ROCE_GID_MAX) {
		read_gid(root, portdir, dirs, want->index, &g);
		if (roce_gid_usable(&g, want->addr_family)) {
			keep_gid(port, &g);
			return;
		}
		/* Past the end of the table is not worth an entry; the scan says what is there. */
		have_index = g.read.status != ROCE_MISSING;
		if (have_index && keep_gid(port, &g) < 0)
			return;
	}
	/* Scan from 0 (NCCL's order); stop at the first usable entry unless a full dump was asked. */
	if (want->full && !(dirs->pd->flags & ROCE_READFILE_DIR_KERNFS))
		gid_dirs_open(dirs);
	for (int i = 0; i < ROCE_GID_MAX; i++) {
		if (i == want->index && have_index && !want->full)
			continue;
		read_gid(root, portdir, dirs, i, &g);
		if (g.read.status == ROCE_MISSING) {
			port->gid_table_size = i;
			if (i == 0)
				port->gids_read = g.read; /* no table at all */
			break;
		}
		if (!(g.empty && roce_reading_ok(&g.read)) && keep_gid(port, &g) < 0)
			break;
		if (!want->full && roce_gid_usable(&g, want->addr_family))
			return;
	}
	if (port->gid_table_size < 0 && roce_reading_ok(&port->gids_read))
		roce_reading_set(&port->gids_read, ROCE_MALFORMED, 0,
		                 "%s/%s/gids: more than %d entries (no HCA has that many): "
		                 "read only the first %d",
		                 root, portdir, ROCE_GID_MAX, ROCE_GID_MAX);
	port->gid_table_scanned = port->gid_table_size >= 0;
}

static void read_gid_table(const char *root, const char *portdir, const struct roce_sysfs_dir *pd,
                           struct roce_port *port, const struct roce_gid_want *want)
{
	struct gid_dirs dirs;
	dirs.pd = pd;
	dirs.opened = false;
	scan_gid_table(root, portdir, &dirs, port, want);
	gid_dirs_close(&dirs);
}

/* ------------------------------------------------------------ ports, devices */

static void read_state(const struct roce_sysfs_dir *pd, const char *file, int *num, char *name, size_t namelen,
                       struct roce_reading *r)
{
	char buf[64];
	if (roce_sysfs_read_in(pd, file, buf, sizeof(buf), r) < 0)
		return;
	if (roce_rdma_parse_port_state(buf, num, name, namelen) < 0)
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s/%s: \"%.48s\" is not \"<n>: <STATE>\"", pd->path, file, buf);
}

/* The port's netdev: the usable GID's, else any non-empty GID's, else device/net/. */
static void find_port_netdev(const char *root, const char *devdir, const struct roce_sysfs_dir *dd,
                             struct roce_port *port, int family)
{
	const char *from = NULL;
	for (size_t i = 0; i < port->n_gids && !from; i++)
		if (roce_gid_usable(&port->gids[i], family) && port->gids[i].ndev[0])
			from = port->gids[i].ndev;
	for (size_t i = 0; i < port->n_gids && !from; i++)
		if (!port->gids[i].empty && port->gids[i].ndev[0])
			from = port->gids[i].ndev;
	if (from) {
		snprintf(port->netdev, sizeof(port->netdev), "%s", from);
		roce_reading_set(&port->netdev_read, ROCE_OK, 0, NULL);
		return;
	}
	char rel[512], **names = NULL;
	size_t n = 0;
	snprintf(rel, sizeof(rel), "%s/device/net", devdir);
	if (roce_sysfs_list_in(dd, "device/net", &names, &n, &port->netdev_read) < 0)
		return;
	/* A multi-port function lists one netdev per port, in port order. */
	size_t pick = port->num >= 1 && port->num <= n ? port->num - 1 : 0;
	if (n == 0 || !roce_netdev_name_ok(names[pick]))
		roce_reading_set(&port->netdev_read, ROCE_MISSING, 0, "%s/%s: no netdev for port %u", root, rel,
		                 port->num);
	else
		snprintf(port->netdev, sizeof(port->netdev), "%s", names[pick]);
	roce_sysfs_names_free(names, n);
}

/* dd: the device's directory, devdir below root. */
static void read_port(const char *root, const char *devdir, const struct roce_sysfs_dir *dd, struct roce_port *port,
                      const struct roce_gid_want *want)
{
	char portdir[384], buf[128];
	struct roce_sysfs_dir pd;
	snprintf(portdir, sizeof(portdir), "%s/ports/%u", devdir, port->num);
	roce_sysfs_dir_open_in(&pd, dd, portdir + strlen(devdir) + 1);

	read_state(&pd, "state", &port->state, port->state_name, sizeof(port->state_name), &port->state_read);
	read_state(&pd, "phys_state", &port->phys_state, port->phys_state_name, sizeof(port->phys_state_name),
	           &port->phys_state_read);

	if (roce_sysfs_read_in(&pd, "link_layer", buf, sizeof(buf), &port->link_layer_read) == 0 &&
	    roce_rdma_parse_link_layer(buf, &port->link_layer) < 0)
		roce_reading_set(&port->link_layer_read, ROCE_MALFORMED, 0,
		                 "%s/%s/link_layer: unknown link layer \"%.48s\"", root, portdir, buf);

	if (roce_sysfs_read_in(&pd, "rate", port->rate, sizeof(port->rate), &port->rate_read) == 0 &&
	    roce_rdma_parse_rate(port->rate, &port->rate_mbps) < 0)
		roce_reading_set(&port->rate_read, ROCE_MALFORMED, 0,
		                 "%s/%s/rate: \"%.48s\" is not \"<n> Gb/sec (<width> <speed>)\"", root, portdir,
		                 port->rate);

	port->gid_table_size = -1;
	/* InfiniBand ports are reported as "not RoCE": no need for their GIDs. */
	if (port->link_layer != ROCE_LL_INFINIBAND) {
		read_gid_table(root, portdir, &pd, port, want);
		find_port_netdev(root, devdir, dd, port, want->addr_family);
	}
	roce_sysfs_dir_close(&pd);
}

/* One identity file of the device (fw_ver, board_id, hca_type): printable, non-empty. */
static void read_ident(const char *root, const char *devdir, const struct roce_sysfs_dir *dd, const char *file,
                       char *buf, size_t len, struct roce_reading *r)
{
	char rel[320];
	if (roce_sysfs_read_in(dd, file, buf, len, r) < 0)
		return;
	snprintf(rel, sizeof(rel), "%s/%s", devdir, file);
	for (const char *c = buf; *c; c++)
		if (*c == ' ' || *c == '\t' || *c == ',' || *c == '"' || *c == '=') {
			roce_reading_set(r, ROCE_MALFORMED, 0, "%s/%s: \"%.48s\" has white space or ,=\" in it", root,
			                 rel, buf);
			break;
		}
	if (!buf[0] && r->status == ROCE_OK)
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s/%s: empty", root, rel);
	if (r->status != ROCE_OK)
		buf[0] = '\0';
}

static int read_device(const char *root, const char *name, struct roce_device *dev, const struct roce_gid_want *want)
{
	char devdir[256], rel[320];
	char **ports = NULL;
	size_t n = 0;
	struct roce_sysfs_dir dd;
	int rc = 0;

	snprintf(dev->name, sizeof(dev->name), "%s", name);
	snprintf(devdir, sizeof(devdir), IB "/%s", name);
	roce_sysfs_dir_open(&dd, root, devdir);
	roce_sysfs_link_basename_in(&dd, "device", dev->pci_addr, sizeof(dev->pci_addr), &dev->pci_read);
	read_ident(root, devdir, &dd, "fw_ver", dev->fw_ver, sizeof(dev->fw_ver), &dev->fw_ver_read);
	read_ident(root, devdir, &dd, "board_id", dev->board_id, sizeof(dev->board_id), &dev->board_id_read);
	read_ident(root, devdir, &dd, "hca_type", dev->hca_type, sizeof(dev->hca_type), &dev->hca_type_read);

	snprintf(rel, sizeof(rel), "%s/ports", devdir);
	if (roce_sysfs_list_in(&dd, "ports", &ports, &n, &dev->ports_read) < 0)
		goto done;
	dev->ports = calloc(n ? n : 1, sizeof(*dev->ports));
	if (!dev->ports) {
		roce_sysfs_names_free(ports, n);
		rc = -1;
		goto done;
	}
	const char *refused = NULL;
	size_t n_refused = 0;
	for (size_t i = 0; i < n; i++) {
		if (!roce_port_name_ok(ports[i])) {
			/* The kernel names ports 1..N; never build a path from anything else. */
			if (!n_refused++)
				refused = ports[i];
			continue;
		}
		struct roce_port *port = &dev->ports[dev->n_ports++];
		port->num = (unsigned)atoi(ports[i]);
		read_port(root, devdir, &dd, port, want);
	}
	if (n_refused)
		record_refused(&dev->ports_read, root, rel, refused, n_refused, "a port number");
	roce_sysfs_names_free(ports, n);
done:
	roce_sysfs_dir_close(&dd);
	return rc;
}

int roce_rdma_collect(struct roce_node *node, const char *sysfs_root, const struct roce_gid_want *want)
{
	char **names = NULL;
	size_t n = 0;

	snprintf(node->sysfs_root, sizeof(node->sysfs_root), "%s", sysfs_root);
	if (roce_sysfs_list(sysfs_root, IB, &names, &n, &node->devices_read) < 0)
		return 0; /* no RDMA subsystem: recorded, not an error */
	node->devices = calloc(n ? n : 1, sizeof(*node->devices));
	if (!node->devices)
		goto nomem;
	const char *refused = NULL;
	size_t n_refused = 0;
	for (size_t i = 0; i < n; i++) {
		if (!roce_device_name_ok(names[i])) {
			/* Not a name the kernel gives; never build paths from it. */
			if (!n_refused++)
				refused = names[i];
			continue;
		}
		if (read_device(sysfs_root, names[i], &node->devices[node->n_devices++], want) < 0)
			goto nomem;
	}
	/* MALFORMED, not a failure: the listing was read and its good names used. */
	if (n_refused)
		record_refused(&node->devices_read, sysfs_root, IB, refused, n_refused, "an RDMA device name");
	roce_sysfs_names_free(names, n);
	return 0;
nomem:
	roce_sysfs_names_free(names, n);
	roce_reading_set(&node->devices_read, ROCE_UNREADABLE, ENOMEM, "out of memory");
	return -1;
}

int roce_rdma_collect_modules(struct roce_node *node, const char *sysfs_root)
{
	static const char *const names[ROCE_MODULES] = { "mlx5_core", "mlx5_ib", "ib_core", "nvidia",
		                                         "nvidia_peermem" };
	char rel[64];
	for (size_t i = 0; i < ROCE_MODULES; i++) {
		struct roce_module *m = &node->modules[i];
		m->name = names[i];
		snprintf(rel, sizeof(rel), "module/%s/version", names[i]);
		/* Versions are one token ("24.10-1.1.4", "550.54.15"): sysfs.c refuses the rest. */
		if (roce_sysfs_read(sysfs_root, rel, m->version, sizeof(m->version), &m->read) == 0 &&
		    (!m->version[0] || strpbrk(m->version, " \t\",="))) {
			roce_reading_set(&m->read, ROCE_MALFORMED, 0, "%s/%s: \"%.48s\" is not a version", sysfs_root,
			                 rel, m->version);
			m->version[0] = '\0';
		}
	}
	return 0;
}
