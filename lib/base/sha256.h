/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256.h - SHA-256 (FIPS 180-4) of a buffer.  Pure.  The digest that names
 * a fingerprint in SharedDir after its content (agree/shareddir.h): equal
 * fingerprints get equal names, and a reader checks a file against its name.
 */
#ifndef ROCE_SHA256_H
#define ROCE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define ROCE_SHA256_LEN 32

void roce_sha256(const void *data, size_t len, uint8_t out[ROCE_SHA256_LEN]);

/* The first n_bytes of data's digest as 2 * n_bytes lowercase hex digits and
 * a NUL (hex holds 2 * n_bytes + 1); n_bytes at most ROCE_SHA256_LEN. */
void roce_sha256_hex(const void *data, size_t len, size_t n_bytes, char *hex);

#endif
