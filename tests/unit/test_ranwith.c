/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_ranwith.c - what a job ran with: the StateDir record, JSON, verdicts. */
#include "config.h"
#include "unit.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fragment/ranwith.h"
#include "read/safefile.h"

static void t_record_take(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_ranwith.XXXXXX", path[64];
	struct roce_error err = { "" };
	struct roce_ranwith a = { .n = 0 }, b = { .n = 0 }, c = { .n = 0 }, got;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	/* step 1: the user's own NCCL_IB_HCA; step 2 does not have it: the override stays */
	roce_ranwith_set(&a, "NCCL_IB_HCA", "=mlx5_0:1", "=mlx5_0:1,mlx5_1:1", true);
	roce_ranwith_set(&a, "NCCL_IB_GID_INDEX", "3", "3", false);
	assert_int_equal(roce_ranwith_record(path, "77", "gpu01", &a, &err), 0);
	roce_ranwith_set(&b, "NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1", "=mlx5_0:1,mlx5_1:1", false);
	roce_ranwith_set(&b, "NCCL_IB_TC", "104", "104", false);
	assert_int_equal(roce_ranwith_record(path, "77", "gpu01", &b, &err), 0);
	/* another node of the job on the same StateDir (a shared file system by
	 * mistake): its own record, never merged into gpu01's */
	roce_ranwith_set(&c, "NCCL_IB_HCA", "=mlx5_2:1", "=mlx5_2:1", false);
	assert_int_equal(roce_ranwith_record(path, "77", "gpu02", &c, &err), 0);
	char file[96];
	struct stat st;
	snprintf(file, sizeof(file), "%s/77.gpu01.ranwith.json", path);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	int sfd = open(path, O_RDONLY | O_DIRECTORY);
	assert_true(sfd >= 0);
	assert_int_equal(roce_ranwith_take(sfd, "77", "gpu01", &got, &err), 0);
	assert_int_equal(got.n, 3);
	assert_string_equal(got.v[0].name, "NCCL_IB_HCA");
	assert_string_equal(got.v[0].value, "=mlx5_0:1");
	assert_true(got.v[0].user);
	assert_string_equal(got.v[2].name, "NCCL_IB_TC");
	assert_int_equal(access(file, F_OK), -1);                               /* taken */
	assert_int_equal(roce_ranwith_take(sfd, "77", "gpu01", &got, &err), 0); /* none: empty */
	assert_int_equal(got.n, 0);
	assert_int_equal(roce_ranwith_take(sfd, "77", "gpu02", &got, &err), 0);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0].value, "=mlx5_2:1");
	/* a record from before per-node names (steps that ran before an upgrade) */
	snprintf(file, sizeof(file), "%s/78.ranwith.json", path);
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	const char *old = "{\"schema\":\"slurm-roce/ranwith/1\",\"ran_with\":[{\"name\":\"NCCL_IB_TC\","
	                  "\"value\":\"106\",\"checked\":\"104\",\"user\":true}]}";
	assert_int_equal(write(fd, old, strlen(old)), (ssize_t)strlen(old));
	close(fd);
	assert_int_equal(roce_ranwith_take(sfd, "78", "gpu01", &got, &err), 0);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0].value, "106");
	assert_int_equal(access(file, F_OK), -1);
	close(sfd);
	rmdir(path);
	rmdir(dir);
}

/* A step that runs with what is recorded rewrites nothing (each step of a
 * job after the first: no write per step); a new value is written. */
static void t_unchanged_not_rewritten(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_ranwith.XXXXXX", path[64], file[96];
	struct roce_error err = { "" };
	struct roce_ranwith a = { .n = 0 };
	struct stat st1, st2, st3;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	snprintf(file, sizeof(file), "%s/78.gpu01.ranwith.json", path);
	roce_ranwith_set(&a, "NCCL_IB_HCA", "=mlx5_0:1", "=mlx5_0:1", false);
	roce_ranwith_set(&a, "NCCL_IB_GID_INDEX", "3", "3", false);
	assert_int_equal(roce_ranwith_record(path, "78", "gpu01", &a, &err), 0);
	assert_int_equal(stat(file, &st1), 0);
	assert_int_equal(roce_ranwith_record(path, "78", "gpu01", &a, &err), 0);
	assert_int_equal(stat(file, &st2), 0);
	assert_int_equal(st1.st_ino, st2.st_ino); /* the same file: not replaced */
	roce_ranwith_set(&a, "NCCL_IB_GID_INDEX", "5", "5", false);
	assert_int_equal(roce_ranwith_record(path, "78", "gpu01", &a, &err), 0);
	assert_int_equal(stat(file, &st3), 0);
	assert_int_not_equal(st1.st_ino, st3.st_ino);
	unlink(file);
	rmdir(path);
	rmdir(dir);
}

static void t_json_verdicts(void **state)
{
	(void)state;
	struct roce_ranwith a = { .n = 0 }, back;
	struct roce_verdict_list v = { 0 };
	struct roce_error err = { "" };
	roce_ranwith_set(&a, "NCCL_IB_HCA", "mlx5\x1b[31m", "=mlx5_0:1", true); /* hostile: made printable */
	roce_ranwith_set(&a, "NCCL_IB_TC", "104", "104", true);                 /* the user's, but the same */
	json_object *j = roce_ranwith_to_json(&a);
	assert_int_equal(roce_ranwith_from_json(j, &back, &err), 0);
	json_object_put(j);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.v[0].value, "mlx5\\x1b[31m");
	assert_int_equal(roce_ranwith_verdicts(&back, &v), 0);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.v[0].code, "user_override");
	assert_string_equal(v.v[0].subject, "NCCL_IB_HCA");
	assert_non_null(strstr(v.v[0].message, "NCCL_IB_HCA=mlx5\\x1b[31m"));
	assert_non_null(strstr(v.v[0].message, "=mlx5_0:1"));
	roce_verdict_list_free(&v);
	json_object *bad = json_tokener_parse("[{\"name\": \"X\", \"value\": 3, \"checked\": \"\", \"user\": true}]");
	assert_int_equal(roce_ranwith_from_json(bad, &back, &err), -1);
	assert_non_null(strstr(err.msg, "ran_with[0]"));
	json_object_put(bad);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_record_take),
		cmocka_unit_test(t_unchanged_not_rewritten),
		cmocka_unit_test(t_json_verdicts),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
