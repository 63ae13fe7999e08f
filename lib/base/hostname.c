/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostname.c - the short host name as a fallback node name (hostname.h). */
#include "config.h"
#include "base/hostname.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

const char *roce_hostname_node(const char *node, char *buf, size_t len)
{
	if (node && *node)
		return node;
	/* slurmd sets SLURMD_NODENAME; without it the host name is the best guess
	 * (wrong with NodeHostname= or several slurmd on one host). */
	if (!len) {
		errno = EINVAL;
		return NULL;
	}
	if (gethostname(buf, len) < 0)
		return NULL;
	buf[len - 1] = '\0';
	buf[strcspn(buf, ".")] = '\0';
	return buf;
}
