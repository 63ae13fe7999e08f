/* netlink.c - rtnetlink and DCB netlink collector (libmnl).  STUB: being written. */
#include "config.h"
#include "netlink.h"
#include <errno.h>
#include <stdlib.h>

struct roce_nl { int unused; };
struct roce_nl *roce_nl_open(int timeout_ms) { (void)timeout_ms; errno = ENOSYS; return NULL; }
void roce_nl_close(struct roce_nl *nl) { free(nl); }
int roce_nl_get_link(struct roce_nl *nl, struct roce_netdev *nd) { (void)nl; (void)nd; return -1; }
int roce_nl_get_dcb(struct roce_nl *nl, struct roce_netdev *nd) { (void)nl; (void)nd; return -1; }
int roce_collect_netlink(struct roce_node *node, int timeout_ms) { (void)node; (void)timeout_ms; return -1; }
int roce_parse_link_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd) { (void)nlh; (void)nd; return -1; }
int roce_parse_dcb_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd) { (void)nlh; (void)nd; return -1; }
