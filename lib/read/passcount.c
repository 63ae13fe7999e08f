/* SPDX-License-Identifier: GPL-2.0-or-later */
/* passcount.c - the health check's count of passing runs, in StateDir (passcount.h). */
#include "config.h"
#include "read/passcount.h"
#include "read/readfile.h"
#include "read/safefile.h"
#include "base/slurmid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_MAX_LEN 80 /* a node name (63) and ".passes" */
#define TEXT_MAX 16     /* "4294967295\n" */

static int file_name(const char *node, char *buf, struct roce_error *err)
{
	if (!node || !roce_slurmid_node_ok(node)) {
		roce_error_set(err, "node name \"%.64s\" is not usable as a file name", node ? node : "(null)");
		return -1;
	}
	snprintf(buf, NAME_MAX_LEN, "%s.passes", node);
	return 0;
}

/* "N\n", N decimal without a sign or a leading zero; -1 otherwise. */
static int parse_count(const char *s, unsigned *out)
{
	char *end;
	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\n'))
		return -1;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || v > 0xffffffffUL || strcmp(end, "\n") != 0)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int roce_passcount_load(const char *state_dir, const char *node, unsigned *passes, struct roce_error *err)
{
	char name[NAME_MAX_LEN], text[TEXT_MAX + 1];
	struct roce_reading r;
	*passes = 0;
	if (file_name(node, name, err) < 0)
		return -1;
	int dfd = roce_safefile_state_dir_existing(state_dir);
	if (dfd < 0)
		return 0; /* none yet, or not our StateDir: nothing of ours to read */
	ssize_t n = roce_readfile_buf(dfd, NULL, name, text, sizeof(text),
	                              ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &r);
	if (n > 0 && parse_count(text, passes) < 0)
		*passes = 0;
	close(dfd);
	return 0;
}

int roce_passcount_store(const char *state_dir, const char *node, unsigned passes, struct roce_error *err)
{
	char name[NAME_MAX_LEN], text[TEXT_MAX];
	if (file_name(node, name, err) < 0)
		return -1;
	if (passes == 0) {
		/* Nothing to forget where there is no StateDir of ours. */
		int dfd = roce_safefile_state_dir_existing(state_dir);
		if (dfd >= 0) {
			unlinkat(dfd, name, 0);
			close(dfd);
		}
		return 0;
	}
	int dfd = roce_safefile_state_dir(state_dir, err);
	if (dfd < 0)
		return -1;
	int len = snprintf(text, sizeof(text), "%u\n", passes);
	int rc = roce_safefile_write(dfd, name, text, (size_t)len, geteuid(), getegid(), 0600, -1, 0, err);
	close(dfd);
	return rc;
}
