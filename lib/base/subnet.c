/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subnet.c - IP subnets, parsed, printed and compared (subnet.h). */
#include "config.h"
#include "base/subnet.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static unsigned addr_len(int family) { return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0; }

/* Do the first bits bits of a and b agree? */
static bool same_bits(const uint8_t *a, const uint8_t *b, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;
	if (memcmp(a, b, whole) != 0)
		return false;
	if (!rest)
		return true;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));
	return (a[whole] & mask) == (b[whole] & mask);
}

void roce_subnet_of(int family, const uint8_t *addr, unsigned prefix, struct roce_subnet *s)
{
	unsigned len = addr_len(family);
	memset(s, 0, sizeof(*s));
	if (!len)
		return;
	s->family = family;
	s->prefix = prefix > len * 8 ? len * 8 : prefix;
	memcpy(s->addr, addr, len);
	for (unsigned bit = s->prefix; bit < len * 8; bit++)
		s->addr[bit / 8] &= (uint8_t) ~(0x80 >> (bit % 8));
}

int roce_subnet_parse(const char *text, struct roce_subnet *s)
{
	char host[INET6_ADDRSTRLEN];
	uint8_t addr[16];
	const char *slash = text ? strchr(text, '/') : NULL;
	memset(s, 0, sizeof(*s));
	if (!slash || slash == text || (size_t)(slash - text) >= sizeof(host))
		return -1;
	memcpy(host, text, (size_t)(slash - text));
	host[slash - text] = '\0';
	int family = strchr(host, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(family, host, addr) != 1)
		return -1;
	/* 1-3 digits, no sign, no leading zero */
	const char *p = slash + 1;
	size_t nd = strspn(p, "0123456789");
	if (nd < 1 || nd > 3 || p[nd] || (nd > 1 && p[0] == '0'))
		return -1;
	unsigned prefix = (unsigned)(p[0] - '0');
	for (size_t i = 1; i < nd; i++)
		prefix = prefix * 10 + (unsigned)(p[i] - '0');
	if (prefix > addr_len(family) * 8)
		return -1;
	roce_subnet_of(family, addr, prefix, s);
	return memcmp(s->addr, addr, addr_len(family)) == 0 ? 0 : -2;
}

void roce_subnet_format(const struct roce_subnet *s, char out[ROCE_SUBNET_TEXT_MAX])
{
	char host[INET6_ADDRSTRLEN];
	if (!addr_len(s->family) || !inet_ntop(s->family, s->addr, host, sizeof(host))) {
		out[0] = '\0';
		return;
	}
	snprintf(out, ROCE_SUBNET_TEXT_MAX, "%s/%u", host, s->prefix);
}

bool roce_subnet_canonical(const char *text)
{
	struct roce_subnet s;
	char back[ROCE_SUBNET_TEXT_MAX];
	if (roce_subnet_parse(text, &s) != 0)
		return false;
	roce_subnet_format(&s, back);
	return strcmp(back, text) == 0;
}

bool roce_subnet_contains(const struct roce_subnet *s, int family, const uint8_t *addr)
{
	return addr_len(family) && s->family == family && same_bits(s->addr, addr, s->prefix);
}

bool roce_subnet_overlaps(const struct roce_subnet *a, const struct roce_subnet *b)
{
	return a->family == b->family && addr_len(a->family) &&
	       same_bits(a->addr, b->addr, a->prefix < b->prefix ? a->prefix : b->prefix);
}
