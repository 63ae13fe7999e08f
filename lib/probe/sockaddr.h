/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sockaddr.h - the probe's addresses: an IPv4 or IPv6 address with a UDP
 * port in a struct sockaddr_storage, parsed strictly, printed, compared.
 * Pure.
 */
#ifndef ROCE_SOCKADDR_H
#define ROCE_SOCKADDR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define ROCE_SOCKADDR_TEXT_MAX 56 /* "[" an IPv6 address "]:" a port */

/* "192.0.2.1" or "2001:db8::1" (no port: 0) -> *a; -1 when it is neither. */
int roce_sockaddr_parse(const char *text, uint16_t port, struct sockaddr_storage *a);
socklen_t roce_sockaddr_len(const struct sockaddr_storage *a);
uint16_t roce_sockaddr_port(const struct sockaddr_storage *a);
void roce_sockaddr_set_port(struct sockaddr_storage *a, uint16_t port);
/* The same family and address (ports not compared; an IPv4-mapped IPv6
 * address is another address). */
bool roce_sockaddr_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b);
/* The address without its port into buf (ROCE_SOCKADDR_TEXT_MAX); "?" for
 * another family.  Returns buf. */
const char *roce_sockaddr_text(const struct sockaddr_storage *a, char *buf);

#endif
