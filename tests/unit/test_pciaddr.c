/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pciaddr.c - PCI addresses parsed strictly, printed canonically (lib/base/pciaddr.c). */
#include "config.h"
#include "unit.h"
#include "base/pciaddr.h"
#include "base/model.h"

#include <string.h>

static void expect(const char *in, const char *canonical)
{
	struct roce_pciaddr a;
	char out[ROCE_PCI_MAX];
	if (roce_pciaddr_parse(in, &a))
		fail_msg("\"%s\" refused", in);
	roce_pciaddr_format(&a, out, sizeof(out));
	assert_string_equal(out, canonical);
}

static void t_valid(void **state)
{
	(void)state;
	expect("0000:03:00.0", "0000:03:00.0");
	expect("0000:C3:1F.7", "0000:c3:1f.7");          /* the driver may print upper case */
	expect("0033:01:00.1", "0033:01:00.1");
	expect("00010000:ff:00.0", "10000:ff:00.0");     /* 8-digit domains (VMD) */
}

static void t_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "03:00.0", "000:03:00.0", "0000:3:00.0", "0000:03:0.0", "0000:03:00", "0000:03:00.",
		"0000:03:20.0",          /* device > 0x1f */
		"0000:03:00.8",          /* function > 7 */
		"0000:03:00.00", "0000:03:00.0 ", "0000:03:00.0\n", "04:00.0;reboot", "000000000:03:00.0",
		"0000-03:00.0", "0x00:03:00.0", "g000:03:00.0",
	};
	struct roce_pciaddr a;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (roce_pciaddr_parse(bad[i], &a) == 0)
			fail_msg("\"%s\" accepted", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_valid),
		cmocka_unit_test(t_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
