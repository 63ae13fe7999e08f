/*
 * test_topo.c - hwloc topologies -> NCCL path types -> NCCL_IB_HCA / GDR level.
 *
 * Own topologies in tests/fixtures/topo (see the README there) always run;
 * real machines' topologies from $top_srcdir/../shared/topologies are
 * skipped when that directory is absent.
 */
#include "config.h"
#include "unit.h"
#include "topo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ helpers */

static void fixture(char *out, size_t len, const char *name)
{
	const char *top = getenv("top_srcdir");
	snprintf(out, len, "%s/tests/fixtures/topo/%s", top ? top : ".", name);
}

/* A real machine's topology, or skip the test. */
static void shared(char *out, size_t len, const char *name)
{
	const char *top = getenv("top_srcdir");
	snprintf(out, len, "%s/../shared/topologies/%s", top ? top : ".", name);
	if (access(out, R_OK))
		skip();
}

static struct roce_locality *load_loc(const char *path, const struct roce_topo_hca_in *hcas, size_t n)
{
	struct roce_topo_source src = { .xml_file = path };
	struct roce_topo *t = NULL;
	struct roce_error err = { "" };
	struct roce_locality *loc = calloc(1, sizeof(*loc));
	assert_non_null(loc);
	if (roce_topo_load(&src, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(roce_topo_origin(t), ROCE_TOPO_FROM_XML);
	assert_int_equal(roce_topo_locality(t, hcas, n, loc, &err), 0);
	roce_topo_free(t);
	return loc;
}

static enum roce_path gh(const struct roce_locality *loc, unsigned gpu, const char *hca)
{
	size_t j;
	assert_non_null(roce_locality_hca(loc, hca, &j));
	assert_true(gpu < loc->n_gpus);
	return (enum roce_path)loc->gpu_hca[gpu][j];
}

/* Expected GPU x HCA matrix as rows of path names, HCAs in loc's order. */
static void assert_gpu_hca(const struct roce_locality *loc, const char *const rows[][8], size_t ng, size_t nh)
{
	assert_int_equal(loc->n_gpus, ng);
	assert_int_equal(loc->n_hcas, nh);
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < nh; j++)
			if (strcmp(roce_path_name((enum roce_path)loc->gpu_hca[i][j]), rows[i][j]))
				fail_msg("GPU%zu-%s: %s, expected %s", i, loc->hcas[j].name,
				         roce_path_name((enum roce_path)loc->gpu_hca[i][j]), rows[i][j]);
}

static struct roce_gpu_set gpus_of(const char *list, const struct roce_locality *loc)
{
	struct roce_gpu_set s;
	roce_gpu_set_parse(list, "/nonexistent-proc", loc, &s);
	return s;
}

static void choose(const struct roce_locality *loc, const char *list, const char *const healthy[], size_t n,
                   enum roce_gdr_level cap, struct roce_topo_choice *c)
{
	struct roce_gpu_set s = gpus_of(list, loc);
	struct roce_error err = { "" };
	assert_int_equal(roce_topo_choose(loc, &s, healthy, n, cap, c, &err), 0);
}

static void assert_hcas(const struct roce_topo_choice *c, const char *const want[], size_t n)
{
	char got[512] = "";
	for (size_t i = 0; i < c->n_hca; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? "," : "", c->hca[i]);
	if (c->n_hca != n)
		fail_msg("NCCL_IB_HCA %s: %zu entries, expected %zu", got, c->n_hca, n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(c->hca[i], want[i]))
			fail_msg("NCCL_IB_HCA %s: entry %zu is not %s", got, i, want[i]);
}

/* two-socket.xml, HCAs in the model's (name) order, not PCI order. */
static const struct roce_topo_hca_in two_socket_hcas[] = {
	{ "mlx5_0", "0000:04:00.0" }, { "mlx5_1", "0000:04:00.1" },
	{ "mlx5_2", "0000:88:00.0" }, { "mlx5_3", "0000:84:00.0" },
};
static const char *const all4[] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3" };

static struct roce_locality *two_socket(void)
{
	char path[PATH_MAX];
	fixture(path, sizeof(path), "two-socket.xml");
	return load_loc(path, two_socket_hcas, 4);
}

/* ------------------------------------------------------------------ own topologies */

static void t_two_socket_matrix(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
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

static void two_level(const char *file, enum roce_path gpu0_nic, enum roce_path gpu0_gpu2)
{
	char path[PATH_MAX];
	static const struct roce_topo_hca_in hca[] = { { "mlx5_0", "0000:0a:00.0" } };
	fixture(path, sizeof(path), file);
	struct roce_locality *loc = load_loc(path, hca, 1);
	assert_int_equal(loc->n_gpus, 3);
	if (gh(loc, 0, "mlx5_0") != gpu0_nic || loc->gpu_gpu[0][2] != gpu0_gpu2)
		fail_msg("%s: GPU0-mlx5_0 %s, GPU0-GPU2 %s", file, roce_path_name(gh(loc, 0, "mlx5_0")),
		         roce_path_name((enum roce_path)loc->gpu_gpu[0][2]));
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
 * so missing the 0x0380 GPU would shift GPU 2 onto the wrong device. */
static void t_display_classes(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_topo_hca_in hca[] = { { "mlx5_0", "0000:06:00.0" } };
	fixture(path, sizeof(path), "display-classes.xml");
	struct roce_locality *loc = load_loc(path, hca, 1);
	assert_int_equal(loc->n_gpus, 3);
	assert_string_equal(loc->gpus[0].pci_addr, "0000:01:00.0");
	assert_string_equal(loc->gpus[1].pci_addr, "0000:02:00.0");
	assert_int_equal(loc->gpus[1].device_id, 0x20c2);
	assert_string_equal(loc->gpus[2].pci_addr, "0000:03:00.0");
	assert_int_equal(gh(loc, 1, "mlx5_0"), ROCE_PATH_PHB);
	struct roce_gpu_set s = gpus_of("2", loc);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	s = gpus_of("3", loc);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	free(loc);
}

static void t_hca_not_in_topology(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_topo_hca_in hca[] = {
		{ "mlx5_0", "0000:04:00.0" }, { "mlx5_9", "0000:5e:00.0" }, { "mlx5_bad", "04:00.0;reboot" },
		{ "mlx5_7", NULL },
	};
	fixture(path, sizeof(path), "two-socket.xml");
	struct roce_locality *loc = load_loc(path, hca, 4);
	assert_int_equal(loc->hcas[1].found.status, ROCE_MISSING);
	assert_non_null(strstr(loc->hcas[1].found.why, "0000:5e:00.0 is not in the topology"));
	assert_int_equal(loc->hcas[2].found.status, ROCE_MALFORMED);
	assert_non_null(strstr(loc->hcas[2].found.why, "mlx5_bad"));
	assert_int_equal(loc->hcas[3].found.status, ROCE_MALFORMED);
	assert_int_equal(gh(loc, 0, "mlx5_9"), ROCE_PATH_UNKNOWN);
	assert_int_equal(loc->hca_hca[0][1], ROCE_PATH_UNKNOWN);
	/* never chosen as near; the GPU falls back on what is known */
	struct roce_topo_choice c;
	const char *healthy[] = { "mlx5_9", "mlx5_0" };
	choose(loc, "0", healthy, 2, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0" }, 1);
	choose(loc, "0", healthy, 1, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_9" }, 1);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "GPU 0 (0000:03:00.0) has no RoCE HCA in the topology: "
	                                   "GPUDirect RDMA will not be used for it");
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
	fixture(path, sizeof(path), "two-socket.xml");
	assert_int_equal(roce_topo_load(&src, &t, &err), 0);
	assert_int_equal(roce_topo_locality_node(t, &node, loc, &err), 0);
	assert_int_equal(loc->n_hcas, 2);
	assert_int_equal(gh(loc, 2, "mlx5_3"), ROCE_PATH_PIX);
	assert_int_equal(gh(loc, 3, "mlx5_2"), ROCE_PATH_PIX);
	assert_null(roce_locality_hca(loc, "mlx5_1", NULL));
	roce_topo_free(t);
	roce_node_free(&node);
	free(loc);
}

/* ------------------------------------------------------------------ the choice */

static void t_choose_pix(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
	struct roce_topo_choice c;
	choose(loc, "2,3", all4, 4, ROCE_GDR_PXB, &c);
	assert_true(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_3", "mlx5_2" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_gpus, 2);
	assert_true(c.gpus[0].gdr && c.gpus[1].gdr);
	/* a job given GPU 3 only gets that GPU's NIC; the order follows the GPUs */
	choose(loc, "3", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2" }, 1);
	choose(loc, "3,0", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1", "mlx5_2" }, 3);
	/* both ports of the dual-port NIC tie at PIX */
	choose(loc, "0", all4, 4, ROCE_GDR_PIX, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	free(loc);
}

static void t_choose_cap(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
	struct roce_topo_choice c;
	/* GPU 1 is PHB from its nearest NIC: beyond the default cap */
	choose(loc, "1", all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, all4, 4);
	assert_int_equal(c.gdr_level, ROCE_GDR_PXB);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "GPU 1 (0000:06:00.0) has no RoCE HCA within PXB: GPUDirect RDMA will not "
	                                   "be used for it (nearest: mlx5_0, PHB)");
	assert_false(c.gpus[0].gdr);
	assert_int_equal(c.gpus[0].best, ROCE_PATH_PHB);
	/* a site that allows PHB gets the NIC of its socket */
	choose(loc, "1", all4, 4, ROCE_GDR_PHB, &c);
	assert_true(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	/* mixed: the level is the worst best path within the cap, GPU 1 is warned about */
	choose(loc, "0,1", all4, 4, ROCE_GDR_PXB, &c);
	assert_true(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	assert_int_equal(c.n_warnings, 1);
	assert_non_null(strstr(c.warnings[0], "GPU 1 (0000:06:00.0)"));
	choose(loc, "0,1,2", all4, 4, ROCE_GDR_SYS, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1", "mlx5_3" }, 3);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	assert_int_equal(c.n_warnings, 0);
	/* cap LOC: nothing qualifies, every GPU is warned about */
	choose(loc, "0,2", all4, 4, ROCE_GDR_LOC, &c);
	assert_false(c.by_locality);
	assert_int_equal(c.n_warnings, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_LOC);
	free(loc);
}

static void t_choose_unhealthy(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
	struct roce_topo_choice c;
	const char *healthy[] = { "mlx5_0", "mlx5_2" };   /* mlx5_1 and mlx5_3 failed their checks */
	choose(loc, "2", healthy, 2, ROCE_GDR_PHB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2" }, 1);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	choose(loc, "2", healthy, 2, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, healthy, 2);
	assert_non_null(strstr(c.warnings[0], "(nearest: mlx5_2, PHB)"));
	/* no healthy HCA at all: nothing to list, nothing to warn about */
	choose(loc, "2", healthy, 0, ROCE_GDR_PXB, &c);
	assert_int_equal(c.n_hca, 0);
	assert_int_equal(c.n_warnings, 0);
	free(loc);
}

static void t_choose_no_gpus(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
	struct roce_topo_choice c;
	struct roce_error err;
	choose(loc, "", all4, 4, ROCE_GDR_PHB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, all4, 4);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(roce_topo_choose(loc, NULL, all4, 4, ROCE_GDR_PXB, &c, &err), 0);
	assert_hcas(&c, all4, 4);
	assert_int_equal(c.gdr_level, ROCE_GDR_PXB);
	/* no topology: every HCA, with a warning */
	struct roce_gpu_set s = gpus_of("0", NULL);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(roce_topo_choose(NULL, &s, all4, 4, ROCE_GDR_PXB, &c, &err), 0);
	assert_hcas(&c, all4, 4);
	assert_int_equal(c.n_warnings, 1);
	assert_non_null(strstr(c.warnings[0], "no topology"));
	/* too many HCAs for NCCL_IB_HCA */
	const char *many[ROCE_HCA_MAX + 1];
	for (size_t i = 0; i <= ROCE_HCA_MAX; i++)
		many[i] = "mlx5_0";
	assert_int_equal(roce_topo_choose(loc, &s, many, ROCE_HCA_MAX + 1, ROCE_GDR_PXB, &c, &err), -1);
	assert_non_null(strstr(err.msg, "at most 32"));
	free(loc);
}

static void t_choose_bad_gpus(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
	struct roce_topo_choice c;
	choose(loc, "0,foo", all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, all4, 4);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "GPU list rejected: \"foo\" is not a GPU index or UUID; "
	                                   "NCCL_IB_HCA lists every healthy HCA");
	choose(loc, "5", all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_string_equal(c.warnings[0], "GPU mapping unknown: GPU index 5 (in \"5\") is not among the 4 NVIDIA "
	                                   "GPUs of the topology; NCCL_IB_HCA lists every healthy HCA");
	/* a set built by hand that names a GPU the topology lacks */
	struct roce_gpu_set s = { .status = ROCE_GPUS_OK, .n = 2, .idx = { 2, 9 } };
	struct roce_error err;
	assert_int_equal(roce_topo_choose(loc, &s, all4, 4, ROCE_GDR_PXB, &c, &err), 0);
	assert_hcas(&c, (const char *const[]){ "mlx5_3" }, 1);
	assert_string_equal(c.warnings[0], "GPU 9 is not among the 4 NVIDIA GPUs of the topology");
	free(loc);
}

/* The choice is a pure function of plain data: no hwloc needed. */
static void t_choose_plain_data(void **state)
{
	(void)state;
	struct roce_locality *loc = calloc(1, sizeof(*loc));
	static const unsigned char m[2][3] = { { ROCE_PATH_PXB, ROCE_PATH_PXB, ROCE_PATH_SYS },
	                                       { ROCE_PATH_SYS, ROCE_PATH_PHB, ROCE_PATH_PIX } };
	loc->n_gpus = 2;
	loc->n_hcas = 3;
	snprintf(loc->gpus[0].pci_addr, ROCE_PCI_MAX, "0000:1a:00.0");
	snprintf(loc->gpus[1].pci_addr, ROCE_PCI_MAX, "0000:9c:00.0");
	for (int j = 0; j < 3; j++) {
		snprintf(loc->hcas[j].name, ROCE_NAME_MAX, "hca_%c", 'a' + j);
		roce_reading_set(&loc->hcas[j].found, ROCE_OK, 0, NULL);
		for (int i = 0; i < 2; i++)
			loc->gpu_hca[i][j] = m[i][j];
	}
	const char *healthy[] = { "hca_c", "hca_b", "hca_a" };
	struct roce_topo_choice c;
	choose(loc, "0,1", healthy, 3, ROCE_GDR_PXB, &c);
	/* GPU 0's two PXB HCAs in the healthy list's order, then GPU 1's PIX one */
	assert_hcas(&c, (const char *const[]){ "hca_b", "hca_a", "hca_c" }, 3);
	assert_int_equal(c.gdr_level, ROCE_GDR_PXB);
	choose(loc, "1", healthy, 3, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "hca_c" }, 1);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	choose(loc, "0", healthy, 3, ROCE_GDR_PIX, &c);
	assert_false(c.by_locality);
	assert_string_equal(c.warnings[0], "GPU 0 (0000:1a:00.0) has no RoCE HCA within PIX: GPUDirect RDMA will not "
	                                   "be used for it (nearest: hca_b, PXB)");
	free(loc);
}

/* ------------------------------------------------------------------ GPU lists */

static void expect_gpus(const char *list, const unsigned *want, size_t n)
{
	struct roce_gpu_set s = gpus_of(list, NULL);
	if (s.status != ROCE_GPUS_OK)
		fail_msg("\"%s\": %s: %s", list, roce_gpus_status_name(s.status), s.why);
	assert_int_equal(s.n, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s.idx[i], want[i]);
}

static void expect_bad(const char *list, enum roce_gpus_status st, const char *why)
{
	struct roce_gpu_set s = gpus_of(list, NULL);
	if (s.status != st || !strstr(s.why, why))
		fail_msg("\"%s\": %s \"%s\", expected %s \"%s\"", list, roce_gpus_status_name(s.status), s.why,
		         roce_gpus_status_name(st), why);
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
	struct roce_gpu_set s;
	roce_gpu_set_parse("", NULL, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_NONE);
	roce_gpu_set_parse(NULL, NULL, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_NONE);
	roce_gpu_set_parse("   ", NULL, NULL, &s);
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

#define UUID2 "GPU-2b8e9a1c-4f3d-11ee-9b7a-0242ac120002"
#define UUID0 "GPU-86e60957-0cc5-7959-855b-28f0d7bac243"

/* /proc/driver/nvidia/gpus/<busid>/information, laid out as the driver writes it. */
static void write_info(const char *proc, const char *busid, const char *uuid, int minor)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/driver", proc);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/driver/nvidia", proc);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/driver/nvidia/gpus", proc);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/driver/nvidia/gpus/%s", proc, busid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/driver/nvidia/gpus/%s/information", proc, busid);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "Model: \t\t Tesla V100-SXM2-32GB\n"
	           "IRQ:   \t\t 89\n"
	           "GPU UUID: \t %s\n"
	           "Video BIOS: \t 88.00.80.00.01\n"
	           "Bus Type: \t PCIe\n"
	           "DMA Size: \t 47 bits\n"
	           "DMA Mask: \t 0x7fffffffffff\n"
	           "Bus Location: \t %s\n"
	           "Device Minor: \t %d\n"
	           "GPU Excluded:\t No\n", uuid, busid, minor);
	fclose(f);
}

static void t_gpu_list_uuid(void **state)
{
	(void)state;
	char proc[] = "/tmp/test_topo_proc.XXXXXX";
	struct roce_locality *loc = two_socket();
	struct roce_gpu_set s;
	assert_non_null(mkdtemp(proc));
	/* no driver */
	roce_gpu_set_parse(UUID2, proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "driver/nvidia/gpus: No such file or directory (is the NVIDIA driver loaded?)"));
	write_info(proc, "0000:83:00.0", UUID2, 2);
	write_info(proc, "0000:03:00.0", UUID0, 0);
	write_info(proc, "0000:07:00.0", "GPU-11111111-2222-3333-4444-555555555555", 9);  /* not NVIDIA in hwloc */
	write_info(proc, "0000:87:00.0", "GPU-\?\?\?\?\?\?\?\?-\?\?\?\?-\?\?\?\?-\?\?\?\?-\?\?\?\?\?\?\?\?\?\?\?\?", 3);  /* unreadable UUID */
	roce_gpu_set_parse(UUID2, proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.idx[0], 2);
	roce_gpu_set_parse(UUID2 "," UUID0 ",1", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.idx[0], 0);
	assert_int_equal(s.idx[2], 2);
	/* case does not matter in hex */
	roce_gpu_set_parse("GPU-2B8E9A1C-4F3D-11EE-9B7A-0242AC120002", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	/* the old MIG form names its parent GPU */
	roce_gpu_set_parse("MIG-" UUID2 "/1/0", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(s.idx[0], 2);
	/* the new MIG form does not */
	roce_gpu_set_parse("MIG-2b8e9a1c-4f3d-11ee-9b7a-0242ac120002", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "is a MIG instance"));
	roce_gpu_set_parse("GPU-aaaaaaaa-4f3d-11ee-9b7a-0242ac120002", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "is not listed by the NVIDIA driver"));
	roce_gpu_set_parse("GPU-11111111-2222-3333-4444-555555555555", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "at 0000:07:00.0, which is not an NVIDIA GPU of the topology"));
	roce_gpu_set_parse("NoDevFiles", proc, loc, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	assert_non_null(strstr(s.why, "no device files"));
	/* without a topology UUIDs cannot be placed */
	roce_gpu_set_parse(UUID2, proc, NULL, &s);
	assert_int_equal(s.status, ROCE_GPUS_UNKNOWN);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", proc);
	assert_int_equal(system(cmd), 0);
	free(loc);
}

/* ------------------------------------------------------------------ output */

static void t_print(void **state)
{
	(void)state;
	struct roce_locality *loc = two_socket();
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
	struct roce_locality *loc = two_socket();
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

	struct roce_topo_choice c;
	choose(loc, "1,2", all4, 4, ROCE_GDR_PXB, &c);
	o = roce_topo_choice_json(&c);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
	                    "{\"hca\":[\"mlx5_3\"],\"gdr_level\":\"PIX\",\"by_locality\":true,"
	                    "\"gpus\":[{\"gpu\":1,\"best\":\"PHB\",\"gdr\":false},{\"gpu\":2,\"best\":\"PIX\",\"gdr\":true}],"
	                    "\"warnings\":[\"GPU 1 (0000:06:00.0) has no RoCE HCA within PXB: GPUDirect RDMA will not "
	                    "be used for it (nearest: mlx5_0, PHB)\"]}");
	json_object_put(o);
	free(loc);
}

/* ------------------------------------------------------------------ loading and the cache */

static void t_load_errors(void **state)
{
	(void)state;
	char path[PATH_MAX] = "/tmp/test_topo_bad.XXXXXX";
	struct roce_topo_source src = { .xml_file = "/nonexistent/topo.xml" };
	struct roce_topo *t = (struct roce_topo *)1;
	struct roce_error err = { "" };
	assert_int_equal(roce_topo_load(&src, &t, &err), -1);
	assert_null(t);
	assert_string_equal(err.msg, "/nonexistent/topo.xml: No such file or directory");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "<topology version=\"2.0\"><object type=", 37), 37);
	close(fd);
	src.xml_file = path;
	assert_int_equal(roce_topo_load(&src, &t, &err), -1);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "hwloc cannot load this XML topology"));
	unlink(path);
	src.xml_file = "/tmp";
	assert_int_equal(roce_topo_load(&src, &t, &err), -1);
	assert_non_null(strstr(err.msg, "/tmp: not a regular file"));
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *dir, const char *rel)
{
	char path[PATH_MAX], cmd[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
	assert_int_equal(system(cmd), 0);
}

static enum roce_topo_origin load_live(const char *root, const char *cache, enum roce_status *cache_status)
{
	struct roce_topo_source src = { .cache_file = cache, .fsroot = root };
	struct roce_topo *t;
	struct roce_error err = { "" };
	struct roce_locality *loc = calloc(1, sizeof(*loc));
	if (roce_topo_load(&src, &t, &err))
		fail_msg("live load: %s", err.msg);
	enum roce_topo_origin o = roce_topo_origin(t);
	*cache_status = roce_topo_cache_reading(t)->status;
	/* whatever this machine is, the locality of it must work */
	static const struct roce_topo_hca_in none[] = { { "mlx5_0", "0000:ff:1f.7" } };
	assert_int_equal(roce_topo_locality(t, none, 1, loc, &err), 0);
	roce_topo_free(t);
	free(loc);
	return o;
}

static void t_cache(void **state)
{
	(void)state;
	char root[] = "/tmp/test_topo_root.XXXXXX", cache[PATH_MAX], key1[256], key2[256], cmd[PATH_MAX * 2];
	struct roce_error err;
	enum roce_status st;
	struct stat sb;
	assert_non_null(mkdtemp(root));
	mkdirs(root, "proc/sys/kernel/random");
	mkdirs(root, "sys/bus/pci/devices/0000:00:00.0");
	mkdirs(root, "sys/bus/pci/devices/0000:00:01.0");
	put(root, "proc/sys/kernel/random/boot_id", "1f7d6b5c-3c55-4a47-9d3e-2d1f0c7b6a11\n");
	assert_int_equal(roce_topo_cache_key(root, key1, sizeof(key1), &err), 0);
	assert_non_null(strstr(key1, "boot=1f7d6b5c-3c55-4a47-9d3e-2d1f0c7b6a11 pci=2:"));
	snprintf(cache, sizeof(cache), "%s/cache/topology.xml", root);   /* cache/ does not exist yet */

	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(st, ROCE_OK);
	assert_int_equal(stat(cache, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0644);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_CACHE);
	assert_int_equal(st, ROCE_OK);

	/* reboot: new boot_id */
	put(root, "proc/sys/kernel/random/boot_id", "2a7d6b5c-3c55-4a47-9d3e-2d1f0c7b6a11\n");
	assert_int_equal(roce_topo_cache_key(root, key2, sizeof(key2), &err), 0);
	assert_string_not_equal(key1, key2);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_CACHE);
	/* hot-plug: one more PCI device */
	mkdirs(root, "sys/bus/pci/devices/0000:41:00.0");
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_CACHE);

	/* a symlink planted as the cache is neither followed nor written through */
	char victim[PATH_MAX];
	snprintf(victim, sizeof(victim), "%s/victim", root);
	put(root, "victim", "keep me\n");
	assert_int_equal(unlink(cache), 0);
	assert_int_equal(symlink(victim, cache), 0);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(lstat(cache, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	FILE *f = fopen(victim, "r");
	char line[32] = "";
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "keep me\n");

	/* garbage in the cache: rebuilt */
	put(root, "cache/topology.xml", "<topology");
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(st, ROCE_OK);
	/* a cache file writable by others is not trusted */
	assert_int_equal(chmod(cache, 0666), 0);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(stat(cache, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0644);
	/* nor is a directory writable by others written into */
	snprintf(cmd, sizeof(cmd), "%s/cache", root);
	assert_int_equal(chmod(cmd, 0777), 0);
	put(root, "proc/sys/kernel/random/boot_id", "3a7d6b5c-3c55-4a47-9d3e-2d1f0c7b6a11\n");
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(st, ROCE_UNREADABLE);
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	/* no boot_id: live, the cache is not used */
	snprintf(cmd, sizeof(cmd), "%s/proc/sys/kernel/random/boot_id", root);
	assert_int_equal(unlink(cmd), 0);
	assert_int_equal(roce_topo_cache_key(root, key2, sizeof(key2), &err), -1);
	assert_non_null(strstr(err.msg, "boot_id: No such file or directory"));
	assert_int_equal(load_live(root, cache, &st), ROCE_TOPO_FROM_LIVE);
	assert_int_equal(st, ROCE_UNREADABLE);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* ------------------------------------------------------------------ real machines */

static void t_jwb0001_jwb0004(void **state)
{
	(void)state;
	char path[PATH_MAX];
	struct roce_topo_choice c;
	/* Same model, different mlx5 numbering: by PCI address, not name or index. */
	static const struct roce_topo_hca_in jwb0001[] = {
		{ "mlx5_0", "0000:43:00.0" }, { "mlx5_1", "0000:04:00.0" },
		{ "mlx5_2", "0000:c3:00.0" }, { "mlx5_3", "0000:83:00.0" },
	};
	static const struct roce_topo_hca_in jwb0004[] = {
		{ "mlx5_0", "0000:04:00.0" }, { "mlx5_1", "0000:43:00.0" },
		{ "mlx5_2", "0000:83:00.0" }, { "mlx5_3", "0000:c3:00.0" },
	};
	static const char *const want0001[][8] = {
		{ "SYS", "PIX", "SYS", "SYS" }, { "PIX", "SYS", "SYS", "SYS" },
		{ "SYS", "SYS", "SYS", "PIX" }, { "SYS", "SYS", "PIX", "SYS" },
	};
	static const char *const want0004[][8] = {
		{ "PIX", "SYS", "SYS", "SYS" }, { "SYS", "PIX", "SYS", "SYS" },
		{ "SYS", "SYS", "PIX", "SYS" }, { "SYS", "SYS", "SYS", "PIX" },
	};
	shared(path, sizeof(path), "topo.jwb0001.xml");
	struct roce_locality *loc = load_loc(path, jwb0001, 4);
	assert_gpu_hca(loc, want0001, 4, 4);
	choose(loc, "1", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0" }, 1);
	choose(loc, "2,3", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_3", "mlx5_2" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	free(loc);
	shared(path, sizeof(path), "topo.jwb0004.xml");
	loc = load_loc(path, jwb0004, 4);
	assert_gpu_hca(loc, want0004, 4, 4);
	choose(loc, "1", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_1" }, 1);
	choose(loc, "2,3", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2", "mlx5_3" }, 2);
	free(loc);
}

static void t_ipa20(void **state)
{
	(void)state;
	char path[PATH_MAX];
	struct roce_topo_choice c;
	static const struct roce_topo_hca_in hca[] = {
		{ "mlx5_0", "0000:4d:00.0" }, { "mlx5_1", "0000:4d:00.1" },   /* one dual-port NIC */
		{ "mlx5_2", "0000:5e:00.0" }, { "mlx5_3", "0000:da:00.0" },
	};
	static const char *const want[][8] = {
		{ "PIX", "PIX", "SYS", "SYS" }, { "SYS", "SYS", "PIX", "SYS" },
		{ "SYS", "SYS", "SYS", "SYS" }, { "SYS", "SYS", "SYS", "PIX" },
	};
	shared(path, sizeof(path), "ipa20.xml");
	struct roce_locality *loc = load_loc(path, hca, 4);
	assert_gpu_hca(loc, want, 4, 4);
	assert_string_equal(loc->gpus[2].pci_addr, "0000:cb:00.0");
	choose(loc, "0", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	choose(loc, "2", all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, all4, 4);
	assert_string_equal(c.warnings[0], "GPU 2 (0000:cb:00.0) has no RoCE HCA within PXB: GPUDirect RDMA will not "
	                                   "be used for it (nearest: mlx5_0, SYS)");
	choose(loc, "1,2", all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2" }, 1);
	assert_int_equal(c.n_warnings, 1);
	free(loc);
}

static void t_mel2001(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_topo_hca_in hca[] = { { "mlx5_0", "0000:43:00.0" }, { "mlx5_1", "0000:83:00.0" } };
	static const char *const want[][8] = {
		{ "SYS", "SYS" }, { "PIX", "SYS" }, { "SYS", "PIX" }, { "SYS", "SYS" },
	};
	shared(path, sizeof(path), "topo.mel2001.xml");
	struct roce_locality *loc = load_loc(path, hca, 2);
	assert_gpu_hca(loc, want, 4, 2);
	free(loc);
}

static void t_coral_lassen(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_topo_hca_in hca[] = {
		{ "mlx5_0", "0003:01:00.0" }, { "mlx5_1", "0003:01:00.1" },
		{ "mlx5_2", "0033:01:00.0" }, { "mlx5_3", "0033:01:00.1" },
	};
	static const char *const want[][8] = {
		{ "PHB", "PHB", "SYS", "SYS" }, { "PHB", "PHB", "SYS", "SYS" },
		{ "SYS", "SYS", "PHB", "PHB" }, { "SYS", "SYS", "PHB", "PHB" },
	};
	shared(path, sizeof(path), "coral-lassen.xml");
	struct roce_locality *loc = load_loc(path, hca, 4);
	assert_gpu_hca(loc, want, 4, 4);
	assert_int_equal(loc->gpu_gpu[0][1], ROCE_PATH_PIX);   /* one PLX switch for two GPUs */
	struct roce_topo_choice c;
	choose(loc, "2,3", all4, 4, ROCE_GDR_PHB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2", "mlx5_3" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
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
	shared(path, sizeof(path), "nvidiaDGX2.xml");
	struct roce_locality *loc = load_loc(path, NULL, 0);
	assert_int_equal(loc->n_gpus, 16);   /* the six NVSwitches (class 0x0680) are not GPUs */
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			const char *got = i == j ? "X" : roce_path_name((enum roce_path)loc->gpu_gpu[i][j]);
			if (i == j ? loc->gpu_gpu[i][j] != ROCE_PATH_LOC : strcmp(got, dgx2[i][j]) != 0)
				fail_msg("GPU%d-GPU%d: %s, expected %s", i, j, got, dgx2[i][j]);
		}
	free(loc);
}

/* Every hwloc XML there loads; NCCL's own topology format is refused cleanly. */
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
	static const char *const nccl[] = { "ndv2-topo.xml", "ndv4-topo.xml", "p4d-24xl-topo.xml" };
	char path[PATH_MAX];
	shared(path, sizeof(path), "SOURCES.txt");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		shared(path, sizeof(path), files[i].file);
		struct roce_locality *loc = load_loc(path, NULL, 0);
		if (files[i].gpus >= 0 && loc->n_gpus != (size_t)files[i].gpus)
			fail_msg("%s: %zu GPUs, expected %d", files[i].file, loc->n_gpus, files[i].gpus);
		for (size_t g = 0; g < loc->n_gpus; g++)
			assert_int_equal(loc->gpu_gpu[g][g], ROCE_PATH_LOC);
		free(loc);
	}
	for (size_t i = 0; i < sizeof(nccl) / sizeof(nccl[0]); i++) {
		struct roce_topo_source src = { .xml_file = path };
		struct roce_topo *t;
		struct roce_error err = { "" };
		shared(path, sizeof(path), nccl[i]);
		assert_int_equal(roce_topo_load(&src, &t, &err), -1);
		assert_non_null(strstr(err.msg, "hwloc cannot load this XML topology"));
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
		cmocka_unit_test(t_choose_pix),
		cmocka_unit_test(t_choose_cap),
		cmocka_unit_test(t_choose_unhealthy),
		cmocka_unit_test(t_choose_no_gpus),
		cmocka_unit_test(t_choose_bad_gpus),
		cmocka_unit_test(t_choose_plain_data),
		cmocka_unit_test(t_gpu_list_valid),
		cmocka_unit_test(t_gpu_list_garbage),
		cmocka_unit_test(t_gpu_list_uuid),
		cmocka_unit_test(t_print),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_load_errors),
		cmocka_unit_test(t_cache),
		cmocka_unit_test(t_jwb0001_jwb0004),
		cmocka_unit_test(t_ipa20),
		cmocka_unit_test(t_mel2001),
		cmocka_unit_test(t_coral_lassen),
		cmocka_unit_test(t_dgx2),
		cmocka_unit_test(t_all_shared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
