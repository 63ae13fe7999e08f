/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_plugargs.c - the plugin's plugstack words (lib/read/plugargs.c):
 * config=, default= and roce.conf keys, hostile input all; the policy they
 * make with the file, and with its last good copy when the file is bad.
 */
#include "config.h"
#include "unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/plugargs.h"
#include "scratch.h"

static int parse(struct roce_plugargs *a, struct roce_error *err, int ac, ...)
{
	char *av[80];
	va_list ap;
	va_start(ap, ac);
	for (int i = 0; i < ac; i++)
		av[i] = va_arg(ap, char *);
	va_end(ap);
	memset(err, 0, sizeof(*err));
	return roce_plugargs_parse(ac, av, a, err);
}

static void config_parse_keys(void **state)
{
	(void)state;
	struct roce_plugargs a;
	struct roce_error err;
	assert_int_equal(parse(&a, &err, 0), 0);
	assert_int_equal(a.default_mode, ROCE_MODE_OFF);
	assert_string_equal(a.conf_file, "");
	assert_int_equal(parse(&a, &err, 4, "config=/etc/x.conf", "default=strict", "Mtu=9000", "GidIndex=auto"), 0);
	assert_string_equal(a.conf_file, "/etc/x.conf");
	assert_int_equal(a.default_mode, ROCE_MODE_STRICT);
	assert_int_equal(a.n_kv, 2);
	assert_string_equal(a.kv[0], "Mtu=9000");
	assert_string_equal(a.kv[1], "GidIndex=auto");
}

static void config_parse_errors_name_the_argument(void **state)
{
	(void)state;
	struct roce_plugargs a;
	struct roce_error err;
	assert_int_equal(parse(&a, &err, 1, "turbo"), -1);
	assert_non_null(strstr(err.msg, "\"turbo\" is not Key=Value"));
	assert_int_equal(parse(&a, &err, 1, "config=relative/path"), -1);
	assert_non_null(strstr(err.msg, "absolute path"));
	assert_int_equal(parse(&a, &err, 1, "default=on"), -1);
	assert_non_null(strstr(err.msg, "default= takes off, warn or strict"));
	/* A misspelt key or a bad value is refused where the line is read (every
	 * context, srun and sbatch included), not only when a node loads the policy. */
	assert_int_equal(parse(&a, &err, 1, "defualt=warn"), -1);
	assert_non_null(strstr(err.msg, "unknown key \"defualt\""));
	assert_int_equal(parse(&a, &err, 1, "Mtu=jumbo"), -1);
	assert_non_null(strstr(err.msg, "Mtu: invalid value \"jumbo\""));
	assert_int_equal(parse(&a, &err, 1, "turbo\x1b[2J"), -1);
	assert_non_null(strstr(err.msg, "turbo\\x1b[2J"));

	/* The first error is the one reported; a valid default= counts wherever it
	 * stands, so a broken line still checks the jobs the site meant to check. */
	assert_int_equal(parse(&a, &err, 3, "turbo", "default=strict", "config=x"), -1);
	assert_non_null(strstr(err.msg, "\"turbo\" is not Key=Value"));
	assert_int_equal(a.default_mode, ROCE_MODE_STRICT);
	assert_int_equal(parse(&a, &err, 2, "default=warn", "turbo"), -1);
	assert_int_equal(a.default_mode, ROCE_MODE_WARN);
	assert_int_equal(parse(&a, &err, 2, "default=bogus", "turbo"), -1);
	assert_non_null(strstr(err.msg, "default= takes off, warn or strict"));
	assert_int_equal(a.default_mode, ROCE_MODE_OFF);

	char *av[ROCE_PLUGARGS_MAX_KV + 1];
	for (int i = 0; i <= ROCE_PLUGARGS_MAX_KV; i++)
		av[i] = "Mtu=9000";
	assert_int_equal(roce_plugargs_parse(ROCE_PLUGARGS_MAX_KV, av, &a, &err), 0);
	assert_int_equal(roce_plugargs_parse(ROCE_PLUGARGS_MAX_KV + 1, av, &a, &err), -1);
	assert_non_null(strstr(err.msg, "more than"));
}

static void config_policy_arguments_win_over_the_file(void **state)
{
	(void)state;
	char path[] = "/tmp/test_spank_request.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char conf[] = "Mtu=4200 GidIndex=5\nMode=strict\n";
	assert_int_equal(write(fd, conf, sizeof(conf) - 1), (ssize_t)sizeof(conf) - 1);
	close(fd);

	struct roce_plugargs a;
	struct roce_error err;
	struct roce_policy p;
	char cfg[64];
	snprintf(cfg, sizeof(cfg), "config=%s", path);
	assert_int_equal(parse(&a, &err, 2, cfg, "Mtu=9000"), 0);
	assert_int_equal(roce_plugargs_policy(&a, &p, NULL, &err), 0);
	assert_int_equal(p.mtu, 9000);            /* argument */
	assert_int_equal(p.gid_index, 5);         /* file */
	assert_int_equal(p.mode, ROCE_MODE_STRICT);


	unlink(path);
	/* config= names a file that must exist; the default one may be missing */
	assert_int_equal(parse(&a, &err, 1, cfg), 0);
	assert_int_equal(roce_plugargs_policy(&a, &p, NULL, &err), -1);
	assert_non_null(strstr(err.msg, path));
}

/* srun reads SharedDir, TimeoutMs and Mode: a typo elsewhere in roce.conf
 * does not stop the agreement; a problem with one of them does. */
static void policy_keys_let_other_problems_pass(void **state)
{
	(void)state;
	static const char *const keys[] = { "SharedDir", "TimeoutMs", "Mode", NULL };
	char path[] = "/tmp/test_plugargs.XXXXXX", cfg[64];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char conf[] = "Ecm=warn\nSharedDir=/shared/nodes TimeoutMs=3000\n";
	assert_int_equal(write(fd, conf, sizeof(conf) - 1), (ssize_t)sizeof(conf) - 1);
	close(fd);
	struct roce_plugargs a;
	struct roce_policy p;
	struct roce_error err = { "" }, other = { "" };
	snprintf(cfg, sizeof(cfg), "config=%s", path);
	assert_int_equal(parse(&a, &err, 2, cfg, "Mode=strict"), 0);
	assert_int_equal(roce_plugargs_policy_keys(&a, keys, &p, &other, &err), 0);
	assert_string_equal(p.shared_dir, "/shared/nodes");
	assert_int_equal(p.timeout_ms, 3000);
	assert_int_equal(p.mode, ROCE_MODE_STRICT); /* the word wins */
	assert_non_null(strstr(other.msg, ":1: unknown key \"Ecm\""));
	/* the whole-file reader refuses it */
	assert_int_equal(roce_plugargs_policy(&a, &p, NULL, &err), -1);
	assert_non_null(strstr(err.msg, ":1: unknown key \"Ecm\""));

	FILE *f = fopen(path, "w");
	fputs("Ecm=warn\nTimeoutMs=0\n", f);
	fclose(f);
	assert_int_equal(roce_plugargs_policy_keys(&a, keys, &p, &other, &err), -1);
	assert_non_null(strstr(err.msg, ":2: TimeoutMs: invalid value \"0\""));
	unlink(path);
}

/* The plugin on a node (o set): the file's last good copy stands in, kept in
 * the StateDir a plugstack word names. */
static void policy_last_good_copy(void **state)
{
	(void)state;
	char dir[256], path[300], cfg[320], sd[320];
	assert_int_equal(fx_tmpdir(dir, sizeof(dir), "test_plugargs"), 0);
	snprintf(path, sizeof(path), "%s/roce.conf", dir);
	snprintf(cfg, sizeof(cfg), "config=%s", path);
	snprintf(sd, sizeof(sd), "StateDir=%s/state", dir);
	FILE *f = fopen(path, "w");
	fputs("Mtu=9000\n", f);
	fclose(f);
	struct roce_plugargs a;
	struct roce_policy p;
	struct roce_policycache_outcome o;
	struct roce_error err = { "" };
	assert_int_equal(parse(&a, &err, 2, cfg, sd), 0);
	assert_int_equal(roce_plugargs_policy(&a, &p, &o, &err), 0);
	assert_false(o.cached);
	f = fopen(path, "w");
	fputs("Mtu=1500\nEcm=warn\n", f);
	fclose(f);
	int rc = roce_plugargs_policy(&a, &p, &o, &err);
	if (rc < 0 && !o.cached) {
		/* a scratch directory the walk refuses (group-writable TMPDIR): nothing was kept */
		print_message("skipped: %s\n", err.msg);
	} else {
		assert_int_equal(rc, 0);
		assert_true(o.cached);
		assert_true(o.first);
		assert_int_equal(p.mtu, 9000);
		assert_non_null(strstr(o.bad.msg, ":2: unknown key \"Ecm\""));
	}
	assert_int_equal(fx_rmtree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(config_parse_keys),
		cmocka_unit_test(config_parse_errors_name_the_argument),
		cmocka_unit_test(config_policy_arguments_win_over_the_file),
		cmocka_unit_test(policy_keys_let_other_problems_pass),
		cmocka_unit_test(policy_last_good_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
