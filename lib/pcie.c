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
#include "pcie.h"
#include "pciaddr.h"
#include "pcicap.h"
#include "readfile.h"
#include "printable.h"
#include "sysfs.h"

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

/* One attribute of fn: 0, or -1 with fn->link_read set. */
static int read_attr(const char *root, struct roce_pcie_fn *fn, const char *name, bool speed, unsigned *out)
{
	char rel[128], val[64];
	struct roce_reading r = { 0 };
	snprintf(rel, sizeof(rel), PCI_DEVICES "/%s/%s", fn->bdf, name);
	if (roce_sysfs_read(root, rel, val, sizeof(val), &r) < 0) {
		fn->link_read = r;
		return -1;
	}
	if ((speed ? roce_pcie_parse_speed(val, out) : roce_pcie_parse_width(val, out)) < 0) {
		char shown[80];
		roce_reading_set(&fn->link_read, ROCE_MALFORMED, 0, "%s/%s: \"%s\" is not a PCIe link %s", root, rel,
		                 roce_printable(val, shown, sizeof(shown)), speed ? "speed" : "width");
		return -1;
	}
	return 0;
}

static void read_link(const char *root, struct roce_pcie_fn *fn)
{
	if (read_attr(root, fn, "current_link_speed", true, &fn->cur_speed) < 0 ||
	    read_attr(root, fn, "current_link_width", false, &fn->cur_width) < 0 ||
	    read_attr(root, fn, "max_link_speed", true, &fn->max_speed) < 0 ||
	    read_attr(root, fn, "max_link_width", false, &fn->max_width) < 0)
		return;
	roce_reading_set(&fn->link_read, ROCE_OK, 0, NULL);
}

/* The port type and ACS registers of a bridge from its config space (root
 * only: a short read is unknown, never "no ACS"). */
static void read_config(const char *root, struct roce_pcie_fn *fn)
{
	char path[PATH_MAX], why[160];
	uint8_t cfg[ROCE_PCICAP_SPACE + 1];
	struct roce_reading r = { 0 };
	if (roce_path(path, sizeof(path), "%s/" PCI_DEVICES "/%s/config", root, fn->bdf) < 0) {
		roce_reading_set(&fn->acs_read, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s", path);
		return;
	}
	ssize_t n = roce_readfile_buf(AT_FDCWD, NULL, path, (char *)cfg, sizeof(cfg), 0, &r);
	if (n < 0) {
		fn->acs_read = r;
		return;
	}
	int rc = roce_pcicap_acs(cfg, (size_t)n, &fn->acs_cap, &fn->acs_ctrl, why, sizeof(why));
	if (rc < 0) {
		roce_reading_set(&fn->acs_read, ROCE_MALFORMED, 0, "%s: %s", path, why);
		return;
	}
	fn->acs_present = rc == 1;
	rc = roce_pcicap_port_type(cfg, (size_t)n, &fn->port_type, why, sizeof(why));
	if (rc < 0) {
		roce_reading_set(&fn->acs_read, ROCE_MALFORMED, 0, "%s: %s", path, why);
		return;
	}
	fn->port_type_known = rc == 1;
	roce_reading_set(&fn->acs_read, ROCE_OK, 0, NULL);
}

/* fn[0]'s IOMMU group and its type.  No iommu_group link: no IOMMU
 * translates the device (OK, group ""). */
static void read_iommu(const char *root, struct roce_pcie_path *path)
{
	char link[PATH_MAX], target[PATH_MAX], rel[128], shown[64];
	const char *bdf = path->fn[0].bdf;
	if (roce_path(link, sizeof(link), "%s/" PCI_DEVICES "/%s/iommu_group", root, bdf) < 0) {
		roce_reading_set(&path->iommu_read, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s", link);
		return;
	}
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		int err = errno;
		if (err == ENOENT)
			roce_reading_set(&path->iommu_read, ROCE_OK, 0, NULL);
		else
			roce_reading_set(&path->iommu_read, roce_status_for_errno(err), err, "cannot read the link %s: %s",
			                 link, strerror(err));
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
			roce_reading_set(&path->read, ROCE_MALFORMED, 0, "%s/" PCI_DEVICES "/%s: more than %d PCI functions deep",
			                 root, bdf, ROCE_PCIE_DEPTH_MAX);
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

void roce_pcie_collect_path(const char *root, const char *bdf, struct roce_pcie_path *path)
{
	char link[PATH_MAX], target[PATH_MAX];
	memset(path, 0, sizeof(*path));
	if (roce_path(link, sizeof(link), "%s/" PCI_DEVICES "/%s", root, bdf) < 0) {
		roce_reading_set(&path->read, ROCE_UNREADABLE, ENAMETOOLONG, "path too long: %s/" PCI_DEVICES "/%s", root, bdf);
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
	read_iommu(root, path);
	for (size_t i = 0; i < path->n; i++) {
		read_link(root, &path->fn[i]);
		if (i > 0)
			read_config(root, &path->fn[i]);
	}
	roce_reading_set(&path->read, ROCE_OK, 0, NULL);
}

void roce_pcie_collect_node(struct roce_node *node, const char *root)
{
	for (size_t d = 0; d < node->n_devices; d++) {
		struct roce_device *dev = &node->devices[d];
		struct roce_pciaddr a;
		char bdf[ROCE_PCI_MAX];
		/* A device that is not a PCI function (rxe, siw) has no PCIe path. */
		if (!roce_reading_ok(&dev->pci_read) || roce_pciaddr_parse(dev->pci_addr, &a) < 0)
			continue;
		roce_pciaddr_format(&a, bdf, sizeof(bdf));
		roce_pcie_collect_path(root, bdf, &dev->pcie);
	}
}
