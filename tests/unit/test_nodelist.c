/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_nodelist.c - node lists in Slurm's hostlist form without libslurm
 * (lib/base/nodelist.c's roce_nodelist_ranged), against what
 * slurm_hostlist_ranged_string() prints for the same names in the same order.
 */
#include "config.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "base/nodelist.h"

static void same(const char *want, size_t n, const char *const *names)
{
	char *got = roce_nodelist_ranged(names, n);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void t_ranged(void **state)
{
	(void)state;
	same("node3", 1, (const char *[]){ "node3" });
	same("node[1-3,7]", 4, (const char *[]){ "node1", "node2", "node3", "node7" });
	same("node[1,3]", 2, (const char *[]){ "node1", "node3" });
	same("node[01-03]", 3, (const char *[]){ "node01", "node02", "node03" });
	same("node[9-10]", 2, (const char *[]){ "node9", "node10" });
	same("gpu-a1,gpu-b[2-3]", 3, (const char *[]){ "gpu-a1", "gpu-b2", "gpu-b3" });
	same("login,node[1-2]", 3, (const char *[]){ "login", "node1", "node2" });
	/* out of order: runs as they come, as libslurm without a sort */
	same("node[3,1-2]", 3, (const char *[]){ "node3", "node1", "node2" });
	/* a number inside a name is no suffix: rack1-n1 and rack1-n2 share "rack1-n" */
	same("rack1-n[1-2]", 2, (const char *[]){ "rack1-n1", "rack1-n2" });
	same("", 0, (const char *[]){ NULL });
	/* more than 9 digits are part of the prefix */
	same("n1234567890,n1234567891", 2, (const char *[]){ "n1234567890", "n1234567891" });
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(t_ranged) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
