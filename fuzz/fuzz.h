/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - helpers shared by the libFuzzer targets.
 *
 * Every target is built with clang -fsanitize=fuzzer,address,undefined
 * (make fuzz).  A target turns the fuzzer's bytes into what the parser
 * really receives (a C string, a file, a netlink datagram, a JSON document)
 * and, where the parser promises something checkable, asserts it with
 * FUZZ_CHECK: a broken promise is reported as a crash with the reason.
 */
#ifndef ROCE_FUZZ_H
#define ROCE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_CHECK(cond, ...) do {                                              \
		if (!(cond)) {                                                  \
			fprintf(stderr, "fuzz check failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			abort();                                                \
		}                                                               \
	} while (0)

/* The input as a NUL-terminated heap string of exactly size + 1 bytes (so
 * ASan sees any read past its end).  Embedded NULs end the string early, as
 * they would for the C callers.  NULL on ENOMEM. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return NULL;
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
