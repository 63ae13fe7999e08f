/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nlmsg.h - checks of one netlink reply and its attributes, shared by the
 * per-object parsers (rtlink.c, dcb.c, dcb_pfc.c, dcb_app.c, dcb_ets.c,
 * dcb_buffer.c) and the transport's message walk (nl.c).  Pure: they read
 * the message and write only the caller's table, struct and text.
 *
 * Parsing follows iproute2: a walk per attribute level files attributes
 * into a table by type, then each value is validated (mnl_attr_validate /
 * validate2) where it is used, so a bad attribute is blamed on the reading
 * it belongs to.  libmnl's attribute iterator silently stops at an
 * attribute that overruns its container; the walks here remember where the
 * last good attribute ended, so anything left over is MALFORMED instead of
 * ignored.
 */
#ifndef ROCE_NLMSG_H
#define ROCE_NLMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <libmnl/libmnl.h>

/* A netdev name in a message: IF_NAMESIZE bytes, every one possibly \xNN. */
#define ROCE_NLMSG_SHOWN_MAX (4 * IF_NAMESIZE)

/* "RTM_GETLINK eth0": the request and the netdev it asks about (escaped),
 * the start of every why about it; cut to len bytes.  Returns out. */
#define ROCE_NLMSG_WHAT_MAX 48
const char *roce_nlmsg_what(char *out, size_t len, const char *request, const char *name);

/* Does a whole message of nlmsg_len bytes start at nlh, within len bytes?
 * libmnl's mnl_nlmsg_ok() compares (int)nlmsg_len <= len: a length with the
 * top bit set is negative as an int and passes, and the parsers would then
 * walk attributes gigabytes past the datagram.  This compares unsigned. */
bool roce_nlmsg_fits(const struct nlmsghdr *nlh, int len);

/* The envelope of a reply to a request about "what" ("RTM_GETLINK eth0").
 * Returns the NLMSG_ERROR code (> 0, an errno) for an error reply, 0 for a
 * message of type want with at least hdrlen bytes of family header, -1 for
 * anything else (why says what is wrong). */
int roce_nlmsg_envelope(const struct nlmsghdr *nlh, uint16_t want, size_t hdrlen, const char *what, char *why,
                        size_t whylen);

/* Outcome of a walk over one attribute level. */
enum roce_nlmsg_walk {
	ROCE_NLMSG_WALKED = 0,   /* every attribute, only alignment padding after the last */
	ROCE_NLMSG_REFUSED = -1, /* the callback returned MNL_CB_ERROR (it says why) */
	ROCE_NLMSG_OVERRUN = -2, /* an attribute runs past its container */
};
/* Walk the attributes after hdrlen bytes of family header, or inside a nest,
 * with a libmnl callback. */
enum roce_nlmsg_walk roce_nlmsg_walk(const struct nlmsghdr *nlh, size_t hdrlen, mnl_attr_cb_t cb, void *data);
enum roce_nlmsg_walk roce_nlmsg_walk_nest(const struct nlattr *nest, mnl_attr_cb_t cb, void *data);

/* File one level's attributes into tb[0..max] by type, as iproute2's
 * parse_rtattr(): later duplicates win, unknown types (newer kernels) are
 * skipped.  0, or -1 when an attribute overruns its container. */
int roce_nlmsg_table(const struct nlmsghdr *nlh, size_t hdrlen, const struct nlattr **tb, unsigned max);
int roce_nlmsg_table_nest(const struct nlattr *nest, const struct nlattr **tb, unsigned max);

/* The name attribute, if present, must be a NUL-terminated string equal to
 * the netdev we asked about.  0, or -1 with why filled. */
int roce_nlmsg_name(const struct nlattr *attr, const char *name, const char *what, char *why, size_t whylen);

/* An attribute whose payload is one kernel struct of size bytes (type, as
 * "ieee_pfc"), copied into raw: the payload is only 4-byte aligned and the
 * structs have u32 and u64 members.  0, or -1 with why ("<what>: <name> has
 * N bytes, struct <type> is M") when the payload is another size. */
int roce_nlmsg_struct(const struct nlattr *attr, void *raw, size_t size, const char *what, const char *name,
                      const char *type, char *why, size_t whylen);

#endif
