/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo.c - load the hwloc topology: an XML file, or the live machine through
 * a cached XML export keyed to the boot and the PCI device list.
 *
 * Only loading happens here; locality.c walks the loaded tree.  See topo.h
 * and ../shared/notes/topology.md for the hwloc settings used.
 */
#include "config.h"
#include "collect/topo.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOPO_XML_MAX (64u << 20) /* refuse XML files above 64 MiB */
#define TOPO_KEY_INFO "SlurmRoceCacheKey"

struct roce_topo {
	hwloc_topology_t h;
	enum roce_topo_origin origin;
	struct roce_reading cache;
};

const char *roce_topo_origin_name(enum roce_topo_origin o)
{
	switch (o) {
	case ROCE_TOPO_FROM_XML: return "xml";
	case ROCE_TOPO_FROM_CACHE: return "cache";
	case ROCE_TOPO_FROM_LIVE: return "live";
	}
	return "?";
}

/* ------------------------------------------------------------------ cache key */

/*
 * The live topology is cached as hwloc's own XML export in one file (the
 * policy's TopologyCache).  Its key is stored inside it, as an info
 * attribute of the root object, so there is one file to manage and no
 * stale per-boot files pile up:
 *   - boot_id (/proc/sys/kernel/random/boot_id) changes on every boot, so
 *     BIOS/firmware changes and new cards are picked up after a reboot;
 *   - a hash of the sorted names in /sys/bus/pci/devices catches hot-plug
 *     and devices that vanish (a GPU falling off the bus) without a reboot;
 *   - the hwloc version, because the export format follows it.
 * Computing the key costs one small read and one readdir.
 */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The entries of d but the dot files, sorted.  0, or -1 when out of memory
 * (*names and *n then hold what was read, for free_names()). */
static int sorted_names(DIR *d, char ***names, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;
	*names = NULL;
	*n = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(*names, cap * sizeof(*nn));
			if (!nn)
				return -1;
			*names = nn;
		}
		if (!((*names)[*n] = strdup(de->d_name)))
			return -1;
		(*n)++;
	}
	qsort(*names, *n, sizeof(**names), cmp_str);
	return 0;
}

/* FNV-1a over the sorted PCI device names: any hot-plug or swap changes it. */
static int pci_list_hash(const char *dir, size_t *count, uint64_t *hash, struct roce_error *err)
{
	char **names;
	size_t n;
	DIR *d = opendir(dir);
	if (!d) {
		roce_error_set(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	int rc = sorted_names(d, &names, &n);
	closedir(d);
	if (rc) {
		roce_error_set(err, "%s: out of memory", dir);
		free_names(names, n);
		return -1;
	}
	uint64_t h = 14695981039346656037ULL;
	for (size_t i = 0; i < n; i++)
		for (const char *c = names[i];; c++) {
			h = (h ^ (unsigned char)*c) * 1099511628211ULL; /* the NUL separates names */
			if (!*c)
				break;
		}
	*count = n;
	*hash = h;
	free_names(names, n);
	return 0;
}

int roce_topo_cache_key(const char *fsroot, char *key, size_t keylen, struct roce_error *err)
{
	char path[PATH_MAX], boot[64];
	const char *root = fsroot ? fsroot : "";
	struct roce_reading r;
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/random/boot_id", root);
	int n = (int)roce_readfile_buf(AT_FDCWD, NULL, path, boot, sizeof(boot), 0, &r);
	if (n < 0) {
		roce_error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (n > 0 && (boot[n - 1] == '\n' || boot[n - 1] == ' '))
		boot[--n] = '\0';
	for (int i = 0; i < n; i++)
		if (!isxdigit((unsigned char)boot[i]) && boot[i] != '-')
			n = -1;
	if (n <= 0) {
		roce_error_set(err, "%s: not a boot id", path);
		return -1;
	}
	size_t count;
	uint64_t hash;
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices", root);
	if (pci_list_hash(path, &count, &hash, err))
		return -1;
	snprintf(key, keylen, "v1 hwloc=%x boot=%s pci=%zu:%016llx", (unsigned)hwloc_get_api_version(), boot, count,
	         (unsigned long long)hash);
	return 0;
}

/* ------------------------------------------------------------------ loading */

/* hwloc with I/O objects, as fast as it gets for what we need. */
static int topo_init(hwloc_topology_t *h, struct roce_error *err)
{
	if (hwloc_topology_init(h)) {
		roce_error_set(err, "hwloc_topology_init: %s", strerror(errno));
		return -1;
	}
	/* The default I/O filter is KEEP_NONE, for XML too: no PCI at all. */
	hwloc_topology_set_io_types_filter(*h, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	/* Slow and useless here; absent components are not an error. */
	hwloc_topology_set_components(*h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
	hwloc_topology_set_components(*h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
	/* Inside a job's cgroup the other socket's CPUs are disallowed; without
	 * this flag hwloc would drop them and move their PCI trees elsewhere. */
	hwloc_topology_set_flags(*h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	return 0;
}

/*
 * Read a whole file (at most TOPO_XML_MAX).  For the cache: no symlinks,
 * a regular file owned by us or root and writable by nobody else.
 */
static char *slurp(const char *path, bool cache, size_t *len, struct roce_reading *r)
{
	int flags = cache ? ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED : 0;
	char *buf = roce_readfile(AT_FDCWD, NULL, path, TOPO_XML_MAX, flags, len, r);
	if (buf || r->err == EPERM)
		return buf;
	if (r->status == ROCE_MALFORMED)
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s: not a regular file of at most %u MiB", path,
		                 TOPO_XML_MAX >> 20);
	else
		roce_reading_set(r, r->err == ENOENT ? ROCE_MISSING : ROCE_UNREADABLE, r->err, "%s: %s", path,
		                 strerror(r->err));
	return NULL;
}

/* Load hwloc XML text.  hwloc wants the length including the final NUL. */
static int load_xml_buffer(const char *buf, size_t len, const char *what, hwloc_topology_t *h, struct roce_error *err)
{
	if (topo_init(h, err))
		return -1;
	if (hwloc_topology_set_xmlbuffer(*h, buf, (int)(len + 1)) || hwloc_topology_load(*h)) {
		roce_error_set(err, "%s: hwloc cannot load this XML topology (%s)", what, strerror(errno));
		hwloc_topology_destroy(*h);
		return -1;
	}
	return 0;
}

static int load_live(hwloc_topology_t *h, struct roce_error *err)
{
	if (topo_init(h, err))
		return -1;
	if (hwloc_topology_load(*h)) {
		roce_error_set(err, "hwloc cannot load this machine's topology: %s", strerror(errno));
		hwloc_topology_destroy(*h);
		return -1;
	}
	return 0;
}

/* A cached export, if its key says it describes this boot and PCI tree. */
static int load_cache(const char *path, const char *key, hwloc_topology_t *h, struct roce_reading *r)
{
	size_t len;
	char *buf = slurp(path, true, &len, r);
	struct roce_error e = { "" };
	if (!buf)
		return -1;
	int rc = load_xml_buffer(buf, len, path, h, &e);
	free(buf);
	if (rc) {
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s", e.msg);
		return -1;
	}
	const char *have = hwloc_obj_get_info_by_name(hwloc_get_root_obj(*h), TOPO_KEY_INFO);
	if (!have || strcmp(have, key)) {
		roce_reading_set(r, ROCE_MISSING, 0, "%s: stale (rebooted or PCI devices changed)", path);
		hwloc_topology_destroy(*h);
		return -1;
	}
	return 0;
}

/* Replace path atomically (safefile.h): a symlink at path is replaced, not followed. */
static int write_atomic(const char *path, const char *buf, size_t len, struct roce_reading *r)
{
	char dir[PATH_MAX];
	struct roce_error err;
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(dir)) {
		roce_reading_set(r, ROCE_MALFORMED, EINVAL, "%s: not a file name", path);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	int dfd = roce_safefile_cache_dir(dir, &err);
	if (dfd < 0 || roce_safefile_write(dfd, slash + 1, buf, len, geteuid(), getegid(), 0644, -1,
	                                   ROCE_SAFEFILE_DURABLE, &err) < 0) {
		roce_reading_set(r, ROCE_UNREADABLE, errno, "%s", err.msg);
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}

static void save_cache(hwloc_topology_t h, const char *path, const char *key, struct roce_reading *r)
{
	char *xml = NULL;
	int len = 0;
	hwloc_obj_add_info(hwloc_get_root_obj(h), TOPO_KEY_INFO, key);
	if (hwloc_topology_export_xmlbuffer(h, &xml, &len, 0) || len <= 0) {
		roce_reading_set(r, ROCE_UNREADABLE, errno, "hwloc cannot export the topology: %s", strerror(errno));
		return;
	}
	/* len counts the final NUL, which does not belong in the file */
	if (!write_atomic(path, xml, (size_t)len - 1, r))
		roce_reading_set(r, ROCE_OK, 0, "%s: written", path);
	hwloc_free_xmlbuffer(h, xml);
}

static int load_live_cached(const struct roce_topo_source *src, struct roce_topo *t, struct roce_error *err)
{
	char key[256];
	struct roce_error kerr = { "" };
	if (roce_topo_cache_key(src->fsroot, key, sizeof(key), &kerr)) {
		roce_reading_set(&t->cache, ROCE_UNREADABLE, 0, "no cache key: %s", kerr.msg);
		t->origin = ROCE_TOPO_FROM_LIVE;
		return load_live(&t->h, err);
	}
	if (!load_cache(src->cache_file, key, &t->h, &t->cache)) {
		t->origin = ROCE_TOPO_FROM_CACHE;
		roce_reading_set(&t->cache, ROCE_OK, 0, "%s: used", src->cache_file);
		return 0;
	}
	t->origin = ROCE_TOPO_FROM_LIVE;
	if (load_live(&t->h, err))
		return -1;
	save_cache(t->h, src->cache_file, key, &t->cache);
	return 0;
}

/* A named XML file (TopologyFile=, roce-check --topology): no cache. */
static int load_xml_file(const char *path, hwloc_topology_t *h, struct roce_error *err)
{
	size_t len;
	struct roce_reading r;
	char *buf = slurp(path, false, &len, &r);
	if (!buf) {
		roce_error_set(err, "%s", r.why);
		return -1;
	}
	int rc = load_xml_buffer(buf, len, path, h, err);
	free(buf);
	return rc;
}

int roce_topo_load(const struct roce_topo_source *src, struct roce_topo **out, struct roce_error *err)
{
	struct roce_topo *t = calloc(1, sizeof(*t));
	int rc;
	*out = NULL;
	if (!t) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	if (src && src->xml_file && *src->xml_file) {
		t->origin = ROCE_TOPO_FROM_XML;
		rc = load_xml_file(src->xml_file, &t->h, err);
	} else if (src && src->cache_file && *src->cache_file) {
		rc = load_live_cached(src, t, err);
	} else {
		t->origin = ROCE_TOPO_FROM_LIVE;
		rc = load_live(&t->h, err);
	}
	if (rc) {
		free(t);
		return -1;
	}
	*out = t;
	return 0;
}

void roce_topo_free(struct roce_topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->h);
	free(t);
}

enum roce_topo_origin roce_topo_origin(const struct roce_topo *t) { return t->origin; }

const struct roce_reading *roce_topo_cache_reading(const struct roce_topo *t) { return &t->cache; }


struct hwloc_topology *roce_topo_hwloc(const struct roce_topo *t) { return t->h; }
