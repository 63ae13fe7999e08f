/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_choice.c - the job's GPUs x locality x healthy HCAs -> NCCL_IB_HCA
 * order and GDR level (lib/check/choice.c), on plain data and on topologies.
 *
 * Own topologies in tests/fixtures/topo always run; real machines' from
 * $top_srcdir/../shared/topologies are skipped when that directory is absent.
 * roce_choice_for_check() is tested with the check in test_check.c.
 */
#include "config.h"
#include "unit.h"
#include "check/choice.h"
#include "topofix.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static void choose(const struct roce_locality *loc, const char *list, const char *const healthy[], size_t n,
                   enum roce_gdr_level cap, struct roce_choice *c)
{
	struct roce_gpuset s = topofix_gpus(list, loc);
	struct roce_error err = { "" };
	assert_int_equal(roce_choice_make(loc, &s, healthy, n, cap, ROCE_TIES_BANDWIDTH, c, &err), 0);
}

static void assert_hcas(const struct roce_choice *c, const char *const want[], size_t n)
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

/* ------------------------------------------------------------------ own topologies */

static void t_choose_pix(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_choice c;
	choose(loc, "2,3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_true(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_3", "mlx5_2" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(c.n_gpus, 2);
	assert_true(c.gpus[0].gdr && c.gpus[1].gdr);
	/* a job given GPU 3 only gets that GPU's NIC; the order follows the GPUs */
	choose(loc, "3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2" }, 1);
	choose(loc, "3,0", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1", "mlx5_2" }, 3);
	/* both ports of the dual-port NIC tie at PIX */
	choose(loc, "0", topofix_all4, 4, ROCE_GDR_PIX, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	free(loc);
}

/* ACS redirect between GPU 2 and its PIX NIC mlx5_3: the GDR level goes
 * below PIX (LOC) and the warning names the bridge; GPU 3 alone is not
 * affected, and a degraded-link mark alone lowers nothing. */
static void t_choose_acs(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_choice c;
	size_t j;
	assert_non_null(roce_locality_find_hca(loc, "mlx5_3", &j));
	roce_locality_block(loc, 2, j, ROCE_LOCALITY_BLOCK_ACS, "0000:82:08.0");
	choose(loc, "2,3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_3", "mlx5_2" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_LOC);
	assert_true(c.gpus[0].acs && !c.gpus[0].gdr);
	assert_false(c.gpus[1].acs);
	assert_int_equal(c.n_warnings, 1);
	assert_non_null(strstr(c.warnings[0], "GPU 2 (0000:83:00.0): ACS redirect on bridge 0000:82:08.0 between it and "
	                                      "mlx5_3: NCCL_NET_GDR_LEVEL lowered to LOC"));
	choose(loc, "3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	assert_non_null(roce_locality_find_hca(loc, "mlx5_2", &j));
	roce_locality_block(loc, 3, j, ROCE_LOCALITY_BLOCK_LINK, NULL);
	choose(loc, "3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	free(loc);
}

static void t_choose_cap(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_choice c;
	/* GPU 1 is PHB from its nearest NIC: beyond the default cap */
	choose(loc, "1", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, topofix_all4, 4);
	assert_int_equal(c.gdr_level, ROCE_GDR_PXB);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "GPU 1 (0000:06:00.0) has no RoCE HCA within PXB: GPUDirect RDMA will not "
	                                   "be used for it (nearest: mlx5_0, PHB)");
	assert_false(c.gpus[0].gdr);
	assert_int_equal(c.gpus[0].best, ROCE_PATH_PHB);
	/* a site that allows PHB gets the NIC of its socket */
	choose(loc, "1", topofix_all4, 4, ROCE_GDR_PHB, &c);
	assert_true(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	/* mixed: the level is the worst best path within the cap, GPU 1 is warned about */
	choose(loc, "0,1", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_true(c.by_locality);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	assert_int_equal(c.n_warnings, 1);
	assert_non_null(strstr(c.warnings[0], "GPU 1 (0000:06:00.0)"));
	choose(loc, "0,1,2", topofix_all4, 4, ROCE_GDR_SYS, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1", "mlx5_3" }, 3);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	assert_int_equal(c.n_warnings, 0);
	/* cap LOC: nothing qualifies, every GPU is warned about */
	choose(loc, "0,2", topofix_all4, 4, ROCE_GDR_LOC, &c);
	assert_false(c.by_locality);
	assert_int_equal(c.n_warnings, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_LOC);
	free(loc);
}

static void t_choose_unhealthy(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_choice c;
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
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_choice c;
	struct roce_error err;
	choose(loc, "", topofix_all4, 4, ROCE_GDR_PHB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, topofix_all4, 4);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	assert_int_equal(c.n_warnings, 0);
	assert_int_equal(roce_choice_make(loc, NULL, topofix_all4, 4, ROCE_GDR_PXB, ROCE_TIES_BANDWIDTH, &c, &err), 0);
	assert_hcas(&c, topofix_all4, 4);
	assert_int_equal(c.gdr_level, ROCE_GDR_PXB);
	/* no topology: every HCA, with a warning */
	struct roce_gpuset s = topofix_gpus("0", NULL);
	assert_int_equal(s.status, ROCE_GPUS_OK);
	assert_int_equal(roce_choice_make(NULL, &s, topofix_all4, 4, ROCE_GDR_PXB, ROCE_TIES_BANDWIDTH, &c, &err), 0);
	assert_hcas(&c, topofix_all4, 4);
	assert_int_equal(c.n_warnings, 1);
	assert_non_null(strstr(c.warnings[0], "no topology"));
	/* too many HCAs for NCCL_IB_HCA */
	const char *many[ROCE_HCA_MAX + 1];
	for (size_t i = 0; i <= ROCE_HCA_MAX; i++)
		many[i] = "mlx5_0";
	assert_int_equal(roce_choice_make(loc, &s, many, ROCE_HCA_MAX + 1, ROCE_GDR_PXB, ROCE_TIES_BANDWIDTH, &c, &err), -1);
	assert_non_null(strstr(err.msg, "at most 32"));
	free(loc);
}

static void t_choose_bad_gpus(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	struct roce_choice c;
	choose(loc, "0,foo", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, topofix_all4, 4);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "GPU list rejected: \"foo\" is not a GPU index or UUID; "
	                                   "NCCL_IB_HCA lists every healthy HCA");
	choose(loc, "5", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_string_equal(c.warnings[0], "GPU mapping unknown: GPU index 5 (in \"5\") is not among the 4 NVIDIA "
	                                   "GPUs of the topology; NCCL_IB_HCA lists every healthy HCA");
	/* a set built by hand that names a GPU the topology lacks */
	struct roce_gpuset s = { .status = ROCE_GPUS_OK, .n = 2, .idx = { 2, 9 } };
	struct roce_error err;
	assert_int_equal(roce_choice_make(loc, &s, topofix_all4, 4, ROCE_GDR_PXB, ROCE_TIES_BANDWIDTH, &c, &err), 0);
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
	struct roce_choice c;
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

/* An HCA that is not in the topology is never chosen as near; the GPU
 * falls back on what is known (test_locality's t_hca_not_in_topology). */
static void t_hca_not_in_topology(void **state)
{
	(void)state;
	char path[PATH_MAX];
	static const struct roce_locality_hca_in hca[] = { { "mlx5_0", "0000:04:00.0", 0, 0 }, { "mlx5_9", "0000:5e:00.0", 0, 0 } };
	topofix_own(path, sizeof(path), "two-socket.xml");
	struct roce_locality *loc = topofix_load(path, hca, 2);
	struct roce_choice c;
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

static void t_json(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("two-socket.xml");
	json_object *o;
	struct roce_choice c;
	choose(loc, "1,2", topofix_all4, 4, ROCE_GDR_PXB, &c);
	o = roce_choice_json(&c, loc);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
	                    "{\"hca\":[\"mlx5_3\"],\"gdr_level\":\"PIX\",\"by_locality\":true,"
	                    "\"gpus\":[{\"gpu\":1,\"best\":\"PHB\",\"gdr\":false,\"acs\":false,\"hcas\":[],\"slower\":[]},"
	                    "{\"gpu\":2,\"best\":\"PIX\",\"gdr\":true,\"acs\":false,\"hcas\":[\"mlx5_3\"],\"slower\":[]}],"
	                    "\"warnings\":[\"GPU 1 (0000:06:00.0) has no RoCE HCA within PXB: GPUDirect RDMA will not "
	                    "be used for it (nearest: mlx5_0, PHB)\"]}");
	json_object_put(o);
	free(loc);
}

/* ------------------------------------------------------------------ real machines */

static void t_jwb0001_jwb0004(void **state)
{
	(void)state;
	struct roce_choice c;
	/* same model, different mlx5 numbering: each GPU gets the NIC on its switch */
	struct roce_locality *loc = topofix_machine("topo.jwb0001.xml");
	choose(loc, "1", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0" }, 1);
	choose(loc, "2,3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_3", "mlx5_2" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PIX);
	free(loc);
	loc = topofix_machine("topo.jwb0004.xml");
	choose(loc, "1", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_1" }, 1);
	choose(loc, "2,3", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2", "mlx5_3" }, 2);
	free(loc);
}

static void t_ipa20(void **state)
{
	(void)state;
	struct roce_choice c;
	struct roce_locality *loc = topofix_machine("ipa20.xml");
	choose(loc, "0", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_1" }, 2);
	choose(loc, "2", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_false(c.by_locality);
	assert_hcas(&c, topofix_all4, 4);
	assert_string_equal(c.warnings[0], "GPU 2 (0000:cb:00.0) has no RoCE HCA within PXB: GPUDirect RDMA will not "
	                                   "be used for it (nearest: mlx5_0, SYS)");
	choose(loc, "1,2", topofix_all4, 4, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2" }, 1);
	assert_int_equal(c.n_warnings, 1);
	free(loc);
}

static void t_coral_lassen(void **state)
{
	(void)state;
	struct roce_locality *loc = topofix_machine("coral-lassen.xml");
	struct roce_choice c;
	choose(loc, "2,3", topofix_all4, 4, ROCE_GDR_PHB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_2", "mlx5_3" }, 2);
	assert_int_equal(c.gdr_level, ROCE_GDR_PHB);
	free(loc);
}

/* Issue 25, NCCL's tie-break on the Dell XE9680 shape: GPU 0 has its Gen5
 * ConnectX-7 (400G) and a Gen4 ConnectX-6 Dx (100G, two ports) under its
 * switch, all PIX: it gets the ConnectX-7 alone (it got all three before);
 * HcaTies=all keeps the three; a tied HCA of unknown bandwidth keeps all. */
static void t_xe9680_ties(void **state)
{
	(void)state;
	static const char *const all12[] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4",  "mlx5_5",
		                             "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9", "mlx5_10", "mlx5_11" };
	struct roce_choice c;
	struct roce_gpuset s;
	struct roce_error err = { "" };
	struct roce_locality *loc = topofix_machine("xe9680-like.xml");
	assert_int_equal(loc->n_gpus, 8);
	assert_int_equal(loc->gpu_hca[0][8], ROCE_PATH_PIX);
	/* bandwidth: min(port, PCIe): the ConnectX-7's 400G port, the ConnectX-6 Dx's 100G port */
	assert_int_equal(roce_locality_hca_bw(&loc->hcas[0]), 400000);
	assert_true(loc->hcas[0].pcie_from_topology);
	assert_int_equal(loc->hcas[8].pcie_mbps, 252062);   /* hwloc's 31.507692 GB/s, Gen4 x16 */
	assert_int_equal(roce_locality_hca_bw(&loc->hcas[8]), 100000);
	choose(loc, "0", all12, 12, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0" }, 1);
	assert_string_equal(roce_gdr_level_name(c.gdr_level), "PIX");
	assert_int_equal(c.gpus[0].chosen, 1u << 0);
	assert_int_equal(c.gpus[0].slower, 1u << 8 | 1u << 9);
	choose(loc, "0,4", all12, 12, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_4" }, 2);
	choose(loc, "1", all12, 12, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_1" }, 1);
	/* HcaTies=all: every equally near HCA, as before */
	s = topofix_gpus("0", loc);
	assert_int_equal(roce_choice_make(loc, &s, all12, 12, ROCE_GDR_PXB, ROCE_TIES_ALL, &c, &err), 0);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_8", "mlx5_9" }, 3);
	assert_int_equal(c.gpus[0].slower, 0);
	/* the ConnectX-7 not healthy: GPU 0 gets the ConnectX-6 Dx ports, nearest of those left */
	choose(loc, "0", all12 + 1, 11, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_8", "mlx5_9" }, 2);
	/* a rate that is unknown: no tie is broken */
	loc->hcas[8].rate_mbps = 0;
	choose(loc, "0", all12, 12, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_0", "mlx5_8", "mlx5_9" }, 3);
	assert_true(c.gpus[0].bw_unknown);
	/* the PCIe link is the lower: a 400G port on a Gen4 x8 link (96 Gb/s by NCCL's rates) loses */
	loc->hcas[8].rate_mbps = 100000;
	loc->hcas[0].pcie_mbps = 96000;
	loc->hcas[0].pcie_from_topology = false;
	choose(loc, "0", all12, 12, ROCE_GDR_PXB, &c);
	assert_hcas(&c, (const char *const[]){ "mlx5_8", "mlx5_9" }, 2);
	/* why, as --matrix prints it */
	loc->hcas[0].pcie_mbps = 384000;
	choose(loc, "0", all12, 12, ROCE_GDR_PXB, &c);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	roce_choice_print(&c, loc, f);
	fclose(f);
	assert_non_null(strstr(text, "  mlx5_0     384 Gb/s (port 400 Gb/s, PCIe 384 Gb/s)\n"));
	assert_non_null(strstr(text, "  mlx5_8     100 Gb/s (port 100 Gb/s, PCIe 252 Gb/s from the topology's link "
	                             "speed)\n"));
	assert_non_null(strstr(text, "  GPU0  PIX: mlx5_0 (384 Gb/s); as near, less bandwidth, left out: mlx5_8 (100 "
	                             "Gb/s), mlx5_9 (100 Gb/s)\n"));
	free(text);
	free(loc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_choose_pix),
		cmocka_unit_test(t_choose_cap),
		cmocka_unit_test(t_choose_acs),
		cmocka_unit_test(t_choose_unhealthy),
		cmocka_unit_test(t_choose_no_gpus),
		cmocka_unit_test(t_choose_bad_gpus),
		cmocka_unit_test(t_choose_plain_data),
		cmocka_unit_test(t_hca_not_in_topology),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_jwb0001_jwb0004),
		cmocka_unit_test(t_ipa20),
		cmocka_unit_test(t_coral_lassen),
		cmocka_unit_test(t_xe9680_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
