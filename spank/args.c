/*
 * args.c - the --roce option, the SLURM_ROCE variable and plugstack arguments.
 *
 * Everything here is hostile input: option values come from users (and can be
 * forged through the SLURM_SPANK__SLURM_SPANK_OPTION_roce_roce variable),
 * plugstack arguments from the site.  Values are only ever copied into
 * bounded buffers and printed through roce_printable().
 */
#include "config.h"
#include "roce.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static struct roce_request option_request;

void roce_printable(const char *s, char *out, size_t len)
{
	size_t i = 0;
	if (!len)
		return;
	for (; s && s[i] && i + 1 < len; i++)
		out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	out[i] = '\0';
}

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

const struct roce_request *roce_option_request(void)
{
	return &option_request;
}

/* Called in srun/sbatch/salloc when the option is parsed, and in slurmstepd
 * (possibly twice before 24.05: it only records).  Refusing here makes the
 * client print "Invalid --roce argument" and exit non-zero. */
static int option_cb(int val, const char *optarg, int remote)
{
	(void)val;
	roce_request_parse(&option_request, optarg, "--roce");
	if (!option_request.valid && !remote) {
		slurm_error(ROCE_LOG "invalid --roce value \"%s\": " ROCE_VALID_MODES, option_request.raw);
		return -1;
	}
	return 0;
}

/* The table is not exported: sbatch/salloc on 22.05 ignore spank_options[]. */
static struct spank_option roce_opts[] = {
	{
		.name = "roce",
		.arginfo = "[off|warn|strict]",   /* shown as --roce=[off|warn|strict] */
		.usage = "check this job's RoCE fabric on every node and export the NCCL environment "
		         "(warn: leave bad ports out; strict: fail on a bad fabric; off: do nothing). "
		         "Without a value: the site's default mode. Also: SLURM_ROCE=MODE",
		.has_arg = 2,
		.val = 0,
		.cb = option_cb,
	},
	SPANK_OPTIONS_TABLE_END
};

int roce_option_register(spank_t sp)
{
	spank_err_t rc = spank_option_register(sp, &roce_opts[0]);
	if (rc != ESPANK_SUCCESS) {
		slurm_error(ROCE_LOG "cannot register --roce: %s", spank_strerror(rc));
		return -1;
	}
	return 0;
}

int roce_option_getopt(spank_t sp, char **optarg)
{
	return spank_option_getopt(sp, &roce_opts[0], optarg) == ESPANK_SUCCESS ? 0 : -1;
}

int roce_args_parse(int ac, char **av, struct roce_args *a, struct roce_error *err)
{
	memset(a, 0, sizeof(*a));
	a->default_mode = ROCE_MODE_OFF;
	for (int i = 0; i < ac; i++) {
		const char *arg = av[i];
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
			a->kv[a->n_kv++] = av[i];
		} else {
			roce_error_set(err, "plugstack argument \"%s\" is not Key=Value "
			               "(config=PATH, default=off|warn|strict or a roce.conf key)", shown);
			return -1;
		}
	}
	return 0;
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
