/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netlink_link - roce_rtlink_parse() on fuzzed RTM_NEWLINK replies (see nl_common.h). */
#include "config.h"
#include "nl_common.h"
#include "collect/netlink/rtlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nl_feed(data, size, roce_rtlink_parse, 0);
	return 0;
}
