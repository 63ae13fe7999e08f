/*
 * topo.h - GPU-to-HCA locality from hwloc, the way NCCL sees it.
 *
 * Three layers, so that only the first touches hwloc or the file system:
 *   1. roce_topo_load()      hwloc topology from an XML file, or the live
 *                            machine through a cached XML export;
 *   2. roce_topo_locality()  GPUs, HCAs and NCCL path types between them,
 *                            computed once into plain data (struct roce_locality);
 *   3. roce_gpu_set_parse(), roce_topo_choose()
 *                            pure functions over that plain data: the job's
 *                            GPUs and the NCCL_IB_HCA order / GDR level.
 * Output helpers print the matrix like `nvidia-smi topo -m` and as json-c.
 */
#ifndef ROCE_TOPO_H
#define ROCE_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "model.h"
#include "policy.h"

#define ROCE_TOPO_GPU_MAX 64      /* NVIDIA PCI functions per node we look at */
#define ROCE_TOPO_HCA_MAX 64      /* RDMA devices per node we look at */
#define ROCE_TOPO_AFFINITY_MAX 96

/*
 * NCCL's path types (src/graph/topo.h), same order and values as
 * enum roce_gdr_level so that a path type is directly a GDR level.
 * NCCL does not tell nvidia-smi's NODE from PHB: both are PHB here.
 */
enum roce_path {
	ROCE_PATH_LOC = ROCE_GDR_LOC,   /* the same device */
	ROCE_PATH_PIX = ROCE_GDR_PIX,   /* behind the same PCIe switch */
	ROCE_PATH_PXB = ROCE_GDR_PXB,   /* behind switches that share a switch */
	ROCE_PATH_PHB = ROCE_GDR_PHB,   /* through the CPU, same NUMA node */
	ROCE_PATH_SYS = ROCE_GDR_SYS,   /* across NUMA nodes */
	ROCE_PATH_UNKNOWN,              /* a device is not in the topology */
};
const char *roce_path_name(enum roce_path p);        /* "PIX", ...; "?" for UNKNOWN */

/* ------------------------------------------------------------------ loading */

struct roce_topo;                    /* opaque: an hwloc topology */

enum roce_topo_origin { ROCE_TOPO_FROM_XML, ROCE_TOPO_FROM_CACHE, ROCE_TOPO_FROM_LIVE };

struct roce_topo_source {
	const char *xml_file;    /* hwloc XML to load; NULL or "" = the live machine */
	const char *cache_file;  /* live only: where the XML export is cached; NULL or "" = no cache */
	const char *fsroot;      /* prefix for /proc and /sys in the cache key (tests); NULL = "" */
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
const char *roce_topo_origin_name(enum roce_topo_origin o);   /* "xml", "cache", "live" */
/* What happened to the cache: OK (used or written), NOT_READ (no cache), or why not. */
const struct roce_reading *roce_topo_cache_reading(const struct roce_topo *t);

/*
 * The cache key of the machine under fsroot: "boot=<boot_id> pci=<n>:<fnv64>".
 * Returns 0, or -1 with err set when boot_id or the PCI list cannot be read.
 */
int roce_topo_cache_key(const char *fsroot, char *key, size_t keylen, struct roce_error *err);

/* ------------------------------------------------------------------ locality */

struct roce_topo_gpu {
	char pci_addr[ROCE_PCI_MAX];            /* "0000:03:00.0" */
	unsigned device_id;                     /* PCI device id, e.g. 0x20b0 */
	char cpus[ROCE_TOPO_AFFINITY_MAX];      /* CPU affinity list "0-23,48-71" */
	char numa[ROCE_TOPO_AFFINITY_MAX];      /* NUMA affinity list "0" */
};

struct roce_topo_hca {
	char name[ROCE_NAME_MAX];               /* "mlx5_0" */
	char pci_addr[ROCE_PCI_MAX];
	struct roce_reading found;              /* OK, or why the PCI device is not in the topology */
	char cpus[ROCE_TOPO_AFFINITY_MAX];
	char numa[ROCE_TOPO_AFFINITY_MAX];
};

/* Input to roce_topo_locality(): an RDMA device and its PCI address (from the model). */
struct roce_topo_hca_in {
	const char *name;
	const char *pci_addr;
};

/*
 * Plain data: GPUs (Slurm index = array index = PCI bus id order), HCAs (in
 * the caller's order) and the NCCL path type of every pair.  No pointers:
 * it can be copied, compared and built by hand in tests.  gpu_gpu[i][i] is
 * LOC; pairs with an HCA whose found != OK are UNKNOWN.
 */
struct roce_locality {
	char origin[16];                                  /* "xml", "cache", "live", or "" (built by hand) */
	size_t n_gpus;
	struct roce_topo_gpu gpus[ROCE_TOPO_GPU_MAX];
	bool gpus_truncated;                              /* more than ROCE_TOPO_GPU_MAX GPUs */
	size_t n_hcas;
	struct roce_topo_hca hcas[ROCE_TOPO_HCA_MAX];
	unsigned char gpu_gpu[ROCE_TOPO_GPU_MAX][ROCE_TOPO_GPU_MAX];   /* enum roce_path */
	unsigned char gpu_hca[ROCE_TOPO_GPU_MAX][ROCE_TOPO_HCA_MAX];
	unsigned char hca_hca[ROCE_TOPO_HCA_MAX][ROCE_TOPO_HCA_MAX];
};

/*
 * Fill loc from the topology: every NVIDIA GPU (vendor 0x10de, class
 * 0x03xx: VGA, 3D, other display) and the given RDMA devices, matched by PCI bus id.
 * An HCA whose address is malformed or not in the topology is kept with
 * found != OK and path UNKNOWN.  Returns 0, or -1 (err) when n > ROCE_TOPO_HCA_MAX
 * or out of memory.  loc is about 60 KiB: allocate it, not on a small stack.
 */
int roce_topo_locality(const struct roce_topo *t, const struct roce_topo_hca_in *hcas, size_t n,
                       struct roce_locality *loc, struct roce_error *err);
/* The same for every device of the model that has a PCI address (pci_read OK). */
int roce_topo_locality_node(const struct roce_topo *t, const struct roce_node *node,
                            struct roce_locality *loc, struct roce_error *err);

const struct roce_topo_hca *roce_locality_hca(const struct roce_locality *loc, const char *name, size_t *index);

/* ------------------------------------------------------------------ the job's GPUs */

enum roce_gpus_status {
	ROCE_GPUS_NONE = 0,      /* empty or unset: the job has no GPUs */
	ROCE_GPUS_OK,            /* idx[] holds Slurm GPU indexes, ascending, no duplicates */
	ROCE_GPUS_UNKNOWN,       /* well-formed, but cannot be mapped to this node's GPUs */
	ROCE_GPUS_INVALID,       /* not a GPU list: garbage */
};

struct roce_gpu_set {
	enum roce_gpus_status status;
	size_t n;
	unsigned idx[ROCE_TOPO_GPU_MAX];
	char why[ROCE_WHY_MAX];  /* for UNKNOWN/INVALID: what and why, hostile text sanitised */
};
const char *roce_gpus_status_name(enum roce_gpus_status s);

/*
 * Parse SLURM_STEP_GPUS / SLURM_JOB_GPUS / CUDA_VISIBLE_DEVICES: comma
 * separated GPU indexes ("0,2", ranges "2-3" accepted) or UUIDs
 * ("GPU-8-4-4-4-12 hex", "MIG-GPU-<uuid>/gi/ci").  GPU UUIDs are mapped to
 * indexes through <proc_root>/driver/nvidia/gpus/<busid>/information
 * ("GPU UUID:" and "Bus Location:" lines) and loc's GPU bus ids; plain MIG
 * UUIDs ("MIG-<uuid>") and "NoDevFiles" have no known mapping.  loc may be
 * NULL (then indexes are not range-checked and UUIDs are UNKNOWN).
 * proc_root NULL = "/proc".  Never fails: the status says it all.
 */
void roce_gpu_set_parse(const char *list, const char *proc_root, const struct roce_locality *loc,
                        struct roce_gpu_set *out);

/* ------------------------------------------------------------------ the choice */

#define ROCE_TOPO_WARN_LEN 256

struct roce_topo_gpu_choice {
	unsigned gpu;                      /* Slurm index */
	enum roce_path best;               /* best path to any healthy HCA (UNKNOWN if none known) */
	bool gdr;                          /* best is within the cap: NCCL will use GPUDirect RDMA */
};

struct roce_topo_choice {
	size_t n_hca;                      /* NCCL_IB_HCA, in this order (device names) */
	char hca[ROCE_HCA_MAX][ROCE_NAME_MAX];
	enum roce_gdr_level gdr_level;     /* NCCL_NET_GDR_LEVEL */
	bool by_locality;                  /* false: every healthy HCA (no GPUs, unknown mapping, none near) */
	size_t n_gpus;
	struct roce_topo_gpu_choice gpus[ROCE_TOPO_GPU_MAX];
	size_t n_warnings;                 /* human text, one finding each */
	char warnings[ROCE_TOPO_GPU_MAX + 4][ROCE_TOPO_WARN_LEN];
};

/*
 * The pure choice.  healthy: the healthy, policy-allowed RoCE HCAs (device
 * names, in the order NCCL_IB_HCA should list them when there is no
 * locality).  loc may be NULL (no topology).  For each GPU of gpus (in
 * index order): its nearest healthy HCAs (all tied at its best path type),
 * no duplicates; the GDR level is the worst of those best paths, capped at
 * cap.  A GPU with no HCA within the cap gets a warning; if no GPU has
 * one, or the GPUs are unknown/invalid, or there is no topology: every
 * healthy HCA, at level cap.  No GPUs: every healthy HCA, level cap.
 * Returns 0, or -1 when n_healthy > ROCE_HCA_MAX (err set).
 */
int roce_topo_choose(const struct roce_locality *loc, const struct roce_gpu_set *gpus,
                     const char *const healthy[], size_t n_healthy, enum roce_gdr_level cap,
                     struct roce_topo_choice *out, struct roce_error *err);

/* ------------------------------------------------------------------ output */

/* The GPU-by-HCA matrix as `nvidia-smi topo -m` prints it, with its legend. */
void roce_locality_print(const struct roce_locality *loc, FILE *out);
/* {"origin", "gpus":[{index,pci,cpus,numa}], "hcas":[{name,pci,found,why}],
 *  "gpu_hca":[[...]], "gpu_gpu":[[...]], "hca_hca":[[...]]}, path names as NCCL's. */
json_object *roce_locality_json(const struct roce_locality *loc);
json_object *roce_topo_choice_json(const struct roce_topo_choice *c);

#endif
