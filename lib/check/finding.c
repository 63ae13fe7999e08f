/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * finding.c - appending a finding to a check result, and counting it.  Pure.
 */
#include "config.h"
#include "check/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vadd(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                enum roce_verdict status, const char *cause, unsigned flags, const char *reason, const char *fmt,
                va_list ap)
{
	if (r->n_findings == r->cap_findings) {
		size_t cap = r->cap_findings ? r->cap_findings * 2 : 16;
		struct roce_finding *v = realloc(r->findings, cap * sizeof(*v));
		if (!v)
			return -1;
		r->findings = v;
		r->cap_findings = cap;
	}
	struct roce_finding *f = &r->findings[r->n_findings++];
	memset(f, 0, sizeof(*f));
	snprintf(f->check, sizeof(f->check), "%s", check);
	snprintf(f->device, sizeof(f->device), "%s", device ? device : "");
	f->port = port;
	if (device && port)
		snprintf(f->subject, sizeof(f->subject), "%s:%u", device, port);
	else
		snprintf(f->subject, sizeof(f->subject), "%s", device ? device : "node");
	f->status = status;
	f->hardware = (flags & ROCE_FINDING_HARDWARE) && status == ROCE_FAIL;
	f->quiet = (flags & ROCE_FINDING_QUIET) && status != ROCE_FAIL && status != ROCE_PASS;
	if (status != ROCE_PASS)
		snprintf(f->cause, sizeof(f->cause), "%s", cause ? cause : roce_finding_verdict_name(status));
	snprintf(f->reason, sizeof(f->reason), "%s", reason ? reason : "");
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	switch (status) {
	case ROCE_PASS: r->n_pass++; break;
	case ROCE_WARN: r->n_warn++; break;
	case ROCE_UNKNOWN: r->n_unknown++; break;
	case ROCE_FAIL: r->n_fail++; break;
	}
	return 0;
}

int roce_finding_addf(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                      enum roce_verdict status, const char *cause, unsigned flags, const char *reason, const char *fmt,
                      ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vadd(r, check, device, port, status, cause, flags, reason, fmt, ap);
	va_end(ap);
	return rc;
}

int roce_finding_pass(struct roce_check_result *r, const char *check, const char *device, unsigned port,
                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vadd(r, check, device, port, ROCE_PASS, NULL, 0, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

int roce_finding_unknown_aside(struct roce_check_result *r, const char *check, const char *device, unsigned flags,
                               const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vadd(r, check, device, 0, ROCE_UNKNOWN, "unknown", flags & ROCE_FINDING_QUIET, NULL, fmt, ap);
	va_end(ap);
	if (rc == 0) {
		r->findings[r->n_findings - 1].aside = true;
		r->n_unknown_aside++;
	}
	return rc;
}

const char *roce_finding_verdict_name(enum roce_verdict v)
{
	switch (v) {
	case ROCE_PASS: return "pass";
	case ROCE_WARN: return "warn";
	case ROCE_UNKNOWN: return "unknown";
	case ROCE_FAIL: return "fail";
	}
	return "?";
}
