/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_plugstack.c - finding the line that loads spank_roce.so as slurmd
 * does (lib/read/plugstack.c), on real files: slurm.conf's PlugStackConfig,
 * Debian's include of plugstack.conf.d/, comments, a second line, loops. */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/plugstack.h"
#include "scratch.h"

static char dir[256];

static void put(const char *name, const char *text) { fx_putf(dir, name, "%s", text); }

static int setup(void **state)
{
	(void)state;
	if (fx_tmpdir(dir, sizeof(dir), "test_plugstack") < 0)
		return -1;
	fx_mkdirs(dir, "plugstack.conf.d");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fx_rmtree(dir);
}

static int find(struct roce_plugstack *ps, struct roce_error *err)
{
	char conf[512];
	snprintf(conf, sizeof(conf), "%s/slurm.conf", dir);
	return roce_plugstack_find(conf, NULL, ps, err);
}

/* Debian's layout: plugstack.conf beside slurm.conf includes every plugstack.conf.d file. */
static void t_debian_layout(void **state)
{
	(void)state;
	struct roce_plugstack ps;
	struct roce_error err = { "" };
	char want[512];

	put("slurm.conf", "ClusterName=lab\nSlurmctldHost=ctl\n");
	put("plugstack.conf", "include /nonexistent/*.conf\ninclude plugstack.conf.d/*.conf\n");
	put("plugstack.conf.d/other.conf", "optional /usr/lib/slurm/spank_pyxis.so\n");
	put("plugstack.conf.d/roce.conf", "# the roce plugin\n\noptional  spank_roce.so default=warn\tMtu=9000 # jumbo\n");
	assert_int_equal(find(&ps, &err), 0);
	snprintf(want, sizeof(want), "%s/plugstack.conf", dir);
	assert_string_equal(ps.stack, want);
	assert_int_equal(ps.n_files, 3);
	assert_int_equal(ps.n_loads, 1);
	snprintf(want, sizeof(want), "%s/plugstack.conf.d/roce.conf", dir);
	assert_string_equal(ps.first.file, want);
	assert_int_equal(ps.first.line, 3);
	assert_false(ps.first.required);
	assert_string_equal(ps.first.path, "spank_roce.so");
	assert_int_equal(ps.first.ac, 2);
	assert_string_equal(ps.first.av[0], "default=warn");
	assert_string_equal(ps.first.av[1], "Mtu=9000");
	assert_int_equal(ps.commented_line, 0);
}

/* PlugStackConfig= (any case, quoted, in an included slurm.conf part) and
 * PluginDir=; a missing plugstack file is an empty one, as for slurmd. */
static void t_plugstackconfig_and_missing(void **state)
{
	(void)state;
	struct roce_plugstack ps;
	struct roce_error err = { "" };
	char text[768];

	snprintf(text, sizeof(text), "PluginDir=/opt/slurm/lib:/usr/lib/slurm\ninclude %s/more.conf\n", dir);
	put("slurm.conf", text);
	snprintf(text, sizeof(text), "SlurmdPort=6818 plugstackconfig=\"%s/stack.conf\" # ours\n", dir);
	put("more.conf", text);
	put("stack.conf", "required /usr/lib/x86_64-linux-gnu/slurm-wlm/spank_roce.so\n"
	                  "optional spank_roce.so default=strict\n");
	assert_int_equal(find(&ps, &err), 0);
	assert_string_equal(ps.plugin_dir, "/opt/slurm/lib:/usr/lib/slurm");
	assert_int_equal(ps.n_loads, 2);
	assert_int_equal(ps.first.line, 1); /* slurmd loads the first and refuses the second */
	assert_true(ps.first.required);
	assert_int_equal(ps.first.ac, 0);

	snprintf(text, sizeof(text), "PlugStackConfig=%s/none.conf\n", dir);
	put("slurm.conf", text);
	assert_int_equal(find(&ps, &err), 0);
	assert_int_equal(ps.n_files, 0);
	assert_int_equal(ps.n_loads, 0);

	/* no slurm.conf: nothing can be told */
	char conf[512];
	snprintf(conf, sizeof(conf), "%s/nothing.conf", dir);
	assert_int_equal(roce_plugstack_find(conf, NULL, &ps, &err), -1);
	assert_non_null(strstr(err.msg, "nothing.conf"));
	/* SLURM_CONF is where slurm.conf is */
	put("slurm.conf", "ClusterName=lab\n");
	put("plugstack.conf", "optional spank_roce.so\n");
	snprintf(conf, sizeof(conf), "%s/slurm.conf", dir);
	setenv("SLURM_CONF", conf, 1);
	assert_int_equal(roce_plugstack_find(NULL, NULL, &ps, &err), 0);
	assert_int_equal(ps.n_loads, 1);
	assert_string_equal(ps.slurm_conf, conf);
	unsetenv("SLURM_CONF");
}

/* Lines slurmd does not load: commented out, another plugin, a bad kind;
 * an include of itself ends. */
static void t_lines_that_load_nothing(void **state)
{
	(void)state;
	struct roce_plugstack ps;
	struct roce_error err = { "" };

	put("slurm.conf", "ClusterName=lab\n");
	put("plugstack.conf", "include plugstack.conf.d/*.conf\n");
	put("plugstack.conf.d/roce.conf", "#optional spank_roce.so default=off\n"
	                                  "Optional spank_roce.so\n"
	                                  "optional /x/spank_roce.so.bak\n"
	                                  "optional /x/not_spank_roce.so\n");
	assert_int_equal(find(&ps, &err), 0);
	assert_int_equal(ps.n_loads, 0);
	assert_int_equal(ps.commented_line, 1);
	assert_non_null(strstr(ps.commented_file, "plugstack.conf.d/roce.conf"));

	put("plugstack.conf", "include plugstack.conf\noptional spank_roce.so\n");
	assert_int_equal(find(&ps, &err), 0);
	assert_true(ps.n_loads >= 1);
	assert_non_null(strstr(ps.problem.msg, "nested deeper"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_debian_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(t_plugstackconfig_and_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(t_lines_that_load_nothing, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
