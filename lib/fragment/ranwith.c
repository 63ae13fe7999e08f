/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ranwith.c - what a job ran with on a node (ranwith.h). */
#include "config.h"
#include "fragment/ranwith.h"
#include "read/jsonin.h"
#include "base/printable.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "base/statename.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RANWITH_SCHEMA "slurm-roce/ranwith/1"
#define RANWITH_FILE_MAX 65536

void roce_ranwith_set(struct roce_ranwith *rw, const char *name, const char *value, const char *checked, bool user)
{
	size_t i = 0;
	while (i < rw->n && strcmp(rw->v[i].name, name) != 0)
		i++;
	if (i == ROCE_RANWITH_VARS)
		return;
	if (i == rw->n)
		rw->n++;
	struct roce_ranwith_var *v = &rw->v[i];
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->value, sizeof(v->value), "%s", value);
	snprintf(v->checked, sizeof(v->checked), "%s", checked);
	v->user = user;
}

json_object *roce_ranwith_to_json(const struct roce_ranwith *rw)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; a && i < rw->n; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(rw->v[i].name));
		json_object_object_add(o, "value", json_object_new_string(rw->v[i].value));
		json_object_object_add(o, "checked", json_object_new_string(rw->v[i].checked));
		json_object_object_add(o, "user", json_object_new_boolean(rw->v[i].user));
		json_object_array_add(a, o);
	}
	return a;
}

/* printable: escape every string (a fragment, hostile); StateDir's record is root's own, kept as it is. */
static int from_json(json_object *a, struct roce_ranwith *rw, bool printable, struct roce_error *err)
{
	memset(rw, 0, sizeof(*rw));
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) > ROCE_RANWITH_VARS) {
		roce_error_set(err, "\"ran_with\" is not an array of at most %d entries", ROCE_RANWITH_VARS);
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i);
		const char *name, *value, *checked;
		bool user;
		struct roce_error sub;
		if (!json_object_is_type(o, json_type_object) || roce_jin_str(o, "name", 31, &name, &sub) < 0 ||
		    roce_jin_str(o, "value", 4095, &value, &sub) < 0 ||
		    roce_jin_str(o, "checked", 4095, &checked, &sub) < 0 || roce_jin_bool(o, "user", &user, &sub) < 0) {
			roce_error_set(err, "ran_with[%zu]: %s", i,
			               json_object_is_type(o, json_type_object) ? sub.msg : "not an object");
			return -1;
		}
		char n[32], v[ROCE_RANWITH_VALUE], c[ROCE_RANWITH_VALUE];
		if (printable)
			roce_ranwith_set(rw, roce_printable(name, n, sizeof(n)), roce_printable(value, v, sizeof(v)),
			                 roce_printable(checked, c, sizeof(c)), user);
		else
			roce_ranwith_set(rw, name, value, checked, user);
	}
	return 0;
}

int roce_ranwith_from_json(json_object *a, struct roce_ranwith *rw, struct roce_error *err)
{
	return from_json(a, rw, true, err);
}

int roce_ranwith_verdicts(const struct roce_ranwith *rw, struct roce_verdict_list *out)
{
	for (size_t i = 0; i < rw->n; i++) {
		const struct roce_ranwith_var *x = &rw->v[i];
		if (!x->user || strcmp(x->value, x->checked) == 0)
			continue;
		struct roce_job_verdict v = { .code = "user_override", .severity = ROCE_SEV_WARN };
		snprintf(v.subject, sizeof(v.subject), "%s", x->name);
		snprintf(v.message, sizeof(v.message), "the job set %s=%.120s itself; the check chose %.120s", x->name,
		         x->value, x->checked);
		snprintf(v.fix, sizeof(v.fix),
		         "drop %s from the job's environment (the plugin exports the value that "
		         "passed the check on every node), or make the site policy (roce.conf) choose it",
		         x->name);
		if (roce_verdict_list_add(out, &v) < 0)
			return -1;
	}
	return 0;
}

/* The record name in StateDir into *rw: 0 (empty when absent: *absent), -1 unusable. */
static int load(int sfd, const char *name, struct roce_ranwith *rw, bool *absent, struct roce_error *err)
{
	struct roce_reading rd;
	size_t len;
	json_object *a;
	memset(rw, 0, sizeof(*rw));
	*absent = false;
	char *text = roce_readfile(sfd, NULL, name, RANWITH_FILE_MAX, ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED,
	                           &len, &rd);
	if (!text) {
		*absent = rd.err == ENOENT;
		if (*absent)
			return 0;
		roce_error_set(err, "%s: %s", name, rd.why);
		return -1;
	}
	json_object *o = roce_jin_parse(text, len, err);
	free(text);
	int rc = o && roce_jin_schema(o, NULL, RANWITH_SCHEMA, 64, err) == 0 &&
	                         roce_jin_member(o, "ran_with", json_type_array, &a, err) == 0
	                 ? from_json(a, rw, false, err)
	                 : -1;
	json_object_put(o);
	return rc;
}

/* Do a and b hold the same entries, in the same order? */
static bool same(const struct roce_ranwith *a, const struct roce_ranwith *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, b->v[i].name) || strcmp(a->v[i].value, b->v[i].value) ||
		    strcmp(a->v[i].checked, b->v[i].checked) || a->v[i].user != b->v[i].user)
			return false;
	return true;
}

int roce_ranwith_record(const char *state_dir, const char *job_id, const char *node, const struct roce_ranwith *rw,
                        struct roce_error *err)
{
	struct roce_ranwith all, before;
	struct roce_error ignored;
	char name[ROCE_STATENAME_MAX];
	bool absent;
	int sfd = roce_safefile_state_dir(state_dir, err);
	if (sfd < 0)
		return -1;
	roce_statename_format(name, ROCE_STATENAME_RANWITH, job_id, node, NULL);
	/* An earlier step's record: a user's value it saw stays (this step may not have it). */
	bool loaded = load(sfd, name, &all, &absent, &ignored) == 0;
	if (!loaded)
		memset(&all, 0, sizeof(all));
	before = all;
	for (size_t i = 0; i < rw->n; i++) {
		const struct roce_ranwith_var *v = &rw->v[i];
		size_t k = 0;
		while (k < all.n && strcmp(all.v[k].name, v->name) != 0)
			k++;
		if (k < all.n && all.v[k].user && !v->user)
			continue;
		roce_ranwith_set(&all, v->name, v->value, v->checked, v->user);
	}
	/* Every step of a job but the first runs with what is recorded: nothing to write. */
	if (loaded && same(&all, &before)) {
		close(sfd);
		return 0;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "schema", json_object_new_string(RANWITH_SCHEMA));
	json_object_object_add(o, "ran_with", roce_ranwith_to_json(&all));
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	int rc = text ? roce_safefile_write(sfd, name, text, strlen(text), geteuid(), getegid(), 0600, -1, 0, err) : -1;
	if (!text)
		roce_error_set(err, "out of memory");
	json_object_put(o);
	close(sfd);
	return rc;
}

int roce_ranwith_take(int state_fd, const char *job_id, const char *node, struct roce_ranwith *rw,
                      struct roce_error *err)
{
	char name[ROCE_STATENAME_MAX], old[ROCE_STATENAME_MAX];
	bool absent;
	roce_statename_format(name, ROCE_STATENAME_RANWITH, job_id, node, NULL);
	roce_statename_format(old, ROCE_STATENAME_RANWITH, job_id, NULL, NULL);
	int rc = load(state_fd, name, rw, &absent, err);
	/* steps that ran before an upgrade */
	if (rc == 0 && absent)
		rc = load(state_fd, old, rw, &absent, err);
	unlinkat(state_fd, name, 0);
	unlinkat(state_fd, old, 0);
	return rc;
}
