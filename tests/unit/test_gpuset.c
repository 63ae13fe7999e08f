/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_gpuset.c - the job's GPU list, hostile text, -> Slurm GPU indexes
 * (lib/check/gpuset.c): indexes, ranges, garbage, and UUIDs mapped through a
 * /proc/driver/nvidia tree written as the driver writes it.
 */
#include "config.h"
#include "unit.h"
#include "check/gpuset.h"
#include "topofix.h"
#include "scratch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void expect_gpus(const char *list, const unsigned *want, size_t n)
{
	struct roce_gpuset s = topofix_gpus(list, NULL);
	if (s.status != ROCE_GPUS_OK)
		fail_msg("\"%s\": %s: %s", list, roce_gpuset_status_name(s.status), s.why);
	assert_int_equal(s.n, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s.idx[i], want[i]);
}

static void expect_bad(const char *list, enum roce_gpuset_status st, const char *why)
{
	struct roce_gpuset s = topofix_gpus(list, NULL);
	if (s.status != st || !strstr(s.why, why))
		fail_msg("\"%s\": %s \"%s\", expected %s \"%s\"", list, roce_gpuset_status_name(s.status), s.why,
		         roce_gpuset_status_name(st), why);
	assert_int_equal(s.n, 0);
	for (const char *c = s.why; *c; c++)
		assert_true(*c >= 0x20 && *c < 0x7f);
}

static void t_gpu_list_valid(void **state)
{
	(void)state;
	expect_gpus("0", (unsigned[]){ 0 }, 1);
	expect_gpus("0,1", (unsigned[]){ 0, 1 }, 2);
	expect_gpus("3,1,1", (unsigned[]){ 1, 3 }, 2);
	expect_gpus("2-3", (unsigned[]){ 2, 3 }, 2);
	expect_gpus("0,4-6", (unsigned[]){ 0, 4, 5, 6 }, 4);
	expect_gpus(" 0 , 2 ", (unsigned[]){ 0, 2 }, 2);
	expect_gpus("63", (unsigned[]){ 63 }, 1);
	struct roce_gpuset s;
	roce_gpuset_parse("", NULL, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_NONE);
	roce_gpuset_parse(NULL, NULL, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_NONE);
	roce_gpuset_parse("   ", NULL, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_NONE);
}

static void t_gpu_list_garbage(void **state)
{
	(void)state;
	expect_bad("0,,1", ROCE_GPUS_INVALID, "empty entry at byte 2");
	expect_bad("0,", ROCE_GPUS_INVALID, "empty entry at byte 2");
	expect_bad(",0", ROCE_GPUS_INVALID, "empty entry at byte 0");
	expect_bad("a", ROCE_GPUS_INVALID, "\"a\" is not a GPU index or UUID");
	expect_bad("1;rm -rf /", ROCE_GPUS_INVALID, "\"1;rm -rf /\" is not a GPU index");
	expect_bad("-1", ROCE_GPUS_INVALID, "\"-1\" is not");
	expect_bad("+1", ROCE_GPUS_INVALID, "\"+1\" is not");
	expect_bad("0x1", ROCE_GPUS_INVALID, "\"0x1\" is not");
	expect_bad("1-", ROCE_GPUS_INVALID, "\"1-\" is not");
	expect_bad("3-2", ROCE_GPUS_INVALID, "\"3-2\" is not a valid GPU index or range");
	expect_bad("99999", ROCE_GPUS_INVALID, "\"99999\" is not a valid GPU index");
	expect_bad("123456789012", ROCE_GPUS_INVALID, "is not a GPU index");
	expect_bad("1\n2", ROCE_GPUS_INVALID, "\"1\\n2\" is not");
	expect_bad("gpu:0", ROCE_GPUS_INVALID, "\"gpu:0\"");
	expect_bad("GPU-1234", ROCE_GPUS_INVALID, "\"GPU-1234\"");
	expect_bad("GPU-2b8e9a1c-4f3d-11ee-9b7a-0242ac12000z", ROCE_GPUS_INVALID, "is not a GPU index or UUID");
	expect_bad("64", ROCE_GPUS_UNKNOWN, "beyond the 64 supported");
	char *big = malloc(5000);
	memset(big, '1', 4999);
	big[4999] = '\0';
	expect_bad(big, ROCE_GPUS_INVALID, "longer than 4096 bytes");
	for (int i = 0; i < 4998; i += 2)
		big[i + 1] = ',';
	big[4998] = '1';
	expect_bad(big, ROCE_GPUS_INVALID, "longer than 4096");
	free(big);
	/* an invalid entry after an unknown one still makes the list invalid */
	expect_bad("NoDevFiles,x", ROCE_GPUS_INVALID, "\"x\"");
}

/* Slurm's index i is the i-th NVIDIA display-class GPU in PCI order,
 * whatever its subclass: with the 0x0380 GPU counted there are three. */
static void t_index_display_classes(void **state)
{
	(void)state;
	char path[PATH_MAX];
	topofix_own(path, sizeof(path), "display-classes.xml");
	struct roce_locality *loc = topofix_load(path, NULL, 0);
	struct roce_gpuset s = topofix_gpus("2", loc);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	s = topofix_gpus("3", loc);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	free(loc);
}

#define UUID2 "GPU-2b8e9a1c-4f3d-11ee-9b7a-0242ac120002"
#define UUID0 "GPU-86e60957-0cc5-7959-855b-28f0d7bac243"

/* /proc/driver/nvidia/gpus/<busid>/information, laid out as the driver writes it. */
static void write_info(const char *proc, const char *busid, const char *uuid, int minor)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "driver/nvidia/gpus/%s/information", busid);
	fx_putf(proc, rel, "Model: \t\t Tesla V100-SXM2-32GB\n"
	                   "IRQ:   \t\t 89\n"
	                   "GPU UUID: \t %s\n"
	                   "Video BIOS: \t 88.00.80.00.01\n"
	                   "Bus Type: \t PCIe\n"
	                   "DMA Size: \t 47 bits\n"
	                   "DMA Mask: \t 0x7fffffffffff\n"
	                   "Bus Location: \t %s\n"
	                   "Device Minor: \t %d\n"
	                   "GPU Excluded:\t No\n", uuid, busid, minor);
}

static void t_gpu_list_uuid(void **state)
{
	(void)state;
	char proc[256];
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_gpuset s;
	assert_int_equal(fx_tmpdir(proc, sizeof(proc), "test_gpuset_proc"), 0);
	/* no driver */
	roce_gpuset_parse(UUID2, proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "driver/nvidia/gpus: No such file or directory (is the NVIDIA driver loaded?)"));
	write_info(proc, "0000:83:00.0", UUID2, 2);
	write_info(proc, "0000:03:00.0", UUID0, 0);
	write_info(proc, "0000:07:00.0", "GPU-11111111-2222-3333-4444-555555555555", 9);  /* not NVIDIA in hwloc */
	write_info(proc, "0000:87:00.0", "GPU-\?\?\?\?\?\?\?\?-\?\?\?\?-\?\?\?\?-\?\?\?\?-\?\?\?\?\?\?\?\?\?\?\?\?", 3);  /* unreadable UUID */
	roce_gpuset_parse(UUID2, proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.idx[0], 2);
	roce_gpuset_parse(UUID2 "," UUID0 ",1", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.idx[0], 0);
	assert_int_equal(s.idx[2], 2);
	/* case does not matter in hex */
	roce_gpuset_parse("GPU-2B8E9A1C-4F3D-11EE-9B7A-0242AC120002", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	/* the old MIG form names its parent GPU */
	roce_gpuset_parse("MIG-" UUID2 "/1/0", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(s.idx[0], 2);
	/* the new MIG form does not */
	roce_gpuset_parse("MIG-2b8e9a1c-4f3d-11ee-9b7a-0242ac120002", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "is a MIG instance"));
	roce_gpuset_parse("GPU-aaaaaaaa-4f3d-11ee-9b7a-0242ac120002", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "is not listed by the NVIDIA driver"));
	roce_gpuset_parse("GPU-11111111-2222-3333-4444-555555555555", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "at 0000:07:00.0, which is not an NVIDIA GPU of the topology"));
	roce_gpuset_parse("NoDevFiles", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "no device files"));
	/* without a topology UUIDs cannot be placed */
	roce_gpuset_parse(UUID2, proc, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_int_equal(fx_rmtree(proc), 0);
	free(loc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_gpu_list_valid),
		cmocka_unit_test(t_gpu_list_garbage),
		cmocka_unit_test(t_index_display_classes),
		cmocka_unit_test(t_gpu_list_uuid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
