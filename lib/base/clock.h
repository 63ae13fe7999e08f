/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h - monotonic time for deadlines and timings; the wall clock for records. */
#ifndef ROCE_CLOCK_H
#define ROCE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in whole milliseconds: deadlines. */
int64_t roce_clock_ms(void);
/* Any clock (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...) in fractional milliseconds: timings. */
double roce_clock_ms_of(clockid_t id);
/* CLOCK_REALTIME in nanoseconds since the epoch: when a snapshot or a report was taken. */
int64_t roce_clock_realtime_ns(void);

#endif
