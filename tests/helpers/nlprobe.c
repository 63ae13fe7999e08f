/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nlprobe - print what the netlink collector reads for some netdevs, as
 * key=value lines ("<netdev>.<key>=<value>"), for tests/e2e/netlink-veth.sh.
 *
 *   nlprobe [-t timeout_ms] [-c] netdev...
 *
 * Default: roce_rtlink_get() and roce_dcb_get() per netdev on one socket.
 * -c: build a node model with one port per netdev and run
 * roce_collect_netlink() on it (the path the prolog takes).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

#include "collect/collect.h"
#include "collect/netlink/dcb.h"
#include "base/model.h"
#include "collect/netlink/nl.h"
#include "collect/netlink/rtlink.h"

static void print_reading(const char *name, const char *key, const struct roce_reading *r)
{
	printf("%s.%s=%s\n", name, key, roce_status_name(r->status));
	printf("%s.%s_why=%s\n", name, key, r->why);
}

static void print_netdev(const struct roce_netdev *nd)
{
	const char *n = nd->name;
	print_reading(n, "link", &nd->link_read);
	printf("%s.ifindex=%d\n", n, nd->ifindex);
	printf("%s.mtu=%u\n", n, nd->mtu);
	printf("%s.operstate=%s\n", n, nd->operstate);
	printf("%s.up=%d\n", n, nd->up ? 1 : 0);
	print_reading(n, "pfc", &nd->pfc.read);
	printf("%s.pfc_enabled=0x%02x\n", n, nd->pfc.enabled);
	print_reading(n, "dscp", &nd->dscp.read);
	printf("%s.dscp_n=%zu\n", n, nd->dscp.n);
}

static int build_model(struct roce_node *node, char **names, int n)
{
	node->devices = calloc((size_t)n, sizeof(*node->devices));
	if (!node->devices)
		return -1;
	for (int i = 0; i < n; i++) {
		struct roce_device *dev = &node->devices[i];
		snprintf(dev->name, sizeof(dev->name), "probe%d", i);
		dev->ports = calloc(1, sizeof(*dev->ports));
		if (!dev->ports)
			return -1;
		node->n_devices++;
		dev->n_ports = 1;
		dev->ports[0].num = 1;
		snprintf(dev->ports[0].netdev, sizeof(dev->ports[0].netdev), "%s", names[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int timeout_ms = 2000, collect = 0, opt, rc = 0;
	while ((opt = getopt(argc, argv, "t:c")) != -1) {
		switch (opt) {
		case 't': timeout_ms = atoi(optarg); break;
		case 'c': collect = 1; break;
		default:
			fprintf(stderr, "usage: nlprobe [-t timeout_ms] [-c] netdev...\n");
			return 2;
		}
	}
	struct roce_node node;
	roce_node_init(&node);
	if (collect) {
		if (build_model(&node, argv + optind, argc - optind) < 0) {
			perror("nlprobe");
			rc = 1;
			goto out;
		}
		printf("collect.rc=%d\n", roce_collect_netlink(&node, timeout_ms));
	} else {
		struct roce_nl *nl = roce_nl_open(timeout_ms);
		if (!nl) {
			fprintf(stderr, "nlprobe: roce_nl_open: %s\n", strerror(errno));
			rc = 1;
			goto out;
		}
		for (int i = optind; i < argc; i++) {
			struct roce_netdev *nd = roce_node_add_netdev(&node, argv[i]);
			if (!nd) {
				perror("nlprobe");
				rc = 1;
				break;
			}
			roce_rtlink_get(nl, nd);
			roce_dcb_get(nl, nd);
		}
		roce_nl_close(nl);
	}
	for (size_t i = 0; i < node.n_netdevs; i++)
		print_netdev(&node.netdevs[i]);
out:
	roce_node_free(&node);
	return rc;
}
