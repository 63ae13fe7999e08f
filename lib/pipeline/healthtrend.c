/* SPDX-License-Identifier: GPL-2.0-or-later */
/* healthtrend.c - the health check's trend step (healthtrend.h). */
#include "config.h"
#include "pipeline/healthtrend.h"
#include "read/jsonin.h"
#include "read/readfile.h"
#include "read/safefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TREND_FILE "trend.json"
/* A node's state: a few hundred bytes per port. */
#define TREND_MAX (4 << 20)

void roce_healthtrend_load(int dfd, struct roce_trend *t, char *why, size_t len)
{
	struct roce_reading r = { 0 };
	struct roce_error err = { 0 };
	size_t n;
	char *text =
	        roce_readfile(dfd, NULL, TREND_FILE, TREND_MAX, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &n, &r);

	roce_trend_init(t);
	if (!text) {
		if (r.status != ROCE_MISSING)
			snprintf(why, len, "%s: %s", TREND_FILE, r.why);
		return;
	}
	json_object *o = roce_jin_parse(text, n, &err);
	if (!o || roce_trend_json_parse(t, o, &err) < 0)
		snprintf(why, len, "%s: %s (a new baseline is taken)", TREND_FILE, err.msg);
	json_object_put(o);
	free(text);
}

static int save(int dfd, const struct roce_trend *t, char *why, size_t len)
{
	struct roce_error err = { 0 };
	json_object *o = roce_trend_json_build(t);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	int rc = roce_safefile_write(dfd, TREND_FILE, text, strlen(text), 0, 0, 0600, -1, 0, &err);
	if (rc < 0)
		snprintf(why, len, "%s", err.msg);
	json_object_put(o);
	return rc;
}

int roce_healthtrend_run(const struct roce_policy *p, const struct roce_snapshot *snap, struct roce_check_result *check,
                         int64_t now_s, struct roce_healthtrend *out)
{
	struct roce_trend prev;
	struct roce_error err = { 0 };
	struct roce_trend_rules rules = roce_trend_rules_of(p);
	int rc = -1, dfd = -1;

	memset(out, 0, sizeof(*out));
	roce_trend_init(&out->state);
	roce_trend_init(&prev);
	if (p->trend == ROCE_ACTION_IGNORE)
		return 0;
	if (geteuid() != 0) {
		snprintf(out->why, sizeof(out->why), "the link-quality trend is kept by root's health check only");
		return 0;
	}
	if ((dfd = roce_safefile_state_dir(p->state_dir, &err)) < 0)
		snprintf(out->why, sizeof(out->why), "no link-quality trend: %s", err.msg);
	else
		roce_healthtrend_load(dfd, &prev, out->why, sizeof(out->why));
	if (roce_trend_update(&prev, snap, now_s, &rules, &out->state) < 0 ||
	    roce_trend_findings(&out->state, p, check) < 0)
		goto fail;
	out->kept = dfd >= 0 && save(dfd, &out->state, out->why, sizeof(out->why)) == 0 && !out->why[0];
	rc = 0;
fail:
	if (dfd >= 0)
		close(dfd);
	roce_trend_free(&prev);
	return rc;
}

void roce_healthtrend_free(struct roce_healthtrend *h) { roce_trend_free(&h->state); }
