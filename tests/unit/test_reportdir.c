/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_reportdir.c - a job's fragments read from a directory written here. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixtures.h"

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/reportdir.h"
#include "scratch.h"

static void t_load_dir(void **state)
{
	(void)state;
	char dir[256];
	struct roce_error err;
	struct roce_job_report r;
	struct roce_delta d;
	assert_int_equal(fx_tmpdir(dir, sizeof(dir), "test_reportdir"), 0);
	fx_delta(&d, 1, 10);
	json_object *f = fx_fragment("n1", &d, NULL);
	fx_putf(dir, "n1.json", "%s", json_object_to_json_string(f));
	fx_putf(dir, "n2.json", "%s", json_object_to_json_string(f));   /* n1's content under n2's name */
	fx_putf(dir, ".n3.json.0123456789abcdef", "{\"partial");    /* an epilog's temporary */
	fx_putf(dir, "n4.json", "{\"schema\": \"slurm-roce/fragment/1\", \"job_id\": \"4242\"");
	fx_putf(dir, "n6.txt", "not a fragment");                  /* not *.json: not read */
	char target[PATH_MAX];
	snprintf(target, sizeof(target), "%s/n1.json", dir);
	char link[PATH_MAX];
	snprintf(link, sizeof(link), "%s/n5.json", dir);
	assert_int_equal(symlink(target, link), 0);
	/* a FIFO (never opened) and, as root, a fragment of uid 1000's job whose
	 * file someone else owns (on a file system without ACLs they could write it) */
	snprintf(target, sizeof(target), "%s/n6.json", dir);
	assert_int_equal(mkfifo(target, 0644), 0);
	bool root = geteuid() == 0;
	if (root) {
		json_object *f7 = fx_fragment("n7", &d, NULL);
		fx_putf(dir, "n7.json", "%s", json_object_to_json_string(f7));
		json_object_put(f7);
		snprintf(target, sizeof(target), "%s/n7.json", dir);
		assert_int_equal(chown(target, 5000, 5000), 0);
	}
	json_object_put(f);
	roce_delta_free(&d);

	roce_report_init(&r, "4242");
	assert_int_equal(roce_reportdir_load(&r, dir, &err), 0);
	roce_report_sort(&r);
	assert_int_equal(r.n_nodes, 1);
	assert_int_equal(r.n_errors, root ? 5 : 4);
	char all[2048] = "";
	for (size_t i = 0; i < r.n_errors; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s\n", r.errors[i]);
	assert_non_null(strstr(all, "n2.json: the node name inside does not match"));
	assert_non_null(strstr(all, "n4.json: not valid JSON"));
	assert_non_null(strstr(all, "n5.json: cannot read"));   /* symlinks are not followed */
	assert_non_null(strstr(all, "n6.json: not a regular file (a FIFO)"));
	if (root)
		assert_non_null(strstr(all, "n7.json: owned by uid 5000, neither root nor its job_uid 1000"));
	roce_report_free(&r);
	/* the job directory itself through a symlink: not followed */
	char linked[PATH_MAX];
	snprintf(linked, sizeof(linked), "%s.link", dir);
	assert_int_equal(symlink(dir, linked), 0);
	roce_report_init(&r, "4242");
	assert_int_equal(roce_reportdir_load(&r, linked, &err), -1);
	assert_non_null(strstr(err.msg, "is a symbolic link"));
	roce_report_free(&r);
	unlink(linked);

	roce_report_init(&r, "4242");
	assert_int_equal(roce_reportdir_load(&r, "/nonexistent/4242", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/4242"));
	roce_report_free(&r);
	assert_int_equal(fx_rmtree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_load_dir),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
