/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * subnet.h - an IP subnet ("192.0.2.64/26", "2001:db8:1::/64"): what a RoCE
 * port's rail is (lib/agree/fingerprint.h) and what roce.conf's Rails=
 * lists.  Parsed strictly, printed canonically, compared.  Pure.
 */
#ifndef ROCE_SUBNET_H
#define ROCE_SUBNET_H

#include <stdbool.h>
#include <stdint.h>

/* INET6_ADDRSTRLEN (45 and a NUL: "ffff:...:ffff:255.255.255.255"), "/128" */
#define ROCE_SUBNET_TEXT_MAX 50

struct roce_subnet {
	int family;       /* AF_INET or AF_INET6 */
	uint8_t addr[16]; /* network order, host bits clear; IPv4 in the first 4 bytes */
	unsigned prefix;  /* 0-32 or 0-128 */
};

/* "ADDRESS/PREFIX" -> *s.  0; -1 when it is not one (*s zeroed); -2 when
 * the address has host bits set (*s is then the subnet it is in, for the
 * message). */
int roce_subnet_parse(const char *text, struct roce_subnet *s);
/* The subnet of addr (4 or 16 bytes of family) with prefix bits. */
void roce_subnet_of(int family, const uint8_t *addr, unsigned prefix, struct roce_subnet *s);
/* As inet_ntop prints the address, then "/PREFIX". */
void roce_subnet_format(const struct roce_subnet *s, char out[ROCE_SUBNET_TEXT_MAX]);
/* Is text the canonical form of a subnet (what roce_subnet_format prints)? */
bool roce_subnet_canonical(const char *text);
bool roce_subnet_contains(const struct roce_subnet *s, int family, const uint8_t *addr);
/* Do a and b share an address (one contains the other)? */
bool roce_subnet_overlaps(const struct roce_subnet *a, const struct roce_subnet *b);

#endif
