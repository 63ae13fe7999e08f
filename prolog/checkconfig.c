/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checkconfig.c - roce-check --check-config and the configuration findings (checkconfig.h). */
#include "config.h"
#include "checkconfig.h"
#include "base/printable.h"
#include "read/plugargs.h"
#include "read/plugstack.h"
#include "read/policyfile.h"
#include "read/policy.h"
#include "read/safefile.h"
#include "read/fstype.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MSG_LEN (3 * PATH_MAX + 512) /* a message naming up to three paths */

/* One line as roce-check prints a finding: status, check, subject, message. */
static void finding(FILE *out, const char *status, const char *check, const char *subject, const char *msg)
{
	fprintf(out, "%-7s %-11s %-12s %s\n", status, check, subject, msg);
}

/* ---------------------------------------------------------------- the plugstack */

enum loads { LOADS_YES, LOADS_NO, LOADS_UNKNOWN };

/* Whether ps's plugstack loads the plugin, said in msg. */
static enum loads plugstack_loads(const struct roce_plugstack *ps, int rc, const struct roce_error *err, char *msg,
                                  size_t len)
{
	const struct roce_plugstack_line *l = &ps->first;
	char commented[PATH_MAX + 64] = "";
	struct stat st;

	if (rc < 0) {
		snprintf(msg, len, "cannot tell whether slurmd loads " ROCE_PLUGSTACK_SO ": %s", err->msg);
		return LOADS_UNKNOWN;
	}
	if (!ps->n_loads) {
		if (ps->commented_line)
			snprintf(commented, sizeof(commented), " (%s:%d is commented out)", ps->commented_file,
			         ps->commented_line);
		snprintf(msg, len,
		         "no line of %s or the files it includes loads " ROCE_PLUGSTACK_SO "%s: steps on this node run "
		         "unchecked, --roce=strict ones too, and get no NCCL variables; install "
		         "plugstack.conf.d/roce.conf as on the other nodes and restart slurmd",
		         ps->stack, commented);
		return LOADS_NO;
	}
	if (l->path[0] == '/' && stat(l->path, &st) < 0) {
		snprintf(msg, len,
		         "%s:%d names %s, which does not exist: slurmd skips an optional line (steps run unchecked) "
		         "and does not start with a required one",
		         l->file, l->line, l->path);
		return LOADS_NO;
	}
	snprintf(msg, len, "%s:%d loads " ROCE_PLUGSTACK_SO " (%s)%s", l->file, l->line,
	         l->required ? "required" : "optional",
	         ps->n_loads > 1 ? "; a later line naming it again is refused by slurmd" : "");
	return LOADS_YES;
}

void checkconfig_plugstack_finding(const char *plugstack, FILE *out)
{
	struct roce_plugstack *ps = malloc(sizeof(*ps));
	struct roce_error err = { "" };
	char msg[MSG_LEN];

	if (!ps)
		return;
	int rc = roce_plugstack_find(NULL, plugstack, ps, &err);
	switch (plugstack_loads(ps, rc, &err, msg, sizeof(msg))) {
	case LOADS_YES: break;
	case LOADS_NO: finding(out, "WARN", "plugstack", "node", msg); break;
	case LOADS_UNKNOWN: finding(out, "UNKNOWN", "plugstack", "node", msg); break;
	}
	free(ps);
}

/* ---------------------------------------------------------------- the directories */

/* One directory as the prolog and epilog open it (safefile.h); effect: what
 * every job on the node then misses. */
static void dir_finding(const char *what, const char *path, int flags, const char *effect, FILE *out)
{
	struct roce_error err = { "" };
	struct stat st;
	char msg[MSG_LEN];
	const char *fs;
	if (!path[0] || (lstat(path, &st) < 0 && errno == ENOENT))
		return;
	int fd = roce_safefile_open_dir(what, path, flags | ROCE_SAFEFILE_TRUSTED, 0, &err);
	if (fd < 0) {
		snprintf(msg, sizeof(msg), "%s: refused by the prolog and epilog: %s", err.msg, effect);
		finding(out, "WARN", "dirs", "node", msg);
		return;
	}
	if (strcmp(what, "StateDir") == 0 && roce_fstype_shared(fd, &fs)) {
		snprintf(msg, sizeof(msg),
		         "StateDir %s is on a shared file system (%s): it is node-local state; give every node its own "
		         "(tmpfs /run/slurm-roce by default)",
		         path, fs);
		finding(out, "WARN", "dirs", "node", msg);
	}
	close(fd);
}

void checkconfig_dirs_finding(const struct roce_policy *p, FILE *out)
{
	dir_finding("StateDir", p->state_dir, 0, "no job on this node gets counts in its report", out);
	dir_finding("ReportDir", p->report_dir, 0, "no job on this node gets its report", out);
	dir_finding("SharedDir", p->shared_dir, ROCE_SAFEFILE_SEARCH,
	            "every node of a job is unknown to srun (strict steps fail)", out);
}

void checkconfig_cached_finding(const char *why, const char *saved, FILE *out)
{
	char msg[ROCE_ERR_MAX + 200];
	snprintf(msg, sizeof(msg),
	         "%s: checked with its last good copy (saved %s), as the plugin does; roce-check --check-config "
	         "lists every problem",
	         why, saved);
	finding(out, "FAIL", "config", "roce.conf", msg);
}

/* ---------------------------------------------------------------- --check-config */

/* The plugstack line's words, judged as the plugin judges them; its config=
 * into conf (len bytes) when it has one.  -1 when a word is bad. */
static int check_words(const struct roce_plugstack *ps, char *conf, size_t len, bool *conf_named, FILE *out, FILE *err)
{
	const struct roce_plugstack_line *l = &ps->first;
	struct roce_plugargs args;
	struct roce_error e = { "" };

	if (roce_plugargs_parse(l->ac, (char **)l->av, &args, &e) < 0) {
		fprintf(err, "roce-check: %s:%d: %s\n", l->file, l->line, e.msg);
		return -1;
	}
	*conf_named = args.conf_file[0] != '\0';
	if (*conf_named)
		snprintf(conf, len, "%s", args.conf_file);
	fprintf(out, "roce-check: %s:%d: the plugin's words: OK (default=%s, %d roce.conf key(s))\n", l->file, l->line,
	        roce_mode_name(args.default_mode), args.n_kv);
	return 0;
}

/* Every problem of roce.conf, then what the node gets. */
static int check_file(const char *file, bool missing_ok, const char *node, FILE *out, FILE *err)
{
	struct roce_policyfile_result *res = malloc(sizeof(*res));
	struct roce_policy p;
	int rc = 0;

	if (!res) {
		fprintf(err, "roce-check: out of memory\n");
		return -1;
	}
	roce_policy_defaults(&p);
	if (roce_policyfile_read(&p, file, missing_ok, node, res) < 0) {
		size_t kept =
		        res->n_problems < ROCE_POLICYFILE_PROBLEMS_MAX ? res->n_problems : ROCE_POLICYFILE_PROBLEMS_MAX;
		for (size_t i = 0; i < kept; i++)
			fprintf(err, "roce-check: %s\n", res->problems[i].err.msg);
		if (res->n_problems > kept)
			fprintf(err, "roce-check: %s: %zu more problem(s)\n", file, res->n_problems - kept);
		rc = -1;
	} else {
		fprintf(out, "roce-check: %s: OK for node %s (%zu NodeName= section(s), %zu naming it)\n", file,
		        res->node[0] ? res->node : "(unknown)", res->n_sections, res->n_matched);
	}
	free(res);
	return rc;
}

int checkconfig_run(const struct checkconfig_args *a, FILE *out, FILE *err)
{
	struct roce_plugstack *ps = malloc(sizeof(*ps));
	struct roce_error e = { "" };
	char conf[256] = ROCE_DEFAULT_CONFIG, msg[MSG_LEN];
	bool bad = false, conf_named = false;

	if (!ps) {
		fprintf(err, "roce-check: out of memory\n");
		return 2;
	}
	int rc = roce_plugstack_find(NULL, a->plugstack, ps, &e);
	if (rc == 0 && a->plugstack && !ps->n_files) {
		/* slurmd takes a missing plugstack file for an empty one; one named here must be there */
		roce_error_set(&e, "%s: cannot open: %s", a->plugstack, strerror(ENOENT));
		rc = -1;
	}
	enum loads loads = plugstack_loads(ps, rc, &e, msg, sizeof(msg));
	if (loads == LOADS_YES) {
		bad = check_words(ps, conf, sizeof(conf), &conf_named, out, err) < 0;
	} else {
		fprintf(err, "roce-check: %s%s\n", loads == LOADS_UNKNOWN ? "" : "warning: ", msg);
		/* a plugstack file named on the command line must be readable */
		bad = a->plugstack && rc < 0;
	}
	/* The file a node reads: named here, else the plugin's config=, else the default (may be missing). */
	if (check_file(a->config ? a->config : conf, !a->config && !conf_named, a->node, out, err) < 0)
		bad = true;
	free(ps);
	return bad ? 2 : 0;
}
