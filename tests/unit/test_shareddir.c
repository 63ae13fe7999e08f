/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_shareddir.c - fingerprints in SharedDir (lib/agree/shareddir.h) in a
 * scratch directory: what the prolog writes, what srun reads (one file per
 * distinct fingerprint), hostile entries, earlier jobs' entries, who may
 * list what, the epilog's removal and the sweep. */
#include "config.h"
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "agree/shareddir.h"
#include "base/sha256.h"
#include "read/safefile.h"

#define JOB "42"
#define JOB_UID 4001
#define OTHER_UID 4002

static char top[256], shared[320];
static struct roce_policy pol;
static time_t now;

static int setup(void **s)
{
	(void)s;
	snprintf(top, sizeof(top), "%s/test_shareddir.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(top) || chmod(top, 0755) < 0)
		return -1;
	snprintf(shared, sizeof(shared), "%.256s/shared", top);
	roce_policy_defaults(&pol);
	snprintf(pol.shared_dir, sizeof(pol.shared_dir), "%.250s", shared);
	now = time(NULL);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* Root writes SharedDir: without root (or a trusted scratch directory) there is nothing to test. */
static void need_root(void)
{
	struct roce_error err;
	int fd = roce_safefile_open_dir(NULL, top, ROCE_SAFEFILE_TRUSTED, 0, &err);
	if (geteuid() != 0 || fd < 0) {
		print_message("# skipped: needs root and a trusted TMPDIR (%s)\n", fd < 0 ? err.msg : "not root");
		skip();
	}
	close(fd);
}

/* A two-rail node; mtu 1024 makes it differ. */
static void fp_of(struct roce_fingerprint *f, const char *job, const char *node, int mtu)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->job_id, sizeof(f->job_id), "%s", job);
	snprintf(f->node, sizeof(f->node), "%s", node);
	f->gid_index = 3;
	f->addr_family = 4;
	f->traffic_class = 104;
	f->pfc_priority = 3;
	f->n_ports = 2;
	for (int k = 0; k < 2; k++) {
		snprintf(f->ports[k].device, sizeof(f->ports[k].device), "mlx5_%d", k);
		f->ports[k].port = 1;
		snprintf(f->ports[k].netdev, sizeof(f->ports[k].netdev), "eth%d", k);
		f->ports[k].active_mtu = mtu;
		f->ports[k].netdev_mtu = 9000;
		f->ports[k].rate_gbps = 100;
	}
}

static void write_node(const char *job, const char *node, int mtu, time_t t, char *entry)
{
	struct roce_fingerprint f;
	struct roce_error err;
	char e[ROCE_SHAREDDIR_ENTRY_MAX];
	fp_of(&f, job, node, mtu);
	if (roce_shareddir_write(&pol, &f, JOB_UID, t, entry ? entry : e, ROCE_SHAREDDIR_ENTRY_MAX, &err) < 0)
		fail_msg("write %s: %s", node, err.msg);
}

static const char *job_path(const char *job, const char *name)
{
	static char buf[2][640];
	static int i;
	i = (i + 1) % 2;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s%s%s", shared, job, name ? "/" : "", name ? name : "");
	return buf[i];
}

/* A file in the job's directory under "<t>.<digest of digest_of>.<node>" holding text. */
static void plant(time_t t, const char *node, const char *text, const char *digest_of)
{
	char hex[ROCE_SHAREDDIR_DIGEST_HEX + 1], name[ROCE_SHAREDDIR_ENTRY_MAX + 16];
	roce_sha256_hex(digest_of, strlen(digest_of), ROCE_SHAREDDIR_DIGEST_HEX / 2, hex);
	snprintf(name, sizeof(name), "%lld.%s.%s", (long long)t, hex, node);
	FILE *fp = fopen(job_path(JOB, name), "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* The text a node's entry holds, from its file in the job directory. */
static char *text_of(const char *entry)
{
	static char buf[ROCE_FP_TEXT_MAX + 1];
	FILE *fp = fopen(job_path(JOB, entry), "r");
	assert_non_null(fp);
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static int gather(const char *const *nodes, size_t n, time_t start, int timeout_ms, struct roce_fp_gather *g,
                  struct roce_error *err)
{
	return roce_shareddir_gather(shared, JOB, start, nodes, n, timeout_ms, g, err);
}

static void write_and_gather(void **state)
{
	(void)state;
	need_root();
	const char *nodes[] = { "node1", "node2", "node3", "node4", "node5", "node6" };
	char entry[ROCE_SHAREDDIR_ENTRY_MAX];
	for (int i = 0; i < 6; i++)
		write_node(JOB, nodes[i], i == 4 ? 1024 : 4096, now, i == 0 ? entry : NULL);
	/* the layout */
	struct stat st;
	assert_int_equal(stat(shared, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0711);
	assert_int_equal(stat(job_path(JOB, NULL), &st), 0);
	char acl[128];
	bool has_acl = getxattr(job_path(JOB, NULL), "system.posix_acl_access", acl, sizeof(acl)) > 0;
	assert_true(has_acl ? st.st_uid == 0 && (st.st_mode & 0707) == 0700
	                    : st.st_uid == JOB_UID && (st.st_mode & 07777) == 0500);
	char want[64];
	snprintf(want, sizeof(want), "%lld.", (long long)now);
	assert_memory_equal(entry, want, strlen(want));
	assert_string_equal(entry + strlen(entry) - 6, ".node1");
	assert_int_equal(stat(job_path(JOB, entry), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0444);
	assert_null(strstr(text_of(entry), "node1")); /* the node is the name's, not the content's */

	struct roce_fp_gather g;
	struct roce_error err;
	assert_int_equal(gather(nodes, 6, now - 10, 0, &g, &err), 0);
	assert_int_equal(g.n_read, 6);
	assert_int_equal(g.n_files, 2); /* one file per distinct fingerprint */
	assert_int_equal(g.n_distinct, 2);
	assert_ptr_equal(g.fp[0], g.fp[5]);
	assert_ptr_not_equal(g.fp[0], g.fp[4]);
	assert_int_equal(g.fp[4]->ports[1].active_mtu, 1024);
	assert_string_equal(g.fp[0]->job_id, JOB);
	roce_shareddir_gather_free(&g);

	/* a step on some of them; a node without a fingerprint waits, then is missing */
	const char *some[] = { "node5", "node9" };
	assert_int_equal(gather(some, 2, now - 10, 100, &g, &err), 0);
	assert_int_equal(g.state[0], ROCE_FP_READ);
	assert_int_equal(g.state[1], ROCE_FP_MISSING);
	assert_true(g.waited_ms >= 100);
	roce_shareddir_gather_free(&g);

	/* no directory for a job yet: every node missing, no error */
	assert_int_equal(roce_shareddir_gather(shared, "77", now, some, 2, 0, &g, &err), 0);
	assert_int_equal(g.n_read + g.n_refused, 0);
	roce_shareddir_gather_free(&g);
}

/* Names that are no entry, files that lie, another job's, links, directories. */
static void hostile_entries(void **state)
{
	(void)state;
	need_root();
	char good[ROCE_SHAREDDIR_ENTRY_MAX];
	write_node(JOB, "good", 4096, now, good);
	const char *text = strdup(text_of(good));
	assert_non_null(text);
	/* garbage names: skipped, counted */
	plant(now, "x", "garbage", "garbage");
	const char *garbage[] = { "hello", "0123.0123456789abcdef0123456789abcdef.good", "1.0123.good",
		                  "12.0123456789abcdef0123456789abcdeF.good", "12.0123456789abcdef0123456789abcdef." };
	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		FILE *fp = fopen(job_path(JOB, garbage[i]), "w");
		assert_non_null(fp);
		fclose(fp);
	}
	/* too large, yet named after its own digest */
	char *big = malloc(ROCE_FP_TEXT_MAX + 100);
	assert_non_null(big);
	memset(big, ' ', ROCE_FP_TEXT_MAX + 99);
	memcpy(big, text, strlen(text));
	big[ROCE_FP_TEXT_MAX + 99] = '\0';
	plant(now, "big", big, big);
	free(big);
	/* a good fingerprint under another's digest */
	plant(now, "liar", text, "something else");
	/* another job's, named after its own digest */
	char other[ROCE_FP_TEXT_MAX];
	snprintf(other, sizeof(other), "%s", text);
	char *j = strstr(other, "\"job_id\":\"42\"");
	assert_non_null(j);
	j[11] = '3';
	plant(now, "other", other, other);
	/* a symbolic link to the good file, and a directory, both named as entries */
	char hex[ROCE_SHAREDDIR_DIGEST_HEX + 1], name[ROCE_SHAREDDIR_ENTRY_MAX];
	roce_sha256_hex(text, strlen(text), ROCE_SHAREDDIR_DIGEST_HEX / 2, hex);
	snprintf(name, sizeof(name), "%lld.%s.link", (long long)now, hex);
	assert_int_equal(symlink(good, job_path(JOB, name)), 0);
	snprintf(name, sizeof(name), "%lld.%s.dir", (long long)now, hex);
	assert_int_equal(mkdir(job_path(JOB, name), 0755), 0);
	/* two different fingerprints of one node in the same second */
	plant(now, "twice", text, text);
	plant(now, "twice", other, other);

	const char *nodes[] = { "good", "big", "liar", "other", "link", "dir", "twice", "x" };
	struct roce_fp_gather g;
	struct roce_error err;
	assert_int_equal(gather(nodes, 8, now - 10, 0, &g, &err), 0);
	assert_int_equal(g.state[0], ROCE_FP_READ);
	for (int i = 1; i < 8; i++)
		if (g.state[i] != ROCE_FP_REFUSED)
			fail_msg("%s: state %d, not refused", nodes[i], g.state[i]);
	assert_int_equal(g.n_refused, 7);
	assert_int_equal(g.n_ignored, 5);
	assert_int_equal(g.n_read, 1);
	roce_shareddir_gather_free(&g);
	/* each for its own reason */
	const char *why[] = { NULL,
		              "bytes",
		              "does not match the digest",
		              "job_id",
		              "not a regular file",
		              "not a regular file",
		              "same time",
		              "not valid JSON" };
	for (int i = 1; i < 8; i++) {
		assert_int_equal(gather(nodes + i, 1, now - 10, 0, &g, &err), 0);
		if (!strstr(g.refused_why, why[i]))
			fail_msg("%s: \"%s\" does not say %s", nodes[i], g.refused_why, why[i]);
		roce_shareddir_gather_free(&g);
	}
	/* the link shares good's digest: still refused, even when good's file is read first */
	const char *pair[] = { "good", "link" };
	assert_int_equal(gather(pair, 2, now - 10, 0, &g, &err), 0);
	assert_int_equal(g.state[0], ROCE_FP_READ);
	assert_int_equal(g.state[1], ROCE_FP_REFUSED);
	roce_shareddir_gather_free(&g);
	free((void *)text);
}

/* A node that crashed in an earlier job with this id (requeued, or ids
 * come round) left its entry: never taken for this job's. */
static void earlier_jobs_entries(void **state)
{
	(void)state;
	need_root();
	time_t before = now - 3600, start = now - 5;
	write_node(JOB, "crashed", 4096, before, NULL);
	write_node(JOB, "requeued", 1024, before, NULL);                           /* its earlier instance */
	write_node(JOB, "requeued", 4096, now, NULL);                              /* this job's */
	write_node(JOB, "skewed", 4096, start - ROCE_SHAREDDIR_SLACK_S + 1, NULL); /* a clock a little behind */
	const char *nodes[] = { "crashed", "requeued", "skewed" };
	struct roce_fp_gather g;
	struct roce_error err;
	assert_int_equal(gather(nodes, 3, start, 0, &g, &err), 0);
	assert_int_equal(g.state[0], ROCE_FP_MISSING);
	assert_int_equal(g.state[1], ROCE_FP_READ);
	assert_int_equal(g.fp[1]->ports[0].active_mtu, 4096);
	assert_int_equal(g.state[2], ROCE_FP_READ);
	assert_int_equal(g.n_stale, 2);
	assert_true(g.stale[0]);  /* srun says why crashed is missing */
	assert_false(g.stale[2]);
	roce_shareddir_gather_free(&g);
	/* the earlier job itself (start unknown to the caller: 0) would have taken them */
	assert_int_equal(gather(nodes, 1, 0, 0, &g, &err), 0);
	assert_int_equal(g.state[0], ROCE_FP_READ);
	roce_shareddir_gather_free(&g);
}

/* In a child as uid: gather's result and err. */
static int gather_as(uid_t uid, char *why, size_t len)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *nodes[] = { "node1" };
		struct roce_fp_gather g;
		struct roce_error err = { "" };
		int rc = setgid(uid) == 0 && setuid(uid) == 0 ? gather(nodes, 1, now - 10, 0, &g, &err) : -2;
		if (rc == 0)
			snprintf(err.msg, sizeof(err.msg), "%zu read", g.n_read);
		if (write(p[1], err.msg, strlen(err.msg)) < 0)
			_exit(3);
		_exit(rc == 0 ? 0 : rc == -1 ? 1 : 2);
	}
	close(p[1]);
	ssize_t n = read(p[0], why, len - 1);
	why[n > 0 ? n : 0] = '\0';
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void who_may_list(void **state)
{
	(void)state;
	need_root();
	char why[ROCE_ERR_MAX];
	write_node(JOB, "node1", 4096, now, NULL);
	if (gather_as(JOB_UID, why, sizeof(why)) != 0)
		fail_msg("the job's user could not read: %s", why);
	assert_string_equal(why, "1 read");
	assert_int_equal(gather_as(OTHER_UID, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "Permission denied"));
	/* nobody but root lists SharedDir itself */
	pid_t pid = fork();
	if (pid == 0)
		_exit(setuid(OTHER_UID) == 0 && opendir(shared) == NULL && errno == EACCES ? 0 : 1);
	int st;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static size_t entries(const char *job)
{
	DIR *d = opendir(job_path(job, NULL));
	size_t n = 0;
	if (!d)
		return (size_t)-1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void epilog_removes(void **state)
{
	(void)state;
	need_root();
	char e1[ROCE_SHAREDDIR_ENTRY_MAX], e2[ROCE_SHAREDDIR_ENTRY_MAX];
	write_node(JOB, "node1", 4096, now, e1);
	write_node(JOB, "node2", 4096, now, e2);
	roce_shareddir_remove(&pol, JOB, "../../etc/passwd");
	roce_shareddir_remove(&pol, JOB, e1);
	assert_int_equal(entries(JOB), 1);
	roce_shareddir_remove(&pol, JOB, e2);
	assert_int_equal(entries(JOB), (size_t)-1); /* the last one took the directory */
}

/* slurmctld, as the sweep asks it: job 10 is over, 11 runs since now - 100, 12 cannot be asked about. */
static int job_state(const char *job, time_t *start, void *arg)
{
	(*(int *)arg)++;
	if (strcmp(job, "11") == 0) {
		*start = now - 100;
		return 1;
	}
	return strcmp(job, "12") == 0 ? -1 : 0;
}

static void sweep(void **state)
{
	(void)state;
	need_root();
	write_node("10", "node1", 4096, now - 7200, NULL); /* a crashed node's, of a job long over */
	write_node("11", "node1", 4096, now - 7200, NULL); /* of an earlier job 11 */
	write_node("11", "node2", 4096, now - 90, NULL);   /* of this one */
	write_node("12", "node1", 4096, now - 7200, NULL);
	char v1[400];
	snprintf(v1, sizeof(v1), "%s/10.node1.json", shared); /* version 1's name */
	FILE *fp = fopen(v1, "w");
	assert_non_null(fp);
	fclose(fp);
	struct roce_shareddir_swept s;
	struct roce_error err;
	int asked = 0;
	assert_int_equal(roce_shareddir_sweep(shared, now, 3600, 100, job_state, &asked, &s, &err), 0);
	assert_true(s.ran);
	assert_int_equal(s.jobs, 3);
	assert_int_equal(s.jobs_removed, 1);
	assert_int_equal(s.entries_removed, 3); /* 10's, 11's earlier one, the version 1 file */
	assert_int_equal(entries("10"), (size_t)-1);
	assert_int_equal(entries("11"), 1);
	assert_int_equal(entries("12"), 1);
	assert_int_equal(access(v1, F_OK), -1);
	/* within the period: nobody sweeps again */
	asked = 0;
	assert_int_equal(roce_shareddir_sweep(shared, now + 10, 3600, 100, job_state, &asked, &s, &err), 0);
	assert_false(s.ran);
	assert_int_equal(asked, 0);
	/* after it, again */
	assert_int_equal(roce_shareddir_sweep(shared, now + 3700, 3600, 100, job_state, &asked, &s, &err), 0);
	assert_true(s.ran);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(write_and_gather, setup, teardown),
		cmocka_unit_test_setup_teardown(hostile_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(earlier_jobs_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(who_may_list, setup, teardown),
		cmocka_unit_test_setup_teardown(epilog_removes, setup, teardown),
		cmocka_unit_test_setup_teardown(sweep, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
