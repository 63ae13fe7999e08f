/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_slurmid.c - the job ids and node names we file under (lib/base/slurmid.h). */
#include "config.h"
#include "unit.h"

#include <stdbool.h>
#include <string.h>

#include "base/slurmid.h"

struct name {
	const char *s;
	bool ok;
};

static void t_job(void **state)
{
	(void)state;
	static const struct name ids[] = {
		{ "1", true },    { "4294967295", true }, { "4294967296", false }, { "99999999999", false },
		{ "0", false },   { "012", false },       { "12_3", false },       { "+12", false },
		{ " 12", false }, { "../1", false },      { "", false },           { NULL, false },
	};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (roce_slurmid_job_ok(ids[i].s) != ids[i].ok)
			fail_msg("job id \"%s\": want %s", ids[i].s ? ids[i].s : "(null)",
			         ids[i].ok ? "ok" : "refused");
}

static void t_node(void **state)
{
	(void)state;
	char longest[64], too_long[65];
	memset(longest, 'n', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	memset(too_long, 'n', sizeof(too_long) - 1);
	too_long[sizeof(too_long) - 1] = '\0';
	const struct name names[] = {
		{ "node-01.a_b", true }, { "n", true },   { longest, true }, { too_long, false }, { ".hidden", false },
		{ "-n1", false },        { "..", false }, { "a/b", false },  { "n\n1", false },   { "n 1", false },
		{ "n\xc3\xa9", false },  { "", false },   { NULL, false },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (roce_slurmid_node_ok(names[i].s) != names[i].ok)
			fail_msg("node name \"%s\": want %s", names[i].s ? names[i].s : "(null)",
			         names[i].ok ? "ok" : "refused");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(t_job),
		cmocka_unit_test(t_node),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
