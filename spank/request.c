/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * request.c - what the user asked for (--roce, SLURM_ROCE, the client's
 * SPANK_ROCE_MODE) and what it means: the one place that decides the mode
 * of a request, for every context.  Pure: no Slurm calls; unit-tested in
 * tests/unit/test_spank_request.c.
 *
 * Values are hostile: they come from users (and can be forged through the
 * SLURM_SPANK__SLURM_SPANK_OPTION_roce_roce variable).  They are only ever
 * copied into a bounded buffer through roce_printable().
 */
#include "config.h"
#include "roce.h"

#include <string.h>

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

/* An invalid value falls back rather than failing: the clients refuse one,
 * so a value that reaches slurmstepd or the job prolog came around them,
 * and a job is never failed (nor a node drained) for it. */
enum roce_mode roce_request_mode(const struct roce_request *r, enum roce_mode fallback, enum roce_mode site)
{
	if (!r || !r->given || !r->valid)
		return fallback;
	return r->site_mode ? site : r->mode;
}
