/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fragment_bounds.c - what an epilog can write into a fragment (fragment_bounds.h). */
#include "config.h"
#include "fragment/fragment_bounds.h"

#include <inttypes.h>
#include <stdio.h>

/* What an epilog writes as "seconds" (delta.c): -1 when its clock went
 * back, 0 without a prolog snapshot (no time), else its prolog-to-epilog
 * time, which two processes that each read sysfs never make shorter than a
 * millisecond, nor does a node run one job for ten years. */
#define SECONDS_MIN 0.001
#define SECONDS_MAX (10 * 365.25 * 86400)
/* What a port's counter can count in a job: bytes (the largest unit) at the
 * fastest link we know, 800 Gb/s, twice over, for the job's time and a
 * minute more (the prolog's and the epilog's reads take time too); the
 * longest job when the time is unknown. */
#define PORT_BYTES_PER_S (2 * 800e9 / 8)
#define COUNTER_SLACK_S 60

int roce_fragment_bounds_seconds(double s, struct roce_error *err)
{
	if (s == -1 || s == 0 || (s >= SECONDS_MIN && s <= SECONDS_MAX))
		return 0;
	roce_error_set(err, "\"seconds\" = %.17g is not what an epilog writes (-1, 0, or %g to %.0f)", s, SECONDS_MIN,
	               SECONDS_MAX);
	return -1;
}

/* A counter of port i beyond what it could count in the fragment's time. */
static int counter_bound(size_t i, const char *key, uint64_t v, double most, double seconds, struct roce_error *err)
{
	if ((double)v <= most)
		return 0;
	roce_error_set(err, "ports[%zu]: \"%s\" = %" PRIu64 " is more than a port counts in %.17g s", i, key, v,
	               seconds > 0 ? seconds : SECONDS_MAX);
	return -1;
}

int roce_fragment_bounds_check(const struct roce_fragment *f, struct roce_error *err)
{
	if (roce_fragment_bounds_seconds(f->seconds, err) < 0)
		return -1;
	double most = PORT_BYTES_PER_S * ((f->seconds > 0 ? f->seconds : SECONDS_MAX) + COUNTER_SLACK_S);
	for (size_t i = 0; i < f->n_ports; i++) {
		const struct roce_fragment_port *p = &f->ports[i];
		for (int k = 0; k < ROCE_N_COUNTERS; k++)
			if (counter_bound(i, roce_counter_defs[k].report_name, p->c[k], most, f->seconds, err) < 0)
				return -1;
		for (int q = 0; q < ROCE_PRIOS; q++)
			if (counter_bound(i, "pfc requests", p->pfc_req[q], most, f->seconds, err) < 0 ||
			    counter_bound(i, "pfc indications", p->pfc_ind[q], most, f->seconds, err) < 0)
				return -1;
	}
	/* + a user_override per variable, a path_probe per port and two for the node (jobprobe.h:
	 * a name that resolves elsewhere, every probe passed) */
	size_t max = roce_verdicts_max(f->n_ports) + ROCE_RANWITH_VARS + f->n_ports + 2;
	if (f->n_verdicts > max) {
		roce_error_set(err, "\"verdicts\": %zu for %zu port(s), more than an epilog writes (at most %zu)",
		               f->n_verdicts, f->n_ports, max);
		return -1;
	}
	return 0;
}
