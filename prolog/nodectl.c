/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nodectl.c - sinfo and scontrol for this node, each with a deadline (nodectl.h). */
#include "config.h"
#include "nodectl.h"
#include "check/check.h"
#include "proc/command.h"

#include <stdio.h>
#include <string.h>

/* Run argv; 0, or -1 with why saying what happened. */
static int run(const char *const argv[], struct roce_command *c, char *why, size_t len)
{
	if (roce_command_run(argv, ROCE_NODECTL_TIMEOUT_MS, c) == 0)
		return 0;
	roce_command_describe(argv, c, ROCE_NODECTL_TIMEOUT_MS, why, len);
	return -1;
}

int roce_nodectl_state(const char *node, unsigned *bits, char *word, size_t wlen, char *reason, size_t rlen, char *why,
                       size_t ylen)
{
	const char *argv[] = { "sinfo", "--noheader", "--Node", "--nodes", node, "--format", "%T|%E", NULL };
	struct roce_command c;
	if (run(argv, &c, why, ylen) < 0)
		return -1;
	c.out[strcspn(c.out, "\n")] = '\0'; /* one line per partition: the first */
	char *bar = strchr(c.out, '|');
	if (!bar) {
		snprintf(why, ylen, "sinfo does not know node %s", node);
		return -1;
	}
	*bar = '\0';
	snprintf(word, wlen, "%s", c.out);
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
	struct roce_command c;
	return run(argv, &c, why, len);
}

int roce_nodectl_resume(const char *node, char *why, size_t len)
{
	char n[300];
	snprintf(n, sizeof(n), "NodeName=%s", node);
	const char *argv[] = { "scontrol", "update", n, "State=RESUME", NULL };
	struct roce_command c;
	return run(argv, &c, why, len);
}
