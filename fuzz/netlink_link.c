/* netlink_link - roce_parse_link_msg() on fuzzed RTM_NEWLINK replies (see nl_common.h). */
#include "config.h"
#include "nl_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nl_feed(data, size, roce_parse_link_msg, 0);
	return 0;
}
