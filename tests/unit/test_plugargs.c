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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(config_parse_keys),
		cmocka_unit_test(config_parse_errors_name_the_argument),
		cmocka_unit_test(config_policy_arguments_win_over_the_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
