/*
 * topo.c - GPU-to-HCA locality from hwloc, with NCCL's path types.
 *
 * Only the loading and roce_topo_locality() touch hwloc; everything after
 * works on struct roce_locality (plain data).  See topo.h and
 * ../shared/notes/topology.md for the rules implemented here.
 */
#include "config.h"
#include "topo.h"
#include "printable.h"
#include "readfile.h"
#include "safefile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOPO_XML_MAX (64u << 20)      /* refuse XML files above 64 MiB */
#define TOPO_KEY_INFO "SlurmRoceCacheKey"
#define TOPO_CHAIN_MAX 32             /* PCI bridges between a device and its CPU */
#define SHOWN_MAX 44                  /* hostile text in messages: 40 bytes and "..." */

struct roce_topo {
	hwloc_topology_t h;
	enum roce_topo_origin origin;
	struct roce_reading cache;
};

const char *roce_path_name(enum roce_path p)
{
	switch (p) {
	case ROCE_PATH_LOC: return "LOC";
	case ROCE_PATH_PIX: return "PIX";
	case ROCE_PATH_PXB: return "PXB";
	case ROCE_PATH_PHB: return "PHB";
	case ROCE_PATH_SYS: return "SYS";
	case ROCE_PATH_UNKNOWN: break;
	}
	return "?";
}

const char *roce_topo_origin_name(enum roce_topo_origin o)
{
	switch (o) {
	case ROCE_TOPO_FROM_XML: return "xml";
	case ROCE_TOPO_FROM_CACHE: return "cache";
	case ROCE_TOPO_FROM_LIVE: return "live";
	}
	return "?";
}

/* ------------------------------------------------------------------ PCI addresses */

struct busid { unsigned domain, bus, dev, func; };

static int hexval(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* Read exactly min..max hex digits. */
static const char *hexfield(const char *s, int min, int max, unsigned *out)
{
	unsigned v = 0;
	int n = 0;
	while (n < max && hexval(s[n]) >= 0) {
		v = v * 16 + (unsigned)hexval(s[n]);
		n++;
	}
	if (n < min)
		return NULL;
	*out = v;
	return s + n;
}

/* Strict "DDDD:BB:DD.F" as in sysfs (domain of 4 to 8 hex digits). */
static int busid_parse(const char *s, struct busid *b)
{
	const char *p = hexfield(s, 4, 8, &b->domain);
	if (!p || *p++ != ':' || !(p = hexfield(p, 2, 2, &b->bus)) || *p++ != ':' ||
	    !(p = hexfield(p, 2, 2, &b->dev)) || *p++ != '.' || !(p = hexfield(p, 1, 1, &b->func)) || *p)
		return -1;
	if (b->dev > 0x1f || b->func > 7)
		return -1;
	return 0;
}

static void busid_of(hwloc_obj_t o, char *out, size_t len)
{
	snprintf(out, len, "%04x:%02x:%02x.%x", (unsigned)o->attr->pcidev.domain, o->attr->pcidev.bus,
	         o->attr->pcidev.dev, o->attr->pcidev.func);
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* FNV-1a over the sorted PCI device names: any hot-plug or swap changes it. */
static int pci_list_hash(const char *dir, size_t *count, uint64_t *hash, struct roce_error *err)
{
	DIR *d = opendir(dir);
	if (!d) {
		roce_error_set(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int rc = -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				goto fail;
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name)))
			goto fail;
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	uint64_t h = 14695981039346656037ULL;
	for (size_t i = 0; i < n; i++)
		for (const char *c = names[i];; c++) {
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;  /* the NUL separates names */
			if (!*c)
				break;
		}
	*count = n;
	*hash = h;
	rc = 0;
fail:
	if (rc)
		roce_error_set(err, "%s: out of memory", dir);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
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
	snprintf(key, keylen, "v1 hwloc=%x boot=%s pci=%zu:%016llx", (unsigned)hwloc_get_api_version(), boot,
	         count, (unsigned long long)hash);
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
		roce_reading_set(r, ROCE_MALFORMED, 0, "%s: not a regular file of at most %u MiB", path, TOPO_XML_MAX >> 20);
	else
		roce_reading_set(r, r->err == ENOENT ? ROCE_MISSING : ROCE_UNREADABLE, r->err, "%s: %s", path,
		                 strerror(r->err));
	return NULL;
}

/* Load hwloc XML text.  hwloc wants the length including the final NUL. */
static int load_xml_buffer(const char *buf, size_t len, const char *what, hwloc_topology_t *h,
                           struct roce_error *err)
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
		size_t len;
		struct roce_reading r;
		char *buf = slurp(src->xml_file, false, &len, &r);
		t->origin = ROCE_TOPO_FROM_XML;
		if (!buf) {
			roce_error_set(err, "%s", r.why);
			rc = -1;
		} else {
			rc = load_xml_buffer(buf, len, src->xml_file, &t->h, err);
			free(buf);
		}
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

enum roce_topo_origin roce_topo_origin(const struct roce_topo *t)
{
	return t->origin;
}

const struct roce_reading *roce_topo_cache_reading(const struct roce_topo *t)
{
	return &t->cache;
}

/* ------------------------------------------------------------------ NCCL's PCI switches */

/*
 * Where a PCI device hangs in NCCL's graph.  NCCL (xml.cc, "rewind two
 * '/'") attaches a device to the PCI function two sysfs levels up: with
 * b1, b2, b3... the PCI-to-PCI bridges above it (b1 its parent), its
 * switches are b2, b4, ...; a chain that ends before reaches the CPU.
 */
struct place {
	hwloc_obj_t obj;
	hwloc_obj_t sw[TOPO_CHAIN_MAX];   /* NCCL switch nodes, nearest first, after BCM flattening */
	int n_sw;
	hwloc_obj_t cpu;                  /* first non-I/O ancestor */
};

/* NCCL's 64-bit PCI id of a switch: vendor, device, subsystem vendor, subsystem device. */
static uint64_t bcm_id(hwloc_obj_t bridge)
{
	const struct hwloc_pcidev_attr_s *p = &bridge->attr->bridge.upstream.pci;
	return (uint64_t)p->vendor_id << 48 | (uint64_t)p->device_id << 32 | (uint64_t)p->subvendor_id << 16 |
	       p->subdevice_id;
}

/* NCCL's getBcmGen(): Broadcom Gen4/Gen5 switches that present two levels. */
static int bcm_gen(uint64_t id, int level)
{
	if ((id & 0xfffffffffffff000ULL) == 0x1000c0101000a000ULL)
		return 4;
	if ((id & 0xfffffffffffff000ULL) == (0x1000c03010000000ULL | (uint64_t)level * 0x1000))
		return 5;
	return 0;
}

static void place_of(hwloc_obj_t dev, struct place *pl)
{
	hwloc_obj_t b[2 * TOPO_CHAIN_MAX], raw[TOPO_CHAIN_MAX];
	int nb = 0, n = 0;
	hwloc_obj_t p;
	memset(pl, 0, sizeof(*pl));
	pl->obj = dev;
	/* Walk parent pointers ourselves: hwloc_get_common_ancestor_obj()
	 * compares depths, which are negative for I/O objects, and crashes. */
	for (p = dev->parent; p && p->type == HWLOC_OBJ_BRIDGE; p = p->parent)
		if (p->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI && nb < 2 * TOPO_CHAIN_MAX)
			b[nb++] = p;
	pl->cpu = p;
	while (p && !p->cpuset)
		p = p->parent;
	pl->cpu = p;
	for (int i = 1; i < nb; i += 2)
		raw[n++] = b[i];
	/*
	 * ncclTopoFlattenBcmSwitches(), top-down as NCCL visits its nodes: a
	 * BCM switch absorbs the switches directly below it of the same
	 * generation; once processed it absorbs nothing more, so a switch that
	 * was absorbed does not pass its own sub-switches up.
	 */
	bool merged[TOPO_CHAIN_MAX] = { false };
	hwloc_obj_t eff[TOPO_CHAIN_MAX];
	for (int k = n - 1; k >= 0; k--) {
		eff[k] = raw[k];
		if (k == n - 1 || merged[k + 1])
			continue;
		int gen = bcm_gen(bcm_id(raw[k + 1]), 0);
		if (gen && bcm_gen(bcm_id(raw[k]), 1) == gen) {
			merged[k] = true;
			eff[k] = eff[k + 1];
		}
	}
	for (int k = 0; k < n; k++)
		if (pl->n_sw == 0 || pl->sw[pl->n_sw - 1] != eff[k])
			pl->sw[pl->n_sw++] = eff[k];
}

static enum roce_path path_between(const struct place *a, const struct place *b)
{
	if (a->obj == b->obj)
		return ROCE_PATH_LOC;
	if (a->n_sw && b->n_sw && a->sw[0] == b->sw[0])
		return ROCE_PATH_PIX;
	for (int i = 0; i < a->n_sw; i++)
		for (int j = 0; j < b->n_sw; j++)
			if (a->sw[i] == b->sw[j])
				return ROCE_PATH_PXB;
	if (a->cpu == b->cpu)
		return ROCE_PATH_PHB;
	if (a->cpu && b->cpu && a->cpu->nodeset && b->cpu->nodeset &&
	    hwloc_bitmap_isequal(a->cpu->nodeset, b->cpu->nodeset))
		return ROCE_PATH_PHB;
	return ROCE_PATH_SYS;
}

static void affinity(hwloc_obj_t cpu, char *cpus, char *numa)
{
	cpus[0] = numa[0] = '\0';
	if (!cpu)
		return;
	if (cpu->cpuset && hwloc_bitmap_list_snprintf(cpus, ROCE_TOPO_AFFINITY_MAX, cpu->cpuset) >=
	                       ROCE_TOPO_AFFINITY_MAX)
		memcpy(cpus + ROCE_TOPO_AFFINITY_MAX - 4, "...", 4);
	if (cpu->nodeset && hwloc_bitmap_list_snprintf(numa, ROCE_TOPO_AFFINITY_MAX, cpu->nodeset) >=
	                        ROCE_TOPO_AFFINITY_MAX)
		memcpy(numa + ROCE_TOPO_AFFINITY_MAX - 4, "...", 4);
}

/* ------------------------------------------------------------------ locality */

/* NVIDIA and PCI base class 0x03 (display: VGA 0x0300, 3D 0x0302, other
 * 0x0380...).  hwloc's class_id is base class << 8 | subclass (no prog-if).
 * NVIDIA's other functions (HD audio 0x0403, NVSwitch 0x0680) are not GPUs. */
static bool is_nvidia_gpu(hwloc_obj_t o)
{
	return o->attr->pcidev.vendor_id == 0x10de && (o->attr->pcidev.class_id >> 8) == 0x03;
}

static int cmp_busid(const void *x, const void *y)
{
	const struct hwloc_pcidev_attr_s *a = &(*(hwloc_obj_t const *)x)->attr->pcidev;
	const struct hwloc_pcidev_attr_s *b = &(*(hwloc_obj_t const *)y)->attr->pcidev;
	unsigned long ka = (unsigned long)a->domain << 20 | (unsigned long)a->bus << 8 | a->dev << 3 | a->func;
	unsigned long kb = (unsigned long)b->domain << 20 | (unsigned long)b->bus << 8 | b->dev << 3 | b->func;
	return ka < kb ? -1 : ka > kb;
}

static hwloc_obj_t find_hca(hwloc_topology_t h, const struct roce_topo_hca_in *in, struct roce_topo_hca *hca)
{
	struct busid b;
	char s[SHOWN_MAX];
	if (!in->pci_addr || busid_parse(in->pci_addr, &b)) {
		roce_printable(in->pci_addr, s, sizeof(s));
		roce_reading_set(&hca->found, ROCE_MALFORMED, 0, "%s: PCI address \"%s\" is not DDDD:BB:DD.F",
		                 hca->name, s);
		return NULL;
	}
	hwloc_obj_t o = b.domain > 0xffff ? NULL : hwloc_get_pcidev_by_busid(h, b.domain, b.bus, b.dev, b.func);
	if (!o)
		roce_reading_set(&hca->found, ROCE_MISSING, 0, "%s: PCI device %s is not in the topology",
		                 hca->name, hca->pci_addr);
	else
		roce_reading_set(&hca->found, ROCE_OK, 0, NULL);
	return o;
}

int roce_topo_locality(const struct roce_topo *t, const struct roce_topo_hca_in *hcas, size_t n,
                       struct roce_locality *loc, struct roce_error *err)
{
	struct place *gp = NULL, *hp = NULL;
	hwloc_obj_t gpus[ROCE_TOPO_GPU_MAX + 1], o = NULL;
	memset(loc, 0, sizeof(*loc));
	if (n > ROCE_TOPO_HCA_MAX) {
		roce_error_set(err, "%zu RDMA devices: at most %d are supported", n, ROCE_TOPO_HCA_MAX);
		return -1;
	}
	gp = calloc(ROCE_TOPO_GPU_MAX, sizeof(*gp));
	hp = calloc(ROCE_TOPO_HCA_MAX, sizeof(*hp));
	if (!gp || !hp) {
		free(gp);
		free(hp);
		roce_error_set(err, "out of memory");
		return -1;
	}
	snprintf(loc->origin, sizeof(loc->origin), "%s", roce_topo_origin_name(t->origin));
	size_t ng = 0;
	while ((o = hwloc_get_next_pcidev(t->h, o)))
		if (is_nvidia_gpu(o)) {
			if (ng == ROCE_TOPO_GPU_MAX) {
				loc->gpus_truncated = true;
				break;
			}
			gpus[ng++] = o;
		}
	qsort(gpus, ng, sizeof(gpus[0]), cmp_busid);
	loc->n_gpus = ng;
	for (size_t i = 0; i < ng; i++) {
		struct roce_topo_gpu *g = &loc->gpus[i];
		busid_of(gpus[i], g->pci_addr, sizeof(g->pci_addr));
		g->device_id = gpus[i]->attr->pcidev.device_id;
		place_of(gpus[i], &gp[i]);
		affinity(gp[i].cpu, g->cpus, g->numa);
	}
	loc->n_hcas = n;
	for (size_t i = 0; i < n; i++) {
		struct roce_topo_hca *hca = &loc->hcas[i];
		snprintf(hca->name, sizeof(hca->name), "%s", hcas[i].name ? hcas[i].name : "");
		snprintf(hca->pci_addr, sizeof(hca->pci_addr), "%s", hcas[i].pci_addr ? hcas[i].pci_addr : "");
		hwloc_obj_t d = find_hca(t->h, &hcas[i], hca);
		if (d) {
			place_of(d, &hp[i]);
			affinity(hp[i].cpu, hca->cpus, hca->numa);
		}
	}
	for (size_t i = 0; i < ng; i++) {
		for (size_t j = 0; j < ng; j++)
			loc->gpu_gpu[i][j] = path_between(&gp[i], &gp[j]);
		for (size_t j = 0; j < n; j++)
			loc->gpu_hca[i][j] = roce_reading_ok(&loc->hcas[j].found) ? path_between(&gp[i], &hp[j])
			                                                           : ROCE_PATH_UNKNOWN;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			loc->hca_hca[i][j] = roce_reading_ok(&loc->hcas[i].found) && roce_reading_ok(&loc->hcas[j].found)
			                             ? path_between(&hp[i], &hp[j])
			                             : ROCE_PATH_UNKNOWN;
	free(gp);
	free(hp);
	return 0;
}

int roce_topo_locality_node(const struct roce_topo *t, const struct roce_node *node,
                            struct roce_locality *loc, struct roce_error *err)
{
	struct roce_topo_hca_in in[ROCE_TOPO_HCA_MAX];
	size_t n = 0;
	for (size_t i = 0; i < node->n_devices; i++) {
		const struct roce_device *d = &node->devices[i];
		if (!roce_reading_ok(&d->pci_read))
			continue;
		if (n == ROCE_TOPO_HCA_MAX) {
			roce_error_set(err, "more than %d RDMA devices with a PCI address", ROCE_TOPO_HCA_MAX);
			return -1;
		}
		in[n].name = d->name;
		in[n].pci_addr = d->pci_addr;
		n++;
	}
	return roce_topo_locality(t, in, n, loc, err);
}

const struct roce_topo_hca *roce_locality_hca(const struct roce_locality *loc, const char *name, size_t *index)
{
	for (size_t i = 0; i < loc->n_hcas; i++)
		if (!strcmp(loc->hcas[i].name, name)) {
			if (index)
				*index = i;
			return &loc->hcas[i];
		}
	return NULL;
}

/* ------------------------------------------------------------------ the job's GPUs */

const char *roce_gpus_status_name(enum roce_gpus_status s)
{
	switch (s) {
	case ROCE_GPUS_NONE: return "none";
	case ROCE_GPUS_OK: return "ok";
	case ROCE_GPUS_UNKNOWN: return "mapping unknown";
	case ROCE_GPUS_INVALID: return "invalid";
	}
	return "?";
}

#define GPU_LIST_MAX 4096      /* longer than any real list of 64 UUIDs */
#define GPU_INDEX_MAX 4095

struct uuid_map {
	bool scanned;
	struct roce_reading read;
	size_t n;
	struct { char uuid[48]; char busid[ROCE_PCI_MAX]; } e[ROCE_TOPO_GPU_MAX];
};

/* "8-4-4-4-12" hex digits */
static bool uuid_ok(const char *s, size_t len)
{
	static const int group[] = { 8, 4, 4, 4, 12 };
	size_t p = 0;
	for (int g = 0; g < 5; g++) {
		for (int i = 0; i < group[g]; i++, p++)
			if (p >= len || !isxdigit((unsigned char)s[p]))
				return false;
		if (g < 4 && (p >= len || s[p++] != '-'))
			return false;
	}
	return p == len;
}

/* Value after "Key:" on one line of the driver's information file, trimmed. */
static bool info_value(const char *line, const char *key, char *out, size_t outlen)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k))
		return false;
	line += k;
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strcspn(line, "\n");
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (n >= outlen)
		return false;
	memcpy(out, line, n);
	out[n] = '\0';
	return true;
}

/* /proc/driver/nvidia/gpus/<busid>/information: "GPU UUID:" and "Bus Location:". */
static void uuid_scan(const char *proc_root, struct uuid_map *m)
{
	char dir[PATH_MAX], path[PATH_MAX + 300], text[4096];
	m->scanned = true;
	snprintf(dir, sizeof(dir), "%s/driver/nvidia/gpus", proc_root ? proc_root : "/proc");
	DIR *d = opendir(dir);
	if (!d) {
		roce_reading_set(&m->read, errno == ENOENT ? ROCE_MISSING : ROCE_UNREADABLE, errno,
		                 "%s: %s (is the NVIDIA driver loaded?)", dir, strerror(errno));
		return;
	}
	struct dirent *de;
	roce_reading_set(&m->read, ROCE_OK, 0, NULL);
	while ((de = readdir(d)) && m->n < ROCE_TOPO_GPU_MAX) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/information", dir, de->d_name);
		struct roce_reading r;
		if (roce_readfile_buf(AT_FDCWD, NULL, path, text, sizeof(text), ROCE_READFILE_NOFOLLOW, &r) < 0)
			continue;
		char uuid[48] = "", bus[ROCE_PCI_MAX] = "";
		for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			info_value(line, "GPU UUID:", uuid, sizeof(uuid));
			info_value(line, "Bus Location:", bus, sizeof(bus));
		}
		struct busid b;
		if (strncmp(uuid, "GPU-", 4) || !uuid_ok(uuid + 4, strlen(uuid + 4)) || busid_parse(bus, &b))
			continue;   /* e.g. "GPU-????..." when not readable */
		snprintf(m->e[m->n].uuid, sizeof(m->e[m->n].uuid), "%s", uuid);
		snprintf(m->e[m->n].busid, sizeof(m->e[m->n].busid), "%04x:%02x:%02x.%x", b.domain, b.bus, b.dev,
		         b.func);
		m->n++;
	}
	closedir(d);
}

struct gpu_parse {
	const char *proc_root;
	const struct roce_locality *loc;
	struct uuid_map *map;
	struct roce_gpu_set *out;
	bool have[GPU_INDEX_MAX + 1];
	bool unknown;
};

static void gpu_unknown(struct gpu_parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gpu_unknown(struct gpu_parse *ps, const char *fmt, ...)
{
	va_list ap;
	if (ps->unknown)
		return;    /* the first reason is the one to show */
	ps->unknown = true;
	va_start(ap, fmt);
	vsnprintf(ps->out->why, sizeof(ps->out->why), fmt, ap);
	va_end(ap);
}

static void gpu_add(struct gpu_parse *ps, unsigned idx, const char *token)
{
	if (ps->loc && idx >= ps->loc->n_gpus) {
		gpu_unknown(ps, "GPU index %u (in \"%s\") is not among the %zu NVIDIA GPUs of the topology", idx, token,
		            ps->loc->n_gpus);
		return;
	}
	if (idx >= ROCE_TOPO_GPU_MAX) {
		gpu_unknown(ps, "GPU index %u is beyond the %d supported", idx, ROCE_TOPO_GPU_MAX);
		return;
	}
	ps->have[idx] = true;
}

/* A GPU UUID (36 chars after "GPU-") to its Slurm index via the driver's bus id. */
static void gpu_add_uuid(struct gpu_parse *ps, const char *uuid, const char *token)
{
	if (!ps->map->scanned)
		uuid_scan(ps->proc_root, ps->map);
	if (!roce_reading_ok(&ps->map->read)) {
		gpu_unknown(ps, "GPU UUIDs cannot be mapped: %s", ps->map->read.why);
		return;
	}
	for (size_t i = 0; i < ps->map->n; i++) {
		if (strncasecmp(ps->map->e[i].uuid, uuid, 40))
			continue;
		for (size_t g = 0; ps->loc && g < ps->loc->n_gpus; g++)
			if (!strcmp(ps->loc->gpus[g].pci_addr, ps->map->e[i].busid)) {
				gpu_add(ps, (unsigned)g, token);
				return;
			}
		gpu_unknown(ps, "%s is at %s, which is not an NVIDIA GPU of the topology", token, ps->map->e[i].busid);
		return;
	}
	gpu_unknown(ps, "%s is not listed by the NVIDIA driver", token);
}

static bool decimal(const char *s, size_t len, unsigned *out)
{
	unsigned v = 0;
	if (len == 0 || len > 5)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* One comma-separated entry.  Returns -1 on garbage (why set). */
static int gpu_token(struct gpu_parse *ps, const char *s, size_t len)
{
	char tok[SHOWN_MAX];
	unsigned a, b;
	const char *dash = memchr(s, '-', len);
	roce_printable_n(s, len, tok, sizeof(tok));
	if (decimal(s, len, &a)) {
		if (a > GPU_INDEX_MAX)
			goto bad_range;
		gpu_add(ps, a, tok);
		return 0;
	}
	if (dash && decimal(s, (size_t)(dash - s), &a) && decimal(dash + 1, len - (size_t)(dash - s) - 1, &b)) {
		if (a > b || b > GPU_INDEX_MAX)
			goto bad_range;
		for (unsigned i = a; i <= b; i++)
			gpu_add(ps, i, tok);
		return 0;
	}
	if (len == 10 && !strncmp(s, "NoDevFiles", len)) {
		gpu_unknown(ps, "Slurm set %s: the GPUs have no device files, so which ones is unknown", tok);
		return 0;
	}
	if (len == 40 && !strncmp(s, "GPU-", 4) && uuid_ok(s + 4, 36)) {
		char uuid[41];
		memcpy(uuid, s, 40);
		uuid[40] = '\0';
		gpu_add_uuid(ps, uuid, tok);
		return 0;
	}
	/* Old MIG form "MIG-GPU-<uuid>/<gi>/<ci>" names its parent GPU. */
	if (len > 44 && !strncmp(s, "MIG-GPU-", 8) && uuid_ok(s + 8, 36) && s[44] == '/') {
		char uuid[41];
		memcpy(uuid, s + 4, 40);
		uuid[40] = '\0';
		gpu_add_uuid(ps, uuid, tok);
		return 0;
	}
	if (len == 40 && !strncmp(s, "MIG-", 4) && uuid_ok(s + 4, 36)) {
		gpu_unknown(ps, "%s is a MIG instance: its parent GPU is not known here", tok);
		return 0;
	}
	snprintf(ps->out->why, sizeof(ps->out->why), "\"%s\" is not a GPU index or UUID", tok);
	return -1;
bad_range:
	snprintf(ps->out->why, sizeof(ps->out->why), "\"%s\" is not a valid GPU index or range (0-%d)", tok,
	         GPU_INDEX_MAX);
	return -1;
}

void roce_gpu_set_parse(const char *list, const char *proc_root, const struct roce_locality *loc,
                        struct roce_gpu_set *out)
{
	struct uuid_map map;
	struct gpu_parse *ps = calloc(1, sizeof(*ps));
	memset(out, 0, sizeof(*out));
	memset(&map, 0, sizeof(map));
	if (!ps) {
		out->status = ROCE_GPUS_UNKNOWN;
		snprintf(out->why, sizeof(out->why), "out of memory");
		return;
	}
	ps->proc_root = proc_root;
	ps->loc = loc;
	ps->map = &map;
	ps->out = out;
	size_t len = list ? strnlen(list, GPU_LIST_MAX + 1) : 0;
	size_t lead = 0;
	while (lead < len && (list[lead] == ' ' || list[lead] == '\t'))
		lead++;
	if (lead == len) {
		out->status = ROCE_GPUS_NONE;
		goto done;
	}
	if (len > GPU_LIST_MAX) {
		out->status = ROCE_GPUS_INVALID;
		snprintf(out->why, sizeof(out->why), "GPU list longer than %d bytes", GPU_LIST_MAX);
		goto done;
	}
	for (size_t pos = 0; pos <= len;) {
		size_t end = pos;
		while (end < len && list[end] != ',')
			end++;
		size_t a = pos, b = end;
		while (a < b && (list[a] == ' ' || list[a] == '\t'))
			a++;
		while (b > a && (list[b - 1] == ' ' || list[b - 1] == '\t'))
			b--;
		if (a == b) {
			out->status = ROCE_GPUS_INVALID;
			snprintf(out->why, sizeof(out->why), "empty entry at byte %zu of the GPU list", pos);
			goto done;
		}
		if (gpu_token(ps, list + a, b - a)) {
			out->status = ROCE_GPUS_INVALID;
			goto done;
		}
		pos = end + 1;
	}
	if (ps->unknown) {
		out->status = ROCE_GPUS_UNKNOWN;
		goto done;
	}
	out->status = ROCE_GPUS_OK;
	for (unsigned i = 0; i < ROCE_TOPO_GPU_MAX; i++)
		if (ps->have[i])
			out->idx[out->n++] = i;
done:
	if (out->status != ROCE_GPUS_OK)
		out->n = 0;
	free(ps);
}

/* ------------------------------------------------------------------ the choice */

static void warn(struct roce_topo_choice *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct roce_topo_choice *c, const char *fmt, ...)
{
	va_list ap;
	if (c->n_warnings >= sizeof(c->warnings) / sizeof(c->warnings[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(c->warnings[c->n_warnings++], ROCE_TOPO_WARN_LEN, fmt, ap);
	va_end(ap);
}

static void add_hca(struct roce_topo_choice *c, const char *name)
{
	for (size_t i = 0; i < c->n_hca; i++)
		if (!strcmp(c->hca[i], name))
			return;
	if (c->n_hca < ROCE_HCA_MAX)
		snprintf(c->hca[c->n_hca++], ROCE_NAME_MAX, "%s", name);
}

static void all_hcas(struct roce_topo_choice *c, const char *const healthy[], size_t n, enum roce_gdr_level cap)
{
	c->n_hca = 0;
	c->by_locality = false;
	c->gdr_level = cap;
	for (size_t i = 0; i < n; i++)
		add_hca(c, healthy[i]);
}

/* Path from GPU g to a healthy HCA, UNKNOWN when the HCA is not in the topology. */
static enum roce_path gpu_to(const struct roce_locality *loc, unsigned g, const char *hca)
{
	size_t j;
	const struct roce_topo_hca *h = roce_locality_hca(loc, hca, &j);
	if (!h || !roce_reading_ok(&h->found))
		return ROCE_PATH_UNKNOWN;
	return (enum roce_path)loc->gpu_hca[g][j];
}

/* One GPU: record its best path; add its nearest HCAs when within the cap. */
static bool choose_gpu(const struct roce_locality *loc, unsigned g, const char *const healthy[], size_t n,
                       enum roce_gdr_level cap, struct roce_topo_choice *c)
{
	struct roce_topo_gpu_choice *gc = &c->gpus[c->n_gpus++];
	enum roce_path best = ROCE_PATH_UNKNOWN;
	const char *nearest = NULL;
	gc->gpu = g;
	for (size_t i = 0; i < n; i++) {
		enum roce_path p = gpu_to(loc, g, healthy[i]);
		if (p < best) {
			best = p;
			nearest = healthy[i];
		}
	}
	gc->best = best;
	if (best == ROCE_PATH_UNKNOWN) {
		warn(c, "GPU %u (%s) has no RoCE HCA in the topology: GPUDirect RDMA will not be used for it", g,
		     loc->gpus[g].pci_addr);
		return false;
	}
	if ((int)best > (int)cap) {
		warn(c, "GPU %u (%s) has no RoCE HCA within %s: GPUDirect RDMA will not be used for it "
		        "(nearest: %s, %s)", g, loc->gpus[g].pci_addr, roce_path_name((enum roce_path)cap), nearest,
		     roce_path_name(best));
		return false;
	}
	gc->gdr = true;
	for (size_t i = 0; i < n; i++)
		if (gpu_to(loc, g, healthy[i]) == best)
			add_hca(c, healthy[i]);
	return true;
}

int roce_topo_choose(const struct roce_locality *loc, const struct roce_gpu_set *gpus,
                     const char *const healthy[], size_t n_healthy, enum roce_gdr_level cap,
                     struct roce_topo_choice *out, struct roce_error *err)
{
	memset(out, 0, sizeof(*out));
	if (n_healthy > ROCE_HCA_MAX) {
		roce_error_set(err, "%zu healthy HCAs: NCCL_IB_HCA takes at most %d", n_healthy, ROCE_HCA_MAX);
		return -1;
	}
	all_hcas(out, healthy, n_healthy, cap);
	if (!gpus || gpus->status == ROCE_GPUS_NONE || n_healthy == 0)
		return 0;
	if (gpus->status != ROCE_GPUS_OK) {
		warn(out, "%s: %s; NCCL_IB_HCA lists every healthy HCA",
		     gpus->status == ROCE_GPUS_INVALID ? "GPU list rejected" : "GPU mapping unknown", gpus->why);
		return 0;
	}
	if (!loc) {
		warn(out, "no topology: GPU locality unknown; NCCL_IB_HCA lists every healthy HCA");
		return 0;
	}
	enum roce_path worst = ROCE_PATH_LOC;
	bool any = false;
	out->n_hca = 0;
	for (size_t i = 0; i < gpus->n; i++) {
		unsigned g = gpus->idx[i];
		if (g >= loc->n_gpus) {
			warn(out, "GPU %u is not among the %zu NVIDIA GPUs of the topology", g, loc->n_gpus);
			continue;
		}
		if (choose_gpu(loc, g, healthy, n_healthy, cap, out)) {
			any = true;
			if (out->gpus[out->n_gpus - 1].best > worst)
				worst = out->gpus[out->n_gpus - 1].best;
		}
	}
	if (!any) {
		all_hcas(out, healthy, n_healthy, cap);
		return 0;
	}
	out->by_locality = true;
	out->gdr_level = (enum roce_gdr_level)worst;   /* <= cap: only paths within it count */
	return 0;
}

/* ------------------------------------------------------------------ output */

static const char *cell(unsigned char p)
{
	return p == ROCE_PATH_LOC ? " X " : roce_path_name((enum roce_path)p);
}

void roce_locality_print(const struct roce_locality *loc, FILE *out)
{
	for (size_t j = 0; j < loc->n_gpus; j++)
		fprintf(out, "\tGPU%zu", j);
	for (size_t j = 0; j < loc->n_hcas; j++)
		fprintf(out, "\t%s", loc->hcas[j].name);
	fprintf(out, "\tCPU Affinity\tNUMA Affinity\n");
	for (size_t i = 0; i < loc->n_gpus; i++) {
		fprintf(out, "GPU%zu", i);
		for (size_t j = 0; j < loc->n_gpus; j++)
			fprintf(out, "\t%s", cell(loc->gpu_gpu[i][j]));
		for (size_t j = 0; j < loc->n_hcas; j++)
			fprintf(out, "\t%s", cell(loc->gpu_hca[i][j]));
		fprintf(out, "\t%s\t%s\n", loc->gpus[i].cpus[0] ? loc->gpus[i].cpus : "N/A",
		        loc->gpus[i].numa[0] ? loc->gpus[i].numa : "N/A");
	}
	for (size_t i = 0; i < loc->n_hcas; i++) {
		fprintf(out, "%s", loc->hcas[i].name);
		for (size_t j = 0; j < loc->n_gpus; j++)
			fprintf(out, "\t%s", cell(loc->gpu_hca[j][i]));
		for (size_t j = 0; j < loc->n_hcas; j++)
			fprintf(out, "\t%s", cell(loc->hca_hca[i][j]));
		fprintf(out, "\n");
	}
	fprintf(out, "\nLegend:\n\n"
	             "  X    = Self\n"
	             "  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)\n"
	             "  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU);\n"
	             "         nvidia-smi's NODE (another host bridge of the same NUMA node) is PHB here, as in NCCL\n"
	             "  PXB  = Connection traversing multiple PCIe switches (without traversing the PCIe Host Bridge)\n"
	             "  PIX  = Connection traversing a single PCIe switch\n");
	bool unknown = false;
	for (size_t i = 0; i < loc->n_hcas; i++)
		if (!roce_reading_ok(&loc->hcas[i].found)) {
			if (!unknown)
				fprintf(out, "  ?    = not in the topology:\n");
			unknown = true;
			fprintf(out, "         %s\n", loc->hcas[i].found.why);
		}
	fprintf(out, "\nPaths are PCIe only (NVLink is not shown), with NCCL's switch rules.\n");
}

static json_object *path_row(const unsigned char *row, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t j = 0; j < n; j++)
		json_object_array_add(a, json_object_new_string(roce_path_name((enum roce_path)row[j])));
	return a;
}

json_object *roce_locality_json(const struct roce_locality *loc)
{
	json_object *o = json_object_new_object(), *gpus = json_object_new_array(), *hcas = json_object_new_array();
	json_object *gg = json_object_new_array(), *gh = json_object_new_array(), *hh = json_object_new_array();
	json_object_object_add(o, "origin", json_object_new_string(loc->origin));
	for (size_t i = 0; i < loc->n_gpus; i++) {
		json_object *g = json_object_new_object();
		json_object_object_add(g, "index", json_object_new_int((int)i));
		json_object_object_add(g, "pci", json_object_new_string(loc->gpus[i].pci_addr));
		json_object_object_add(g, "cpus", json_object_new_string(loc->gpus[i].cpus));
		json_object_object_add(g, "numa", json_object_new_string(loc->gpus[i].numa));
		json_object_array_add(gpus, g);
		json_object_array_add(gg, path_row(loc->gpu_gpu[i], loc->n_gpus));
		json_object_array_add(gh, path_row(loc->gpu_hca[i], loc->n_hcas));
	}
	for (size_t i = 0; i < loc->n_hcas; i++) {
		json_object *h = json_object_new_object();
		json_object_object_add(h, "name", json_object_new_string(loc->hcas[i].name));
		json_object_object_add(h, "pci", json_object_new_string(loc->hcas[i].pci_addr));
		json_object_object_add(h, "found", json_object_new_boolean(roce_reading_ok(&loc->hcas[i].found)));
		if (!roce_reading_ok(&loc->hcas[i].found))
			json_object_object_add(h, "why", json_object_new_string(loc->hcas[i].found.why));
		json_object_object_add(h, "cpus", json_object_new_string(loc->hcas[i].cpus));
		json_object_object_add(h, "numa", json_object_new_string(loc->hcas[i].numa));
		json_object_array_add(hcas, h);
		json_object_array_add(hh, path_row(loc->hca_hca[i], loc->n_hcas));
	}
	json_object_object_add(o, "gpus", gpus);
	json_object_object_add(o, "hcas", hcas);
	json_object_object_add(o, "gpu_hca", gh);
	json_object_object_add(o, "gpu_gpu", gg);
	json_object_object_add(o, "hca_hca", hh);
	return o;
}

json_object *roce_topo_choice_json(const struct roce_topo_choice *c)
{
	json_object *o = json_object_new_object(), *h = json_object_new_array(), *g = json_object_new_array();
	json_object *w = json_object_new_array();
	for (size_t i = 0; i < c->n_hca; i++)
		json_object_array_add(h, json_object_new_string(c->hca[i]));
	for (size_t i = 0; i < c->n_gpus; i++) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "gpu", json_object_new_int((int)c->gpus[i].gpu));
		json_object_object_add(e, "best", json_object_new_string(roce_path_name(c->gpus[i].best)));
		json_object_object_add(e, "gdr", json_object_new_boolean(c->gpus[i].gdr));
		json_object_array_add(g, e);
	}
	for (size_t i = 0; i < c->n_warnings; i++)
		json_object_array_add(w, json_object_new_string(c->warnings[i]));
	json_object_object_add(o, "hca", h);
	json_object_object_add(o, "gdr_level", json_object_new_string(roce_gdr_level_name(c->gdr_level)));
	json_object_object_add(o, "by_locality", json_object_new_boolean(c->by_locality));
	json_object_object_add(o, "gpus", g);
	json_object_object_add(o, "warnings", w);
	return o;
}
