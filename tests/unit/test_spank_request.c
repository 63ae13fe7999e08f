/*
 * test_spank_request.c - the plugin's parsing of user and site input
 * (spank/request.c): --roce / SLURM_ROCE values, plugstack arguments, the
 * marks on exported values.  All of it is hostile input.
 */
#include "config.h"
#include "unit.h"
#include "roce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void printable_replaces_control_bytes_and_truncates(void **state)
{
	(void)state;
	char out[8];
	roce_printable("a\nb\x1b[c", out, sizeof(out));
	assert_string_equal(out, "a?b?[c");
	roce_printable("0123456789", out, sizeof(out));
	assert_string_equal(out, "0123456");
	roce_printable("\xff\xfe", out, sizeof(out));
	assert_string_equal(out, "??");
	roce_printable(NULL, out, sizeof(out));
	assert_string_equal(out, "");
}

static void request_without_value_means_site_mode(void **state)
{
	(void)state;
	struct roce_request r;
	const char *none[] = { NULL, "", "(null)" };
	for (size_t i = 0; i < 3; i++) {
		roce_request_parse(&r, none[i], "--roce");
		assert_true(r.given);
		assert_true(r.valid);
		assert_true(r.site_mode);
	}
}

static void request_modes(void **state)
{
	(void)state;
	struct roce_request r;
	roce_request_parse(&r, "strict", "--roce");
	assert_true(r.valid);
	assert_false(r.site_mode);
	assert_int_equal(r.mode, ROCE_MODE_STRICT);
	roce_request_parse(&r, "Warn", "SLURM_ROCE");
	assert_true(r.valid);
	assert_int_equal(r.mode, ROCE_MODE_WARN);
	assert_string_equal(r.source, "SLURM_ROCE");
	roce_request_parse(&r, "off", "--roce");
	assert_true(r.valid);
	assert_int_equal(r.mode, ROCE_MODE_OFF);
}

static void request_refuses_hostile_values(void **state)
{
	(void)state;
	struct roce_request r;
	const char *bad[] = { "bogus", "warn;id", "warn\n", "warn x", " warn", "strict$(reboot)", "stric", "warnwarn",
	                      "off=1", "\x1b[31mwarn" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		roce_request_parse(&r, bad[i], "--roce");
		assert_true(r.given);
		assert_false(r.valid);
		for (const char *p = r.raw; *p; p++)
			assert_true(*p >= 0x20 && *p < 0x7f);
	}
	char *big = malloc(5001);
	assert_non_null(big);
	memset(big, 'w', 5000);
	big[5000] = '\0';
	roce_request_parse(&r, big, "--roce");
	assert_false(r.valid);
	assert_int_equal(strlen(r.raw), sizeof(r.raw) - 1);
	free(big);
}

static int parse(struct roce_args *a, struct roce_error *err, int ac, ...)
{
	char *av[80];
	va_list ap;
	va_start(ap, ac);
	for (int i = 0; i < ac; i++)
		av[i] = va_arg(ap, char *);
	va_end(ap);
	memset(err, 0, sizeof(*err));
	return roce_args_parse(ac, av, a, err);
}

static void args_parse_keys(void **state)
{
	(void)state;
	struct roce_args a;
	struct roce_error err;
	assert_int_equal(parse(&a, &err, 0), 0);
	assert_int_equal(a.default_mode, ROCE_MODE_OFF);
	assert_string_equal(a.config, "");
	assert_int_equal(parse(&a, &err, 4, "config=/etc/x.conf", "default=strict", "Mtu=9000", "GidIndex=auto"), 0);
	assert_string_equal(a.config, "/etc/x.conf");
	assert_int_equal(a.default_mode, ROCE_MODE_STRICT);
	assert_int_equal(a.n_kv, 2);
	assert_string_equal(a.kv[0], "Mtu=9000");
	assert_string_equal(a.kv[1], "GidIndex=auto");
}

static void args_parse_errors_name_the_argument(void **state)
{
	(void)state;
	struct roce_args a;
	struct roce_error err;
	assert_int_equal(parse(&a, &err, 1, "turbo"), -1);
	assert_non_null(strstr(err.msg, "\"turbo\" is not Key=Value"));
	assert_int_equal(parse(&a, &err, 1, "config=relative/path"), -1);
	assert_non_null(strstr(err.msg, "absolute path"));
	assert_int_equal(parse(&a, &err, 1, "default=on"), -1);
	assert_non_null(strstr(err.msg, "default= takes off, warn or strict"));
	assert_int_equal(parse(&a, &err, 1, "turbo\x1b[2J"), -1);
	assert_non_null(strstr(err.msg, "turbo?[2J"));

	char *av[ROCE_ARGS_MAX + 1];
	for (int i = 0; i <= ROCE_ARGS_MAX; i++)
		av[i] = "Mtu=9000";
	assert_int_equal(roce_args_parse(ROCE_ARGS_MAX, av, &a, &err), 0);
	assert_int_equal(roce_args_parse(ROCE_ARGS_MAX + 1, av, &a, &err), -1);
	assert_non_null(strstr(err.msg, "more than"));
}

static void args_policy_arguments_win_over_the_file(void **state)
{
	(void)state;
	char path[] = "/tmp/test_spank_request.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char conf[] = "Mtu=4200 GidIndex=5\nMode=strict\n";
	assert_int_equal(write(fd, conf, sizeof(conf) - 1), (ssize_t)sizeof(conf) - 1);
	close(fd);

	struct roce_args a;
	struct roce_error err;
	struct roce_policy p;
	char cfg[64];
	snprintf(cfg, sizeof(cfg), "config=%s", path);
	assert_int_equal(parse(&a, &err, 2, cfg, "Mtu=9000"), 0);
	assert_int_equal(roce_args_policy(&a, &p, &err), 0);
	assert_int_equal(p.mtu, 9000);            /* argument */
	assert_int_equal(p.gid_index, 5);         /* file */
	assert_int_equal(p.mode, ROCE_MODE_STRICT);

	assert_int_equal(parse(&a, &err, 2, cfg, "Mtu=jumbo"), 0);
	assert_int_equal(roce_args_policy(&a, &p, &err), -1);
	assert_non_null(strstr(err.msg, "plugstack.conf: Mtu: invalid value \"jumbo\""));

	unlink(path);
	/* config= names a file that must exist; the default one may be missing */
	assert_int_equal(parse(&a, &err, 1, cfg), 0);
	assert_int_equal(roce_args_policy(&a, &p, &err), -1);
	assert_non_null(strstr(err.msg, path));
}

static void exported_marks(void **state)
{
	(void)state;
	char list[128] = "";
	assert_int_equal(roce_exported_add(list, sizeof(list), "NCCL_IB_HCA", "=mlx5_0:1"), 0);
	assert_int_equal(roce_exported_add(list, sizeof(list), "NCCL_IB_GID_INDEX", "3"), 0);
	assert_true(roce_exported_has(list, "NCCL_IB_HCA", "=mlx5_0:1"));
	assert_true(roce_exported_has(list, "NCCL_IB_GID_INDEX", "3"));
	/* the user changed the value: no longer ours */
	assert_false(roce_exported_has(list, "NCCL_IB_HCA", "=mlx5_1:1"));
	/* names are compared whole */
	assert_false(roce_exported_has(list, "NCCL_IB_HC", "=mlx5_0:1"));
	assert_false(roce_exported_has(list, "IB_HCA", "=mlx5_0:1"));
	assert_false(roce_exported_has("", "NCCL_IB_HCA", "=mlx5_0:1"));
	assert_false(roce_exported_has(NULL, "NCCL_IB_HCA", "=mlx5_0:1"));

	char small[24] = "";
	assert_int_equal(roce_exported_add(small, sizeof(small), "NCCL_IB_HCA", "x"), 0);
	assert_int_equal(roce_exported_add(small, sizeof(small), "NCCL_IB_GID_INDEX", "3"), -1);
	assert_false(roce_exported_has(small, "NCCL_IB_GID_INDEX", "3"));
	assert_true(roce_exported_has(small, "NCCL_IB_HCA", "x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(printable_replaces_control_bytes_and_truncates),
		cmocka_unit_test(request_without_value_means_site_mode),
		cmocka_unit_test(request_modes),
		cmocka_unit_test(request_refuses_hostile_values),
		cmocka_unit_test(args_parse_keys),
		cmocka_unit_test(args_parse_errors_name_the_argument),
		cmocka_unit_test(args_policy_arguments_win_over_the_file),
		cmocka_unit_test(exported_marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
