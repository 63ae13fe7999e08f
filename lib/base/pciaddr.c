/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pciaddr.c - "DDDD:BB:DD.F" parsed strictly and printed canonically.  Pure.
 */
#include "config.h"
#include "base/pciaddr.h"

#include <stdio.h>

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Read min..max hex digits; NULL when fewer than min. */
static const char *hexfield(const char *s, int min, int max, unsigned *out)
{
	unsigned v = 0;
	int n = 0;
	while (n < max && hexval(s[n]) >= 0) {
		v = v * 16 + (unsigned)hexval(s[n]);
		n++;
	}
	if (n < min)
		return NULL;
	*out = v;
	return s + n;
}

int roce_pciaddr_parse(const char *s, struct roce_pciaddr *a)
{
	const char *p = hexfield(s, 4, 8, &a->domain);
	if (!p || *p++ != ':' || !(p = hexfield(p, 2, 2, &a->bus)) || *p++ != ':' ||
	    !(p = hexfield(p, 2, 2, &a->dev)) || *p++ != '.' || !(p = hexfield(p, 1, 1, &a->func)) || *p)
		return -1;
	if (a->dev > 0x1f || a->func > 7)
		return -1;
	return 0;
}

void roce_pciaddr_format(const struct roce_pciaddr *a, char *out, size_t len)
{
	snprintf(out, len, "%04x:%02x:%02x.%x", a->domain, a->bus, a->dev, a->func);
}
