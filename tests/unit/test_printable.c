/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_printable.c - the one escaping rule for hostile text (lib/base/printable.h). */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/printable.h"

static void ordinary_text_unchanged(void **state)
{
	(void)state;
	char out[128];
	const char *text = "mlx5_0:1 \"completion with error 12\" (PFC prio 3) 100%";
	assert_string_equal(roce_printable(text, out, sizeof(out)), text);
	char *dup = roce_printable_dup(text);
	assert_string_equal(dup, text);
	free(dup);
}

static void escapes(void **state)
{
	(void)state;
	char out[128];
	roce_printable("a\nb\tc\rd\\e", out, sizeof(out));
	assert_string_equal(out, "a\\nb\\tc\\rd\\\\e");
	roce_printable("\x1b[31m\x7f\x01", out, sizeof(out));
	assert_string_equal(out, "\\x1b[31m\\x7f\\x01");
	roce_printable("\xff\xfe", out, sizeof(out));
	assert_string_equal(out, "\\xff\\xfe");
	roce_printable(NULL, out, sizeof(out));
	assert_string_equal(out, "");
	/* every byte of the result is printable ASCII: one safe line */
	char all[256];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	char *dup = roce_printable_dup(all);
	assert_non_null(dup);
	assert_int_equal(strlen(dup), 95 - 1 + 2 + 3 * 2 + (255 - 95 - 3) * 4);
	for (const char *c = dup; *c; c++)
		assert_true(*c >= 0x20 && *c < 0x7f);
	free(dup);
}

static void bounded(void **state)
{
	(void)state;
	char out[8];
	assert_string_equal(roce_printable("0123456", out, sizeof(out)), "0123456");   /* fits exactly */
	assert_string_equal(roce_printable("0123456789", out, sizeof(out)), "0123...");
	/* an escape is never cut in half */
	assert_string_equal(roce_printable("01\x1b" "23456", out, sizeof(out)), "01...");
	char tiny[3];
	assert_string_equal(roce_printable("abcdef", tiny, sizeof(tiny)), "..");
	/* the first n bytes only, stopping at a NUL */
	char buf[16];
	assert_string_equal(roce_printable_n("abc\ndef", 4, buf, sizeof(buf)), "abc\\n");
	assert_string_equal(roce_printable_n("ab", 10, buf, sizeof(buf)), "ab");
}

/* HTML: the same rule, and the five specials as character references. */
static void html(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	roce_printable_html(out, "a<b>&\"c\"'d'\x1b\n");
	roce_printable_html(out, NULL);
	fclose(out);
	assert_string_equal(text, "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;\\x1b\\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ordinary_text_unchanged),
		cmocka_unit_test(escapes),
		cmocka_unit_test(bounded),
		cmocka_unit_test(html),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
