/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_policy.c - roce.conf keys (read through policyfile.c) and plugstack-style key=value arguments. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "read/policy.h"
#include "read/policyfile.h"

static char path[64];

static void write_conf(const char *text)
{
	snprintf(path, sizeof(path), "/tmp/roce-conf-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int load(struct roce_policy *p, const char *text, struct roce_error *err)
{
	write_conf(text);
	roce_policy_defaults(p);
	int rc = roce_policyfile_load(p, path, false, err);
	unlink(path);
	return rc;
}

static void t_defaults(void **s)
{
	(void)s;
	struct roce_policy p;
	roce_policy_defaults(&p);
	assert_int_equal(p.gid_index, 3);
	assert_int_equal(p.addr_family, AF_INET);
	assert_int_equal(p.mtu, 0);
	assert_int_equal(p.pfc_priority, 3);
	/* what a supported stack does not expose is quiet in a job's output (issue 31) */
	assert_int_equal(p.pfc_unknown, ROCE_UNKNOWN_QUIET);
	assert_int_equal(p.ecn_unknown, ROCE_UNKNOWN_QUIET);
	assert_int_equal(p.ets_unknown, ROCE_UNKNOWN_QUIET);
	assert_int_equal(p.gdr_unknown, ROCE_UNKNOWN_QUIET);
	assert_int_equal(p.pcie_unknown, ROCE_UNKNOWN_QUIET);
	assert_int_equal(p.traffic_class, ROCE_TC_AUTO);
	assert_int_equal(p.gdr_level, ROCE_GDR_PXB);
	assert_int_equal(p.mode, ROCE_MODE_WARN);
	assert_int_equal(p.n_hca, 0);
	assert_string_equal(p.sysfs_root, "/sys");
	assert_false(p.gate);
	assert_int_equal(p.resume_after, 3);
	/* a check new since 0.1.0 that fails a port is first released at warn (NEWS) */
	assert_int_equal(p.ecn, ROCE_ECN_WARN);
}

/* Gate= and ResumeAfter= (issue 28): the prolog gate and the health check's resume. */
static void t_gate_resume_after(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	assert_int_equal(load(&p, "Gate=yes ResumeAfter=5\n", &err), 0);
	assert_true(p.gate);
	assert_int_equal(p.resume_after, 5);
	assert_int_equal(load(&p, "gate=no resumeafter=0\n", &err), 0);
	assert_false(p.gate);
	assert_int_equal(p.resume_after, 0); /* never */
	assert_int_equal(load(&p, "ResumeAfter=1000\n", &err), 0);
	assert_int_equal(p.resume_after, 1000);
	assert_int_equal(load(&p, "ResumeAfter=1001\n", &err), -1);
	assert_non_null(strstr(err.msg, "ResumeAfter: invalid value \"1001\" (expected 0 (never) or 1-1000"));
	assert_int_equal(load(&p, "ResumeAfter=-1\n", &err), -1);
	assert_int_equal(load(&p, "Gate=maybe\n", &err), -1);
	assert_non_null(strstr(err.msg, "Gate: invalid value \"maybe\" (expected yes or no)"));
}

static void t_seed_site(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	assert_int_equal(load(&p,
	                      "# the seed site\n"
	                      "GidIndex=3 AddrFamily=ipv4   # RoCE v2 IPv4\n"
	                      "mtu=9000\n"
	                      "\n"
	                      "PFCPRIORITY=3\tPfcUnknown=fail\n"
	                      "TrafficClass=106\n"
	                      "Hca=mlx5_0,mlx5_1\n"
	                      "GdrLevel=2\n"
	                      "Mode=strict\n"
	                      "TimeoutMs=500\n"
	                      "ReportDir=/shared/roce/reports\n",
	                      &err),
	                 0);
	assert_int_equal(p.gid_index, 3);
	assert_int_equal(p.mtu, 9000);
	assert_int_equal(p.pfc_unknown, ROCE_UNKNOWN_FAIL);
	assert_int_equal(p.traffic_class, 106);
	assert_int_equal(p.n_hca, 2);
	assert_string_equal(p.hca[1], "mlx5_1");
	assert_int_equal(p.gdr_level, ROCE_GDR_PXB);
	assert_int_equal(p.mode, ROCE_MODE_STRICT);
	assert_int_equal(p.timeout_ms, 500);
	assert_string_equal(p.report_dir, "/shared/roce/reports");
	assert_true(roce_policy_hca_allowed(&p, "mlx5_1"));
	assert_false(roce_policy_hca_allowed(&p, "mlx5_10"));
}

static void t_errors_name_file_line_key(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	char expect[160];

	assert_int_equal(load(&p, "GidIndex=3\n\nGidIdx=4\n", &err), -1);
	snprintf(expect, sizeof(expect), "%s:3: unknown key \"GidIdx\"", path);
	assert_string_equal(err.msg, expect);

	assert_int_equal(load(&p, "GidIndex=256\n", &err), -1);
	snprintf(expect, sizeof(expect), "%s:1: GidIndex: invalid value \"256\" (expected 0-255 or auto)", path);
	assert_string_equal(err.msg, expect);

	assert_int_equal(load(&p, "Mtu=\n", &err), -1);
	assert_non_null(strstr(err.msg, ":1: Mtu: invalid value \"\""));
	assert_int_equal(load(&p, "PfcPriority=8\n", &err), -1);
	assert_int_equal(load(&p, "Mode=off\n", &err), 0); /* off is valid: the plugin's site default */
	assert_int_equal(load(&p, "Mode=loud\n", &err), -1);
	assert_non_null(strstr(err.msg, "expected off, warn or strict"));
	assert_int_equal(load(&p, "Hca=mlx5_0,,\n", &err), 0);
	assert_int_equal(p.n_hca, 1);
	assert_int_equal(load(&p, "Hca=mlx5_0,../../etc\n", &err), -1);
	assert_int_equal(load(&p, "ReportDir=relative/dir\n", &err), -1);
	assert_int_equal(load(&p, "ReportDir=/a/../etc\n", &err), -1);
	assert_int_equal(load(&p, "GidIndex\n", &err), -1);
	assert_non_null(strstr(err.msg, "is not Key=Value"));
	assert_int_equal(load(&p, "GidIndex=3$(reboot)\n", &err), -1);
	assert_int_equal(load(&p, "Mtu=9000x\n", &err), -1);
	assert_int_equal(load(&p, "Mtu=-1\n", &err), -1);
	assert_int_equal(load(&p, "Mtu=1000\n", &err), 0);
	assert_int_equal(load(&p, "Mtu=100\n", &err), -1);
}

static void t_kv_and_tokens(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	roce_policy_defaults(&p);
	assert_int_equal(roce_policy_set_kv(&p, "gidindex=auto", "plugstack.conf", &err), 0);
	assert_int_equal(p.gid_index, ROCE_GID_AUTO);
	assert_int_equal(roce_policy_set_kv(&p, "=3", "plugstack.conf", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "Bogus=1", "plugstack.conf", &err), -1);
	assert_string_equal(err.msg, "plugstack.conf: unknown key \"Bogus\"");
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_AUTO);
	assert_int_equal(roce_policy_set_kv(&p, "LinkRate=100", "roce.conf:3", &err), 0);
	assert_int_equal(p.link_rate, 100);
	assert_int_equal(roce_policy_set_kv(&p, "linkrate=None", "roce.conf:3", &err), 0);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_NONE);
	assert_int_equal(roce_policy_set_kv(&p, "LinkRate=0", "roce.conf:3", &err), -1);
	assert_string_equal(err.msg,
	                    "roce.conf:3: LinkRate: invalid value \"0\" (expected auto, none or 1-9999 (Gb/s))");
	assert_int_equal(roce_policy_set_kv(&p, "LinkRate=25G", "roce.conf:3", &err), -1);
	/* checks new since 0.1.0 are released at warn (NEWS) */
	assert_int_equal(p.link_rate_action, ROCE_ACTION_WARN);
	assert_int_equal(p.trust, ROCE_ACTION_WARN);
	assert_int_equal(roce_policy_set_kv(&p, "LinkRateAction=fail", "roce.conf:4", &err), 0);
	assert_int_equal(p.link_rate_action, ROCE_ACTION_FAIL);
	assert_int_equal(roce_policy_set_kv(&p, "LinkRateAction=ignore", "roce.conf:4", &err), -1);
	assert_string_equal(err.msg, "roce.conf:4: LinkRateAction: invalid value \"ignore\" (expected warn or fail)");
	assert_int_equal(roce_policy_set_kv(&p, "trust=Ignore", "roce.conf:5", &err), 0);
	assert_int_equal(p.trust, ROCE_ACTION_IGNORE);
	assert_int_equal(roce_policy_set_kv(&p, "Trust=fail", "roce.conf:5", &err), 0);
	assert_int_equal(p.trust, ROCE_ACTION_FAIL);
	assert_int_equal(roce_policy_set_kv(&p, "Trust=strict", "roce.conf:5", &err), -1);

	assert_true(roce_token_ok("strict", 64));
	assert_false(roce_token_ok("", 64));
	assert_false(roce_token_ok("a b", 64));
	assert_false(roce_token_ok("a\nNCCL_X=1", 64));
	assert_false(roce_token_ok("a=b", 64));
	assert_false(roce_token_ok("$(id)", 64));
	assert_false(roce_token_ok("x\x7f", 64));
	assert_false(roce_token_ok("abcdef", 3));

	enum roce_gdr_level l;
	assert_int_equal(roce_gdr_level_parse("phb", &l), 0);
	assert_int_equal(l, ROCE_GDR_PHB);
	assert_int_equal(roce_gdr_level_parse("5", &l), 0);
	assert_int_equal(l, ROCE_GDR_SYS);
	assert_int_equal(roce_gdr_level_parse("6", &l), -1);
	assert_int_equal(roce_gdr_level_parse("NVL", &l), -1);
}

/* Rails=: ordered, maybe named; overlapping, duplicate or host-bit subnets refused. */
static void t_rails(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	char out[ROCE_SUBNET_TEXT_MAX];
	roce_policy_defaults(&p);
	assert_int_equal(p.n_rails, 0);
	assert_int_equal(roce_policy_set_kv(&p, "Rails=192.0.2.64/26,a-1@192.0.2.0/26,2001:db8:1::/64", "x", &err), 0);
	assert_int_equal(p.n_rails, 3);
	roce_subnet_format(&p.rails[0].net, out);
	assert_string_equal(out, "192.0.2.64/26");
	assert_string_equal(p.rails[0].name, "");
	assert_string_equal(p.rails[1].name, "a-1");
	assert_int_equal(roce_policy_rail_of(&p, AF_INET, (uint8_t[]){ 192, 0, 2, 10 }), 1);
	assert_int_equal(roce_policy_rail_of(&p, AF_INET, (uint8_t[]){ 192, 0, 2, 200 }), -1);
	static const char *const bad[] = {
		"Rails=192.0.2.0/24,192.0.2.64/26", /* overlaps */
		"Rails=192.0.2.0/26,192.0.2.0/26",  /* twice */
		"Rails=a@192.0.2.0/26,a@192.0.2.64/26",
		"Rails=192.0.2.70/26", /* host bits */
		"Rails=@192.0.2.0/26",
		"Rails=a.b/c@192.0.2.0/26",
		"Rails=abcdefghijklmnop@192.0.2.0/26",
		"Rails=192.0.2.0/26,",
		"Rails=,192.0.2.0/26",
		"Rails=192.0.2.0/26,,192.0.2.64/26",
		"Rails=mlx5_0",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (roce_policy_set_kv(&p, bad[i], "roce.conf:4", &err) == 0)
			fail_msg("%s taken", bad[i]);
	assert_non_null(strstr(err.msg, "roce.conf:4: Rails: invalid value \"mlx5_0\" (expected [NAME@]SUBNET"));
	assert_int_equal(p.n_rails, 3); /* a refused value changes nothing */
	char many[1024] = "Rails=";
	for (int i = 0; i < 33; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s10.%d.0.0/16", i ? "," : "", i);
	assert_int_equal(roce_policy_set_kv(&p, many, "x", &err), -1);
	*strrchr(many, ',') = '\0';
	assert_int_equal(roce_policy_set_kv(&p, many, "x", &err), 0);
	assert_int_equal(p.n_rails, 32);
}

/* Probe=: off by default (it sends datagrams between nodes), off or ip. */
static void t_probe(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	roce_policy_defaults(&p);
	assert_int_equal(p.probe, ROCE_PROBE_OFF);
	assert_string_equal(roce_policy_probe_name(p.probe), "off");
	assert_int_equal(roce_policy_set_kv(&p, "probe=IP", "x", &err), 0);
	assert_int_equal(p.probe, ROCE_PROBE_IP);
	assert_string_equal(roce_policy_probe_name(p.probe), "ip");
	assert_int_equal(roce_policy_set_kv(&p, "Probe=rdma", "roce.conf:7", &err), -1);
	assert_string_equal(err.msg, "roce.conf:7: Probe: invalid value \"rdma\" (expected off or ip)");
	assert_int_equal(p.probe, ROCE_PROBE_IP);
	assert_int_equal(roce_policy_set_kv(&p, "Probe=off", "x", &err), 0);
	assert_int_equal(p.probe, ROCE_PROBE_OFF);
}

/* roce-check resolves a relative --sysfs-root itself; roce.conf's SysfsRoot
 * (and --set SysfsRoot=) stays absolute-only, with an error naming the value. */
static void t_sysfs_root_absolute_only(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	assert_int_equal(load(&p, "SysfsRoot=sys\n", &err), -1);
	assert_non_null(strstr(err.msg, ":1: SysfsRoot: invalid value \"sys\""));
	assert_non_null(strstr(err.msg, "an absolute path"));
	assert_int_equal(load(&p, "SysfsRoot=/srv/sys/../etc\n", &err), -1);
	assert_int_equal(load(&p, "SysfsRoot=/srv/fixture\n", &err), 0);
	assert_string_equal(p.sysfs_root, "/srv/fixture");
}

/* The health check's trend keys: defaults, a list replacing the defaults,
 * and what is refused (traffic counters, unknown names, 0, bad windows). */
static void t_trend_keys(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	roce_policy_defaults(&p);
	assert_int_equal(p.trend, ROCE_ACTION_WARN);
	assert_int_equal(p.trend_window_s, 3600);
	assert_true(p.trend_threshold[ROCE_C_SYMBOL_ERROR] == 10);
	assert_true(p.trend_threshold[ROCE_C_LINK_DOWNED] == 1);
	assert_true(p.trend_threshold[ROCE_C_RX_ICRC_ENCAPSULATED] == 10);
	assert_true(p.trend_threshold[ROCE_C_PORT_XMIT_DATA] == 0);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=link_downed:2,out_of_sequence:4294967295", "roce.conf:4",
	                                    &err),
	                 0);
	assert_true(p.trend_threshold[ROCE_C_LINK_DOWNED] == 2);
	assert_true(p.trend_threshold[ROCE_C_OUT_OF_SEQUENCE] == 4294967295u);
	assert_true(p.trend_threshold[ROCE_C_SYMBOL_ERROR] == 0);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=port_xmit_bytes:1", "roce.conf:5", &err), -1);
	assert_non_null(strstr(err.msg, "roce.conf:5: TrendCounters: invalid value \"port_xmit_bytes:1\""));
	/* a refused list leaves the last good one */
	assert_true(p.trend_threshold[ROCE_C_LINK_DOWNED] == 2);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=np_cnp_sent:1", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=symbol_errors:1", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=symbol_error:0", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=symbol_error:4294967296", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=symbol_error", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendCounters=symbol_error:-1", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "Trend=fail", "x", &err), 0);
	assert_int_equal(p.trend, ROCE_ACTION_FAIL);
	assert_int_equal(roce_policy_set_kv(&p, "Trend=drain", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendWindow=300", "x", &err), 0);
	assert_int_equal(p.trend_window_s, 300);
	assert_int_equal(roce_policy_set_kv(&p, "TrendWindow=0", "x", &err), -1);
	assert_int_equal(roce_policy_set_kv(&p, "TrendWindow=1h", "x", &err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_trend_keys),
		cmocka_unit_test(t_defaults),
		cmocka_unit_test(t_gate_resume_after),
		cmocka_unit_test(t_seed_site),
		cmocka_unit_test(t_errors_name_file_line_key),
		cmocka_unit_test(t_kv_and_tokens),
		cmocka_unit_test(t_sysfs_root_absolute_only),
		cmocka_unit_test(t_rails),
		cmocka_unit_test(t_probe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
