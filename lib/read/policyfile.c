/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policyfile.c - a roce.conf, its lines and NodeName= sections (policyfile.h). */
#include "config.h"
#include "read/policyfile.h"
#include "base/hostmatch.h"
#include "base/hostname.h"
#include "base/printable.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void add_problem(struct roce_policyfile_result *res, const char *key, bool unread, const struct roce_error *e)
{
	if (res->n_problems < ROCE_POLICYFILE_PROBLEMS_MAX) {
		struct roce_policyfile_problem *x = &res->problems[res->n_problems];
		x->key = key;
		x->unread = unread;
		x->err = *e;
	}
	res->n_problems++;
}

__attribute__((format(printf, 4, 5))) static void problem(struct roce_policyfile_result *res, const char *key,
                                                          bool unread, const char *fmt, ...)
{
	struct roce_error e;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	add_problem(res, key, unread, &e);
}

/* ---------------------------------------------------------------- the file */

/* Regular, or /dev/null (1:3): the documented way to say "no file, defaults only". */
static bool readable_kind(const struct stat *st)
{
	return S_ISREG(st->st_mode) || (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3);
}

/* fd's bytes, at most ROCE_POLICYFILE_MAX; NULL with a problem. */
static char *read_all(int fd, const char *path, size_t *len, struct roce_policyfile_result *res)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);
	ssize_t n;

	for (;;) {
		if (!buf) {
			problem(res, NULL, true, "%s: %s", path, strerror(ENOMEM));
			return NULL;
		}
		if (used + 1 == cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				problem(res, NULL, true, "%s: %s", path, strerror(ENOMEM));
				goto fail;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			problem(res, NULL, true, "%s: read error: %s", path, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > ROCE_POLICYFILE_MAX) {
			problem(res, NULL, true, "%s: larger than 1 MiB", path);
			goto fail;
		}
	}
	buf[used] = '\0';
	*len = used;
	return buf;
fail:
	free(buf);
	return NULL;
}

char *roce_policyfile_text(const char *path, bool missing_ok, size_t *len, struct roce_policyfile_result *res)
{
	struct stat st;
	char *text = NULL;

	memset(res, 0, sizeof(*res));
	*len = 0;
	/* O_NONBLOCK + a look at the kind: a FIFO or device in place of the file must not hang us. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (!(errno == ENOENT && missing_ok))
			problem(res, NULL, true, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !readable_kind(&st))
		problem(res, NULL, true, "%s: not a regular file", path);
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		problem(res, NULL, true, "%s: %s", path, strerror(errno));
	else
		text = read_all(fd, path, len, res);
	close(fd);
	return text;
}

/* ---------------------------------------------------------------- lines and sections */

struct parser {
	struct roce_policy *p;
	struct roce_policyfile_result *res;
	int section_line; /* the NodeName= line of the section read, 0 outside every section */
	bool applies;     /* the keys read now apply to res->node */
};

/* Keys read outside the compute nodes (roce-report, srun): one value everywhere. */
static bool cluster_wide(const char *key)
{
	return !strcmp(key, "ReportDir") || !strcmp(key, "SharedDir") || !strcmp(key, "Rails") ||
	       !strcmp(key, "Probe"); /* a node that does not answer fails its neighbour's probe */
}

static void parse_word(struct parser *ps, const char *word, const char *where)
{
	struct roce_policy scratch;
	struct roce_error err;
	char key[64];
	const char *eq = strchr(word, '=');
	const char *name = NULL;

	if (eq && eq != word && (size_t)(eq - word) < sizeof(key)) {
		memcpy(key, word, (size_t)(eq - word));
		key[eq - word] = '\0';
		name = roce_policy_key_name(key);
	}
	if (name && ps->section_line && cluster_wide(name)) {
		problem(ps->res, name, false,
		        "%s: %s: not in a NodeName= section (line %d): roce-report and srun read it outside the "
		        "compute nodes; set it before the first NodeName= line",
		        where, name, ps->section_line);
		return;
	}
	/* A section for other nodes is checked all the same: the file is good or bad on every node. */
	if (!ps->applies)
		roce_policy_defaults(&scratch);
	if (roce_policy_set_kv(ps->applies ? ps->p : &scratch, word, where, &err) < 0)
		add_problem(ps->res, name, false, &err);
}

static void start_section(struct parser *ps, const char *pattern, int line, const char *where)
{
	struct roce_policyfile_result *res = ps->res;
	struct roce_error err;

	res->n_sections++;
	ps->section_line = line;
	ps->applies = false;
	if (roce_hostmatch_check(pattern, &err) < 0) {
		problem(res, NULL, false, "%s: NodeName: %s: the section's keys apply to no node", where, err.msg);
		return;
	}
	if (strcmp(pattern, "ALL") == 0) {
		ps->section_line = 0;
		ps->applies = true;
		return;
	}
	if (!res->node[0]) {
		problem(res, NULL, false, "%s: NodeName: this node's name is unknown: the section applies to no node",
		        where);
		return;
	}
	ps->applies = roce_hostmatch(pattern, res->node);
	if (ps->applies && res->n_matched++ < ROCE_POLICYFILE_SECTIONS_MAX)
		res->matched_lines[res->n_matched - 1] = line;
}

static void parse_line(struct parser *ps, char *line, int lineno, const char *where)
{
	char *save = NULL, *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (tok == line + strspn(line, " \t\r\n") &&
		    strncasecmp(tok, ROCE_POLICY_NODENAME "=", sizeof(ROCE_POLICY_NODENAME)) == 0)
			start_section(ps, tok + sizeof(ROCE_POLICY_NODENAME), lineno, where);
		else
			parse_word(ps, tok, where);
	}
}

int roce_policyfile_parse(struct roce_policy *p, const char *text, size_t len, const char *name, const char *node,
                          struct roce_policyfile_result *res)
{
	struct parser ps = { .p = p, .res = res, .applies = true };
	char host[256], where[PATH_MAX + 32], line[ROCE_POLICYFILE_LINE_MAX + 1];
	const char *n = roce_hostname_node(node ? node : getenv("SLURMD_NODENAME"), host, sizeof(host));
	int lineno = 0;

	snprintf(res->node, sizeof(res->node), "%s", n ? n : "");
	for (size_t off = 0; off < len; lineno++) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n_line = nl ? (size_t)(nl - text - off) + 1 : len - off;

		snprintf(where, sizeof(where), "%s:%d", name, lineno + 1);
		if (n_line > ROCE_POLICYFILE_LINE_MAX) {
			problem(res, NULL, true, "%s: line longer than %d bytes", where, ROCE_POLICYFILE_LINE_MAX);
		} else if (memchr(text + off, '\0', n_line)) {
			problem(res, NULL, true, "%s: NUL byte in line", where);
		} else {
			memcpy(line, text + off, n_line);
			line[n_line] = '\0';
			parse_line(&ps, line, lineno + 1, where);
		}
		off += n_line;
	}
	return res->n_problems ? -1 : 0;
}

int roce_policyfile_read(struct roce_policy *p, const char *path, bool missing_ok, const char *node,
                         struct roce_policyfile_result *res)
{
	size_t len;
	char *text = roce_policyfile_text(path, missing_ok, &len, res);
	if (!text)
		return res->n_problems ? -1 : 0;
	int rc = roce_policyfile_parse(p, text, len, path, node, res);
	free(text);
	return rc;
}

int roce_policyfile_load(struct roce_policy *p, const char *path, bool missing_ok, struct roce_error *err)
{
	struct roce_policyfile_result res;
	if (roce_policyfile_read(p, path, missing_ok, NULL, &res) == 0)
		return 0;
	if (err)
		*err = res.problems[0].err;
	return -1;
}

const struct roce_policyfile_problem *roce_policyfile_touches(const struct roce_policyfile_result *res,
                                                              const char *const *keys)
{
	size_t kept = res->n_problems < ROCE_POLICYFILE_PROBLEMS_MAX ? res->n_problems : ROCE_POLICYFILE_PROBLEMS_MAX;
	for (size_t i = 0; i < kept; i++) {
		const struct roce_policyfile_problem *x = &res->problems[i];
		if (x->unread)
			return x;
		for (size_t k = 0; x->key && keys[k]; k++)
			if (strcmp(x->key, keys[k]) == 0)
				return x;
	}
	/* Problems past those kept were not looked at: any may be about keys. */
	return res->n_problems > kept ? &res->problems[kept - 1] : NULL;
}
