/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostmatch - roce.conf's NodeName= patterns (lib/base/hostmatch.c): the
 * input up to its first NUL is the pattern, the rest the node name.  The
 * promises: a pattern refused by roce_hostmatch_check matches nothing, and
 * says why; a pattern of plain name characters matches itself and only that.
 */
#include "config.h"
#include "fuzz.h"
#include "base/hostmatch.h"

static bool plain(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	if (!s)
		return 0;
	const char *pattern = s, *name = s + strlen(s) + 1 <= s + size ? s + strlen(s) + 1 : "";
	struct roce_error err = { "" };
	int ok = roce_hostmatch_check(pattern, &err);
	bool m = roce_hostmatch(pattern, name);
	FUZZ_CHECK(ok == 0 || ok == -1, "rc %d", ok);
	if (ok < 0) {
		FUZZ_CHECK(!m, "a refused pattern matched \"%s\"", name);
		FUZZ_CHECK(err.msg[0] && memchr(err.msg, '\0', sizeof(err.msg)), "refused without a reason");
	}
	if (ok == 0 && plain(pattern) && strlen(pattern) <= ROCE_HOSTMATCH_NAME_MAX) {
		FUZZ_CHECK(roce_hostmatch(pattern, pattern), "\"%s\" does not match itself", pattern);
		FUZZ_CHECK(m == (strcmp(pattern, name) == 0), "\"%s\" against \"%s\"", pattern, name);
	}
	free(s);
	return 0;
}
