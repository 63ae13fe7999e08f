/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timearg.h - a point in time as an admin types it on a command line
 * (roce-report --since) and as reports print it.  Pure (the caller passes
 * "now"; local time is the process's TZ).
 *
 * Accepted: an ISO 8601 date or date and time, "2026-11-30",
 * "2026-11-30T12:00", "2026-11-30 12:00:00" (local time; a trailing "Z"
 * means UTC), "now", and a time back from now, "now-7days", "-7d", "-36h",
 * "now-90min" (units s, m/min, h, d, w, each also spelt out, singular or
 * plural).
 */
#ifndef ROCE_TIMEARG_H
#define ROCE_TIMEARG_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "base/error.h"

/* s into *out (seconds since the epoch).  -1 with err naming s when it is
 * none of the forms above. */
int roce_timearg_parse(const char *s, time_t now, time_t *out, struct roce_error *err);

/* ns (since the epoch) as "2026-11-30T12:00:00Z" into buf; "unknown" when 0. */
const char *roce_timearg_iso(int64_t ns, char *buf, size_t len);

#endif
