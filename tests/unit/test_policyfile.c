/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_policyfile.c - reading a roce.conf (lib/read/policyfile.c): lines,
 * every problem with its file:line, NodeName= sections, and what a reader
 * of some keys may let pass. */
#include "config.h"
#include "unit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The policy text gives node, with every problem in res. */
static int read_for(struct roce_policy *p, const char *text, const char *node, struct roce_policyfile_result *res)
{
	write_conf(text);
	roce_policy_defaults(p);
	int rc = roce_policyfile_read(p, path, false, node, res);
	unlink(path);
	return rc;
}

static void t_long_and_nul_lines(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	char *big = malloc(3000);
	memset(big, 'a', 2999);
	big[2999] = '\0';
	assert_int_equal(load(&p, big, &err), -1);
	assert_non_null(strstr(err.msg, ":1: line longer than 1024 bytes"));
	free(big);

	snprintf(path, sizeof(path), "/tmp/roce-conf-XXXXXX");
	int fd = mkstemp(path);
	assert_int_equal(write(fd, "Mtu=9000\0Mode=strict\n", 21), 21);
	close(fd);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policyfile_load(&p, path, false, &err), -1);
	assert_non_null(strstr(err.msg, ":1: NUL byte in line"));
	unlink(path);
}

static void t_missing_file(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	roce_policy_defaults(&p);
	assert_int_equal(roce_policyfile_load(&p, "/nonexistent/roce.conf", true, &err), 0);
	assert_int_equal(roce_policyfile_load(&p, "/nonexistent/roce.conf", false, &err), -1);
	assert_string_equal(err.msg, "/nonexistent/roce.conf: cannot open: No such file or directory");
}

/* A read goes on past a problem: every good key is set, every problem is
 * kept with its line, and the first is what a whole-file reader reports. */
static void t_every_problem_every_good_key(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_policyfile_result res;
	char want[160];

	assert_int_equal(read_for(&p, "Mtu=9000\nEcm=warn\nMode=strict  GidIndex=300\nReportDir=/r\n", "n1", &res), -1);
	assert_int_equal(res.n_problems, 2);
	snprintf(want, sizeof(want), "%s:2: unknown key \"Ecm\"", path);
	assert_string_equal(res.problems[0].err.msg, want);
	assert_null(res.problems[0].key);
	assert_false(res.problems[0].unread);
	assert_non_null(strstr(res.problems[1].err.msg, ":3: GidIndex: invalid value \"300\""));
	assert_string_equal(res.problems[1].key, "GidIndex");
	assert_int_equal(p.mtu, 9000);
	assert_int_equal(p.mode, ROCE_MODE_STRICT);
	assert_int_equal(p.gid_index, 3); /* refused: the default stands */
	assert_string_equal(p.report_dir, "/r");

	/* more problems than are kept: counted, and a reader of any key is told */
	char many[2048] = "";
	for (int i = 0; i < ROCE_POLICYFILE_PROBLEMS_MAX + 4; i++)
		strcat(many, "Bogus=1\n");
	assert_int_equal(read_for(&p, many, "n1", &res), -1);
	assert_int_equal(res.n_problems, ROCE_POLICYFILE_PROBLEMS_MAX + 4);
	static const char *const rd[] = { "ReportDir", NULL };
	assert_non_null(roce_policyfile_touches(&res, rd));
}

/* roce-report needs ReportDir, srun SharedDir, TimeoutMs and Mode: a typo
 * elsewhere does not stop them; their own key's problem, or a line that was
 * not read, does. */
static void t_what_a_reader_of_some_keys_lets_pass(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_policyfile_result res;
	static const char *const rd[] = { "ReportDir", NULL };
	static const char *const srun[] = { "SharedDir", "TimeoutMs", "Mode", NULL };

	assert_int_equal(read_for(&p, "Ecm=warn\nEcn=loud\nReportDir=/shared/reports\n", "n1", &res), -1);
	assert_null(roce_policyfile_touches(&res, rd));
	assert_null(roce_policyfile_touches(&res, srun));
	assert_string_equal(p.report_dir, "/shared/reports");

	assert_int_equal(read_for(&p, "Ecm=warn\nReportDir=shared/reports\n", "n1", &res), -1);
	const struct roce_policyfile_problem *x = roce_policyfile_touches(&res, rd);
	assert_non_null(x);
	assert_non_null(strstr(x->err.msg, ":2: ReportDir: invalid value"));
	assert_null(roce_policyfile_touches(&res, srun));

	assert_int_equal(read_for(&p, "TimeoutMs=0\n", "n1", &res), -1);
	assert_non_null(roce_policyfile_touches(&res, srun));
	assert_null(roce_policyfile_touches(&res, rd));

	/* a line that was not read may hold any key */
	char big[1200];
	memset(big, 'a', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(read_for(&p, big, "n1", &res), -1);
	assert_true(res.problems[0].unread);
	assert_non_null(roce_policyfile_touches(&res, rd));

	/* and so may a file that cannot be read */
	roce_policy_defaults(&p);
	assert_int_equal(roce_policyfile_read(&p, "/nonexistent/roce.conf", false, "n1", &res), -1);
	assert_non_null(roce_policyfile_touches(&res, rd));
	assert_int_equal(roce_policyfile_read(&p, "/nonexistent/roce.conf", true, "n1", &res), 0);
	assert_int_equal(res.n_problems, 0);
}

static const char sections[] = "LinkRate=auto Ecn=require\n"
                               "Mtu=9000\n"
                               "NodeName=gpu-a[01-16],edge*   LinkRate=none   # 25G ports here\n"
                               "Ecn=warn\n"
                               "NodeName=gpu-a[08-09]\n"
                               "LinkRate=100\n"
                               "NodeName=ALL\n"
                               "TimeoutMs=3000\n";

static void t_nodename_sections(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_policyfile_result res;

	/* a node of no section: the keys outside every section */
	assert_int_equal(read_for(&p, sections, "gpu-b01", &res), 0);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_AUTO);
	assert_int_equal(p.ecn, ROCE_ECN_REQUIRE);
	assert_int_equal(p.mtu, 9000);
	assert_int_equal(p.timeout_ms, 3000);
	assert_int_equal(res.n_sections, 3);
	assert_int_equal(res.n_matched, 0);
	assert_string_equal(res.node, "gpu-b01");

	/* the first section's nodes, its keys on its line and below */
	assert_int_equal(read_for(&p, sections, "gpu-a03", &res), 0);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_NONE);
	assert_int_equal(p.ecn, ROCE_ECN_WARN);
	assert_int_equal(p.timeout_ms, 3000);
	assert_int_equal(res.n_matched, 1);
	assert_int_equal(res.matched_lines[0], 3);
	assert_int_equal(read_for(&p, sections, "edge7", &res), 0);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_NONE);

	/* a later section overrides an earlier one */
	assert_int_equal(read_for(&p, sections, "gpu-a08", &res), 0);
	assert_int_equal(p.link_rate, 100);
	assert_int_equal(p.ecn, ROCE_ECN_WARN);
	assert_int_equal(res.n_matched, 2);
	assert_int_equal(res.matched_lines[1], 5);
	/* [01-16] is zero-padded: gpu-a8 is in no section */
	assert_int_equal(read_for(&p, sections, "gpu-a8", &res), 0);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_AUTO);

	/* node NULL: SLURMD_NODENAME */
	setenv("SLURMD_NODENAME", "gpu-a09", 1);
	assert_int_equal(read_for(&p, sections, NULL, &res), 0);
	assert_int_equal(p.link_rate, 100);
	assert_string_equal(res.node, "gpu-a09");
	unsetenv("SLURMD_NODENAME");
}

static void t_nodename_problems(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_policyfile_result res;

	/* a bad value in another class's section is a problem on every node */
	assert_int_equal(read_for(&p, "NodeName=gpu[1-4]\nLinkRate=25G\n", "login1", &res), -1);
	assert_non_null(strstr(res.problems[0].err.msg, ":2: LinkRate: invalid value \"25G\""));
	assert_string_equal(res.problems[0].key, "LinkRate");

	/* a bad pattern: said, and its keys apply to no node */
	assert_int_equal(read_for(&p, "NodeName=gpu[1-4\nMtu=4200\nNodeName=ALL\nGidIndex=5\n", "gpu1", &res), -1);
	assert_int_equal(res.n_problems, 1);
	assert_non_null(strstr(res.problems[0].err.msg, ":1: NodeName: pattern \"gpu[1-4\": a '[' is not closed"));
	assert_null(res.problems[0].key);
	assert_int_equal(p.mtu, 0);
	assert_int_equal(p.gid_index, 5);

	/* what srun and roce-report read is the same everywhere */
	assert_int_equal(read_for(&p, "NodeName=gpu1\nReportDir=/x\nSharedDir=/y\nRails=192.0.2.0/26\nNodeName=ALL\nReportDir=/z\n",
	                          "gpu1", &res),
	                 -1);
	assert_int_equal(res.n_problems, 3);
	assert_string_equal(res.problems[2].key, "Rails");
	assert_int_equal(p.n_rails, 0);
	assert_non_null(strstr(res.problems[0].err.msg, ":2: ReportDir: not in a NodeName= section (line 1)"));
	assert_string_equal(res.problems[0].key, "ReportDir");
	assert_string_equal(res.problems[1].key, "SharedDir");
	assert_string_equal(p.report_dir, "/z");
	assert_string_equal(p.shared_dir, "");
	/* Probe= too: a node that does not answer fails its neighbour's probe */
	assert_int_equal(read_for(&p, "Probe=ip\nNodeName=gpu1\nProbe=off\n", "gpu1", &res), -1);
	assert_int_equal(res.n_problems, 1);
	assert_string_equal(res.problems[0].key, "Probe");
	assert_non_null(strstr(res.problems[0].err.msg, ":3: Probe: not in a NodeName= section (line 2)"));
	assert_int_equal(p.probe, ROCE_PROBE_IP);

	/* NodeName= starts a line; elsewhere it is no key */
	assert_int_equal(read_for(&p, "Mtu=9000 NodeName=gpu1\n", "gpu1", &res), -1);
	assert_non_null(strstr(res.problems[0].err.msg, ":1: NodeName= is no key"));
	assert_int_equal(read_for(&p, "  nodename=gpu1 Mtu=4200\n", "gpu1", &res), 0);
	assert_int_equal(p.mtu, 4200);
	assert_int_equal(read_for(&p, "NodeName=\n", "gpu1", &res), -1);
	assert_non_null(strstr(res.problems[0].err.msg, "an empty element"));
}

/* Not a regular file: refused without waiting for a writer; /dev/null is
 * the defaults; a file past 1 MiB is refused. */
static void t_file_kinds_and_size(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_policyfile_result res;
	char fifo[] = "/tmp/roce-conf-fifo-XXXXXX";
	assert_non_null(mkdtemp(fifo));
	char fpath[64];
	snprintf(fpath, sizeof(fpath), "%s/f", fifo);
	assert_int_equal(mkfifo(fpath, 0600), 0);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policyfile_read(&p, fpath, false, "n", &res), -1);
	assert_non_null(strstr(res.problems[0].err.msg, "not a regular file"));
	unlink(fpath);
	rmdir(fifo);
	assert_int_equal(roce_policyfile_read(&p, "/dev/null", false, "n", &res), 0);

	size_t n = ROCE_POLICYFILE_MAX + 10;
	char *big = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		big[i] = i % 10 == 9 ? '\n' : '#';
	big[n] = '\0';
	assert_int_equal(read_for(&p, big, "n", &res), -1);
	assert_non_null(strstr(res.problems[0].err.msg, "larger than 1 MiB"));
	big[ROCE_POLICYFILE_MAX] = '\0';
	assert_int_equal(read_for(&p, big, "n", &res), 0);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_long_and_nul_lines),
		cmocka_unit_test(t_missing_file),
		cmocka_unit_test(t_every_problem_every_good_key),
		cmocka_unit_test(t_what_a_reader_of_some_keys_lets_pass),
		cmocka_unit_test(t_nodename_sections),
		cmocka_unit_test(t_nodename_problems),
		cmocka_unit_test(t_file_kinds_and_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
