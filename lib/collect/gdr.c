/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gdr.c - the GPUDirect RDMA collector (peer-memory client, DMA-BUF).
 */
#include "config.h"
#include "collect/gdr.h"
#include "read/sysfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/utsname.h>
#include <unistd.h>

static int roce_gdr_kernel_at_least(const char *release, unsigned major, unsigned minor)
{
	char *end;
	if (release[0] < '0' || release[0] > '9')
		return -1;
	unsigned long ma = strtoul(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -1;
	unsigned long mi = strtoul(end + 1, &end, 10);
	return ma > major || (ma == major && mi >= minor);
}

/* The first peer-memory signal that exists: 1 (g->peer_file set), 0 none, -1 unreadable. */
static int peer_memory(struct roce_gdr *g, const char *root)
{
	static const char *const files[] = {
		"kernel/mm/memory_peers/nv_mem/version",
		"kernel/mm/memory_peers/nv_mem_nc/version",
		"module/nvidia_peermem/version",
	};
	char val[128];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct roce_reading r = { 0 };
		if (roce_sysfs_read(root, files[i], val, sizeof(val), &r) == 0) {
			snprintf(g->peer_file, sizeof(g->peer_file), "%s", files[i]);
			return 1;
		}
		if (r.status != ROCE_MISSING) {
			g->read = r;
			return -1;
		}
	}
	return 0;
}

/* Is the module directory there (loaded, whether or not a client
 * registered)?  A directory that opens as a listing would: nothing read. */
static void module_loaded(struct roce_gdr *g, const char *root)
{
	static const char *const modules[] = { "nvidia_peermem", "nv_peer_mem" };
	for (size_t i = 0; i < 2; i++) {
		char path[PATH_MAX];
		if (roce_sysfs_path(path, sizeof(path), "%s/module/%s", root, modules[i]) < 0)
			continue;
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			g->loaded = true;
			snprintf(g->module, sizeof(g->module), "%s", modules[i]);
			return;
		}
	}
}

/* The running kernel's release: uname()'s, which is what /proc/sys/kernel/osrelease
 * says (one system call instead of a file); another proc root's file. */
static bool kernel_release(const char *proc, char *buf, size_t len, struct roce_reading *r)
{
	struct utsname u;
	if (strcmp(proc, "/proc") != 0 || uname(&u) < 0 || strlen(u.release) >= len)
		return roce_sysfs_read(proc, "sys/kernel/osrelease", buf, len, r) == 0;
	memcpy(buf, u.release, strlen(u.release) + 1);
	return true;
}

/* DMA-BUF: the kernel's release and the driver's flavour; why not, if not.
 * The driver's version file is read first: its absence (no NVIDIA driver
 * loaded, a node without GPUs) is worth knowing whatever the kernel. */
static void dmabuf(struct roce_gdr *g, const char *proc)
{
	char ver[512];
	struct roce_reading r = { 0 }, drv = { 0 };
	bool driver = roce_sysfs_read(proc, "driver/nvidia/version", ver, sizeof(ver), &drv) == 0;
	g->no_driver = !driver && drv.status == ROCE_MISSING;
	if (!kernel_release(proc, g->kernel, sizeof(g->kernel), &r)) {
		snprintf(g->dmabuf_why, sizeof(g->dmabuf_why), "kernel release unknown: %.150s", r.why);
		return;
	}
	int at = roce_gdr_kernel_at_least(g->kernel, 5, 12);
	if (at <= 0) {
		snprintf(g->dmabuf_why, sizeof(g->dmabuf_why),
		         at < 0 ? "kernel release \"%.60s\" not understood" : "Linux %.60s is older than 5.12",
		         g->kernel);
		return;
	}
	if (!driver) {
		snprintf(g->dmabuf_why, sizeof(g->dmabuf_why), "no NVIDIA driver: %.150s", drv.why);
		return;
	}
	if (!strstr(ver, "Open Kernel Module")) {
		snprintf(g->dmabuf_why, sizeof(g->dmabuf_why),
		         "the NVIDIA driver is not the open kernel module (%.100s/driver/nvidia/version)", proc);
		return;
	}
	g->dmabuf = true;
}

void roce_gdr_collect(struct roce_node *node, const char *sysfs_root, const char *proc_root)
{
	struct roce_gdr *g = &node->gdr;
	memset(g, 0, sizeof(*g));
	module_loaded(g, sysfs_root);
	if (peer_memory(g, sysfs_root) < 0)
		return;
	g->peer_memory = g->peer_file[0] != '\0';
	dmabuf(g, proc_root ? proc_root : "/proc");
	roce_reading_set(&g->read, ROCE_OK, 0, NULL);
}
