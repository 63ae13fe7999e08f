/*
 * request.c - what the user asked for (--roce, SLURM_ROCE), the plugstack
 * arguments, and the marks on values the plugin exported.  Plain functions,
 * no Slurm calls: unit-tested in tests/unit/test_spank_request.c.
 *
 * Everything here is hostile input: option values come from users (and can be
 * forged through the SLURM_SPANK__SLURM_SPANK_OPTION_roce_roce variable),
 * plugstack arguments from the site.  Values are only ever copied into
 * bounded buffers and printed through roce_printable().
 */
#include "config.h"
#include "roce.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void roce_request_parse(struct roce_request *r, const char *value, const char *source)
{
	memset(r, 0, sizeof(*r));
	r->given = true;
	r->source = source;
	/* No argument: NULL from the callback, "(null)" or "" through the environment. */
	if (!value || !*value || strcmp(value, "(null)") == 0) {
		r->site_mode = true;
		r->valid = true;
		return;
	}
	roce_printable(value, r->raw, sizeof(r->raw));
	r->valid = roce_token_ok(value, 16) && roce_mode_parse(value, &r->mode) == 0;
}

/* One plugstack word; -1 (err set) when it is not one we take. */
static int args_word(struct roce_args *a, char *arg, struct roce_error *err)
{
	char shown[96];
	roce_printable(arg, shown, sizeof(shown));
	if (strncasecmp(arg, "config=", 7) == 0) {
		const char *path = arg + 7;
		if (path[0] != '/' || strlen(path) >= sizeof(a->config)) {
			roce_error_set(err, "plugstack argument \"%s\": config= needs an absolute path", shown);
			return -1;
		}
		snprintf(a->config, sizeof(a->config), "%s", path);
	} else if (strncasecmp(arg, "default=", 8) == 0) {
		if (roce_mode_parse(arg + 8, &a->default_mode) < 0) {
			roce_error_set(err, "plugstack argument \"%s\": default= takes off, warn or strict", shown);
			return -1;
		}
	} else if (strchr(arg, '=')) {
		if (a->n_kv >= ROCE_ARGS_MAX) {
			roce_error_set(err, "more than %d plugstack arguments", ROCE_ARGS_MAX);
			return -1;
		}
		a->kv[a->n_kv++] = arg;
	} else {
		roce_error_set(err, "plugstack argument \"%s\" is not Key=Value "
		               "(config=PATH, default=off|warn|strict or a roce.conf key)", shown);
		return -1;
	}
	return 0;
}

/* Every word is read even after a bad one: the first error is reported, and
 * a valid default= counts wherever it stands (a broken line must not depend
 * on word order to decide which jobs slurmstepd checks, and then fails). */
int roce_args_parse(int ac, char **av, struct roce_args *a, struct roce_error *err)
{
	struct roce_error word_err;
	int rc = 0;
	memset(a, 0, sizeof(*a));
	a->default_mode = ROCE_MODE_OFF;
	for (int i = 0; i < ac; i++) {
		if (args_word(a, av[i], &word_err) == 0 || rc < 0)
			continue;
		*err = word_err;
		rc = -1;
	}
	return rc;
}

int roce_args_policy(const struct roce_args *a, struct roce_policy *p, struct roce_error *err)
{
	roce_policy_defaults(p);
	if (a->config[0]) {
		if (roce_policy_load(p, a->config, false, err) < 0)
			return -1;
	} else if (roce_policy_load(p, ROCE_DEFAULT_CONFIG, true, err) < 0) {
		return -1;
	}
	for (int i = 0; i < a->n_kv; i++)
		if (roce_policy_set_kv(p, a->kv[i], "plugstack.conf", err) < 0)
			return -1;
	return 0;
}

/* Values the plugin set are marked NAME:<FNV-1a of the value>, so a later step can tell them from the user's. */
bool roce_exported_has(const char *exported, const char *name, const char *value)
{
	char want[64];
	if (snprintf(want, sizeof(want), "%s:%08" PRIx32, name, roce_fnv1a(value)) >= (int)sizeof(want))
		return false;
	size_t n = strlen(want);
	for (const char *p = exported; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, want, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

int roce_exported_add(char *list, size_t len, const char *name, const char *value)
{
	size_t used = strlen(list);
	int n = snprintf(list + used, len - used, "%s%s:%08" PRIx32, used ? "," : "", name, roce_fnv1a(value));
	if (n < 0 || (size_t)n >= len - used) {
		list[used] = '\0';
		return -1;
	}
	return 0;
}
