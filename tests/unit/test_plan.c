/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_plan.c - the plan's variable writer (lib/check/plan.h: roce_plan_setf,
 * roce_plan_list_add, roce_plan_get), which roce_plan_build and
 * roce_agreed_apply share.  roce_plan_build itself is tested over whole
 * checks in test_check*.c, roce_agreed_apply in test_agree.c.
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "check/plan.h"

/* A new name goes last; a name the plan has keeps its place and gets the new value. */
static void t_set_add_and_overwrite(void **state)
{
	(void)state;
	struct roce_plan p = { 0 };
	assert_int_equal(roce_plan_setf(&p, "NCCL_IB_HCA", "%s", "=mlx5_0:1"), 0);
	assert_int_equal(roce_plan_setf(&p, "NCCL_IB_GID_INDEX", "%d", 3), 0);
	assert_int_equal(p.n_vars, 2);
	assert_string_equal(p.vars[0].name, "NCCL_IB_HCA");
	assert_string_equal(p.vars[1].name, "NCCL_IB_GID_INDEX");
	assert_string_equal(roce_plan_get(&p, "NCCL_IB_GID_INDEX"), "3");

	assert_int_equal(roce_plan_setf(&p, "NCCL_IB_HCA", "%s", "=mlx5_1:1"), 0);
	assert_int_equal(p.n_vars, 2);
	assert_string_equal(p.vars[0].value, "=mlx5_1:1");
	/* a shorter value leaves nothing of the longer one behind */
	assert_int_equal(roce_plan_setf(&p, "NCCL_IB_HCA", "%s", "=x"), 0);
	assert_string_equal(roce_plan_get(&p, "NCCL_IB_HCA"), "=x");
	assert_null(roce_plan_get(&p, "NCCL_IB_TC"));
	/* names compare whole: a prefix is another name */
	assert_int_equal(roce_plan_setf(&p, "NCCL_IB", "%s", "y"), 0);
	assert_int_equal(p.n_vars, 3);
	assert_string_equal(roce_plan_get(&p, "NCCL_IB_HCA"), "=x");
}

/* ROCE_PLAN_VARS names at most: one more is refused and changes nothing; overwriting still works. */
static void t_set_full(void **state)
{
	(void)state;
	struct roce_plan p = { 0 }, before;
	char name[32];
	for (int i = 0; i < ROCE_PLAN_VARS; i++) {
		snprintf(name, sizeof(name), "V%d", i);
		assert_int_equal(roce_plan_setf(&p, name, "%d", i), 0);
	}
	memcpy(&before, &p, sizeof(p));
	assert_int_equal(roce_plan_setf(&p, "ONE_MORE", "%s", "x"), -1);
	assert_memory_equal(&p, &before, sizeof(p));
	assert_null(roce_plan_get(&p, "ONE_MORE"));
	assert_int_equal(roce_plan_setf(&p, "V7", "%s", "seven"), 0);
	assert_int_equal(p.n_vars, ROCE_PLAN_VARS);
	assert_string_equal(roce_plan_get(&p, "V7"), "seven");
}

/* A value longer than the slot: -1, the variable set to what fits. */
static void t_set_too_long(void **state)
{
	(void)state;
	struct roce_plan p = { 0 };
	const size_t max = sizeof(p.vars[0].value) - 1;
	char v[sizeof(p.vars[0].value) + 1];
	memset(v, 'a', sizeof(v) - 1);
	v[sizeof(v) - 1] = '\0';
	v[max] = '\0';
	assert_int_equal(roce_plan_setf(&p, "FITS", "%s", v), 0); /* exactly a slot's text: fits */
	assert_int_equal(strlen(roce_plan_get(&p, "FITS")), max);
	v[max] = 'a';
	assert_int_equal(roce_plan_setf(&p, "CUT", "%s", v), -1);
	assert_int_equal(p.n_vars, 2);
	assert_int_equal(strlen(roce_plan_get(&p, "CUT")), max);
	assert_int_equal(roce_plan_setf(&p, "FITS", "%s", v), -1); /* the same when overwriting */
	assert_int_equal(strlen(roce_plan_get(&p, "FITS")), max);
}

/* "=a" first, ",b" after, an entry already there once only (whole entries: mlx5_1 is not in mlx5_10). */
static void t_list_add(void **state)
{
	(void)state;
	char list[64] = "";
	roce_plan_list_add(list, sizeof(list), "mlx5_10:1");
	assert_string_equal(list, "=mlx5_10:1");
	roce_plan_list_add(list, sizeof(list), "mlx5_1:1");
	assert_string_equal(list, "=mlx5_10:1,mlx5_1:1");
	roce_plan_list_add(list, sizeof(list), "mlx5_1:1");
	roce_plan_list_add(list, sizeof(list), "mlx5_10:1");
	assert_string_equal(list, "=mlx5_10:1,mlx5_1:1");
	roce_plan_list_add(list, sizeof(list), "mlx5_1");
	roce_plan_list_add(list, sizeof(list), "mlx5_10:10");
	roce_plan_list_add(list, sizeof(list), "1:1");
	assert_string_equal(list, "=mlx5_10:1,mlx5_1:1,mlx5_1,mlx5_10:10,1:1");
	roce_plan_list_add(list, sizeof(list), "mlx5_1");
	roce_plan_list_add(list, sizeof(list), "1:1");
	assert_string_equal(list, "=mlx5_10:1,mlx5_1:1,mlx5_1,mlx5_10:10,1:1");

	/* netdevs, as the plan and the agreement list them */
	char ifs[32] = "";
	roce_plan_list_add(ifs, sizeof(ifs), "eth0");
	roce_plan_list_add(ifs, sizeof(ifs), "eth1");
	roce_plan_list_add(ifs, sizeof(ifs), "eth0");
	assert_string_equal(ifs, "=eth0,eth1");
}

/* What does not fit is cut at len, never written past it. */
static void t_list_bounds(void **state)
{
	(void)state;
	struct {
		char list[8];
		char guard[8];
	} b;
	memset(&b, 'G', sizeof(b));
	b.list[0] = '\0';
	roce_plan_list_add(b.list, sizeof(b.list), "abc");
	roce_plan_list_add(b.list, sizeof(b.list), "defg");
	assert_string_equal(b.list, "=abc,de");
	roce_plan_list_add(b.list, sizeof(b.list), "xyz"); /* full: nothing more */
	assert_string_equal(b.list, "=abc,de");
	for (size_t i = 0; i < sizeof(b.guard); i++)
		assert_int_equal(b.guard[i], 'G');
	/* the first item alone longer than the list */
	memset(&b, 'G', sizeof(b));
	b.list[0] = '\0';
	roce_plan_list_add(b.list, sizeof(b.list), "a_long_netdev");
	assert_string_equal(b.list, "=a_long");
	for (size_t i = 0; i < sizeof(b.guard); i++)
		assert_int_equal(b.guard[i], 'G');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_set_add_and_overwrite),
		cmocka_unit_test(t_set_full),
		cmocka_unit_test(t_set_too_long),
		cmocka_unit_test(t_list_add),
		cmocka_unit_test(t_list_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
