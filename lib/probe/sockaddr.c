/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sockaddr.c - the probe's addresses, parsed strictly, printed, compared. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "probe/sockaddr.h"

int roce_sockaddr_parse(const char *text, uint16_t port, struct sockaddr_storage *a)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)a;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)a;
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, text, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		return 0;
	}
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET6, text, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		return 0;
	}
	memset(a, 0, sizeof(*a));
	return -1;
}

socklen_t roce_sockaddr_len(const struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

uint16_t roce_sockaddr_port(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
	return a->ss_family == AF_INET ? ntohs(((const struct sockaddr_in *)a)->sin_port) : 0;
}

void roce_sockaddr_set_port(struct sockaddr_storage *a, uint16_t port)
{
	if (a->ss_family == AF_INET6)
		((struct sockaddr_in6 *)a)->sin6_port = htons(port);
	else if (a->ss_family == AF_INET)
		((struct sockaddr_in *)a)->sin_port = htons(port);
}

bool roce_sockaddr_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		              &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
	return false;
}

const char *roce_sockaddr_text(const struct sockaddr_storage *a, char *buf)
{
	const void *src = a->ss_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr
	                                           : (const void *)&((const struct sockaddr_in *)a)->sin_addr;
	if ((a->ss_family != AF_INET && a->ss_family != AF_INET6) ||
	    !inet_ntop(a->ss_family, src, buf, ROCE_SOCKADDR_TEXT_MAX))
		strcpy(buf, "?");
	return buf;
}
