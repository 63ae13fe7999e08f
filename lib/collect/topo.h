/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo.h - the node's hwloc topology: from an XML file, or from the live
 * machine through a cached XML export.  Not pure: reads the XML, the cache,
 * /proc's boot_id and /sys/bus/pci, and rewrites the cache.
 *
 * The only file that loads hwloc.  locality.h turns a loaded topology into
 * plain data (GPUs, HCAs, NCCL path types); nothing after that sees hwloc.
 */
#ifndef ROCE_TOPO_H
#define ROCE_TOPO_H

#include <stddef.h>

#include "base/error.h"
#include "base/model.h"

struct roce_topo;      /* opaque: an hwloc topology */
struct hwloc_topology; /* hwloc.h's hwloc_topology_t points to one */

enum roce_topo_origin { ROCE_TOPO_FROM_XML, ROCE_TOPO_FROM_CACHE, ROCE_TOPO_FROM_LIVE };

struct roce_topo_source {
	const char *xml_file;   /* hwloc XML to load; NULL or "" = the live machine */
	const char *cache_file; /* live only: where the XML export is cached; NULL or "" = no cache */
	const char *fsroot;     /* prefix for /proc and /sys in the cache key (tests); NULL = "" */
};

/*
 * Load a topology with I/O objects (filter KEEP_IMPORTANT, opencl and gl
 * off, disallowed CPUs included so a job's cgroup does not hide sockets).
 * Live with a cache file: the cache is used when its key matches the
 * machine (boot_id + hash of the PCI device list), otherwise the machine
 * is loaded and the cache rewritten atomically; a cache that cannot be
 * written is not an error (see roce_topo_cache_reading()).
 * Returns 0, or -1 with err set (the file, line of trouble or hwloc errno).
 */
int roce_topo_load(const struct roce_topo_source *src, struct roce_topo **out, struct roce_error *err);
void roce_topo_free(struct roce_topo *t);
enum roce_topo_origin roce_topo_origin(const struct roce_topo *t);
const char *roce_topo_origin_name(enum roce_topo_origin o); /* "xml", "cache", "live" */
/* What happened to the cache: OK (used or written), NOT_READ (no cache), or why not. */
const struct roce_reading *roce_topo_cache_reading(const struct roce_topo *t);
/* The loaded hwloc topology, for locality.c to walk (and not to change). */
struct hwloc_topology *roce_topo_hwloc(const struct roce_topo *t);

/*
 * The cache key of the machine under fsroot:
 * "v1 hwloc=<api version> boot=<boot_id> pci=<n>:<fnv64>".
 * Returns 0, or -1 with err set when boot_id or the PCI list cannot be read.
 */
int roce_topo_cache_key(const char *fsroot, char *key, size_t keylen, struct roce_error *err);

#endif
