/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slurmid.c - a job id and a node name we file under (slurmid.h). */
#include "config.h"
#include "base/slurmid.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool roce_slurmid_job_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 10 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	return strtoull(s, NULL, 10) <= UINT32_MAX;
}

bool roce_slurmid_node_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 63 || s[0] == '.' || s[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
			return false;
	return true;
}
