/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.c - the plugstack configuration: the words after the plugin's path
 * in plugstack.conf (config=PATH, default=MODE, roce.conf Key=Value), and
 * the policy they make.  No Slurm calls; unit-tested in
 * tests/unit/test_spank_request.c.
 *
 * The words are the site's, but still copied only into bounded buffers and
 * printed through roce_printable().
 */
#include "config.h"
#include "roce.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* One plugstack word; -1 (err set) when it is not one we take. */
static int config_word(struct roce_config *c, char *arg, struct roce_error *err)
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
		if (c->n_kv >= ROCE_CONFIG_MAX_KV) {
			roce_error_set(err, "more than %d plugstack arguments", ROCE_CONFIG_MAX_KV);
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
int roce_config_parse(int ac, char **av, struct roce_config *c, struct roce_error *err)
{
	struct roce_error word_err;
	int rc = 0;
	memset(c, 0, sizeof(*c));
	c->default_mode = ROCE_MODE_OFF;
	for (int i = 0; i < ac; i++) {
		if (config_word(c, av[i], &word_err) == 0 || rc < 0)
			continue;
		*err = word_err;
		rc = -1;
	}
	return rc;
}

int roce_config_policy(const struct roce_config *c, struct roce_policy *p, struct roce_error *err)
{
	roce_policy_defaults(p);
	/* A named file must exist; the default one may be missing (defaults stand). */
	const char *file = c->conf_file[0] ? c->conf_file : ROCE_DEFAULT_CONFIG;
	if (roce_policy_load(p, file, !c->conf_file[0], err) < 0)
		return -1;
	for (int i = 0; i < c->n_kv; i++)
		if (roce_policy_set_kv(p, c->kv[i], "plugstack.conf", err) < 0)
			return -1;
	return 0;
}
