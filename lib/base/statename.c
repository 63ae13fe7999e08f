/* SPDX-License-Identifier: GPL-2.0-or-later */
/* statename.c - the names of a job's files in StateDir (statename.h). */
#include "config.h"
#include "base/statename.h"

#include <stdio.h>
#include <string.h>

#define SNAPSHOT ".snapshot.json"
#define RANWITH ".ranwith.json"
#define SHARED ".shared"
#define WITH ".with."

void roce_statename_format(char *buf, enum roce_statename_kind kind, const char *job, const char *node,
                           const char *other)
{
	const char *dot = node ? "." : "", *n = node ? node : "";
	switch (kind) {
	case ROCE_STATENAME_SNAPSHOT:
		if (node)
			snprintf(buf, ROCE_STATENAME_MAX, "%s.%s" SNAPSHOT, job, node);
		else
			snprintf(buf, ROCE_STATENAME_MAX, "%s.json", job);
		break;
	case ROCE_STATENAME_RANWITH: snprintf(buf, ROCE_STATENAME_MAX, "%s%s%s" RANWITH, job, dot, n); break;
	case ROCE_STATENAME_MARKER: snprintf(buf, ROCE_STATENAME_MAX, "%s%s%s" WITH "%s", job, dot, n, other); break;
	case ROCE_STATENAME_SHARED: snprintf(buf, ROCE_STATENAME_MAX, "%s.%s" SHARED, job, n); break;
	default: buf[0] = '\0'; break;
	}
}

/* s (len bytes) into dst (size bytes) if it fits and ok() accepts it. */
static bool take(char *dst, size_t size, const char *s, size_t len, bool (*ok)(const char *))
{
	if (len >= size)
		return false;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return ok(dst);
}

static bool ends_with(const char *s, size_t n, const char *suffix, size_t *stem)
{
	size_t k = strlen(suffix);
	if (n <= k || strcmp(s + n - k, suffix) != 0)
		return false;
	*stem = n - k;
	return true;
}

/* rest: what follows "<job>.", with a node name (rest's last word fixed). */
static enum roce_statename_kind per_node(const char *rest, struct roce_statename *out)
{
	size_t n = strlen(rest), stem;
	static const struct {
		const char *suffix;
		enum roce_statename_kind kind;
	} ends[] = { { SNAPSHOT, ROCE_STATENAME_SNAPSHOT },
		     { RANWITH, ROCE_STATENAME_RANWITH },
		     { SHARED, ROCE_STATENAME_SHARED } };
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (ends_with(rest, n, ends[i].suffix, &stem))
			return take(out->node, sizeof(out->node), rest, stem, roce_slurmid_node_ok)
			               ? ends[i].kind
			               : ROCE_STATENAME_OTHER;
	/* the last ".with." ends the node's name: the other job's id has no dot */
	const char *with = NULL;
	for (const char *p = rest; (p = strstr(p, WITH)); p++)
		with = p;
	if (!with || !take(out->node, sizeof(out->node), rest, (size_t)(with - rest), roce_slurmid_node_ok))
		return ROCE_STATENAME_OTHER;
	const char *other = with + strlen(WITH);
	return take(out->other, sizeof(out->other), other, strlen(other), roce_slurmid_job_ok) ? ROCE_STATENAME_MARKER
	                                                                                       : ROCE_STATENAME_OTHER;
}

bool roce_statename_parse(const char *name, struct roce_statename *out)
{
	memset(out, 0, sizeof(*out));
	const char *dot = strchr(name, '.');
	if (!dot || !take(out->job, sizeof(out->job), name, (size_t)(dot - name), roce_slurmid_job_ok))
		goto other;
	const char *rest = dot + 1;
	/* the names from before per-node names */
	if (strcmp(rest, "json") == 0)
		out->kind = ROCE_STATENAME_SNAPSHOT;
	else if (strcmp(rest, &RANWITH[1]) == 0)
		out->kind = ROCE_STATENAME_RANWITH;
	else if (strncmp(rest, &WITH[1], strlen(WITH) - 1) == 0 &&
	         take(out->other, sizeof(out->other), rest + strlen(WITH) - 1, strlen(rest + strlen(WITH) - 1),
	              roce_slurmid_job_ok))
		out->kind = ROCE_STATENAME_MARKER;
	else {
		out->other[0] = '\0'; /* a failed look at the old marker form above */
		out->kind = per_node(rest, out);
	}
	if (out->kind != ROCE_STATENAME_OTHER)
		return true;
other:
	memset(out, 0, sizeof(*out));
	return false;
}
