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

unsigned roce_pcie_link_mbps(const struct roce_pcie_path *path)
{
	if (!roce_reading_ok(&path->read) || !roce_pcie_link_above(path, 0))
		return 0;
	const struct roce_pcie_fn *lo = &path->fn[0], *up = &path->fn[1];
	if (!roce_reading_ok(&lo->link_read) || !roce_reading_ok(&up->link_read))
		return 0;
	unsigned speed = lo->max_speed < up->max_speed ? lo->max_speed : up->max_speed;
	unsigned width = lo->max_width < up->max_width ? lo->max_width : up->max_width;
	/* NCCL's per-lane rates, in Mb/s, by tenths of GT/s */
	static const struct {
		unsigned tenths, mbps;
	} lane[] = { { 25, 1500 }, { 50, 3000 }, { 80, 6000 }, { 160, 12000 }, { 320, 24000 }, { 640, 48000 } };
	for (size_t i = 0; i < sizeof(lane) / sizeof(lane[0]); i++)
		if (lane[i].tenths == speed)
			return lane[i].mbps * width;
	return 0;
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
	 * gets 64, said as the count it got (the vendor is in them). */
	struct roce_pcicap_src src = { pread_config, &fd };
	size_t got = pread_config(&fd, 0, std, sizeof(std));
	int rc = -1, type = 0;
	if (got >= 2) {
		fn->vendor_known = true;
		fn->vendor = (uint16_t)(std[0] | std[1] << 8);
	}
	if (got < sizeof(std))
		snprintf(why, sizeof(why), "only %zu of %d bytes of config space readable (the rest needs root)", got,
		         ROCE_PCICAP_SPACE);
	else if ((rc = roce_pcicap_acs_src(&src, &fn->acs_cap, &fn->acs_ctrl, why, sizeof(why))) >= 0) {
		fn->acs_present = rc == 1;
		rc = type = roce_pcicap_port_type(std, got, &fn->port_type, why, sizeof(why));
	}
	close(fd);
	if (rc < 0) {
		roce_reading_set(&fn->acs_read, ROCE_MALFORMED, 0, "%s: %s", path, why);
		return;
	}
	fn->port_type_known = type == 1;
	/* A target that is not a speed is only not known: ACS stands. */
	fn->target_known = roce_pcicap_link_target(std, got, &fn->target_speed, &fn->hasd, why, sizeof(why)) == 1;
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

/* The PCI addresses of the link text, top down, into path (bottom up);
 * the host bridge's directory name ("pci0008:00", the component before the
 * first address) into host. */
static int parse_link(const char *root, const char *bdf, const char *target, struct roce_pcie_path *path, char *host,
                      size_t hostlen)
{
	char tmp[PATH_MAX], found[ROCE_PCIE_DEPTH_MAX][ROCE_PCI_MAX];
	size_t n = 0;
	snprintf(tmp, sizeof(tmp), "%s", target);
	host[0] = '\0';
	for (char *save = NULL, *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		struct roce_pciaddr a;
		if (roce_pciaddr_parse(c, &a) < 0) {
			if (n == 0 && !strncmp(c, "pci", 3) && strlen(c) < hostlen && !strpbrk(c, " ."))
				snprintf(host, hostlen, "%s", c);
			continue;
		}
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

/* The PCI functions directly under host bridge directory host
 * (devices/pci0008:00), -1 when it cannot be listed. */
static int host_functions(const char *root, const char *host)
{
	char rel[64], **names = NULL;
	size_t n = 0;
	struct roce_reading r = { 0 };
	if (!host[0])
		return -1;
	snprintf(rel, sizeof(rel), "devices/%s", host);
	if (roce_sysfs_list(root, rel, &names, &n, &r) < 0)
		return -1;
	int fns = 0;
	for (size_t i = 0; i < n; i++) {
		struct roce_pciaddr a;
		fns += roce_pciaddr_parse(names[i], &a) == 0;
	}
	roce_sysfs_names_free(names, n);
	return fns;
}

struct roce_pcie_want roce_pcie_want_of(const struct roce_policy *p, bool locality)
{
	bool links = p->pcie_degraded != ROCE_ACTION_IGNORE;
	struct roce_pcie_want w = { .links = links || locality,
		                    .config = p->acs != ROCE_ACTION_IGNORE || (locality && links),
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
	path->host_fns = -1;
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
	char host[32];
	if (parse_link(root, bdf, target, path, host, sizeof(host)) < 0)
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
		if (!want->links && !want->config)
			continue;
		char rel[64];
		snprintf(rel, sizeof(rel), PCI_DEVICES "/%s", path->fn[i].bdf);
		roce_sysfs_dir_open(&fd, root, rel);
		if (want->links)
			read_link(&fd, &path->fn[i]);
		if (want->config)
			read_config(&fd, &path->fn[i]);
		roce_sysfs_dir_close(&fd);
	}
	roce_reading_set(&path->read, ROCE_OK, 0, NULL);
	if (path->n == 2 && path->fn[1].vendor_known && path->fn[1].vendor == ROCE_PCIE_VENDOR_NVIDIA)
		path->host_fns = host_functions(root, host);
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

/* ------------------------------------------------------------ GPU neighbourhood */

/* Is the function at rel (bus/pci/devices/..., or a child directory of one)
 * an NVIDIA GPU (vendor 0x10de, class 0x03xxxx)?  A file that cannot be
 * read says no: the walk looks for one GPU, it does not judge. */
static bool is_gpu_fn(const char *root, const char *rel)
{
	char path[PATH_MAX], val[32];
	struct roce_reading r = { 0 };
	if (roce_sysfs_path(path, sizeof(path), "%s/vendor", rel) < 0 ||
	    roce_sysfs_read(root, path, val, sizeof(val), &r) < 0 || strcmp(val, "0x10de") != 0)
		return false;
	if (roce_sysfs_path(path, sizeof(path), "%s/class", rel) < 0 ||
	    roce_sysfs_read(root, path, val, sizeof(val), &r) < 0)
		return false;
	return strncmp(val, "0x03", 4) == 0 && strlen(val) == 8;
}

/* Depth-first below the bridge at rel: the first NVIDIA GPU's address into
 * gpu.  0 searched (gpu "" when none), -1 the first listing failed (r). */
static int find_gpu_below(const char *root, const char *rel, unsigned depth, char *gpu, size_t len,
                          struct roce_reading *r)
{
	char **names = NULL, child[PATH_MAX];
	size_t n = 0;
	struct roce_reading lr = { 0 };
	if (roce_sysfs_list(root, rel, &names, &n, depth ? &lr : r) < 0)
		return depth ? 0 : -1;
	for (size_t i = 0; i < n && !gpu[0]; i++) {
		struct roce_pciaddr a;
		if (roce_pciaddr_parse(names[i], &a) < 0 ||
		    roce_sysfs_path(child, sizeof(child), "%s/%s", rel, names[i]) < 0)
			continue;
		if (is_gpu_fn(root, child))
			roce_pciaddr_format(&a, gpu, len);
		else if (depth + 1 < ROCE_PCIE_DEPTH_MAX)
			find_gpu_below(root, child, depth + 1, gpu, len, r);
	}
	roce_sysfs_names_free(names, n);
	return 0;
}

/* One root port's answer, kept for the other devices under it. */
struct near_seen {
	char port[ROCE_PCI_MAX];
	struct roce_reading read;
	char gpu[ROCE_PCI_MAX];
};

static void gpu_near(const char *root, struct roce_device *dev, struct near_seen *seen, size_t *n_seen)
{
	const struct roce_pcie_path *p = &dev->pcie;
	char rel[96];
	if (p->read.status != ROCE_NOT_READ && !roce_reading_ok(&p->read)) {
		roce_reading_set(&dev->gpu_near_read, p->read.status, p->read.err, "its PCIe path is unknown (%s)",
		                 p->read.why);
		return;
	}
	/* Not a PCI function (rxe, siw), on a root port of its own or on the
	 * host bridge: it shares no switch with anything. */
	if (p->read.status == ROCE_NOT_READ || p->n < 3) {
		roce_reading_set(&dev->gpu_near_read, ROCE_OK, 0, NULL);
		return;
	}
	const char *port = p->fn[p->n - 1].bdf;
	for (size_t i = 0; i < *n_seen; i++)
		if (!strcmp(seen[i].port, port)) {
			dev->gpu_near_read = seen[i].read;
			snprintf(dev->gpu_near, sizeof(dev->gpu_near), "%s", seen[i].gpu);
			return;
		}
	snprintf(rel, sizeof(rel), PCI_DEVICES "/%s", port);
	if (find_gpu_below(root, rel, 0, dev->gpu_near, sizeof(dev->gpu_near), &dev->gpu_near_read) == 0)
		roce_reading_set(&dev->gpu_near_read, ROCE_OK, 0, NULL);
	if (*n_seen < ROCE_PCIE_SEEN_MAX) {
		struct near_seen *e = &seen[(*n_seen)++];
		snprintf(e->port, sizeof(e->port), "%s", port);
		e->read = dev->gpu_near_read;
		snprintf(e->gpu, sizeof(e->gpu), "%s", dev->gpu_near);
	}
}

void roce_pcie_collect_gpu_near(struct roce_node *node, const char *root)
{
	size_t n_seen = 0;
	struct near_seen *seen = calloc(ROCE_PCIE_SEEN_MAX, sizeof(*seen));
	for (size_t d = 0; d < node->n_devices; d++) {
		struct roce_device *dev = &node->devices[d];
		if (!seen) {
			roce_reading_set(&dev->gpu_near_read, ROCE_UNREADABLE, ENOMEM, "out of memory");
			continue;
		}
		gpu_near(root, dev, seen, &n_seen);
	}
	free(seen);
}
