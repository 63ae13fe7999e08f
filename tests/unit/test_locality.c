/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_locality.c - hwloc topologies -> GPUs, HCAs and NCCL path types
 * (lib/check/locality.c), and their matrix and JSON forms.
 *
 * Own topologies in tests/fixtures/topo (see the README there) always run;
 * real machines' topologies from $top_srcdir/../shared/topologies are
 * skipped when that directory is absent.
 */
#include "config.h"
#include "unit.h"
#include "check/locality.h"
#include "collect/topo.h"
#include "topofix.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static enum roce_sysfs_path gh(const struct roce_locality *loc, unsigned gpu, const char *hca)
{
	size_t j;
	assert_non_null(roce_locality_find_hca(loc, hca, &j));
	assert_true(gpu < loc->n_gpus);
	return (enum roce_sysfs_path)loc->gpu_hca[gpu][j];
}

/* Expected GPU x HCA matrix as rows of path names, HCAs in loc's order. */
static void assert_gpu_hca(const struct roce_locality *loc, const char *const rows[][8], size_t ng, size_t nh)
{
	assert_int_equal(loc->n_gpus, ng);
	assert_int_equal(loc->n_hcas, nh);
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < nh; j++)
			if (strcmp(roce_locality_path_name((enum roce_sysfs_path)loc->gpu_hca[i][j]), rows[i][j]))
				fail_msg("GPU%zu-%s: %s, expected %s", i, loc->hcas[j].name,
				         roce_locality_path_name((enum roce_sysfs_path)loc->gpu_hca[i][j]), rows[i][j]);
}

/* ------------------------------------------------------------------ own topologies */

static void t_two_socket_matrix(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	static const char *const want[][8] = {
		{ "PIX", "PIX", "SYS", "SYS" },   /* GPU0 03:00.0: same switch as the dual-port NIC */
		{ "PHB", "PHB", "SYS", "SYS" },   /* GPU1 06:00.0: root port, no switch */
		{ "SYS", "SYS", "PHB", "PIX" },   /* GPU2 83:00.0: switch 81 with mlx5_3 */
		{ "SYS", "SYS", "PIX", "PHB" },   /* GPU3 87:00.0: switch 85 with mlx5_2 */
	};
	/* The Matrox VGA 07:00.0 is not an NVIDIA GPU: four GPUs, PCI order. */
	assert_gpu_hca(loc, want, 4, 4);
	assert_string_equal(loc->gpus[0].pci_addr, "0000:03:00.0");
	assert_string_equal(loc->gpus[1].pci_addr, "0000:06:00.0");
	assert_string_equal(loc->gpus[2].pci_addr, "0000:83:00.0");
	assert_string_equal(loc->gpus[3].pci_addr, "0000:87:00.0");
	assert_int_equal(loc->gpus[2].device_id, 0x1db4);
	assert_string_equal(loc->gpus[2].numa, "1");
	assert_string_equal(loc->gpus[0].cpus, "0");
	assert_int_equal(loc->gpu_gpu[0][0], ROCE_PATH_LOC);
	assert_int_equal(loc->gpu_gpu[0][1], ROCE_PATH_PHB);
	assert_int_equal(loc->gpu_gpu[2][3], ROCE_PATH_PHB);
	assert_int_equal(loc->gpu_gpu[0][2], ROCE_PATH_SYS);
	/* the two ports of one NIC are behind the same switch */
	assert_int_equal(loc->hca_hca[0][1], ROCE_PATH_PIX);
	assert_int_equal(loc->hca_hca[2][3], ROCE_PATH_PHB);
	assert_string_equal(loc->origin, "xml");
	free(loc);
}

static void two_level(const char *file, enum roce_sysfs_path gpu0_nic, enum roce_sysfs_path gpu0_gpu2)
{
	char path[PATH_MAX];
	static const struct roce_locality_hca_in hca[] = { { "mlx5_0", "0000:0a:00.0", 0, 0 } };
	topofix_own(path, sizeof(path), file);
	struct roce_locality *loc = topofix_load(path, hca, 1);
	assert_int_equal(loc->n_gpus, 3);
	if (gh(loc, 0, "mlx5_0") != gpu0_nic || loc->gpu_gpu[0][2] != gpu0_gpu2)
		fail_msg("%s: GPU0-mlx5_0 %s, GPU0-GPU2 %s", file, roce_locality_path_name(gh(loc, 0, "mlx5_0")),
		         roce_locality_path_name((enum roce_sysfs_path)loc->gpu_gpu[0][2]));
	assert_int_equal(gh(loc, 2, "mlx5_0"), ROCE_PATH_PIX);
	assert_int_equal(loc->gpu_gpu[0][1], ROCE_PATH_PIX);
	free(loc);
}

static void t_two_level_switches(void **state)
{
	(void)state;
	two_level("two-level-plx.xml", ROCE_PATH_PXB, ROCE_PATH_PXB);
	two_level("two-level-bcm4.xml", ROCE_PATH_PIX, ROCE_PATH_PIX);
	two_level("two-level-bcm5.xml", ROCE_PATH_PIX, ROCE_PATH_PIX);
	two_level("two-level-bcm5-oem.xml", ROCE_PATH_PXB, ROCE_PATH_PXB);
}

/* GPUs are NVIDIA devices of base class 0x03 (display): VGA 0x0300, 3D
 * 0x0302 and "display, other" 0x0380 alike; not NVIDIA's audio function or
 * NVSwitch, not another vendor's 0x0380.  Slurm's index follows PCI order,
 * so missing the 0x0380 GPU would shift GPU 2 onto the wrong device
 * (test_gpuset's t_index_display_classes). */
static void t_display_classes(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_locality_hca_in hca[] = { { "mlx5_0", "0000:06:00.0", 0, 0 } };
	topofix_own(path, sizeof(path), "display-classes.xml");
	struct roce_locality *loc = topofix_load(path, hca, 1);
	assert_int_equal(loc->n_gpus, 3);
	assert_string_equal(loc->gpus[0].pci_addr, "0000:01:00.0");
	assert_string_equal(loc->gpus[1].pci_addr, "0000:02:00.0");
	assert_int_equal(loc->gpus[1].device_id, 0x20c2);
	assert_string_equal(loc->gpus[2].pci_addr, "0000:03:00.0");
	assert_int_equal(gh(loc, 1, "mlx5_0"), ROCE_PATH_PHB);
	free(loc);
}

static void t_hca_not_in_topology(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_locality_hca_in hca[] = {
		{ "mlx5_0", "0000:04:00.0", 0, 0 }, { "mlx5_9", "0000:5e:00.0", 0, 0 }, { "mlx5_bad", "04:00.0;reboot", 0, 0 },
		{ "mlx5_7", NULL, 0, 0 },
	};
	topofix_own(path, sizeof(path), "two-socket.xml");
	struct roce_locality *loc = topofix_load(path, hca, 4);
	assert_int_equal(loc->hcas[1].found.status, ROCE_MISSING);
	assert_non_null(strstr(loc->hcas[1].found.why, "0000:5e:00.0 is not in the topology"));
	assert_int_equal(loc->hcas[2].found.status, ROCE_MALFORMED);
	assert_non_null(strstr(loc->hcas[2].found.why, "mlx5_bad"));
	assert_int_equal(loc->hcas[3].found.status, ROCE_MALFORMED);
	assert_int_equal(gh(loc, 0, "mlx5_9"), ROCE_PATH_UNKNOWN);
	assert_int_equal(loc->hca_hca[0][1], ROCE_PATH_UNKNOWN);
	/* never chosen as near: test_choice's t_hca_not_in_topology */
	free(loc);
}

static void t_locality_from_model(void **state)
{
	(void)state;
	char path[PATH_MAX];
	struct roce_node node;
	struct roce_topo_source src = { .xml_file = path };
	struct roce_topo *t;
	struct roce_error err;
	struct roce_locality *loc = calloc(1, sizeof(*loc));
	roce_node_init(&node);
	node.devices = calloc(3, sizeof(*node.devices));
	node.n_devices = 3;
	snprintf(node.devices[0].name, ROCE_NAME_MAX, "mlx5_3");
	snprintf(node.devices[0].pci_addr, ROCE_PCI_MAX, "0000:84:00.0");
	roce_reading_set(&node.devices[0].pci_read, ROCE_OK, 0, NULL);
	snprintf(node.devices[1].name, ROCE_NAME_MAX, "mlx5_1");   /* PCI address unreadable: left out */
	roce_reading_set(&node.devices[1].pci_read, ROCE_UNREADABLE, EACCES, "denied");
	snprintf(node.devices[2].name, ROCE_NAME_MAX, "mlx5_2");
	snprintf(node.devices[2].pci_addr, ROCE_PCI_MAX, "0000:88:00.0");
	roce_reading_set(&node.devices[2].pci_read, ROCE_OK, 0, NULL);
	topofix_own(path, sizeof(path), "two-socket.xml");
	assert_int_equal(roce_topo_load(&src, &t, &err), 0);
	assert_int_equal(roce_locality_build_node(t, &node, loc, &err), 0);
	assert_int_equal(loc->n_hcas, 2);
	assert_int_equal(gh(loc, 2, "mlx5_3"), ROCE_PATH_PIX);
	assert_int_equal(gh(loc, 3, "mlx5_2"), ROCE_PATH_PIX);
	assert_null(roce_locality_find_hca(loc, "mlx5_1", NULL));
	roce_topo_free(t);
	roce_node_free(&node);
	free(loc);
}

/* ------------------------------------------------------------------ output */

static void t_print(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	roce_locality_print(loc, f);
	fclose(f);
	assert_non_null(strstr(buf, "\tGPU0\tGPU1\tGPU2\tGPU3\tmlx5_0\tmlx5_1\tmlx5_2\tmlx5_3\tCPU Affinity\tNUMA Affinity\n"));
	assert_non_null(strstr(buf, "\nGPU2\tSYS\tSYS\t X \tPHB\tSYS\tSYS\tPHB\tPIX\t1\t1\n"));
	assert_non_null(strstr(buf, "\nmlx5_1\tPIX\tPHB\tSYS\tSYS\tPIX\t X \tSYS\tSYS\n"));
	assert_non_null(strstr(buf, "\nLegend:\n"));
	assert_non_null(strstr(buf, "  PIX  = "));
	assert_null(strstr(buf, "not in the topology"));
	free(buf);
	free(loc);
}

static void t_json(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	json_object *o = roce_locality_json(loc), *v;
	assert_true(json_object_object_get_ex(o, "gpu_hca", &v));
	assert_int_equal(json_object_array_length(v), 4);
	json_object *row = json_object_array_get_idx(v, 3);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(row, 2)), "PIX");
	assert_true(json_object_object_get_ex(o, "hcas", &v));
	json_object *h = json_object_array_get_idx(v, 3), *name;
	assert_true(json_object_object_get_ex(h, "name", &name));
	assert_string_equal(json_object_get_string(name), "mlx5_3");
	assert_true(json_object_object_get_ex(o, "gpus", &v));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(v, 1), "pci", &name));
	assert_string_equal(json_object_get_string(name), "0000:06:00.0");
	json_object_put(o);
	free(loc);
}

/* ------------------------------------------------------------------ real machines */

static void t_jwb0001_jwb0004(void **state)
{
	(void)state;
	/* Same model, different mlx5 numbering: by PCI address, not name or index. */
	static const char *const want0001[][8] = {
		{ "SYS", "PIX", "SYS", "SYS" }, { "PIX", "SYS", "SYS", "SYS" },
		{ "SYS", "SYS", "SYS", "PIX" }, { "SYS", "SYS", "PIX", "SYS" },
	};
	static const char *const want0004[][8] = {
		{ "PIX", "SYS", "SYS", "SYS" }, { "SYS", "PIX", "SYS", "SYS" },
		{ "SYS", "SYS", "PIX", "SYS" }, { "SYS", "SYS", "SYS", "PIX" },
	};
	struct roce_locality *loc = topofix_machine("topo.jwb0001.xml");
	assert_gpu_hca(loc, want0001, 4, 4);
	free(loc);
	loc = topofix_machine("topo.jwb0004.xml");
	assert_gpu_hca(loc, want0004, 4, 4);
	free(loc);
}

static void t_ipa20(void **state)
{
	(void)state;
	static const char *const want[][8] = {
		{ "PIX", "PIX", "SYS", "SYS" }, { "SYS", "SYS", "PIX", "SYS" },
		{ "SYS", "SYS", "SYS", "SYS" }, { "SYS", "SYS", "SYS", "PIX" },
	};
	struct roce_locality *loc = topofix_machine("ipa20.xml");
	assert_gpu_hca(loc, want, 4, 4);
	assert_string_equal(loc->gpus[2].pci_addr, "0000:cb:00.0");
	free(loc);
}

static void t_mel2001(void **state)
{
	(void)state;
	static const char *const want[][8] = {
		{ "SYS", "SYS" }, { "PIX", "SYS" }, { "SYS", "PIX" }, { "SYS", "SYS" },
	};
	struct roce_locality *loc = topofix_machine("topo.mel2001.xml");
	assert_gpu_hca(loc, want, 4, 2);
	free(loc);
}

static void t_coral_lassen(void **state)
{
	(void)state;
	static const char *const want[][8] = {
		{ "PHB", "PHB", "SYS", "SYS" }, { "PHB", "PHB", "SYS", "SYS" },
		{ "SYS", "SYS", "PHB", "PHB" }, { "SYS", "SYS", "PHB", "PHB" },
	};
	struct roce_locality *loc = topofix_machine("coral-lassen.xml");
	assert_gpu_hca(loc, want, 4, 4);
	assert_int_equal(loc->gpu_gpu[0][1], ROCE_PATH_PIX);   /* one PLX switch for two GPUs */
	free(loc);
}

/*
 * DGX-2 GPU-to-GPU PCIe paths.  NVIDIA's DGX-2 `nvidia-smi topo -m` shows
 * NV6 between all GPU pairs (NVSwitch) and the PCIe relation to the NICs;
 * the PCIe layout it reflects: per baseboard quarter, two leaf PLX switches
 * of two GPUs (and a NIC) each under one top switch, two quarters per CPU.
 * Expected PCIe-only matrix (`nvidia-smi topo -mp` style, NODE shown as PHB):
 */
static const char *const dgx2[16][16] = {
#define Q0 "PIX", "PIX", "PXB", "PXB"
#define Q1 "PXB", "PXB", "PIX", "PIX"
#define N4 "PHB", "PHB", "PHB", "PHB"
#define S4 "SYS", "SYS", "SYS", "SYS"
	{ Q0, N4, S4, S4 }, { Q0, N4, S4, S4 }, { Q1, N4, S4, S4 }, { Q1, N4, S4, S4 },
	{ N4, Q0, S4, S4 }, { N4, Q0, S4, S4 }, { N4, Q1, S4, S4 }, { N4, Q1, S4, S4 },
	{ S4, S4, Q0, N4 }, { S4, S4, Q0, N4 }, { S4, S4, Q1, N4 }, { S4, S4, Q1, N4 },
	{ S4, S4, N4, Q0 }, { S4, S4, N4, Q0 }, { S4, S4, N4, Q1 }, { S4, S4, N4, Q1 },
#undef Q0
#undef Q1
#undef N4
#undef S4
};

static void t_dgx2(void **state)
{
	(void)state;
	char path[PATH_MAX];
	topofix_shared(path, sizeof(path), "nvidiaDGX2.xml");
	struct roce_locality *loc = topofix_load(path, NULL, 0);
	assert_int_equal(loc->n_gpus, 16);   /* the six NVSwitches (class 0x0680) are not GPUs */
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			const char *got = i == j ? "X" : roce_locality_path_name((enum roce_sysfs_path)loc->gpu_gpu[i][j]);
			if (i == j ? loc->gpu_gpu[i][j] != ROCE_PATH_LOC : strcmp(got, dgx2[i][j]) != 0)
				fail_msg("GPU%d-GPU%d: %s, expected %s", i, j, got, dgx2[i][j]);
		}
	free(loc);
}

/* Every hwloc XML there loads and gives its GPUs (NCCL's own format:
 * test_topo's t_nccl_format_refused). */
static void t_all_shared(void **state)
{
	(void)state;
	static const struct { const char *file; int gpus; } files[] = {
		{ "coral-ea-hwloc1.xml", -1 }, { "coral-lassen-hwloc1.xml", 4 }, { "coral-lassen.xml", 4 },
		{ "cts1-pascal.xml", 2 }, { "ipa20.xml", 4 }, { "nvidiaDGX2.xml", 16 }, { "sierra.xml", 4 },
		{ "topo.dp-esb01.xml", 1 }, { "topo.jrc0323.xml", 4 }, { "topo.jrc0386.xml", 4 },
		{ "topo.jsfc005.xml", 1 }, { "topo.jwb0001.xml", 4 }, { "topo.jwb0004.xml", 4 },
		{ "topo.jwc09n003.xml", 4 }, { "topo.mel2001.xml", 4 },
	};
	char path[PATH_MAX];
	topofix_shared(path, sizeof(path), "SOURCES.txt");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		topofix_shared(path, sizeof(path), files[i].file);
		struct roce_locality *loc = topofix_load(path, NULL, 0);
		if (files[i].gpus >= 0 && loc->n_gpus != (size_t)files[i].gpus)
			fail_msg("%s: %zu GPUs, expected %d", files[i].file, loc->n_gpus, files[i].gpus);
		for (size_t g = 0; g < loc->n_gpus; g++)
			assert_int_equal(loc->gpu_gpu[g][g], ROCE_PATH_LOC);
		free(loc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_two_socket_matrix),
		cmocka_unit_test(t_two_level_switches),
		cmocka_unit_test(t_display_classes),
		cmocka_unit_test(t_hca_not_in_topology),
		cmocka_unit_test(t_locality_from_model),
		cmocka_unit_test(t_print),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_jwb0001_jwb0004),
		cmocka_unit_test(t_ipa20),
		cmocka_unit_test(t_mel2001),
		cmocka_unit_test(t_coral_lassen),
		cmocka_unit_test(t_dgx2),
		cmocka_unit_test(t_all_shared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
