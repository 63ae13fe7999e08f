/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nlmsg.c - checks of one netlink reply and its attributes.  Pure.
 */
#include "config.h"
#include "collect/netlink/nlmsg.h"
#include "base/printable.h"

#include <stdio.h>
#include <string.h>

const char *roce_nlmsg_what(char *out, size_t len, const char *request, const char *name)
{
	char shown[ROCE_NLMSG_SHOWN_MAX];
	const char *parts[] = { request, " ", roce_printable(name, shown, sizeof(shown)) };
	size_t k = 0;
	/* What snprintf(out, len, "%s %s", ...) writes, without parsing a
	 * format for every reply the parsers see. */
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		for (const char *p = parts[i]; *p && k + 1 < len; p++)
			out[k++] = *p;
	if (len)
		out[k] = '\0';
	return out;
}

bool roce_nlmsg_fits(const struct nlmsghdr *nlh, int len)
{
	return len >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) && nlh->nlmsg_len <= (unsigned)len;
}

/* An NLMSG_ERROR: its code as an errno, or -1 when it is not an error the
 * kernel sends in answer to a GET. */
static int error_code(const struct nlmsghdr *nlh, const char *what, char *why, size_t whylen)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(e->error)) {
		snprintf(why, whylen, "%s: NLMSG_ERROR of %u bytes has no error code", what, nlh->nlmsg_len);
		return -1;
	}
	if (e->error >= 0) {
		snprintf(why, whylen, "%s: unexpected %s (error %d) instead of a reply", what,
		         e->error == 0 ? "ACK" : "positive NLMSG_ERROR", e->error);
		return -1;
	}
	/* The kernel's error codes are -1..-4095 (MAX_ERRNO); INT_MIN cannot
	 * even be negated. */
	if (e->error < -4095) {
		snprintf(why, whylen, "%s: NLMSG_ERROR code %d is not an errno", what, e->error);
		return -1;
	}
	return -e->error;
}

int roce_nlmsg_envelope(const struct nlmsghdr *nlh, uint16_t want, size_t hdrlen, const char *what, char *why,
                        size_t whylen)
{
	if (!nlh || nlh->nlmsg_len < NLMSG_HDRLEN) {
		snprintf(why, whylen, "%s: reply shorter than a netlink header", what);
		return -1;
	}
	/* libmnl walks attributes up to NLMSG_ALIGN(nlmsg_len): an unaligned
	 * length would let it look at up to 3 bytes past the message.  The
	 * kernel always pads its messages. */
	if (nlh->nlmsg_len != NLMSG_ALIGN(nlh->nlmsg_len)) {
		snprintf(why, whylen, "%s: nlmsg_len %u is not 4-byte aligned", what, nlh->nlmsg_len);
		return -1;
	}
	if (nlh->nlmsg_type == NLMSG_ERROR)
		return error_code(nlh, what, why, whylen);
	if (nlh->nlmsg_type != want) {
		snprintf(why, whylen, "%s: reply has type %u, expected %u", what, nlh->nlmsg_type, want);
		return -1;
	}
	if (mnl_nlmsg_get_payload_len(nlh) < hdrlen) {
		snprintf(why, whylen, "%s: %u-byte reply too short for its %zu-byte family header", what,
		         nlh->nlmsg_len, hdrlen);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ walks */

/* libmnl's attribute loop (mnl_attr_ok/mnl_attr_next over [attr, limit)),
 * calling cb as mnl_attr_parse() does, but remembering where the last
 * attribute ended: libmnl stops without a word at one that overruns, and
 * only alignment padding may follow the last one up to tail. */
static enum roce_nlmsg_walk walk(const struct nlattr *attr, const char *limit, const char *tail, mnl_attr_cb_t cb,
                                 void *data)
{
	const char *end = (const char *)attr;
	for (; mnl_attr_ok(attr, (int)(limit - (const char *)attr)); attr = mnl_attr_next(attr)) {
		end = (const char *)attr + attr->nla_len;
		if (cb(attr, data) != MNL_CB_OK)
			return ROCE_NLMSG_REFUSED;
	}
	return end <= tail && tail - end < NLA_ALIGNTO ? ROCE_NLMSG_WALKED : ROCE_NLMSG_OVERRUN;
}

enum roce_nlmsg_walk roce_nlmsg_walk(const struct nlmsghdr *nlh, size_t hdrlen, mnl_attr_cb_t cb, void *data)
{
	return walk(mnl_nlmsg_get_payload_offset(nlh, hdrlen), mnl_nlmsg_get_payload_tail(nlh),
	            (const char *)nlh + nlh->nlmsg_len, cb, data);
}

enum roce_nlmsg_walk roce_nlmsg_walk_nest(const struct nlattr *nest, mnl_attr_cb_t cb, void *data)
{
	const char *tail = (const char *)mnl_attr_get_payload(nest) + mnl_attr_get_payload_len(nest);
	return walk(mnl_attr_get_payload(nest), tail, tail, cb, data);
}

/* ------------------------------------------------------------ tables */

struct table {
	const struct nlattr **tb;
	unsigned max;
};

static int table_cb(const struct nlattr *attr, void *data)
{
	struct table *t = data;
	if (mnl_attr_type_valid(attr, t->max) > 0)
		t->tb[mnl_attr_get_type(attr)] = attr;
	return MNL_CB_OK;
}

int roce_nlmsg_table(const struct nlmsghdr *nlh, size_t hdrlen, const struct nlattr **tb, unsigned max)
{
	struct table t = { .tb = tb, .max = max };
	memset(tb, 0, (max + 1) * sizeof(*tb));
	return roce_nlmsg_walk(nlh, hdrlen, table_cb, &t) == ROCE_NLMSG_WALKED ? 0 : -1;
}

int roce_nlmsg_table_nest(const struct nlattr *nest, const struct nlattr **tb, unsigned max)
{
	struct table t = { .tb = tb, .max = max };
	memset(tb, 0, (max + 1) * sizeof(*tb));
	return roce_nlmsg_walk_nest(nest, table_cb, &t) == ROCE_NLMSG_WALKED ? 0 : -1;
}

int roce_nlmsg_name(const struct nlattr *attr, const char *name, const char *what, char *why, size_t whylen)
{
	char other[IF_NAMESIZE], shown[ROCE_NLMSG_SHOWN_MAX];
	if (!attr)
		return 0;
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0) {
		snprintf(why, whylen, "%s: name attribute is not a NUL-terminated string", what);
		return -1;
	}
	if (strcmp(mnl_attr_get_str(attr), name) != 0) {
		/* shown as the kernel would name it: at most IF_NAMESIZE - 1 bytes */
		snprintf(other, sizeof(other), "%s", mnl_attr_get_str(attr));
		snprintf(why, whylen, "%s: reply is about netdev %s", what,
		         roce_printable(other, shown, sizeof(shown)));
		return -1;
	}
	return 0;
}

int roce_nlmsg_struct(const struct nlattr *attr, void *raw, size_t size, const char *what, const char *name,
                      const char *type, char *why, size_t whylen)
{
	if (mnl_attr_validate2(attr, MNL_TYPE_UNSPEC, size) < 0) {
		snprintf(why, whylen, "%s: %s has %u bytes, struct %s is %zu", what, name,
		         mnl_attr_get_payload_len(attr), type, size);
		return -1;
	}
	memcpy(raw, mnl_attr_get_payload(attr), size);
	return 0;
}
