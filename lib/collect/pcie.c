/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcie.c - the PCIe collector: a device's path to its root port and the
 * link attributes of every function on it.
 *
 * The path comes from the text of the bus/pci/devices/<bdf> link, not from
 * walking directories: only components that are PCI addresses are kept,
 * each put back in canonical form before a path is built from it.
 */
#include "config.h"
#include "collect/pcie.h"
#include "base/pciaddr.h"
#include "base/kread.h"
#include "base/pcicap.h"
#include "read/readfile.h"
#include "base/printable.h"
#include "read/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PCI_DEVICES "bus/pci/devices"

int roce_pcie_parse_speed(const char *s, unsigned *tenths)
{
	if (!strcmp(s, "Unknown") || !strcmp(s, "Unknown speed")) {
		*tenths = 0;
		return 0;
	}
	unsigned whole = 0, frac = 0;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (unsigned)(*p - '0');
		if (whole > 1000)
			return -1;
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		frac = (unsigned)(*p++ - '0');
	}
	if (strcmp(p, " GT/s PCIe") != 0 && strcmp(p, " GT/s") != 0)
		return -1;
	if (whole == 0 && frac == 0)
		return -1;
	*tenths = whole * 10 + frac;
	return 0;
}

int roce_pcie_parse_width(const char *s, unsigned *lanes)
{
	unsigned v = 0;
	if (!*s || strlen(s) > 2)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (v > 32)
		return -1;
	*lanes = v;
	return 0;
}

bool roce_pcie_link_above(const struct roce_pcie_path *path, size_t i)
{
	/* fn[n - 1] is the root port (depth 0); the function at an odd depth
	 * faces upstream and has a physical link to its parent. */
	return i + 1 < path->n && (path->n - 1 - i) % 2 == 1;
}

/* One attribute of fn (fd: its directory): 0, or -1 with fn->link_read set. */
static int read_attr(const struct roce_sysfs_dir *fd, struct roce_pcie_fn *fn, const char *name, bool speed,
                     unsigned *out)
{
	char val[64];
	struct roce_reading r = { 0 };
	if (roce_sysfs_read_in(fd, name, val, sizeof(val), &r) < 0) {
		fn->link_read = r;
		return -1;
	}
	if ((speed ? roce_pcie_parse_speed(val, out) : roce_pcie_parse_width(val, out)) < 0) {
		char shown[80];
		roce_reading_set(&fn->link_read, ROCE_MALFORMED, 0, "%s/%s: \"%s\" is not a PCIe link %s", fd->path,
		                 name, roce_printable(val, shown, sizeof(shown)), speed ? "speed" : "width");
		return -1;
	}
	return 0;
}

static void read_link(const struct roce_sysfs_dir *fd, struct roce_pcie_fn *fn)
{
	if (read_attr(fd, fn, "current_link_speed", true, &fn->cur_speed) < 0 ||
	    read_attr(fd, fn, "current_link_width", false, &fn->cur_width) < 0 ||
	    read_attr(fd, fn, "max_link_speed", true, &fn->max_speed) < 0 ||
	    read_attr(fd, fn, "max_link_width", false, &fn->max_width) < 0)
		return;
	roce_reading_set(&fn->link_read, ROCE_OK, 0, NULL);
}

/* pread from a config file: the source of pcicap.h's walk. */
static size_t pread_config(void *ctx, size_t off, uint8_t *buf, size_t len)
{
	int fd = *(const int *)ctx;
	size_t got = 0;
	while (got < len) {
		ssize_t n = roce_kread_pread(fd, buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* The port type (the standard list, in the first 256 bytes) and the ACS
 * registers of a bridge from its config space, reading only what the walks
 * need (root only: a short read is unknown, never "no ACS"). */
static void read_config(const struct roce_sysfs_dir *fdir, struct roce_pcie_fn *fn)
{
	char path[PATH_MAX], why[160];
	uint8_t std[ROCE_PCICAP_STD_SPACE];
	if (roce_sysfs_path(path, sizeof(path), "%s/config", fdir->path) < 0) {
		roce_reading_set(&fn->acs_read, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s", path);
		return;
	}
	int fd = fdir->fd >= 0 ? roce_readfile_open(fdir->fd, fdir->path, "config", fdir->flags, &fn->acs_read)
	                       : roce_readfile_open_failed(fdir->path, "config", fdir->err, &fn->acs_read);
	if (fd < 0)
		return;
	/* The first 256 bytes (the standard list) first: a reader without root
	 * gets 64, said as the count it got. */
	struct roce_pcicap_src src = { pread_config, &fd };
	size_t got = pread_config(&fd, 0, std, sizeof(std));
	int rc = -1;
	if (got < sizeof(std))
		snprintf(why, sizeof(why), "only %zu of %d bytes of config space readable (the rest needs root)", got,
		         ROCE_PCICAP_SPACE);
	else if ((rc = roce_pcicap_acs_src(&src, &fn->acs_cap, &fn->acs_ctrl, why, sizeof(why))) >= 0) {
		fn->acs_present = rc == 1;
		rc = roce_pcicap_port_type(std, got, &fn->port_type, why, sizeof(why));
	}
	close(fd);
	if (rc < 0) {
		roce_reading_set(&fn->acs_read, ROCE_MALFORMED, 0, "%s: %s", path, why);
		return;
	}
	fn->port_type_known = rc == 1;
	roce_reading_set(&fn->acs_read, ROCE_OK, 0, NULL);
}

/* fn[0]'s IOMMU group and its type (fd: fn[0]'s directory).  No
 * iommu_group link: no IOMMU translates the device (OK, group ""). */
static void read_iommu(const char *root, const struct roce_sysfs_dir *fd, struct roce_pcie_path *path)
{
	char link[PATH_MAX], target[PATH_MAX], rel[128], shown[64];
	if (roce_sysfs_path(link, sizeof(link), "%s/iommu_group", fd->path) < 0) {
		roce_reading_set(&path->iommu_read, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s", link);
		return;
	}
	ssize_t n = fd->fd >= 0 ? readlinkat(fd->fd, "iommu_group", target, sizeof(target) - 1) : -1;
	if (fd->fd < 0)
		errno = fd->err;
	if (n < 0) {
		int err = errno;
		if (err == ENOENT)
			roce_reading_set(&path->iommu_read, ROCE_OK, 0, NULL);
		else
			roce_reading_set(&path->iommu_read, roce_status_for_errno(err), err,
			                 "cannot read the link %s: %s", link, strerror(err));
		return;
	}
	target[n] = '\0';
	/* "../../../kernel/iommu_groups/17": the group is a number, nothing else
	 * goes into the path built from it */
	const char *g = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	size_t len = strspn(g, "0123456789");
	if (len == 0 || g[len] != '\0' || len >= sizeof(path->iommu_group)) {
		roce_reading_set(&path->iommu_read, ROCE_MALFORMED, 0, "%s: \"%s\" is not an IOMMU group", link,
		                 roce_printable(target, shown, sizeof(shown)));
		return;
	}
	memcpy(path->iommu_group, g, len + 1);
	snprintf(rel, sizeof(rel), "kernel/iommu_groups/%s/type", path->iommu_group);
	if (roce_sysfs_read(root, rel, path->iommu_type, sizeof(path->iommu_type), &path->iommu_read) < 0)
		return;
	roce_reading_set(&path->iommu_read, ROCE_OK, 0, NULL);
}

/* The PCI addresses of the link text, top down, into path (bottom up). */
static int parse_link(const char *root, const char *bdf, const char *target, struct roce_pcie_path *path)
{
	char tmp[PATH_MAX], found[ROCE_PCIE_DEPTH_MAX][ROCE_PCI_MAX];
	size_t n = 0;
	snprintf(tmp, sizeof(tmp), "%s", target);
	for (char *save = NULL, *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		struct roce_pciaddr a;
		if (roce_pciaddr_parse(c, &a) < 0)
			continue;
		if (n == ROCE_PCIE_DEPTH_MAX) {
			roce_reading_set(&path->read, ROCE_MALFORMED, 0,
			                 "%s/" PCI_DEVICES "/%s: more than %d PCI functions deep", root, bdf,
			                 ROCE_PCIE_DEPTH_MAX);
			return -1;
		}
		roce_pciaddr_format(&a, found[n++], ROCE_PCI_MAX);
	}
	if (n == 0 || strcmp(found[n - 1], bdf) != 0) {
		roce_reading_set(&path->read, ROCE_MALFORMED, 0, "%s/" PCI_DEVICES "/%s: the link does not end in %s",
		                 root, bdf, bdf);
		return -1;
	}
	path->n = n;
	for (size_t i = 0; i < n; i++)
		snprintf(path->fn[i].bdf, sizeof(path->fn[i].bdf), "%s", found[n - 1 - i]);
	return 0;
}

/* A bridge of an earlier path, or NULL. */
static const struct roce_pcie_fn *seen_bridge(const struct roce_pcie_seen *seen, const char *bdf)
{
	for (size_t k = 0; seen && k < seen->n; k++)
		if (!strcmp(seen->fn[k]->bdf, bdf))
			return seen->fn[k];
	return NULL;
}

void roce_pcie_seen_path(struct roce_pcie_seen *seen, const struct roce_pcie_path *path)
{
	if (!roce_reading_ok(&path->read))
		return;
	for (size_t i = 1; i < path->n && seen->n < ROCE_PCIE_SEEN_MAX; i++)
		if (!seen_bridge(seen, path->fn[i].bdf))
			seen->fn[seen->n++] = &path->fn[i];
}

struct roce_pcie_want roce_pcie_want_of(const struct roce_policy *p)
{
	struct roce_pcie_want w = { .links = p->pcie_degraded != ROCE_ACTION_IGNORE,
		                    .acs = p->acs != ROCE_ACTION_IGNORE,
		                    .iommu = p->iommu != ROCE_ACTION_IGNORE };
	return w;
}

static const struct roce_pcie_want all = { true, true, true };

void roce_pcie_collect_path(const char *root, const char *bdf, struct roce_pcie_path *path, struct roce_pcie_seen *seen)
{
	roce_pcie_collect_path_wanted(root, bdf, &all, path, seen);
}

void roce_pcie_collect_path_wanted(const char *root, const char *bdf, const struct roce_pcie_want *want,
                                   struct roce_pcie_path *path, struct roce_pcie_seen *seen)
{
	char link[PATH_MAX], target[PATH_MAX];
	memset(path, 0, sizeof(*path));
	if (roce_sysfs_path(link, sizeof(link), "%s/" PCI_DEVICES "/%s", root, bdf) < 0) {
		roce_reading_set(&path->read, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/" PCI_DEVICES "/%s",
		                 root, bdf);
		return;
	}
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		int err = errno;
		roce_reading_set(&path->read, roce_status_for_errno(err), err, "cannot read the link %s: %s", link,
		                 strerror(err));
		return;
	}
	target[n] = '\0';
	if (parse_link(root, bdf, target, path) < 0)
		return;
	struct roce_sysfs_dir fd;
	if (want->iommu || want->links) {
		roce_sysfs_dir_open(&fd, root, link + strlen(root) + 1);
		if (want->iommu)
			read_iommu(root, &fd, path);
		if (want->links)
			read_link(&fd, &path->fn[0]);
		roce_sysfs_dir_close(&fd);
	}
	/* The bridges: one another path already read is copied (a switch's
	 * ports are shared by its GPUs and HCAs), the others read. */
	for (size_t i = 1; i < path->n; i++) {
		const struct roce_pcie_fn *known = seen_bridge(seen, path->fn[i].bdf);
		if (known) {
			path->fn[i] = *known;
			continue;
		}
		if (!want->links && !want->acs)
			continue;
		char rel[64];
		snprintf(rel, sizeof(rel), PCI_DEVICES "/%s", path->fn[i].bdf);
		roce_sysfs_dir_open(&fd, root, rel);
		if (want->links)
			read_link(&fd, &path->fn[i]);
		if (want->acs)
			read_config(&fd, &path->fn[i]);
		roce_sysfs_dir_close(&fd);
	}
	roce_reading_set(&path->read, ROCE_OK, 0, NULL);
	if (seen)
		roce_pcie_seen_path(seen, path);
}

void roce_pcie_collect_node(struct roce_node *node, const char *root)
{
	roce_pcie_collect_node_wanted(node, root, &all);
}

void roce_pcie_collect_node_wanted(struct roce_node *node, const char *root, const struct roce_pcie_want *want)
{
	struct roce_pcie_seen seen = { 0 };
	for (size_t d = 0; d < node->n_devices; d++) {
		struct roce_device *dev = &node->devices[d];
		struct roce_pciaddr a;
		char bdf[ROCE_PCI_MAX];
		/* A device that is not a PCI function (rxe, siw) has no PCIe path. */
		if (!roce_reading_ok(&dev->pci_read) || roce_pciaddr_parse(dev->pci_addr, &a) < 0)
			continue;
		roce_pciaddr_format(&a, bdf, sizeof(bdf));
		roce_pcie_collect_path_wanted(root, bdf, want, &dev->pcie, &seen);
	}
}
