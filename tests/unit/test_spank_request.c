/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_spank_request.c - the plugin's handling of user and site input:
 * --roce / SLURM_ROCE values and the mode they mean in every combination
 * (spank/request.c), the marks on exported values (spank/exported.c); and the --roce option callback
 * (spank/option.c), reached through the struct spank_option it registers.
 * All of it is hostile input.
 *
 * Slurm's side of option.c (spank_option_register, slurm_error...) is
 * played by the few functions below: they capture the registered option and
 * the error lines, as srun/sbatch would print them.
 */
#include "config.h"
#include "unit.h"
#include "roce.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ Slurm's side of option.c */

static struct spank_option *registered;
static int n_errors;
static char last_error[512];

spank_err_t spank_option_register(spank_t sp, struct spank_option *opt)
{
	(void)sp;
	registered = opt;
	return ESPANK_SUCCESS;
}

spank_err_t spank_option_getopt(spank_t sp, struct spank_option *opt, char **optarg)
{
	(void)sp;
	(void)opt;
	(void)optarg;
	return ESPANK_NOT_AVAIL;
}

const char *spank_strerror(spank_err_t err)
{
	(void)err;
	return "error";
}

void slurm_error(const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	vsnprintf(last_error, sizeof(last_error), format, ap);
	va_end(ap);
	n_errors++;
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

/* The mode every kind of request means, under every plugstack default= and
 * every roce.conf Mode=: the one decision slurmstepd and the job prolog
 * share (style.md example 2). */
enum meaning { FALLBACK, SITE, ASKED };

static void request_mode_every_combination(void **state)
{
	(void)state;
	static const struct {
		const char *value;     /* "-": no request at all; "0": one never given */
		enum meaning means;
		enum roce_mode asked;
	} cases[] = {
		{ "-", FALLBACK, 0 },              { "0", FALLBACK, 0 },
		{ NULL, SITE, 0 },                 { "", SITE, 0 },
		{ "(null)", SITE, 0 },             { "off", ASKED, ROCE_MODE_OFF },
		{ "Warn", ASKED, ROCE_MODE_WARN }, { "STRICT", ASKED, ROCE_MODE_STRICT },
		{ "bogus", FALLBACK, 0 },          { "warn;id", FALLBACK, 0 },
		{ "site", FALLBACK, 0 },           { "(too long)", FALLBACK, 0 },
	};
	static const enum roce_mode modes[] = { ROCE_MODE_OFF, ROCE_MODE_WARN, ROCE_MODE_STRICT };
	struct roce_request r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct roce_request *rp = &r;
		memset(&r, 0, sizeof(r));
		if (cases[i].value && strcmp(cases[i].value, "-") == 0)
			rp = NULL;
		else if (!cases[i].value || strcmp(cases[i].value, "0") != 0)
			roce_request_parse(&r, cases[i].value, "SLURM_ROCE");
		for (size_t f = 0; f < 3; f++)
			for (size_t m = 0; m < 3; m++) {
				enum roce_mode want = cases[i].means == FALLBACK ? modes[f]
				                      : cases[i].means == SITE   ? modes[m]
				                                                 : cases[i].asked;
				enum roce_mode got = roce_request_mode(rp, modes[f], modes[m]);
				if (got != want)
					print_error("request \"%s\", default=%s, Mode=%s: %s, want %s\n",
					            cases[i].value ? cases[i].value : "(none)", roce_mode_name(modes[f]),
					            roce_mode_name(modes[m]), roce_mode_name(got), roce_mode_name(want));
				assert_int_equal(got, want);
			}
	}
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

/* ------------------------------------------------------------------ the option callback, twice */

/* The callback keeps its request in a static, as each srun or slurmstepd
 * holds one: every sequence below runs in a child process (fork) of a parent
 * that registered the option but never called it.  No cmocka asserts in the
 * child: its exit status is the verdict. */
static void option_calls(const char *const *values, size_t n, int remote, int *rc)
{
	n_errors = 0;
	last_error[0] = '\0';
	for (size_t i = 0; i < n; i++)
		rc[i] = registered->cb(registered->val, values[i], remote);
}

struct twice {
	const char *a, *b;
	int remote;
	int rc_a, rc_b;          /* what the callback returns each time */
	bool valid;              /* the request init_post_opt then sees */
	bool site_mode;
	enum roce_mode mode;
	const char *error;       /* the last error line, or NULL for none */
};

static void run_twice(const struct twice *t)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *v[2] = { t->a, t->b };
		int rc[2];
		option_calls(v, 2, t->remote, rc);
		const struct roce_request *r = roce_option_request();
		bool ok = rc[0] == t->rc_a && rc[1] == t->rc_b && r->given && r->valid == t->valid &&
		          r->site_mode == t->site_mode && (!t->valid || t->site_mode || r->mode == t->mode) &&
		          (t->error ? n_errors > 0 && strstr(last_error, t->error) != NULL : n_errors == 0);
		if (!ok)
			fprintf(stderr, "# --roce=%s then --roce=%s (remote %d): rc %d,%d valid %d site %d mode %s, "
			        "%d errors, last \"%s\"\n", t->a ? t->a : "(none)", t->b ? t->b : "(none)", t->remote, rc[0],
			        rc[1], r->valid, r->site_mode, roce_mode_name(r->mode), n_errors, last_error);
		_exit(ok ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* issue 6's fault matrix: "the SPANK option callback called twice".  The
 * client calls it once per --roce it parses (the SLURM_SPANK__ variable a
 * batch job passes down, #SBATCH lines, the command line); slurmstepd calls it
 * twice before Slurm 24.05.  Defined result: the last valid value wins, and an
 * invalid value sticks once seen (refused by the client, every time; warned
 * and replaced by default= in slurmstepd), never laundered by a later one. */
static void option_callback_twice(void **state)
{
	(void)state;
	assert_int_equal(roce_option_register(NULL), 0);
	assert_non_null(registered);
	assert_string_equal(registered->name, "roce");
	assert_int_equal(registered->has_arg, 2);
	assert_false(roce_option_request()->given);
	static const struct twice cases[] = {
		/* same value twice (slurmstepd before 24.05): as once */
		{ "strict", "strict", 1, 0, 0, true, false, ROCE_MODE_STRICT, NULL },
		{ "warn", "warn", 0, 0, 0, true, false, ROCE_MODE_WARN, NULL },
		{ NULL, "(null)", 1, 0, 0, true, true, ROCE_MODE_OFF, NULL },
		/* different valid values: the last one wins */
		{ "strict", "off", 0, 0, 0, true, false, ROCE_MODE_OFF, NULL },
		{ "off", "warn", 1, 0, 0, true, false, ROCE_MODE_WARN, NULL },
		{ "warn", NULL, 0, 0, 0, true, true, ROCE_MODE_OFF, NULL },
		{ NULL, "strict", 0, 0, 0, true, false, ROCE_MODE_STRICT, NULL },
		/* valid then invalid: refused by the client, recorded by slurmstepd */
		{ "warn", "bogus", 0, 0, -1, false, false, ROCE_MODE_OFF,
		  "roce: invalid --roce value \"bogus\": valid values are off, warn and strict "
		  "(--roce alone: the Mode= of the site's roce.conf)" },
		{ "warn", "bogus", 1, 0, 0, false, false, ROCE_MODE_OFF, NULL },
		/* invalid then valid: the error sticks */
		{ "bogus", "warn", 0, -1, -1, false, false, ROCE_MODE_OFF, "invalid --roce value \"bogus\"" },
		{ "warn;id", "strict", 1, 0, 0, false, false, ROCE_MODE_OFF, NULL },
		{ "x\ny", "y\nz", 0, -1, -1, false, false, ROCE_MODE_OFF, "invalid --roce value \"x\\ny\"" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_twice(&cases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(request_without_value_means_site_mode),
		cmocka_unit_test(request_modes),
		cmocka_unit_test(request_refuses_hostile_values),
		cmocka_unit_test(request_mode_every_combination),
		cmocka_unit_test(exported_marks),
		cmocka_unit_test(option_callback_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
