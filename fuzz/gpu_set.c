/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpu_set - roce_gpuset_parse() on hostile SLURM_STEP_GPUS /
 * CUDA_VISIBLE_DEVICES values.  A small /proc tree with two GPUs'
 * driver information files (as the NVIDIA driver writes them) is made once,
 * so UUIDs can map; the first input byte picks with or without topology.
 * An OK set is ascending, without duplicates and inside the topology.
 */
#include "config.h"
#include "fuzz.h"
#include "check/gpuset.h"

#include <sys/stat.h>
#include <unistd.h>

static char proc[64];
static struct roce_locality *loc;

static const char *const uuids[] = {
	"GPU-86e60957-0cc5-7959-855b-28f0d7bac243",
	"GPU-0e3b1c7e-5f4a-4c3e-9d2b-6a1f2e3d4c5b",
};
static const char *const busids[] = { "0000:03:00.0", "0000:04:00.0" };

static void write_info(const char *busid, const char *uuid, int minor)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/driver/nvidia/gpus/%s", proc, busid);
	if (mkdir(path, 0755) < 0)
		abort();
	snprintf(path, sizeof(path), "%s/driver/nvidia/gpus/%s/information", proc, busid);
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fprintf(f, "Model: \t\t Tesla V100-SXM2-32GB\nIRQ:   \t\t 89\nGPU UUID: \t %s\n"
	           "Video BIOS: \t 88.00.80.00.01\nBus Type: \t PCIe\nDMA Size: \t 47 bits\n"
	           "DMA Mask: \t 0x7fffffffffff\nBus Location: \t %s\nDevice Minor: \t %d\n"
	           "GPU Excluded:\t No\n", uuid, busid, minor);
	fclose(f);
}

static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", proc);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", proc);
	free(loc);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char path[128];
	snprintf(proc, sizeof(proc), "%s/fuzz-gpu-proc.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(proc))
		abort();
	const char *dirs[] = { "driver", "driver/nvidia", "driver/nvidia/gpus" };
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", proc, dirs[i]);
		if (mkdir(path, 0755) < 0)
			abort();
	}
	for (int i = 0; i < 2; i++)
		write_info(busids[i], uuids[i], i);
	/* Four GPUs in the topology; the driver knows the first two. */
	loc = calloc(1, sizeof(*loc));
	if (!loc)
		abort();
	loc->n_gpus = 4;
	for (int i = 0; i < 4; i++)
		snprintf(loc->gpus[i].pci_addr, sizeof(loc->gpus[i].pci_addr), "0000:%02x:00.0", 3 + i);
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_gpuset set;
	if (size < 1)
		return 0;
	char *s = fuzz_cstr(data + 1, size - 1);
	if (!s)
		return 0;
	const struct roce_locality *l = (data[0] & 1) ? loc : NULL;
	roce_gpuset_parse(s, (data[0] & 2) ? proc : "/nonexistent", l, &set);
	FUZZ_CHECK(set.status <= ROCE_GPUS_INVALID, "status %d", (int)set.status);
	FUZZ_CHECK(memchr(set.why, '\0', sizeof(set.why)), "why not terminated");
	for (const char *p = set.why; *p; p++)
		FUZZ_CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f, "unsanitised byte 0x%02x in why",
		           (unsigned char)*p);
	if (set.status == ROCE_GPUS_OK) {
		FUZZ_CHECK(set.n > 0 && set.n <= ROCE_LOCALITY_GPU_MAX, "n %zu", set.n);
		for (size_t i = 0; i < set.n; i++) {
			FUZZ_CHECK(i == 0 || set.idx[i] > set.idx[i - 1], "not ascending");
			FUZZ_CHECK(!l || set.idx[i] < l->n_gpus, "index %u outside the topology", set.idx[i]);
		}
	} else {
		FUZZ_CHECK(set.n == 0, "status %s with %zu GPUs", roce_gpuset_status_name(set.status), set.n);
		FUZZ_CHECK(set.status == ROCE_GPUS_NONE || set.why[0], "status %s without why", roce_gpuset_status_name(set.status));
	}
	free(s);
	return 0;
}
