/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_policycache.c - the last good roce.conf in StateDir (lib/read/policycache.c):
 * kept when the file parses, used when it does not, and said once per bad version. */
#include "config.h"
#include "unit.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/policycache.h"
#include "read/safefile.h"
#include "scratch.h"

struct fx {
	char dir[256], conf[300], state[300];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f || fx_tmpdir(f->dir, sizeof(f->dir), "test_policycache") < 0)
		return -1;
	snprintf(f->conf, sizeof(f->conf), "%s/roce.conf", f->dir);
	snprintf(f->state, sizeof(f->state), "%s/state", f->dir);
	/* Where the walk from / refuses the scratch directory (a group-writable
	 * TMPDIR), nothing here can be kept. */
	struct roce_error err;
	int sfd = roce_safefile_state_dir(f->state, &err);
	if (sfd < 0) {
		print_message("skipped: %s\n", err.msg);
		fx_rmtree(f->dir);
		free(f);
		skip();
	}
	close(sfd);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	if (!f)
		return 0;
	int rc = fx_rmtree(f->dir);
	free(f);
	return rc;
}

static void put(const struct fx *f, const char *text) { fx_putf(f->dir, "roce.conf", "%s", text); }

/* Load f's file as the plugin does (save), for node n1. */
static int load(const struct fx *f, struct roce_policy *p, struct roce_policycache_outcome *o, struct roce_error *err)
{
	roce_policy_defaults(p);
	return roce_policycache_load(p, f->conf, false, "n1", true, NULL, o, err);
}

/* Files in StateDir whose names start with prefix. */
static int count(const struct fx *f, const char *prefix)
{
	DIR *d = opendir(f->state);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

#define GOOD "StateDir=%s\nMtu=9000\nEcn=warn\nNodeName=n[1-2]\nLinkRate=none\n"

static void write_good(const struct fx *f)
{
	char text[512];
	snprintf(text, sizeof(text), GOOD, f->state);
	put(f, text);
}

/* The typo of the trial: Ecm=warn for Ecn=warn, on line 3. */
static void write_typo(const struct fx *f, const char *typo)
{
	char text[512];
	snprintf(text, sizeof(text), "StateDir=%s\nMtu=1500\n%s\n", f->state, typo);
	put(f, text);
}

static void t_good_file_is_kept(void **state)
{
	struct fx *f = *state;
	struct roce_policy p;
	struct roce_policycache_outcome o;
	struct roce_error err = { "" };
	struct stat st;
	char copy[1024], text[512];

	write_good(f);
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_false(o.cached);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_NONE);
	assert_int_equal(count(f, "policy-"), 1);
	/* the copy: the file's bytes, then a comment naming it; root's (ours) 0600 */
	DIR *d = opendir(f->state);
	struct dirent *e;
	while ((e = readdir(d)) && strncmp(e->d_name, "policy-", 7) != 0)
		;
	assert_non_null(e);
	snprintf(copy, sizeof(copy), "%s/%s", f->state, e->d_name);
	closedir(d);
	assert_int_equal(stat(copy, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_uid, geteuid());
	FILE *in = fopen(copy, "r");
	size_t n = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[n] = '\0';
	char want[512];
	snprintf(want, sizeof(want), GOOD, f->state);
	assert_memory_equal(text, want, strlen(want));
	assert_non_null(strstr(text + strlen(want), "# the last good copy of "));
	assert_non_null(strstr(text + strlen(want), f->conf));

	/* kept once: an unchanged file is not written again */
	struct timespec before = st.st_mtim;
	sleep(1);
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_int_equal(stat(copy, &st), 0);
	assert_int_equal(st.st_mtim.tv_sec, before.tv_sec);
	assert_int_equal(st.st_mtim.tv_nsec, before.tv_nsec);
}

static void t_bad_file_gives_the_last_good_policy(void **state)
{
	struct fx *f = *state;
	struct roce_policy p;
	struct roce_policycache_outcome o;
	struct roce_error err = { "" };
	char want[512];

	write_good(f);
	assert_int_equal(load(f, &p, &o, &err), 0);
	write_typo(f, "Ecm=warn");
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_true(o.cached);
	assert_true(o.first);
	snprintf(want, sizeof(want), "%s:3: unknown key \"Ecm\"", f->conf);
	assert_string_equal(o.bad.msg, want);
	assert_true(o.saved[0] >= '2' && strchr(o.saved, 'T'));
	/* the last good file's keys, for this node's section; nothing of the bad file's */
	assert_int_equal(p.mtu, 9000);
	assert_int_equal(p.ecn, ROCE_ECN_WARN);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_NONE);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policycache_load(&p, f->conf, false, "n7", true, NULL, &o, &err), 0);
	assert_int_equal(p.link_rate, ROCE_LINK_RATE_AUTO);

	/* one log line per version of the bad file: the next readers are quiet */
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_true(o.cached);
	assert_false(o.first);
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_false(o.first);
	/* another bad version is said again */
	write_typo(f, "Ecn=sometimes");
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_true(o.cached);
	assert_true(o.first);
	assert_non_null(strstr(o.bad.msg, ":3: Ecn: invalid value \"sometimes\""));
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_false(o.first);

	/* fixed: its copy is kept and the bad versions forgotten, so the same typo is said again */
	write_good(f);
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_false(o.cached);
	assert_int_equal(count(f, "policy-"), 1);
	write_typo(f, "Ecm=warn");
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_true(o.cached);
	assert_true(o.first);
}

static void t_no_good_copy(void **state)
{
	struct fx *f = *state;
	struct roce_policy p;
	struct roce_policycache_outcome o;
	struct roce_error err = { "" };

	/* a bad file before any good one: the file's error, and the keys that parsed */
	write_typo(f, "Ecm=warn Mode=strict");
	assert_int_equal(load(f, &p, &o, &err), -1);
	assert_false(o.cached);
	assert_non_null(strstr(err.msg, ":3: unknown key \"Ecm\""));
	assert_int_equal(p.mtu, 1500);
	assert_int_equal(p.mode, ROCE_MODE_STRICT);

	/* save off (roce-check): a good file leaves nothing behind, changes nothing */
	int before = count(f, "policy-");
	write_good(f);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policycache_load(&p, f->conf, false, "n1", false, NULL, &o, &err), 0);
	assert_int_equal(count(f, "policy-"), before);
	assert_true(before > 0); /* the bad version's marker */
	/* roce-check (no save) uses a copy but marks nothing: it says the problem every run */
	write_typo(f, "Ecn=sometimes");
	roce_policy_defaults(&p);
	roce_policycache_load(&p, f->conf, false, "n1", false, NULL, &o, &err);
	assert_true(o.first);
	assert_int_equal(count(f, "policy-"), before);

	/* a missing file allowed to be missing: the defaults, nothing kept or used */
	unlink(f->conf);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policycache_load(&p, f->conf, true, "n1", true, NULL, &o, &err), 0);
	assert_false(o.cached);
	assert_int_equal(p.mtu, 0);
}

/* Whatever keeps the file from being read (a FIFO in its place) falls back
 * too; a copy that is another file's, or altered, is not used. */
static void t_what_counts_as_a_copy(void **state)
{
	struct fx *f = *state;
	struct roce_policy p;
	struct roce_policycache_outcome o;
	struct roce_error err = { "" };

	write_good(f);
	assert_int_equal(load(f, &p, &o, &err), 0);
	unlink(f->conf);
	assert_int_equal(mkfifo(f->conf, 0600), 0);
	/* the FIFO's file has no StateDir= of its own: StateDir is given, as a plugstack word would */
	roce_policy_defaults(&p);
	assert_int_equal(roce_policycache_load(&p, f->conf, false, "n1", true, f->state, &o, &err), 0);
	assert_true(o.cached);
	assert_non_null(strstr(o.bad.msg, "not a regular file"));
	assert_int_equal(p.mtu, 9000);

	/* another path's file has no copy */
	char other[512];
	snprintf(other, sizeof(other), "%s/other.conf", f->dir);
	FILE *x = fopen(other, "w");
	fputs("Ecm=warn\n", x);
	fclose(x);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policycache_load(&p, other, false, "n1", true, f->state, &o, &err), -1);
	assert_false(o.cached);

	/* a copy without its closing line is not ours: refused */
	DIR *d = opendir(f->state);
	struct dirent *e;
	char copy[1024];
	while ((e = readdir(d)) && !(strncmp(e->d_name, "policy-", 7) == 0 && strstr(e->d_name, ".conf")))
		;
	assert_non_null(e);
	snprintf(copy, sizeof(copy), "%s/%s", f->state, e->d_name);
	closedir(d);
	x = fopen(copy, "w");
	fputs("Mtu=4200\n", x);
	fclose(x);
	chmod(copy, 0600);
	roce_policy_defaults(&p);
	assert_int_equal(roce_policycache_load(&p, f->conf, false, "n1", true, f->state, &o, &err), -1);
	assert_false(o.cached);
	assert_int_equal(p.mtu, 0);
}

/* A StateDir others can write is no place to trust a copy from. */
static void t_state_dir_not_ours(void **state)
{
	struct fx *f = *state;
	struct roce_policy p;
	struct roce_policycache_outcome o;
	struct roce_error err = { "" };

	write_good(f);
	assert_int_equal(load(f, &p, &o, &err), 0);
	assert_int_equal(chmod(f->state, 0777), 0);
	write_typo(f, "Ecm=warn");
	assert_int_equal(load(f, &p, &o, &err), -1);
	assert_false(o.cached);
	assert_true(o.first); /* nowhere to remember it: said every time */
	assert_int_equal(load(f, &p, &o, &err), -1);
	assert_true(o.first);
	chmod(f->state, 0700);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_good_file_is_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bad_file_gives_the_last_good_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(t_no_good_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(t_what_counts_as_a_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(t_state_dir_not_ours, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
