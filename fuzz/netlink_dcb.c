/* netlink_dcb - roce_parse_dcb_msg() on fuzzed RTM_GETDCB IEEE_GET replies (see nl_common.h). */
#include "config.h"
#include "nl_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nl_feed(data, size, roce_parse_dcb_msg, 1);
	return 0;
}
