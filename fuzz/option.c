/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * option - the SPANK option value check: what a user types after --roce=
 * goes through roce_token_ok() and roce_mode_parse() (and GdrLevel values
 * through roce_gdr_level_parse()).  The promises checked here are the ones
 * the plugin relies on: an accepted token has no byte that could end a
 * variable or start a new one, and a parsed mode is exactly one of three.
 */
#include "config.h"
#include "fuzz.h"
#include "read/policy.h"

#include <strings.h>

static void check_token(const char *s, size_t maxlen)
{
	if (!roce_token_ok(s, maxlen))
		return;
	size_t n = strlen(s);
	FUZZ_CHECK(n > 0 && n <= maxlen, "accepted a token of %zu bytes (max %zu)", n, maxlen);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		FUZZ_CHECK(c > 0x20 && c < 0x7f, "accepted byte 0x%02x", c);
		FUZZ_CHECK(!strchr("\"'`$\\;&|<>(){}*?!=#", c), "accepted metacharacter '%c'", c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* First byte: the length limit the caller passes (the plugin uses small ones). */
	size_t maxlen = data[0];
	char *s = fuzz_cstr(data + 1, size - 1);
	if (!s)
		return 0;
	check_token(s, maxlen);
	check_token(s, 1000);

	enum roce_mode m = (enum roce_mode)99;
	if (roce_mode_parse(s, &m) == 0) {
		FUZZ_CHECK(m == ROCE_MODE_OFF || m == ROCE_MODE_WARN || m == ROCE_MODE_STRICT, "mode %d", (int)m);
		FUZZ_CHECK(strcasecmp(s, roce_mode_name(m)) == 0, "\"%s\" parsed as %s", s, roce_mode_name(m));
		FUZZ_CHECK(roce_token_ok(s, 16), "accepted mode is not a token");
	} else {
		FUZZ_CHECK(m == (enum roce_mode)99, "failed parse wrote the output");
	}
	enum roce_gdr_level l = (enum roce_gdr_level)99;
	if (roce_gdr_level_parse(s, &l) == 0)
		FUZZ_CHECK((unsigned)l <= ROCE_GDR_SYS && strlen(s) == (strlen(s) == 1 ? 1u : 3u), "gdr %d from \"%s\"", (int)l, s);
	free(s);
	return 0;
}
