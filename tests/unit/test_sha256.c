/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_sha256.c - SHA-256 (lib/base/sha256.h) against FIPS 180-4's example vectors and sha256sum's. */
#include "config.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"

static void hex_of(const char *text, size_t len, const char *want)
{
	char hex[2 * ROCE_SHA256_LEN + 1];
	roce_sha256_hex(text, len, ROCE_SHA256_LEN, hex);
	assert_string_equal(hex, want);
}

static void vectors(void **state)
{
	(void)state;
	hex_of("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes: a second tail block */
	hex_of(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *four = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
	                   "lmnopqrsmnopqrstnopqrstu";
	hex_of(four, strlen(four), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	/* a million 'a': many whole blocks */
	char *a = malloc(1000000);
	assert_non_null(a);
	memset(a, 'a', 1000000);
	hex_of(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* 63 and 64 bytes (sha256sum): the padding on both sides of a block's end */
	hex_of(a, 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
	hex_of(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
	free(a);
}

static void short_hex(void **state)
{
	(void)state;
	char hex[2 * ROCE_SHA256_LEN + 1];
	memset(hex, 'x', sizeof(hex));
	roce_sha256_hex("abc", 3, 16, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223");
	assert_int_equal(hex[33], 'x'); /* nothing written past the NUL */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vectors),
		cmocka_unit_test(short_hex),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
