/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * error.h - why a call failed, as one line of text for the caller to log.
 *
 * Most of the library returns -1 and fills a struct roce_error; facts read
 * from the node use struct roce_reading (model.h) instead, which also says
 * whether the value was read at all.
 */
#ifndef ROCE_ERROR_H
#define ROCE_ERROR_H

#define ROCE_ERR_MAX 512

struct roce_error {
	char msg[ROCE_ERR_MAX];
};

/* printf into e->msg (cut to ROCE_ERR_MAX - 1 bytes); e may be NULL. */
void roce_error_set(struct roce_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
