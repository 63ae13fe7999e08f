/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugstack.c - the plugstack line that loads spank_roce.so, as slurmd finds it (plugstack.h). */
#include "config.h"
#include "read/plugstack.h"
#include "read/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define SLURM_CONF_MAX (16 * 1024 * 1024) /* bytes of a slurm.conf (thousands of node lines) */
#define STACK_MAX (1024 * 1024)
#define DEPTH_MAX 8   /* includes within includes: a loop ends here */
#define FILES_MAX 256 /* plugstack files read in all */
#define WORDS " \t\r\n"

/* ---------------------------------------------------------------- slurm.conf */

static bool word_is(const char *w, const char *key, const char **value)
{
	size_t n = strlen(key);
	if (strncasecmp(w, key, n) != 0 || w[n] != '=')
		return false;
	*value = w + n + 1;
	return true;
}

/* A value as slurm.conf writes it, quotes removed, into dst. */
static void value_into(char *dst, size_t len, const char *v)
{
	size_t n = strlen(v);
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
		snprintf(dst, len, "%.*s", (int)(n - 2), v + 1);
	else
		snprintf(dst, len, "%s", v);
}

/* dir/rel, or rel when it is absolute. */
static void beside(char *dst, size_t len, const char *file, const char *rel)
{
	const char *slash = strrchr(file, '/');
	if (rel[0] == '/' || !slash)
		snprintf(dst, len, "%s", rel);
	else
		snprintf(dst, len, "%.*s/%s", (int)(slash - file), file, rel);
}

/* PlugStackConfig= and PluginDir= of slurm.conf and the files it includes. */
static int read_slurm_conf(const char *path, int depth, struct roce_plugstack *ps, struct roce_error *err)
{
	struct roce_reading r;
	char *save = NULL, *text = roce_readfile(AT_FDCWD, NULL, path, SLURM_CONF_MAX, 0, NULL, &r);
	if (!text) {
		roce_error_set(err, "%s", r.why);
		return -1;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *wsave = NULL, inc[PATH_MAX];
		const char *v;
		if (hash)
			*hash = '\0';
		char *w = strtok_r(line, WORDS, &wsave);
		if (w && strcasecmp(w, "include") == 0 && (w = strtok_r(NULL, WORDS, &wsave)) && depth < DEPTH_MAX) {
			beside(inc, sizeof(inc), path, w);
			read_slurm_conf(inc, depth + 1, ps, err); /* slurmd fails on a missing one; not our call */
			continue;
		}
		for (; w; w = strtok_r(NULL, WORDS, &wsave)) {
			if (word_is(w, "PlugStackConfig", &v))
				value_into(ps->stack, sizeof(ps->stack), v);
			else if (word_is(w, "PluginDir", &v))
				value_into(ps->plugin_dir, sizeof(ps->plugin_dir), v);
		}
	}
	free(text);
	return 0;
}

static int find_slurm_conf(const char *slurm_conf, struct roce_plugstack *ps, struct roce_error *err)
{
	const char *env = getenv("SLURM_CONF");
	if (!slurm_conf && env && *env)
		slurm_conf = env;
	if (!slurm_conf)
		slurm_conf =
		        access("/etc/slurm/slurm.conf", F_OK) == 0 || access("/run/slurm/conf/slurm.conf", F_OK) != 0
		                ? "/etc/slurm/slurm.conf"
		                : "/run/slurm/conf/slurm.conf";
	snprintf(ps->slurm_conf, sizeof(ps->slurm_conf), "%s", slurm_conf);
	return read_slurm_conf(slurm_conf, 0, ps, err);
}

/* ---------------------------------------------------------------- plugstack files */

static bool names_us(const char *path)
{
	const char *base = strrchr(path, '/');
	return strcmp(base ? base + 1 : path, ROCE_PLUGSTACK_SO) == 0;
}

static void take_line(struct roce_plugstack *ps, const char *file, int lineno, bool required, char *rest)
{
	struct roce_plugstack_line *l = &ps->first;
	char *save = NULL;
	if (ps->n_loads++)
		return;
	snprintf(l->file, sizeof(l->file), "%s", file);
	l->line = lineno;
	l->required = required;
	snprintf(l->text, sizeof(l->text), "%s", rest);
	char *w = strtok_r(l->text, WORDS, &save);
	snprintf(l->path, sizeof(l->path), "%s", w ? w : "");
	while ((w = strtok_r(NULL, WORDS, &save)) && l->ac < ROCE_PLUGSTACK_ARGS_MAX)
		l->av[l->ac++] = w;
}

static int read_stack(const char *path, int depth, struct roce_plugstack *ps, struct roce_error *err);

/* `include GLOB`: relative to the including file's directory, as slurmd does. */
static void include(const char *file, int lineno, const char *pattern, int depth, struct roce_plugstack *ps)
{
	char full[PATH_MAX];
	glob_t gl;
	beside(full, sizeof(full), file, pattern);
	int rc = glob(full, 0, NULL, &gl);
	if (rc == 0)
		for (size_t i = 0; i < gl.gl_pathc; i++)
			if (read_stack(gl.gl_pathv[i], depth + 1, ps, &ps->problem) < 0)
				break;
	if (rc == GLOB_ABORTED && !ps->problem.msg[0])
		roce_error_set(&ps->problem, "%s:%d: cannot read the directory of \"%s\"", file, lineno, full);
	if (rc == 0 || rc == GLOB_NOMATCH || rc == GLOB_ABORTED)
		globfree(&gl);
}

static void stack_line(const char *file, int lineno, char *line, int depth, struct roce_plugstack *ps)
{
	char *hash = strchr(line, '#'), *save = NULL;
	if (hash) {
		if (strstr(hash, ROCE_PLUGSTACK_SO) && !ps->commented_line) {
			snprintf(ps->commented_file, sizeof(ps->commented_file), "%s", file);
			ps->commented_line = lineno;
		}
		*hash = '\0';
	}
	char *end = line + strlen(line), *kind = strtok_r(line, WORDS, &save);
	if (!kind)
		return;
	char *rest = kind + strlen(kind) < end ? kind + strlen(kind) + 1 : end;
	if (strcmp(kind, "include") == 0) {
		char *pattern = strtok_r(NULL, WORDS, &save);
		if (pattern)
			include(file, lineno, pattern, depth, ps);
		return;
	}
	char copy[ROCE_PLUGSTACK_LINE_MAX], *csave = NULL;
	snprintf(copy, sizeof(copy), "%s", rest);
	char *path = strtok_r(copy, WORDS, &csave);
	/* Lines slurmd ignores ("Invalid line") load nothing. */
	if (path && names_us(path) && (!strcmp(kind, "required") || !strcmp(kind, "optional")))
		take_line(ps, file, lineno, !strcmp(kind, "required"), rest);
}

/* A plugstack file: a missing one is empty, as for slurmd. */
static int read_stack(const char *path, int depth, struct roce_plugstack *ps, struct roce_error *err)
{
	struct roce_reading r;
	int lineno = 0;

	if (depth > DEPTH_MAX || ps->n_files >= FILES_MAX) {
		roce_error_set(err, "%s: includes nested deeper than %d or more than %d files", path, DEPTH_MAX,
		               FILES_MAX);
		return -1;
	}
	char *text = roce_readfile(AT_FDCWD, NULL, path, STACK_MAX, 0, NULL, &r);
	if (!text) {
		if (r.status == ROCE_MISSING)
			return 0;
		roce_error_set(err, "%s", r.why);
		return -1;
	}
	ps->n_files++;
	for (char *p = text, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		stack_line(path, lineno, p, depth, ps);
		if (!nl)
			break;
	}
	free(text);
	return 0;
}

int roce_plugstack_find(const char *slurm_conf, const char *stack, struct roce_plugstack *ps, struct roce_error *err)
{
	memset(ps, 0, sizeof(*ps));
	if (!stack && find_slurm_conf(slurm_conf, ps, err) < 0)
		return -1;
	if (stack)
		snprintf(ps->stack, sizeof(ps->stack), "%s", stack);
	else if (!ps->stack[0])
		beside(ps->stack, sizeof(ps->stack), ps->slurm_conf, "plugstack.conf");
	return read_stack(ps->stack, 0, ps, err);
}
