/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodectl.c - sinfo and scontrol for this node, each with a deadline (nodectl.h). */
#include "config.h"
#include "nodectl.h"
#include "check/check.h"
#include "proc/command.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Run argv, its output into out (olen bytes; NULL: dropped); 0, or -1 with
 * why saying what happened. */
static int run(const char *const argv[], char *out, size_t olen, char *why, size_t len)
{
	struct roce_command c;
	if (roce_command_run(argv, ROCE_NODECTL_TIMEOUT_MS, out, olen, &c) == 0)
		return 0;
	roce_command_describe(argv, &c, ROCE_NODECTL_TIMEOUT_MS, why, len);
	return -1;
}

int roce_nodectl_state(const char *node, unsigned *bits, char *word, size_t wlen, char *reason, size_t rlen, char *why,
                       size_t ylen)
{
	const char *argv[] = { "sinfo", "--noheader", "--Node", "--nodes", node, "--format", "%T|%E", NULL };
	char out[4096];
	if (run(argv, out, sizeof(out), why, ylen) < 0)
		return -1;
	out[strcspn(out, "\n")] = '\0'; /* one line per partition: the first */
	char *bar = strchr(out, '|');
	if (!bar) {
		snprintf(why, ylen, "sinfo does not know node %s", node);
		return -1;
	}
	*bar = '\0';
	snprintf(word, wlen, "%s", out);
	/* sinfo prints "none" for no reason */
	snprintf(reason, rlen, "%s", strcmp(bar + 1, "none") == 0 ? "" : bar + 1);
	*bits = roce_check_drain_state_word(word);
	return 0;
}

int roce_nodectl_drain(const char *node, const char *reason, char *why, size_t len)
{
	char n[300], rsn[300];
	snprintf(n, sizeof(n), "NodeName=%s", node);
	snprintf(rsn, sizeof(rsn), "Reason=%s", reason);
	const char *argv[] = { "scontrol", "update", n, "State=DRAIN", rsn, NULL };
	return run(argv, NULL, 0, why, len);
}

int roce_nodectl_resume(const char *node, char *why, size_t len)
{
	char n[300];
	snprintf(n, sizeof(n), "NodeName=%s", node);
	const char *argv[] = { "scontrol", "update", n, "State=RESUME", NULL };
	return run(argv, NULL, 0, why, len);
}

/* "PrologFlags             = Alloc,Contain": 1 when a flag is Alloc or
 * Contain, 0 for others or none ("(null)"), -1 when line is not that key's. */
static int alloc_in_line(char *line)
{
	char *save = NULL, *eq = strchr(line, '=');
	size_t key = strcspn(line, " =");
	if (!eq || key != strlen("PrologFlags") || strncmp(line, "PrologFlags", key) != 0)
		return -1;
	for (char *w = strtok_r(eq + 1, " ,", &save); w; w = strtok_r(NULL, " ,", &save))
		if (strcasecmp(w, "Alloc") == 0 || strcasecmp(w, "Contain") == 0)
			return 1;
	return 0;
}

int roce_nodectl_prolog_alloc(char *why, size_t len)
{
	const char *argv[] = { "scontrol", "show", "config", NULL };
	static char out[1 << 17]; /* some 300 lines */
	if (run(argv, out, sizeof(out), why, len) < 0)
		return -1;
	char *save = NULL;
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int found = alloc_in_line(line);
		if (found >= 0)
			return found;
	}
	snprintf(why, len, "scontrol show config has no PrologFlags line");
	return -1;
}
