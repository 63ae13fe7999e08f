/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_buffer.h - the port's receive buffers from DCB_ATTR_DCB_BUFFER, a
 * struct dcbnl_buffer: priority -> buffer, and each buffer's size.  Pure.
 */
#ifndef ROCE_DCB_BUFFER_H
#define ROCE_DCB_BUFFER_H

#include <libmnl/libmnl.h>
#include "base/model.h"

/* attr: DCB_ATTR_DCB_BUFFER from the IEEE nest, NULL when the reply has
 * none (buf->read UNSUPPORTED: not reported, not an error); what starts
 * every why.  Fills buf (read included); 0 = ROCE_OK or not reported,
 * -1 = MALFORMED. */
int roce_dcb_buffer_parse(const struct nlattr *attr, struct roce_dcb_buffer *buf, const char *what);

#endif
