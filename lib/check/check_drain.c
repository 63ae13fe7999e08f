/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_drain.c - the Slurm drain reason of a check result (its hardware
 * findings in a short, fixed vocabulary), whether a node already drained
 * is ours to drain again, and when the health check resumes a drain of
 * ours: the rules every adapter (the plugin's steps and job prolog,
 * roce-check --drain, roce-prolog) asks.  Pure.
 */
#include "config.h"
#include "check/check.h"

#include <stdio.h>
#include <string.h>

/* Short, fixed vocabulary: Slurm shows the reason in sinfo -R. */
static void short_reason(const struct roce_finding *f, char *buf, size_t len)
{
	if (f->reason[0])
		snprintf(buf, len, "%s", f->reason);
	else if (strcmp(f->check, "port_state") == 0)
		snprintf(buf, len, "%s port %u DOWN", f->device, f->port);
	else if (strcmp(f->check, "netdev") == 0)
		snprintf(buf, len, "%s port %u netdev down", f->device, f->port);
	else if (strcmp(f->check, "gid") == 0)
		snprintf(buf, len, "%s port %u no RoCE v2 GID", f->device, f->port);
	else if (strcmp(f->check, "hca") == 0)
		snprintf(buf, len, "%s missing", f->device);
	else
		snprintf(buf, len, "%s %s", f->subject, f->check);
}

int roce_check_drain_reason(const struct roce_check_result *r, char *buf, size_t len)
{
	const struct roce_finding *first = NULL;
	size_t more = 0;
	for (size_t i = 0; i < r->n_findings; i++) {
		if (!r->findings[i].hardware)
			continue;
		if (!first)
			first = &r->findings[i];
		else
			more++;
	}
	if (!first)
		return 0;
	char what[160];
	short_reason(first, what, sizeof(what));
	if (more)
		snprintf(buf, len, ROCE_DRAIN_PREFIX "%s (+%zu more)", what, more);
	else
		snprintf(buf, len, ROCE_DRAIN_PREFIX "%s", what);
	return 1;
}

bool roce_check_drain_leave_alone(unsigned state, const char *reason)
{
	if (!(state & (ROCE_DRAIN_STATE_DRAIN | ROCE_DRAIN_STATE_DOWN | ROCE_DRAIN_STATE_FAIL)))
		return false;
	/* sinfo prints "none" for no reason */
	return reason && reason[0] && strcmp(reason, "none") != 0 &&
	       strncmp(reason, ROCE_DRAIN_PREFIX, strlen(ROCE_DRAIN_PREFIX)) != 0;
}

unsigned roce_check_drain_state_word(const char *word)
{
	if (!word)
		return 0;
	return (strstr(word, "drain") ? ROCE_DRAIN_STATE_DRAIN : 0) |
	       (strstr(word, "down") ? ROCE_DRAIN_STATE_DOWN : 0) | (strstr(word, "fail") ? ROCE_DRAIN_STATE_FAIL : 0);
}

bool roce_check_drain_ours(unsigned state, const char *reason)
{
	return (state & ROCE_DRAIN_STATE_DRAIN) && !(state & (ROCE_DRAIN_STATE_DOWN | ROCE_DRAIN_STATE_FAIL)) &&
	       reason && strncmp(reason, ROCE_DRAIN_PREFIX, strlen(ROCE_DRAIN_PREFIX)) == 0;
}

/* Is word (n bytes) one of the space-separated words of list? */
static bool has_word(const char *list, const char *word, size_t n)
{
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, " ");
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len;
		p += *p == ' ';
	}
	return false;
}

const char *roce_check_drain_seen(const struct roce_check_result *r, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < r->n_findings && len; i++) {
		const char *w = r->findings[i].device[0] ? r->findings[i].device : "node";
		size_t n = strlen(w);
		if (has_word(buf, w, n) || used + (used ? 1 : 0) + n >= len)
			continue;
		if (used)
			buf[used++] = ' ';
		memcpy(buf + used, w, n + 1);
		used += n;
	}
	return buf;
}

/* The subject a drain reason of ours names: its first word after the
 * prefix ("roce: mlx5_1 port 1 DOWN" -> "mlx5_1"), into *n bytes at the
 * returned pointer. */
static const char *reason_subject(const char *reason, size_t *n)
{
	const char *s = reason + strlen(ROCE_DRAIN_PREFIX);
	*n = strcspn(s, " ");
	return s;
}

struct roce_check_drain_next roce_check_drain_next(enum roce_check_drain_run run, unsigned state, const char *reason,
                                                   const char *seen, unsigned passes, unsigned resume_after)
{
	struct roce_check_drain_next next = { ROCE_DRAIN_ACT_NONE, 0 };
	size_t n;
	if (run == ROCE_DRAIN_RUN_FAULT) {
		next.act = roce_check_drain_leave_alone(state, reason) ? ROCE_DRAIN_ACT_LEAVE : ROCE_DRAIN_ACT_DRAIN;
		return next;
	}
	if (run != ROCE_DRAIN_RUN_PASS || resume_after == 0 || !roce_check_drain_ours(state, reason))
		return next;
	const char *subject = reason_subject(reason, &n);
	if (n == 0 || !seen || !has_word(seen, subject, n)) {
		next.act = ROCE_DRAIN_ACT_NOT_SEEN;
		return next;
	}
	next.passes = passes < resume_after ? passes + 1 : resume_after;
	next.act = next.passes >= resume_after ? ROCE_DRAIN_ACT_RESUME : ROCE_DRAIN_ACT_COUNT;
	return next;
}
