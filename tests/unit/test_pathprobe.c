/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pathprobe.c - one node's half of the path probe (lib/agree/pathprobe.c)
 * run by three "nodes" at once, each a process with two rails on loopback
 * (127.0.0.N on 127.0.0.0/24, 127.0.1.N on 127.0.1.0/24), sharing a scratch
 * SharedDir as root: the ring (node1 probes node2, node2 node3, node3
 * node1) healthy on both rails; a node that never comes; a node without
 * one rail; a planted neighbour file refused.
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <netdb.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agree/pathprobe.h"
#include "probe/sockaddr.h"
#include "read/safefile.h"
#include "scratch.h"

static char top[256], shared[300];
static const char *const plain[] = { "node1", "node2", "node3" };
/* the ring (t_name: a node named localhost, which resolves everywhere) and
 * what node2 announces as its own addresses (NULL: nothing) */
static const char *const *nodes = plain;
static const char *announce;

static int setup(void **s)
{
	(void)s;
	struct roce_error err;
	if (fx_tmpdir(top, sizeof(top), "pathprobe") < 0)
		return -1;
	int fd = roce_safefile_open_dir(NULL, top, ROCE_SAFEFILE_TRUSTED, 0, &err);
	if (fd >= 0)
		close(fd);
	if (geteuid() != 0 || fd < 0)
		top[0] = '\0';
	snprintf(shared, sizeof(shared), "%s/shared", top);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	return top[0] ? fx_rmtree(top) : 0;
}

/* A fresh job directory, as the prolog's fingerprint write leaves it. */
static void job_dir(const char *job)
{
	char path[400];
	if (!top[0]) {
		print_message("# skipped: needs root and a trusted TMPDIR\n");
		skip();
	}
	snprintf(path, sizeof(path), "shared/%s", job);
	fx_mkdirs(top, path);
	chmod(shared, 0711);
	snprintf(path, sizeof(path), "%s/%s", shared, job);
	chmod(path, 0700);
}

/* Node k (0-based) of the job with n_rails of its two rails, in a child;
 * its result comes back through fd. */
static pid_t node(const char *job, int k, size_t n_rails, int wait_ms, int fd)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid)
		return pid;
	struct roce_pathprobe_rail rails[2];
	struct sockaddr_storage host;
	struct roce_pathprobe_result res;
	struct roce_error err = { "" };
	char a[32];
	memset(rails, 0, sizeof(rails));
	for (int r = 0; r < 2; r++) {
		snprintf(rails[r].rail, sizeof(rails[r].rail), "127.0.%d.0/24", r);
		snprintf(a, sizeof(a), "127.0.%d.%d", r, k + 1);
		roce_sockaddr_parse(a, 0, &rails[r].addr);
		rails[r].active_mtu = 4096;
		rails[r].netdev_mtu = 9000;
	}
	struct roce_pathprobe_in in = { .shared_dir = shared,
		                        .job_id = job,
		                        .self = nodes[k],
		                        .nodes = nodes,
		                        .n_nodes = 3,
		                        .since = time(NULL) - 60,
		                        .tos = 104,
		                        .rails = rails,
		                        .n_rails = n_rails,
		                        .wait_ms = wait_ms,
		                        .probe_ms = 500,
		                        .serve_ms = wait_ms + 600,
		                        .resolve_ms = 1000 };
	if (k == 1 && announce) {
		roce_sockaddr_parse(announce, 0, &host);
		in.hosts = &host;
		in.n_hosts = 1;
	}
	if (roce_pathprobe_run(&in, &res, &err) < 0) {
		memset(&res, 0, sizeof(res));
		snprintf(res.rails[0].words, sizeof(res.rails[0].words), "error: %.180s", err.msg);
	}
	_exit(write(fd, &res, sizeof(res)) == (ssize_t)sizeof(res) ? 0 : 1);
}

/* Run the nodes whose n_rails[k] is not -1; their results in res[k]. */
static void run(const char *job, const int *n_rails, int wait_ms, struct roce_pathprobe_result *res)
{
	int fds[3][2];
	pid_t pid[3] = { 0 };
	for (int k = 0; k < 3; k++) {
		memset(&res[k], 0, sizeof(res[k]));
		if (n_rails[k] < 0)
			continue;
		assert_int_equal(pipe(fds[k]), 0);
		pid[k] = node(job, k, (size_t)n_rails[k], wait_ms, fds[k][1]);
		close(fds[k][1]);
	}
	for (int k = 0; k < 3; k++) {
		if (!pid[k])
			continue;
		assert_int_equal(read(fds[k][0], &res[k], sizeof(res[k])), (ssize_t)sizeof(res[k]));
		close(fds[k][0]);
		waitpid(pid[k], NULL, 0);
	}
}

static void t_ring_healthy(void **s)
{
	(void)s;
	struct roce_pathprobe_result res[3];
	job_dir("101");
	run("101", (const int[]){ 2, 2, 2 }, 2000, res);
	for (int k = 0; k < 3; k++) {
		assert_string_equal(res[k].peer, nodes[(k + 1) % 3]);
		assert_int_equal(res[k].n, 2);
		for (int r = 0; r < 2; r++) {
			if (res[k].rails[r].verdict != ROCE_PROBER_OK)
				fail_msg("%s rail %d: %s", nodes[k], r, res[k].rails[r].words);
			assert_string_equal(res[k].rails[r].words, "ok");
			assert_int_equal(res[k].rails[r].largest, 9000);
			assert_int_equal(res[k].rails[r].dscp, 26);
		}
		/* its previous node's 4 sizes on 2 rails (a retry crossing a late answer is answered too) */
		assert_in_range(res[k].answered, 8, 8 * ROCE_PROBER_TRIES);
		print_message("# %s: probed in %.0f ms\n", nodes[k], res[k].ms);
		assert_true(res[k].ms < 1000);
	}
	assert_string_equal(res[1].rails[1].rail, "127.0.1.0/24");
}

/* node3 never comes: node2 says so; node1 probes node2 all the same. */
static void t_missing_node(void **s)
{
	(void)s;
	struct roce_pathprobe_result res[3];
	job_dir("102");
	run("102", (const int[]){ 2, 2, -1 }, 300, res);
	assert_string_equal(res[0].rails[0].words, "ok");
	assert_string_equal(res[0].rails[1].words, "ok");
	assert_string_equal(res[1].peer, "node3");
	assert_int_equal(res[1].rails[0].verdict, ROCE_PROBER_LOCAL); /* not probed: no path failure */
	assert_string_equal(res[1].rails[0].words, "no probe file from the next node in time");
}

/* node2 has no address on the second rail: node1 says so for that rail only. */
static void t_rail_missing(void **s)
{
	(void)s;
	struct roce_pathprobe_result res[3];
	job_dir("103");
	run("103", (const int[]){ 2, 1, 2 }, 1000, res);
	assert_string_equal(res[0].rails[0].words, "ok");
	assert_string_equal(res[0].rails[1].words, "the next node has no address on this rail");
	assert_int_equal(res[0].rails[1].verdict, ROCE_PROBER_LOCAL);
	assert_int_equal(res[1].n, 1);
	assert_string_equal(res[1].rails[0].words, "ok");
}

/* A planted node2 file (not root's): refused, named. */
static void t_planted(void **s)
{
	(void)s;
	struct roce_pathprobe_result res[3];
	char path[400];
	job_dir("104");
	snprintf(path, sizeof(path), "shared/104/probe.node2");
	fx_putf(top, path, "slurm-roce/probe/1\ntime %lld\nkey %064d\nrail 127.0.0.0/24 127.0.0.9 9\n",
	        (long long)time(NULL), 0);
	snprintf(path, sizeof(path), "%s/104/probe.node2", shared);
	assert_int_equal(chown(path, 65534, 65534), 0);
	run("104", (const int[]){ 2, -1, -1 }, 300, res);
	assert_int_equal(res[0].rails[0].verdict, ROCE_PROBER_LOCAL);
	assert_non_null(strstr(res[0].rails[0].words, "node2's probe file was refused: probe.node2"));
}

/* node2 is named localhost: node1 resolves it as a bootstrap would and
 * compares with what node2 announced. */
static void t_name(void **s)
{
	(void)s;
	static const char *const lh[] = { "node1", "localhost", "node3" };
	struct roce_pathprobe_result res[3];
	nodes = lh;
	announce = "127.0.0.1"; /* its own: nothing said */
	job_dir("105");
	run("105", (const int[]){ 1, 1, 1 }, 1000, res);
	assert_string_equal(res[0].peer, "localhost");
	assert_string_equal(res[0].name_got, "");
	announce = "192.0.2.7"; /* its name resolves elsewhere here: said, with what it resolved to */
	job_dir("106");
	run("106", (const int[]){ 1, 1, 1 }, 1000, res);
	struct addrinfo *ai = NULL;
	if (getaddrinfo("localhost", NULL, NULL, &ai) != 0)
		print_message("# localhost does not resolve here (no /etc/hosts): the wrong name is not seen\n");
	else if (strcmp(res[0].name_got, "127.0.0.1") != 0 && strcmp(res[0].name_got, "::1") != 0)
		fail_msg("localhost resolved to \"%s\"", res[0].name_got);
	if (ai)
		freeaddrinfo(ai);
	announce = NULL; /* nothing announced: nothing compared */
	job_dir("107");
	run("107", (const int[]){ 1, 1, 1 }, 1000, res);
	assert_string_equal(res[0].name_got, "");
	assert_string_equal(res[1].name_got, ""); /* node3 does not resolve here: no finding either */
	nodes = plain;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ring_healthy),
		cmocka_unit_test(t_missing_node),
		cmocka_unit_test(t_rail_missing),
		cmocka_unit_test(t_planted),
		cmocka_unit_test(t_name),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
