/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_subnet.c - IP subnets (lib/base/subnet.c): what a port's rail is and
 * what Rails= lists; parsed strictly, printed canonically, compared.
 */
#include "config.h"
#include "unit.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "base/subnet.h"

static void t_parse_format(void **state)
{
	(void)state;
	struct roce_subnet s;
	char out[ROCE_SUBNET_TEXT_MAX];
	static const char *const good[] = { "192.0.2.64/26", "0.0.0.0/0", "203.0.113.7/32", "2001:db8:1::/64",
		                            "::/0", "2001:db8::1/128" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(roce_subnet_parse(good[i], &s), 0);
		roce_subnet_format(&s, out);
		assert_string_equal(out, good[i]);
		assert_true(roce_subnet_canonical(good[i]));
	}
	assert_int_equal(roce_subnet_parse("192.0.2.64/26", &s), 0);
	assert_int_equal(s.family, AF_INET);
	assert_int_equal(s.prefix, 26);
	/* host bits set: refused, and the subnet it is in is there for the message */
	assert_int_equal(roce_subnet_parse("192.0.2.70/26", &s), -2);
	roce_subnet_format(&s, out);
	assert_string_equal(out, "192.0.2.64/26");
	/* not one */
	static const char *const bad[] = { "", "/24", "192.0.2.0", "192.0.2.0/", "192.0.2.0/33", "192.0.2.0/024",
		                           "192.0.2.0/+4", "192.0.2/24", "192.0.2.0/24x", "2001:db8::/129",
		                           "2001:db8::/1000", "x/1", "192.0.2.0/-1", "300.0.2.0/24" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (roce_subnet_parse(bad[i], &s) != -1)
			fail_msg("\"%s\" parsed", bad[i]);
	assert_int_equal(roce_subnet_parse(NULL, &s), -1);
	/* another spelling of a good subnet is not the canonical one */
	assert_false(roce_subnet_canonical("2001:0db8:1::/64"));
	assert_false(roce_subnet_canonical("2001:db8:1:0::/64"));
	assert_int_equal(roce_subnet_parse("2001:0db8:1::/64", &s), 0);
}

static void t_contains_overlaps(void **state)
{
	(void)state;
	struct roce_subnet a, b, c;
	uint8_t in[4] = { 192, 0, 2, 70 }, out[4] = { 192, 0, 2, 130 }, v6[16];
	assert_int_equal(roce_subnet_parse("192.0.2.64/26", &a), 0);
	assert_true(roce_subnet_contains(&a, AF_INET, in));
	assert_false(roce_subnet_contains(&a, AF_INET, out));
	inet_pton(AF_INET6, "::ffff:192.0.2.70", v6);
	assert_false(roce_subnet_contains(&a, AF_INET6, v6));
	roce_subnet_of(AF_INET, in, 26, &b);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_int_equal(roce_subnet_parse("192.0.2.0/24", &b), 0);
	assert_int_equal(roce_subnet_parse("192.0.2.128/26", &c), 0);
	assert_true(roce_subnet_overlaps(&a, &b));
	assert_true(roce_subnet_overlaps(&b, &a));
	assert_false(roce_subnet_overlaps(&a, &c));
	assert_true(roce_subnet_overlaps(&a, &a));
	assert_int_equal(roce_subnet_parse("2001:db8::/32", &b), 0);
	assert_false(roce_subnet_overlaps(&a, &b));
	assert_int_equal(roce_subnet_parse("2001:db8:1::/64", &c), 0);
	assert_true(roce_subnet_overlaps(&b, &c));
	inet_pton(AF_INET6, "2001:db8:1::5", v6);
	assert_true(roce_subnet_contains(&c, AF_INET6, v6));
	/* an odd prefix: the bits within a byte count */
	uint8_t x[4] = { 10, 1, 0, 0 }, y[4] = { 10, 3, 0, 0 };
	roce_subnet_of(AF_INET, x, 15, &a);
	assert_true(roce_subnet_contains(&a, AF_INET, (uint8_t[]){ 10, 0, 9, 9 }));
	assert_false(roce_subnet_contains(&a, AF_INET, y));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_parse_format),
		cmocka_unit_test(t_contains_overlaps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
