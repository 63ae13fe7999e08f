/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugargs.c - the plugin's plugstack words and the policy they make (plugargs.h). */
#include "config.h"
#include "read/plugargs.h"
#include "read/policyfile.h"
#include "base/printable.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* One plugstack word; -1 (err set) when it is not one we take. */
static int word(struct roce_plugargs *c, char *arg, struct roce_error *err)
{
	char shown[96];
	roce_printable(arg, shown, sizeof(shown));
	if (strncasecmp(arg, "config=", 7) == 0) {
		const char *path = arg + 7;
		if (path[0] != '/' || strlen(path) >= sizeof(c->conf_file)) {
			roce_error_set(err, "plugstack argument \"%s\": config= needs an absolute path", shown);
			return -1;
		}
		snprintf(c->conf_file, sizeof(c->conf_file), "%s", path);
	} else if (strncasecmp(arg, "default=", 8) == 0) {
		if (roce_mode_parse(arg + 8, &c->default_mode) < 0) {
			roce_error_set(err, "plugstack argument \"%s\": default= takes off, warn or strict", shown);
			return -1;
		}
	} else if (strchr(arg, '=')) {
		if (c->n_kv >= ROCE_PLUGARGS_MAX_KV) {
			roce_error_set(err, "more than %d plugstack arguments", ROCE_PLUGARGS_MAX_KV);
			return -1;
		}
		/* Judged here, where every context sees it: a misspelt key (defualt=warn)
		 * is an error on every srun and sbatch, not only in slurmd's log. */
		struct roce_policy scratch;
		roce_policy_defaults(&scratch);
		if (roce_policy_set_kv(&scratch, arg, "plugstack argument", err) < 0)
			return -1;
		c->kv[c->n_kv++] = arg;
	} else {
		roce_error_set(err,
		               "plugstack argument \"%s\" is not Key=Value "
		               "(config=PATH, default=off|warn|strict or a roce.conf key)",
		               shown);
		return -1;
	}
	return 0;
}

/* Every word is read even after a bad one: the first error is reported, and
 * a valid default= counts wherever it stands (a broken line must not depend
 * on word order to decide which jobs slurmstepd checks, and then fails). */
int roce_plugargs_parse(int ac, char **av, struct roce_plugargs *c, struct roce_error *err)
{
	struct roce_error word_err;
	int rc = 0;
	memset(c, 0, sizeof(*c));
	c->default_mode = ROCE_MODE_OFF;
	for (int i = 0; i < ac; i++) {
		if (word(c, av[i], &word_err) == 0 || rc < 0)
			continue;
		*err = word_err;
		rc = -1;
	}
	return rc;
}

const char *roce_plugargs_file(const struct roce_plugargs *c)
{
	return c->conf_file[0] ? c->conf_file : ROCE_DEFAULT_CONFIG;
}

static int apply_words(const struct roce_plugargs *c, struct roce_policy *p, struct roce_error *err)
{
	for (int i = 0; i < c->n_kv; i++)
		if (roce_policy_set_kv(p, c->kv[i], "plugstack.conf", err) < 0)
			return -1;
	return 0;
}

/* The StateDir= the words name, NULL when none does. */
static const char *words_state_dir(const struct roce_plugargs *c, struct roce_policy *scratch)
{
	struct roce_error err;
	roce_policy_defaults(scratch);
	for (int i = 0; i < c->n_kv; i++)
		if (strncasecmp(c->kv[i], "StateDir=", 9) == 0 && roce_policy_set_kv(scratch, c->kv[i], "", &err) == 0)
			return scratch->state_dir;
	return NULL;
}

int roce_plugargs_policy(const struct roce_plugargs *c, struct roce_policy *p, struct roce_policycache_outcome *o,
                         struct roce_error *err)
{
	struct roce_policy scratch;
	roce_policy_defaults(p);
	/* A named file must exist; the default one may be missing (defaults stand). */
	if (o) {
		if (roce_policycache_load(p, roce_plugargs_file(c), !c->conf_file[0], NULL, true,
		                          words_state_dir(c, &scratch), o, err) < 0)
			return -1;
	} else if (roce_policyfile_load(p, roce_plugargs_file(c), !c->conf_file[0], err) < 0) {
		return -1;
	}
	return apply_words(c, p, err);
}

int roce_plugargs_policy_keys(const struct roce_plugargs *c, const char *const *keys, struct roce_policy *p,
                              struct roce_error *other, struct roce_error *err)
{
	struct roce_policyfile_result res;
	const struct roce_policyfile_problem *x;

	other->msg[0] = '\0';
	roce_policy_defaults(p);
	if (roce_policyfile_read(p, roce_plugargs_file(c), !c->conf_file[0], NULL, &res) < 0) {
		if ((x = roce_policyfile_touches(&res, keys))) {
			*err = x->err;
			return -1;
		}
		*other = res.problems[0].err;
	}
	return apply_words(c, p, err);
}
