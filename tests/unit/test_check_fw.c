/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check_fw.c - the firmware check (check_fw.c) over models built in memory. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "fixtures.h"

static void t_same_firmware(void **state)
{
	struct fx_check *f = *state;
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "firmware", ROCE_PASS), 1);   /* one per model */
	const struct roce_finding *fd = fx_finding(&f->check, "firmware", "mlx5_0", ROCE_PASS);
	assert_non_null(fd);
	assert_string_equal(fd->message, "MT4123 (MT_0000000223) firmware 20.39.1002 (3 adapters)");
	assert_int_equal(f->check.n_warn, 0);
}

static void t_mixed_firmware(void **state)
{
	struct fx_check *f = *state;
	snprintf(f->node.devices[2].fw_ver, sizeof(f->node.devices[2].fw_ver), "20.35.1012");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "firmware", "mlx5_0", ROCE_WARN);
	assert_non_null(fd);
	assert_non_null(strstr(fd->message, "MT4123 (MT_0000000223) adapters on this node run different firmware "
	                                    "(mlx5_0 20.39.1002, mlx5_1 20.39.1002, mlx5_2 20.35.1012): flash them all"));
	assert_false(fd->hardware);
	assert_int_equal(fx_finding_count(&f->check, "firmware", ROCE_WARN), 1);
	assert_false(f->check.failed);
	f->policy.mode = ROCE_MODE_STRICT;
	fx_check_run(f);
	assert_false(f->check.failed);   /* a warning: the ports work */

	/* Another model is another group: no mix across models. */
	snprintf(f->node.devices[2].hca_type, sizeof(f->node.devices[2].hca_type), "MT4129");
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "firmware", ROCE_WARN), 0);
	assert_int_equal(fx_finding_count(&f->check, "firmware", ROCE_PASS), 2);
	assert_non_null(fx_finding(&f->check, "firmware", "mlx5_2", ROCE_PASS));
}

/* An unreadable fw_ver is unknown, naming the file; a missing one (an old kernel) says nothing. */
static void t_unreadable(void **state)
{
	struct fx_check *f = *state;
	roce_reading_set(&f->node.devices[1].fw_ver_read, ROCE_MALFORMED, 0,
	                 "/sys/class/infiniband/mlx5_1/fw_ver: value is not text");
	fx_check_run(f);
	const struct roce_finding *fd = fx_finding(&f->check, "firmware", "mlx5_1", ROCE_UNKNOWN);
	assert_non_null(fd);
	assert_string_equal(fd->message, "mlx5_1 firmware version cannot be read (malformed: "
	                                 "/sys/class/infiniband/mlx5_1/fw_ver: value is not text)");
	assert_string_equal(fx_finding(&f->check, "firmware", "mlx5_0", ROCE_PASS)->message, "MT4123 (MT_0000000223) firmware 20.39.1002 (2 adapters)");
	roce_reading_set(&f->node.devices[1].fw_ver_read, ROCE_MISSING, 2, "x");
	fx_check_run(f);
	assert_int_equal(fx_finding_count(&f->check, "firmware", ROCE_UNKNOWN), 0);
	/* The first device unreadable: the next one speaks for the model. */
	roce_reading_set(&f->node.devices[0].fw_ver_read, ROCE_UNREADABLE, 13, "x/fw_ver: Permission denied");
	fx_check_run(f);
	assert_non_null(fx_finding(&f->check, "firmware", "mlx5_0", ROCE_UNKNOWN));
	assert_non_null(fx_finding(&f->check, "firmware", "mlx5_2", ROCE_PASS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_same_firmware, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_mixed_firmware, fx_check_setup3, fx_check_teardown),
		cmocka_unit_test_setup_teardown(t_unreadable, fx_check_setup3, fx_check_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
