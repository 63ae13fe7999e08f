/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_buffer.c - receive buffers from DCB_ATTR_DCB_BUFFER.  Pure.
 */
#include "config.h"
#include "collect/netlink/dcb_buffer.h"
#include "collect/netlink/nlmsg.h"

#include <errno.h>
#include <string.h>
#include <linux/dcbnl.h>

_Static_assert(DCBX_MAX_BUFFERS == ROCE_PRIOS, "struct roce_dcb_buffer holds DCBX_MAX_BUFFERS sizes");
_Static_assert(IEEE_8021Q_MAX_PRIORITIES == ROCE_PRIOS, "prio2buffer has a slot per priority");

int roce_dcb_buffer_parse(const struct nlattr *attr, struct roce_dcb_buffer *buf, const char *what)
{
	struct dcbnl_buffer raw;
	char why[ROCE_WHY_MAX];
	if (!attr) {
		/* Added by dcbnl_ieee_fill() only when the driver has
		 * dcbnl_getbuffer (mlx5 since Linux 4.18): not reported. */
		roce_reading_set(&buf->read, ROCE_UNSUPPORTED, EOPNOTSUPP,
		                 "%s: driver reports no receive buffers (no DCB_ATTR_DCB_BUFFER)", what);
		return 0;
	}
	int rc = roce_nlmsg_struct(attr, &raw, sizeof(raw), what, "DCB_ATTR_DCB_BUFFER", "dcbnl_buffer", why,
	                           sizeof(why));
	if (rc < 0) {
		roce_reading_set(&buf->read, ROCE_MALFORMED, EPROTO, "%s", why);
		return -1;
	}
	for (int i = 0; i < ROCE_PRIOS; i++)
		if (raw.prio2buffer[i] >= DCBX_MAX_BUFFERS) {
			roce_reading_set(&buf->read, ROCE_MALFORMED, EPROTO,
			                 "%s: DCB_ATTR_DCB_BUFFER maps priority %d to buffer %u (out of range)", what,
			                 i, raw.prio2buffer[i]);
			return -1;
		}
	memcpy(buf->prio2buffer, raw.prio2buffer, sizeof(buf->prio2buffer));
	memcpy(buf->buffer_size, raw.buffer_size, sizeof(buf->buffer_size));
	buf->total_size = raw.total_size;
	roce_reading_set(&buf->read, ROCE_OK, 0, NULL);
	return 0;
}
