/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netlink_dcb - roce_dcb_parse() on fuzzed RTM_GETDCB IEEE_GET replies (see nl_common.h). */
#include "config.h"
#include "collect/netlink/dcb.h"
#include "nl_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nl_feed(data, size, roce_dcb_parse, 1);
	return 0;
}
