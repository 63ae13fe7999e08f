/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pcie.c - the PCIe collector (lib/collect/pcie.c) on sysfs trees laid out as
 * the kernel's /sys/bus/pci/devices, and the pcie_link check
 * (lib/check/pciecheck.c) over what it read; the capability walker (lib/base/pcicap.c)
 * on byte-exact config spaces and the acs check.
 */
#include "config.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "base/pcicap.h"
#include "collect/pcie.h"
#include "check/pciecheck.h"
#include "scratch.h"

static char root[128];

static void put(const char *rel, const char *text) { fx_putf(root, rel, "%s", text); }

/* A function at devices/DEVPATH with its bus link and link attributes. */
static void fn(const char *devpath, const char *cur, const char *width, const char *max, const char *maxwidth)
{
	char rel[512], link[512], path[512];
	const char *bdf = strrchr(devpath, '/') + 1;
	snprintf(rel, sizeof(rel), "devices/%s", devpath);
	fx_mkdirs(root, rel);
	fx_mkdirs(root, "bus/pci/devices");
	snprintf(link, sizeof(link), "../../../devices/%s", devpath);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", root, bdf);
	unlink(path);
	assert_int_equal(symlink(link, path), 0);
	const char *names[] = { "current_link_speed", "current_link_width", "max_link_speed", "max_link_width" };
	const char *vals[] = { cur, width, max, maxwidth };
	for (int i = 0; i < 4; i++) {
		if (!vals[i])
			continue;
		char r2[600], v[64];
		snprintf(r2, sizeof(r2), "%s/%s", rel, names[i]);
		snprintf(v, sizeof(v), "%s\n", vals[i]);
		put(r2, v);
	}
}

static int setup(void **state)
{
	(void)state;
	return fx_tmpdir(root, sizeof(root), "test_pcie");
}

static int teardown(void **state)
{
	(void)state;
	return fx_rmtree(root);
}

static void t_parse(void **state)
{
	(void)state;
	unsigned v;
	assert_int_equal(roce_pcie_parse_speed("16.0 GT/s PCIe", &v), 0);
	assert_int_equal(v, 160);
	assert_int_equal(roce_pcie_parse_speed("2.5 GT/s PCIe", &v), 0);
	assert_int_equal(v, 25);
	assert_int_equal(roce_pcie_parse_speed("8 GT/s", &v), 0);    /* before Linux 4.19 */
	assert_int_equal(v, 80);
	assert_int_equal(roce_pcie_parse_speed("Unknown", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(roce_pcie_parse_speed("Unknown speed", &v), 0);
	assert_int_equal(v, 0);
	const char *bad[] = { "", "16", "16.0", "16.0 GT/s PCIe ", "x GT/s", "16.05 GT/s", "0 GT/s", "99999999999 GT/s",
	                      ".5 GT/s", "16.0 Gb/s", "-8 GT/s" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (roce_pcie_parse_speed(bad[i], &v) == 0)
			fail_msg("speed \"%s\" accepted", bad[i]);
	assert_int_equal(roce_pcie_parse_width("16", &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(roce_pcie_parse_width("0", &v), 0);
	const char *badw[] = { "", "x16", "33", "100", "-1", "1 6", "16\n" };
	for (size_t i = 0; i < sizeof(badw) / sizeof(badw[0]); i++)
		if (roce_pcie_parse_width(badw[i], &v) == 0)
			fail_msg("width \"%s\" accepted", badw[i]);
}

/* Root port, switch upstream port, downstream port, NIC: the links are
 * RP-USP and DSP-NIC; USP-DSP is inside the switch. */
static void t_path_and_links(void **state)
{
	(void)state;
	fn("pci0000:c0/0000:c0:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0", "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0/0000:c3:00.0", "16.0 GT/s PCIe", "8", "16.0 GT/s PCIe", "16");
	struct roce_pcie_path p;
	roce_pcie_collect_path(root, "0000:c3:00.0", &p, NULL);
	assert_int_equal(p.read.status, ROCE_OK);
	assert_int_equal(p.n, 4);
	assert_string_equal(p.fn[0].bdf, "0000:c3:00.0");
	assert_string_equal(p.fn[3].bdf, "0000:c0:01.0");
	assert_true(roce_pcie_link_above(&p, 0));
	assert_false(roce_pcie_link_above(&p, 1));
	assert_true(roce_pcie_link_above(&p, 2));
	assert_false(roce_pcie_link_above(&p, 3));
	assert_int_equal(p.fn[0].cur_width, 8);
	assert_int_equal(p.fn[1].max_speed, 320);
}

static struct roce_node *node_with(const char *bdf)
{
	struct roce_node *n = calloc(1, sizeof(*n));
	assert_non_null(n);
	roce_node_init(n);
	n->devices = calloc(1, sizeof(*n->devices));
	assert_non_null(n->devices);
	n->n_devices = 1;
	snprintf(n->devices[0].name, sizeof(n->devices[0].name), "mlx5_1");
	snprintf(n->devices[0].pci_addr, sizeof(n->devices[0].pci_addr), "%s", bdf);
	roce_reading_set(&n->devices[0].pci_read, ROCE_OK, 0, NULL);
	roce_pcie_collect_node(n, root);
	return n;
}

/* The findings of check named check, one line each. */
static size_t findings(const struct roce_check_result *r, const char *check, enum roce_verdict v, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->n_findings; i++)
		if (!strcmp(r->findings[i].check, check) && r->findings[i].status == v) {
			n++;
			snprintf(out + strlen(out), len - strlen(out), "%s\n", r->findings[i].message);
		}
	return n;
}

/* The first finding of check (there must be one). */
static const struct roce_finding *first(const struct roce_check_result *r, const char *check)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (!strcmp(r->findings[i].check, check))
			return &r->findings[i];
	fail_msg("no %s finding", check);
	return NULL;
}

static void run(struct roce_node *n, const char *kv, struct roce_check_result *r)
{
	struct roce_policy pol;
	struct roce_error err;
	roce_policy_defaults(&pol);
	if (kv)
		assert_int_equal(roce_policy_set_kv(&pol, kv, "test", &err), 0);
	assert_int_equal(roce_check(n, &pol, r), 0);
}

static void done(struct roce_node *n, struct roce_check_result *r)
{
	roce_check_result_free(r);
	roce_node_free(n);
	free(n);
}

/* An x8 NIC under an x16 port: a hardware warning naming both values. */
static void t_x8_under_x16(void **state)
{
	(void)state;
	char msg[2048];
	struct roce_check_result r;
	fn("pci0000:c0/0000:c0:01.0", "16.0 GT/s PCIe", "8", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "16.0 GT/s PCIe", "8", "16.0 GT/s PCIe", "16");
	struct roce_node *n = node_with("0000:c1:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "mlx5_1 (0000:c1:00.0) at 16.0 GT/s x8, capable of 16.0 GT/s x16"));
	assert_non_null(strstr(msg, "lspci -vv -s 0000:c1:00.0"));
	roce_check_result_free(&r);
	/* PcieDegraded=fail: a hardware failure (drains); ignore: not looked at */
	run(n, "PcieDegraded=fail", &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_FAIL, msg, sizeof(msg)), 1);
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&r, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: mlx5_1 pcie_link");
	roce_check_result_free(&r);
	run(n, "PcieDegraded=ignore", &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)) +
	                 findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 0);
	done(n, &r);
}

/* A Gen5 NIC under a Gen4 port at 16 GT/s is at its best; at 8 GT/s it is not. */
static void t_gen5_under_gen4(void **state)
{
	(void)state;
	char msg[2048];
	struct roce_check_result r;
	fn("pci0000:c0/0000:c0:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
	struct roce_node *n = node_with("0000:c1:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 0);
	done(n, &r);
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "8.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
	n = node_with("0000:c1:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "at 8.0 GT/s x16, capable of 16.0 GT/s x16"));
	done(n, &r);
}

/* A degraded link between a root port and a switch above the NIC is named. */
static void t_upstream_link(void **state)
{
	(void)state;
	char msg[2048];
	struct roce_check_result r;
	fn("pci0000:c0/0000:c0:01.0", "8.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "8.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0/0000:c3:00.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	struct roce_node *n = node_with("0000:c3:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "mlx5_1: the link 0000:c0:01.0 - 0000:c1:00.0 on its path at 8.0 GT/s x16"));
	done(n, &r);
}

/* Bad input: missing files, garbage values, a link that is no PCI path,
 * a path deeper than the model holds: unknown, naming the file; no crash. */
static void t_bad_input(void **state)
{
	(void)state;
	char msg[4096];
	struct roce_check_result r;
	fn("pci0000:c0/0000:c0:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", NULL);
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "garbage\x01", "16", "16.0 GT/s PCIe", "16");
	struct roce_node *n = node_with("0000:c1:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "0000:c1:00.0/current_link_speed"));
	done(n, &r);
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "16.0 GT/s PCIe", "16", "16 lanes", "16");
	n = node_with("0000:c1:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "0000:c1:00.0/max_link_speed: \"16 lanes\" is not a PCIe link speed"));
	done(n, &r);
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	n = node_with("0000:c1:00.0");    /* the root port's max_link_width is missing */
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "0000:c0:01.0/max_link_width"));
	done(n, &r);
	/* no bus/pci/devices entry at all (a container's sysfs view): one
	 * unknown, set aside (issue 25: never silence, never a pass) */
	n = node_with("0000:e1:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 0);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "mlx5_1 (0000:e1:00.0): PCIe path unknown"));
	assert_int_equal(r.n_unknown_aside, 1);
	/* what a container simply does not show: quiet in a job's output (issue 31) */
	assert_true(first(&r, "pcie_link")->quiet);
	assert_string_equal(first(&r, "pcie_link")->cause, "unknown");
	roce_check_result_free(&r);
	run(n, "PcieUnknown=warn", &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_false(first(&r, "pcie_link")->quiet);
	assert_int_equal(r.n_unknown_aside, 1);
	done(n, &r);
	/* a link that does not end in the device, and one too deep */
	char path[256];
	snprintf(path, sizeof(path), "%s/bus/pci/devices/0000:e2:00.0", root);
	assert_int_equal(symlink("../../../devices/pci0000:c0/0000:c0:01.0", path), 0);
	n = node_with("0000:e2:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "does not end in 0000:e2:00.0"));
	done(n, &r);
	char deep[1024] = "../../../devices/pci0000:00";
	for (int i = 0; i <= ROCE_PCIE_DEPTH_MAX; i++)
		snprintf(deep + strlen(deep), sizeof(deep) - strlen(deep), "/0000:%02x:00.0", i + 1);
	snprintf(path, sizeof(path), "%s/bus/pci/devices/0000:%02x:00.0", root, ROCE_PCIE_DEPTH_MAX + 1);
	assert_int_equal(symlink(deep, path), 0);
	snprintf(path, sizeof(path), "0000:%02x:00.0", ROCE_PCIE_DEPTH_MAX + 1);
	n = node_with(path);
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "PCI functions deep"));
	done(n, &r);
}

/* The standard list: the PCI Express capability at 0x40, of port type. */
static void exp_cap(uint8_t *cfg, unsigned type)
{
	cfg[0x06] |= 0x10;
	cfg[0x34] = 0x40;
	cfg[0x40] = ROCE_PCICAP_EXP;
	cfg[0x41] = 0;
	cfg[0x42] = (uint8_t)(type << 4 | 2);
}

static void hdr(uint8_t *cfg, size_t off, uint16_t id, unsigned next)
{
	uint32_t h = id | 1u << 16 | (uint32_t)next << 20;
	for (int i = 0; i < 4; i++)
		cfg[off + i] = (uint8_t)(h >> (8 * i));
}

/* The capability walker over byte-exact config spaces. */
static void t_pcicap(void **state)
{
	(void)state;
	static uint8_t cfg[ROCE_PCICAP_SPACE];
	char why[160];
	uint16_t cap = 0, ctrl = 0;
	size_t off;
	memset(cfg, 0, sizeof(cfg));
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), 0);   /* no list */
	memset(cfg + 0x100, 0xff, 4);
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), 0);   /* no extended space */
	hdr(cfg, 0x100, 0x0001, 0x148);   /* AER -> ACS */
	hdr(cfg, 0x148, ROCE_PCICAP_ACS, 0);
	cfg[0x14c] = 0x5f;
	cfg[0x14e] = 0x1d;
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), 1);
	assert_int_equal(cap, 0x5f);
	assert_int_equal(ctrl, 0x1d);
	assert_int_equal(roce_pcicap_find_ext(cfg, sizeof(cfg), 0x0001, &off, why, sizeof(why)), 1);
	assert_int_equal(off, 0x100);
	char names[200];
	roce_pcicap_acs_names(ctrl, ROCE_ACS_P2P_BLOCKING, names, sizeof(names));
	assert_string_equal(names, "Source Validation, P2P Request Redirect, P2P Completion Redirect, Upstream Forwarding");
	/* what a reader without root gets: unknown, not "no ACS" */
	assert_int_equal(roce_pcicap_acs(cfg, 256, &cap, &ctrl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "only 256 of 4096 bytes"));
	/* a loop, and a pointer into the standard space */
	hdr(cfg, 0x148, 0x0002, 0x100);
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "loops"));
	hdr(cfg, 0x148, 0x0002, 0x148);
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), -1);
	hdr(cfg, 0x148, 0x0002, 0x040);
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "outside the extended space"));
	/* ACS whose registers would run past the end */
	hdr(cfg, 0x148, 0x0002, 0xffc);
	hdr(cfg, 0xffc, ROCE_PCICAP_ACS, 0);
	assert_int_equal(roce_pcicap_acs(cfg, sizeof(cfg), &cap, &ctrl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "past the end"));
}

/* The port type through the standard list: found behind another
 * capability, absent, and every bad list unknown with its why. */
static void t_port_type(void **state)
{
	(void)state;
	static uint8_t cfg[ROCE_PCICAP_SPACE];
	char why[160], other[16];
	unsigned type = 99;
	memset(cfg, 0, sizeof(cfg));
	assert_int_equal(roce_pcicap_port_type(cfg, sizeof(cfg), &type, why, sizeof(why)), 0);   /* no list */
	exp_cap(cfg, ROCE_PCIE_TYPE_DOWNSTREAM);
	cfg[0x34] = 0x60;                  /* power management at 0x60 -> PCI Express at 0x40 */
	cfg[0x60] = 0x01;
	cfg[0x61] = 0x40;
	assert_int_equal(roce_pcicap_port_type(cfg, sizeof(cfg), &type, why, sizeof(why)), 1);
	assert_int_equal(type, ROCE_PCIE_TYPE_DOWNSTREAM);
	assert_string_equal(roce_pcicap_port_type_name(type, other, sizeof(other)), "switch downstream port");
	assert_string_equal(roce_pcicap_port_type_name(4, other, sizeof(other)), "root port");
	assert_string_equal(roce_pcicap_port_type_name(9, other, sizeof(other)), "type 0x9");
	/* 256 bytes are enough; what a reader without root gets (64) is not */
	assert_int_equal(roce_pcicap_port_type(cfg, 256, &type, why, sizeof(why)), 1);
	assert_int_equal(roce_pcicap_port_type(cfg, 64, &type, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "only 64 of 256 bytes"));
	/* no PCI Express capability on the list */
	cfg[0x61] = 0x00;
	assert_int_equal(roce_pcicap_port_type(cfg, sizeof(cfg), &type, why, sizeof(why)), 0);
	/* a loop, a pointer into the header, the last dword */
	cfg[0x61] = 0x60;
	assert_int_equal(roce_pcicap_port_type(cfg, sizeof(cfg), &type, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "loops"));
	cfg[0x61] = 0x10;
	assert_int_equal(roce_pcicap_port_type(cfg, sizeof(cfg), &type, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "inside the header"));
	cfg[0x61] = 0xff;                  /* 0xfc after the low bits are dropped */
	cfg[0xfc] = 0x05;
	cfg[0xfd] = 0x00;
	assert_int_equal(roce_pcicap_port_type(cfg, 256, &type, why, sizeof(why)), 0);
}

/* The acs finding on fixture config spaces: the bridge and its bits named,
 * Acs=fail drains, a short config space is unknown naming the file. */
static void t_acs_check(void **state)
{
	(void)state;
	char msg[4096], path[512];
	struct roce_check_result r;
	static uint8_t cfg[ROCE_PCICAP_SPACE];
	const char *fns[] = { "pci0000:c0/0000:c0:01.0", "pci0000:c0/0000:c0:01.0/0000:c1:00.0",
	                      "pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0",
	                      "pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0/0000:c3:00.0" };
	const unsigned types[] = { ROCE_PCIE_TYPE_ROOT_PORT, ROCE_PCIE_TYPE_UPSTREAM, ROCE_PCIE_TYPE_DOWNSTREAM,
	                           ROCE_PCIE_TYPE_ENDPOINT };
	for (int i = 0; i < 4; i++) {
		fn(fns[i], "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
		memset(cfg, 0, sizeof(cfg));
		exp_cap(cfg, types[i]);
		hdr(cfg, 0x100, ROCE_PCICAP_ACS, 0);
		/* P2P Request Redirect on the switch's downstream port; all of
		 * SV, RR, CR, UF on the root port, as Linux sets it with an IOMMU */
		cfg[0x106] = i == 2 ? 0x04 : i == 0 ? 0x1d : 0x00;
		snprintf(path, sizeof(path), "%s/devices/%s/config", root, fns[i]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(cfg, 1, i == 1 ? 256 : sizeof(cfg), f), i == 1 ? 256 : sizeof(cfg));
		fclose(f);
	}
	struct roce_node *n = node_with("0000:c3:00.0");
	run(n, NULL, &r);
	/* the switch port named; the root port's ACS is not a finding */
	assert_int_equal(findings(&r, "acs", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "ACS on switch port 0000:c2:01.0 has P2P Request Redirect set (control 0x0004)"));
	assert_non_null(strstr(msg, "setpci -s 0000:c2:01.0 ECAP_ACS+6.w=0"));
	assert_null(strstr(msg, "0000:c0:01.0"));
	assert_int_equal(findings(&r, "acs", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "0000:c1:00.0/config: only 256 of 4096 bytes"));
	roce_check_result_free(&r);
	run(n, "Acs=fail", &r);
	assert_int_equal(findings(&r, "acs", ROCE_FAIL, msg, sizeof(msg)), 1);
	roce_check_result_free(&r);
	run(n, "Acs=ignore", &r);
	assert_int_equal(findings(&r, "acs", ROCE_WARN, msg, sizeof(msg)) + findings(&r, "acs", ROCE_UNKNOWN, msg, sizeof(msg)), 0);
	done(n, &r);
	/* A NIC right under that root port: no switch, nothing to warn about
	 * (the root port still has every ACS bit on). */
	fn("pci0000:c0/0000:c0:01.0/0000:c1:00.1", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	n = node_with("0000:c1:00.1");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "acs", ROCE_WARN, msg, sizeof(msg)) + findings(&r, "acs", ROCE_UNKNOWN, msg, sizeof(msg)), 0);
	assert_int_equal(findings(&r, "acs", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "no PCIe switch between it and root port 0000:c0:01.0"));
	done(n, &r);
}

/* The IOMMU group of the device, as the kernel links it: devices/<path>/
 * iommu_group -> ../../../../kernel/iommu_groups/N, N/type. */
static void iommu(const char *devpath, const char *group, const char *type)
{
	char rel[512], link[512], path[512];
	snprintf(rel, sizeof(rel), "kernel/iommu_groups/%s", group);
	fx_mkdirs(root, rel);
	if (type) {
		snprintf(rel, sizeof(rel), "kernel/iommu_groups/%s/type", group);
		put(rel, type);
	}
	snprintf(path, sizeof(path), "%s/devices/%s/iommu_group", root, devpath);
	snprintf(link, sizeof(link), "../../../../kernel/iommu_groups/%s", group);
	unlink(path);
	assert_int_equal(symlink(link, path), 0);
}

/* DMA and DMA-FQ warn with the fix, identity and no IOMMU pass, a missing
 * type file or a word the kernel does not write are unknown naming it. */
static void t_iommu(void **state)
{
	(void)state;
	char msg[4096];
	struct roce_check_result r;
	const char *dev = "pci0000:40/0000:40:01.0/0000:41:00.0";
	fn("pci0000:40/0000:40:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn(dev, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	struct roce_node *n = node_with("0000:41:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "iommu", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "no IOMMU group"));
	done(n, &r);
	const char *warned[] = { "DMA\n", "DMA-FQ\n" };
	for (int i = 0; i < 2; i++) {
		iommu(dev, "17", warned[i]);
		n = node_with("0000:41:00.0");
		assert_string_equal(n->devices[0].pcie.iommu_group, "17");
		run(n, NULL, &r);
		assert_int_equal(findings(&r, "iommu", ROCE_WARN, msg, sizeof(msg)), 1);
		assert_non_null(strstr(msg, "mlx5_1 (0000:41:00.0): IOMMU group 17 has type DMA"));
		assert_non_null(strstr(msg, "intel_iommu=on iommu=pt"));
		roce_check_result_free(&r);
		run(n, "Iommu=fail", &r);
		assert_int_equal(findings(&r, "iommu", ROCE_FAIL, msg, sizeof(msg)), 1);
		roce_check_result_free(&r);
		run(n, "Iommu=ignore", &r);
		assert_int_equal(findings(&r, "iommu", ROCE_WARN, msg, sizeof(msg)) +
		                 findings(&r, "iommu", ROCE_PASS, msg, sizeof(msg)), 0);
		done(n, &r);
	}
	iommu(dev, "17", "identity\n");
	n = node_with("0000:41:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "iommu", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "IOMMU group 17 is identity (passthrough)"));
	done(n, &r);
	/* garbage: a word the kernel does not write, a missing type file, a
	 * link that is not to a group number */
	iommu(dev, "17", "DMA; rm -rf /\n");
	n = node_with("0000:41:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "iommu", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "kernel/iommu_groups/17/type"));
	done(n, &r);
	iommu(dev, "18", NULL);
	n = node_with("0000:41:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "iommu", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "kernel/iommu_groups/18/type"));
	done(n, &r);
	iommu(dev, "..", "DMA\n");
	n = node_with("0000:41:00.0");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "iommu", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "is not an IOMMU group"));
	done(n, &r);
}

/* roce-check --verbs's DMA-BUF probe (verbs.c) in the gdr finding: the
 * kernel and driver allow DMA-BUF; an HCA that refuses the fd -1
 * registration with EOPNOTSUPP takes that back, one that fails with EBADF
 * confirms it. */
static void t_gdr_dmabuf_probe(void **state)
{
	(void)state;
	char msg[4096];
	struct roce_check_result r;
	struct roce_node *n = node_with("0000:41:00.0");
	roce_reading_set(&n->gdr.read, ROCE_OK, 0, NULL);
	n->gdr.dmabuf = true;
	snprintf(n->gdr.kernel, sizeof(n->gdr.kernel), "6.1.0-18-amd64");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "gdr", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "through DMA-BUF"));
	assert_null(strstr(msg, "probe"));
	roce_check_result_free(&r);
	struct roce_device *d = &n->devices[0];
	roce_reading_set(&d->dmabuf_read, ROCE_OK, EOPNOTSUPP, NULL);
	d->dmabuf_verbs = false;
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "gdr", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "ibv_reg_dmabuf_mr on mlx5_1 fails with Operation not supported"));
	roce_check_result_free(&r);
	run(n, "RequireGdr=yes", &r);
	assert_int_equal(findings(&r, "gdr", ROCE_FAIL, msg, sizeof(msg)), 1);
	roce_check_result_free(&r);
	roce_reading_set(&d->dmabuf_read, ROCE_OK, EBADF, NULL);
	d->dmabuf_verbs = true;
	run(n, "RequireGdr=yes", &r);
	assert_int_equal(findings(&r, "gdr", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "ibv_reg_dmabuf_mr probe: mlx5_1 takes it"));
	roce_check_result_free(&r);
	/* not probed (no device for libibverbs): the kernel's and driver's word stands */
	roce_reading_set(&d->dmabuf_read, ROCE_UNSUPPORTED, ENODEV, "libibverbs has no device mlx5_1: DMA-BUF not probed");
	d->dmabuf_verbs = false;
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "gdr", ROCE_PASS, msg, sizeof(msg)), 1);
	done(n, &r);
}

/* No GPUDirect path: said in a job's output, unless the node has no NVIDIA
 * driver and no peer-memory module (a node without GPUs): then quiet
 * (GdrUnknown=), still a warning (never a pass), a failure under
 * RequireGdr=yes, which is always said (issue 31). */
static void t_gdr_no_driver(void **state)
{
	(void)state;
	char msg[4096];
	struct roce_check_result r;
	struct roce_node *n = node_with("0000:41:00.0");
	roce_reading_set(&n->gdr.read, ROCE_OK, 0, NULL);
	snprintf(n->gdr.dmabuf_why, sizeof(n->gdr.dmabuf_why), "the NVIDIA driver is not the open kernel module");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "gdr", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_false(first(&r, "gdr")->quiet);
	assert_string_equal(first(&r, "gdr")->cause, "none");
	roce_check_result_free(&r);
	n->gdr.no_driver = true;
	snprintf(n->gdr.dmabuf_why, sizeof(n->gdr.dmabuf_why), "no NVIDIA driver: cannot open /proc/driver/nvidia/version");
	run(n, NULL, &r);
	assert_int_equal(findings(&r, "gdr", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "no GPUDirect RDMA path"));
	assert_true(first(&r, "gdr")->quiet);
	assert_string_equal(first(&r, "gdr")->cause, "none (no NVIDIA driver)");
	roce_check_result_free(&r);
	run(n, "GdrUnknown=warn", &r);
	assert_false(first(&r, "gdr")->quiet);
	roce_check_result_free(&r);
	run(n, "RequireGdr=yes", &r);
	assert_int_equal(findings(&r, "gdr", ROCE_FAIL, msg, sizeof(msg)), 1);
	assert_false(first(&r, "gdr")->quiet);
	roce_check_result_free(&r);
	/* the module loaded without its client is a fault, driver or not */
	n->gdr.loaded = true;
	snprintf(n->gdr.module, sizeof(n->gdr.module), "nvidia_peermem");
	run(n, NULL, &r);
	assert_false(first(&r, "gdr")->quiet);
	done(n, &r);
}

/* A config space handed over piece by piece, as pcie.c preads it: counts
 * the bytes the walk asked for. */
struct counted {
	const uint8_t *cfg;
	size_t len, asked;
};

static size_t counted_read(void *ctx, size_t off, uint8_t *buf, size_t len)
{
	struct counted *c = ctx;
	c->asked += len;
	if (off >= c->len)
		return 0;
	size_t n = c->len - off < len ? c->len - off : len;
	memcpy(buf, c->cfg + off, n);
	return n;
}

/* The source walk finds what the buffer walk finds from the headers and the
 * ACS registers alone (12 bytes, not 4 KiB), and a space that ends on the
 * way is unknown, never "no ACS". */
static void t_pcicap_src(void **state)
{
	(void)state;
	static uint8_t cfg[ROCE_PCICAP_SPACE];
	char why[160];
	uint16_t cap = 0, ctrl = 0;
	memset(cfg, 0, sizeof(cfg));
	hdr(cfg, 0x100, 0x0001, 0x148);   /* AER -> ACS */
	hdr(cfg, 0x148, ROCE_PCICAP_ACS, 0);
	cfg[0x14c] = 0x5f;
	cfg[0x14e] = 0x04;
	struct counted c = { cfg, sizeof(cfg), 0 };
	struct roce_pcicap_src src = { counted_read, &c };
	assert_int_equal(roce_pcicap_acs_src(&src, &cap, &ctrl, why, sizeof(why)), 1);
	assert_int_equal(cap, 0x5f);
	assert_int_equal(ctrl, 0x04);
	assert_int_equal(c.asked, 12);
	/* the space ends at the second header: unknown with the count */
	c = (struct counted){ cfg, 0x148, 0 };
	assert_int_equal(roce_pcicap_acs_src(&src, &cap, &ctrl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "only 328 of 4096 bytes"));
	/* ... and at the ACS registers */
	c = (struct counted){ cfg, 0x14a, 0 };
	assert_int_equal(roce_pcicap_acs_src(&src, &cap, &ctrl, why, sizeof(why)), -1);
	/* a loop ends the walk as in the buffer version */
	hdr(cfg, 0x148, 0x0002, 0x100);
	c = (struct counted){ cfg, sizeof(cfg), 0 };
	assert_int_equal(roce_pcicap_acs_src(&src, &cap, &ctrl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "loops"));
}

static void gpu_check(const char *bdf, const struct roce_pcie_path *p, const char *kv, struct roce_check_result *r)
{
	struct roce_policy pol;
	struct roce_error err;
	roce_policy_defaults(&pol);
	if (kv)
		assert_int_equal(roce_policy_set_kv(&pol, kv, "test", &err), 0);
	memset(r, 0, sizeof(*r));
	assert_int_equal(roce_pciecheck_gpu(r, &pol, root, 3, bdf, 0x2330, p), 0);
}

/* A GPU's own path: its link and its IOMMU group, the GPU named by index
 * and bus id; a GPU sysfs does not have adds nothing. */
static void t_gpu_path(void **state)
{
	(void)state;
	char msg[2048];
	struct roce_check_result r;
	struct roce_pcie_path p;
	fn("pci0000:40/0000:40:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:40/0000:40:01.0/0000:4f:00.0", "16.0 GT/s PCIe", "8", "16.0 GT/s PCIe", "16");
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "GPU 3 (0000:4f:00.0) at 16.0 GT/s x8, capable of 16.0 GT/s x16"));
	assert_string_equal(r.findings[0].device, "GPU3");
	assert_int_equal(findings(&r, "iommu", ROCE_PASS, msg, sizeof(msg)), 1);
	roce_check_result_free(&r);
	gpu_check("0000:4f:00.0", &p, "PcieDegraded=fail", &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_FAIL, msg, sizeof(msg)), 1);
	char reason[128];
	assert_int_equal(roce_check_drain_reason(&r, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: GPU3 pcie_link");
	roce_check_result_free(&r);
	/* Gen3 under a Gen4 port, full width: the speed an idle GPU may run
	 * at, not judged (issue 25; it warned before) */
	fn("pci0000:40/0000:40:01.0/0000:4f:00.0", "8.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 0);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "GPU 3 (0000:4f:00.0) at 8.0 GT/s x16, capable of 16.0 GT/s x16: full width at a "
	                            "lower speed"));
	roce_check_result_free(&r);
	/* a Gen5 GPU under a Gen4 port at 16 GT/s, in an IOMMU group of type DMA */
	fn("pci0000:40/0000:40:01.0/0000:4f:00.0", "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
	iommu("pci0000:40/0000:40:01.0/0000:4f:00.0", "9", "DMA\n");
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_int_equal(findings(&r, "iommu", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "GPU 3 (0000:4f:00.0): IOMMU group 9 has type DMA"));
	roce_check_result_free(&r);
	gpu_check("0000:4f:00.0", &p, "Iommu=ignore", &r);
	assert_int_equal(findings(&r, "iommu", ROCE_WARN, msg, sizeof(msg)), 0);
	roce_check_result_free(&r);
	/* not in this sysfs (a TopologyFile from elsewhere): one unknown, set aside */
	roce_pcie_collect_path(root, "0000:5f:00.0", &p, NULL);
	assert_int_equal(p.read.status, ROCE_MISSING);
	gpu_check("0000:5f:00.0", &p, NULL, &r);
	assert_int_equal(r.n_findings, 1);
	assert_int_equal(findings(&r, "pcie_link", ROCE_UNKNOWN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "GPU 3 (0000:5f:00.0): PCIe path unknown"));
	assert_true(r.findings[0].aside);
	roce_check_result_free(&r);
}

/* A bridge's config space: PCI Express capability version 2 of port type,
 * Link Control 2 with target speed code (1 = 2.5 GT/s .. 5 = 32 GT/s) and
 * hasd, vendor id; ACS none. */
static void bridge_cfg(const char *devpath, unsigned type, unsigned target, bool hasd, unsigned vendor)
{
	static uint8_t cfg[ROCE_PCICAP_SPACE];
	char path[512];
	memset(cfg, 0, sizeof(cfg));
	cfg[0] = (uint8_t)vendor;
	cfg[1] = (uint8_t)(vendor >> 8);
	exp_cap(cfg, type);
	cfg[0x40 + 0x30] = (uint8_t)(target | (hasd ? 0x20 : 0));
	snprintf(path, sizeof(path), "%s/devices/%s/config", root, devpath);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(cfg, 1, sizeof(cfg), f), sizeof(cfg));
	fclose(f);
}

/* Issue 25, a GPU's own link as an admin judges it: an idle GPU at 2.5 GT/s
 * of 16 GT/s with full width passes; at x8 of x16 it warns, and only that
 * one fails (and drains) under PcieDegraded=fail; a lowered target speed on
 * its port is a configuration cap (never drains); a port whose maximum is
 * below the GPU's is a platform cap, said in the pass. */
static void t_gpu_idle_and_caps(void **state)
{
	(void)state;
	char msg[2048], reason[128];
	struct roce_check_result r;
	struct roce_pcie_path p;
	const char *gpu = "pci0000:40/0000:40:01.0/0000:4f:00.0";
	fn("pci0000:40/0000:40:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	bridge_cfg("pci0000:40/0000:40:01.0", ROCE_PCIE_TYPE_ROOT_PORT, 4, false, 0x8086);
	fn(gpu, "2.5 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	assert_true(p.fn[1].target_known);
	assert_int_equal(p.fn[1].target_speed, 160);
	for (int fail = 0; fail < 2; fail++) {
		gpu_check("0000:4f:00.0", &p, fail ? "PcieDegraded=fail" : NULL, &r);
		assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
		assert_non_null(strstr(msg, "GPU 3 (0000:4f:00.0) at 2.5 GT/s x16, capable of 16.0 GT/s x16: full width "
		                            "at a lower speed, which is how an idle NVIDIA GPU saves power"));
		assert_int_equal(r.n_warn + r.n_fail + r.n_unknown, 0);
		assert_int_equal(roce_check_drain_reason(&r, reason, sizeof(reason)), 0);
		roce_check_result_free(&r);
	}
	/* the same GPU at x8 of x16: the width is a finding */
	fn(gpu, "2.5 GT/s PCIe", "8", "16.0 GT/s PCIe", "16");
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "GPU 3 (0000:4f:00.0) at 2.5 GT/s x8, capable of 16.0 GT/s x16 (the lower of both "
	                            "ends' maxima): it runs on 8 of 16 lanes"));
	roce_check_result_free(&r);
	gpu_check("0000:4f:00.0", &p, "PcieDegraded=fail", &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_FAIL, msg, sizeof(msg)), 1);
	assert_int_equal(roce_check_drain_reason(&r, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "roce: GPU3 pcie_link");
	roce_check_result_free(&r);
	/* full width at 8 GT/s under a port whose target speed is 8 GT/s: a configuration cap */
	fn(gpu, "8.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	bridge_cfg("pci0000:40/0000:40:01.0", ROCE_PCIE_TYPE_ROOT_PORT, 3, false, 0x8086);
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "the target link speed of its port 0000:40:01.0 is 8.0 GT/s (Link Control 2)"));
	assert_non_null(strstr(msg, "a configuration cap"));
	roce_check_result_free(&r);
	gpu_check("0000:4f:00.0", &p, "PcieDegraded=fail", &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_FAIL, msg, sizeof(msg)), 1);
	assert_int_equal(roce_check_drain_reason(&r, reason, sizeof(reason)), 0); /* configuration: no drain */
	roce_check_result_free(&r);
	/* Hardware Autonomous Speed Disable on the port: the link is frozen */
	bridge_cfg("pci0000:40/0000:40:01.0", ROCE_PCIE_TYPE_ROOT_PORT, 4, true, 0x8086);
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "Hardware Autonomous Speed Disable"));
	roce_check_result_free(&r);
	/* a Gen5 GPU under a Gen4 port: the platform's cap, said */
	bridge_cfg("pci0000:40/0000:40:01.0", ROCE_PCIE_TYPE_ROOT_PORT, 4, false, 0x8086);
	fn(gpu, "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
	roce_pcie_collect_path(root, "0000:4f:00.0", &p, NULL);
	gpu_check("0000:4f:00.0", &p, NULL, &r);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "at full rate (its own: 16.0 GT/s x16); its port 0000:40:01.0 can do 16.0 GT/s x16, "
	                            "the GPU 32.0 GT/s x16: a cap of the platform, not a fault"));
	roce_check_result_free(&r);
}

/* GPUs attached over NVLink-C2C get no link verdict, and a line that says
 * why: by device id (GB10 at 2.5 GT/s x1), or by their place (alone on a
 * PCI domain below an NVIDIA root port, as on the GB200 tray). */
static void t_gpu_c2c(void **state)
{
	(void)state;
	char msg[2048];
	struct roce_check_result r;
	struct roce_pcie_path p;
	struct roce_policy pol;
	roce_policy_defaults(&pol);
	fn("pci000f:00/000f:00:00.0", "32.0 GT/s PCIe", "4", "32.0 GT/s PCIe", "4");
	fn("pci000f:00/000f:00:00.0/000f:01:00.0", "2.5 GT/s PCIe", "1", "32.0 GT/s PCIe", "4");
	roce_pcie_collect_path(root, "000f:01:00.0", &p, NULL);
	memset(&r, 0, sizeof(r));
	assert_int_equal(roce_pciecheck_gpu(&r, &pol, root, 0, "000f:01:00.0", 0x2e12, &p), 0);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "GPU 0 (000f:01:00.0) is attached over NVLink-C2C (GB10, 10de:2e12): its PCIe "
	                         "function is not its data path, so its PCIe link gets no verdict\n");
	assert_int_equal(r.n_warn + r.n_fail + r.n_unknown, 0);
	roce_check_result_free(&r);
	/* the same place, an id we do not know: judged by its width... */
	memset(&r, 0, sizeof(r));
	assert_int_equal(roce_pciecheck_gpu(&r, &pol, root, 0, "000f:01:00.0", 0x1234, &p), 0);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	roce_check_result_free(&r);
	/* ...until its root port says NVIDIA and it is alone on its domain */
	bridge_cfg("pci000f:00/000f:00:00.0", ROCE_PCIE_TYPE_ROOT_PORT, 5, false, 0x10de);
	roce_pcie_collect_path(root, "000f:01:00.0", &p, NULL);
	assert_int_equal(p.host_fns, 1);
	memset(&r, 0, sizeof(r));
	assert_int_equal(roce_pciecheck_gpu(&r, &pol, root, 0, "000f:01:00.0", 0x1234, &p), 0);
	assert_int_equal(findings(&r, "pcie_link", ROCE_PASS, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "(alone on its PCI domain below an NVIDIA root port)"));
	roce_check_result_free(&r);
	/* a second root port on that domain: not the C2C place */
	fn("pci000f:00/000f:00:01.0", "32.0 GT/s PCIe", "4", "32.0 GT/s PCIe", "4");
	roce_pcie_collect_path(root, "000f:01:00.0", &p, NULL);
	assert_int_equal(p.host_fns, 2);
	memset(&r, 0, sizeof(r));
	assert_int_equal(roce_pciecheck_gpu(&r, &pol, root, 0, "000f:01:00.0", 0x1234, &p), 0);
	assert_int_equal(findings(&r, "pcie_link", ROCE_WARN, msg, sizeof(msg)), 1);
	roce_check_result_free(&r);
}

/* A bridge two paths share is read once in a run: the second path copies
 * it (a config space changed in between is not seen), and without the
 * record of what was read it is read again. */
static void t_shared_bridge(void **state)
{
	(void)state;
	char path[512];
	static uint8_t cfg[ROCE_PCICAP_SPACE];
	struct roce_pcie_path *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct roce_pcie_seen *seen = calloc(1, sizeof(*seen));
	assert_non_null(a);
	assert_non_null(seen);
	const char *port = "pci0000:40/0000:40:01.0/0000:41:00.0/0000:42:08.0";
	fn("pci0000:40/0000:40:01.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:40/0000:40:01.0/0000:41:00.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn(port, "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:40/0000:40:01.0/0000:41:00.0/0000:42:08.0/0000:43:00.0", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	fn("pci0000:40/0000:40:01.0/0000:41:00.0/0000:42:08.0/0000:43:00.1", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
	snprintf(path, sizeof(path), "%s/devices/%s/config", root, port);
	for (int pass = 0; pass < 2; pass++) {
		memset(cfg, 0, sizeof(cfg));
		exp_cap(cfg, ROCE_PCIE_TYPE_DOWNSTREAM);
		hdr(cfg, 0x100, ROCE_PCICAP_ACS, 0);
		cfg[0x106] = pass ? 0x04 : 0x00;
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(cfg, 1, sizeof(cfg), f), sizeof(cfg));
		fclose(f);
		if (pass == 0)
			roce_pcie_collect_path(root, "0000:43:00.0", a, seen);
	}
	assert_int_equal(a->n, 4);
	assert_int_equal(seen->n, 3);
	assert_int_equal(a->fn[1].acs_ctrl, 0);
	roce_pcie_collect_path(root, "0000:43:00.1", b, seen);
	assert_true(roce_reading_ok(&b->fn[1].acs_read));
	assert_int_equal(b->fn[1].acs_ctrl, 0);          /* copied, not read */
	assert_int_equal(seen->n, 3);
	roce_pcie_collect_path(root, "0000:43:00.1", b, NULL);
	assert_int_equal(b->fn[1].acs_ctrl, 0x04);       /* read */
	free(seen);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_parse),
		cmocka_unit_test_setup_teardown(t_path_and_links, setup, teardown),
		cmocka_unit_test_setup_teardown(t_x8_under_x16, setup, teardown),
		cmocka_unit_test_setup_teardown(t_gen5_under_gen4, setup, teardown),
		cmocka_unit_test_setup_teardown(t_upstream_link, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bad_input, setup, teardown),
		cmocka_unit_test(t_pcicap),
		cmocka_unit_test(t_port_type),
		cmocka_unit_test(t_pcicap_src),
		cmocka_unit_test_setup_teardown(t_gpu_path, setup, teardown),
		cmocka_unit_test_setup_teardown(t_gpu_idle_and_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(t_gpu_c2c, setup, teardown),
		cmocka_unit_test_setup_teardown(t_shared_bridge, setup, teardown),
		cmocka_unit_test_setup_teardown(t_acs_check, setup, teardown),
		cmocka_unit_test_setup_teardown(t_iommu, setup, teardown),
		cmocka_unit_test_setup_teardown(t_gdr_dmabuf_probe, setup, teardown),
		cmocka_unit_test_setup_teardown(t_gdr_no_driver, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
