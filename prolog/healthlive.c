/* SPDX-License-Identifier: GPL-2.0-or-later */
/* healthlive.c - roce-check's live step as a health check (healthlive.h). */
#include "config.h"
#include "healthlive.h"
#include "base/hostname.h"
#include "job/livesample.h"
#include "read/jsonin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A counter snapshot is a few kB per port. */
#define SNAPSHOT_MAX (64 << 20)

void healthlive_keep(int fd, const struct roce_snapshot *s)
{
	json_object *o = roce_snapshot_json_build(s);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	size_t len = text ? strlen(text) : 0;
	while (fd >= 0 && len > 0) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "roce-check: no live samples: cannot keep the counter snapshot: %s\n",
			        strerror(errno));
			break;
		}
		text += n;
		len -= (size_t)n;
	}
	json_object_put(o);
}

void healthlive_run(const struct roce_policy *p, const char *node, int fd)
{
	struct roce_snapshot snap;
	struct roce_livesample_result res = { 0 };
	struct roce_error err = { "" };
	char host[256], *text = NULL;
	off_t size = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	size_t len = 0;

	if (size <= 0 || size > SNAPSHOT_MAX || !(text = malloc((size_t)size)))
		return;
	for (ssize_t n; len < (size_t)size; len += (size_t)n)
		if ((n = pread(fd, text + len, (size_t)size - len, (off_t)len)) <= 0)
			break;
	roce_snapshot_init(&snap);
	json_object *o = roce_jin_parse(text, len, &err);
	node = roce_hostname_node(node ? node : getenv("SLURMD_NODENAME"), host, sizeof(host));
	if (!o || roce_snapshot_json_parse(&snap, o, &err) < 0)
		snprintf(res.why, sizeof(res.why), "the counter snapshot: %s", err.msg);
	else
		roce_livesample_run_guarded(p, node, &snap, &res);
	if (res.why[0])
		fprintf(stderr, "roce-check: live samples: %u of %u running job(s) sampled: %s\n", res.written,
		        res.jobs, res.why);
	json_object_put(o);
	roce_snapshot_free(&snap);
	free(text);
}
