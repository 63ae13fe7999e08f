/* verbs.c - libibverbs cross-check of the active MTU. */
#include "config.h"
#include "verbs.h"
#include <infiniband/verbs.h>
#include <string.h>

static int ibv_mtu_bytes(enum ibv_mtu m)
{
	switch (m) {
	case IBV_MTU_256: return 256;
	case IBV_MTU_512: return 512;
	case IBV_MTU_1024: return 1024;
	case IBV_MTU_2048: return 2048;
	case IBV_MTU_4096: return 4096;
	}
	return 0;
}

int roce_collect_verbs(struct roce_node *node)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	if (!list)
		return -1;
	for (int i = 0; i < n; i++) {
		struct roce_device *dev = roce_node_find_device(node, ibv_get_device_name(list[i]));
		if (!dev)
			continue;
		struct ibv_context *ctx = ibv_open_device(list[i]);
		if (!ctx)
			continue;
		for (size_t p = 0; p < dev->n_ports; p++) {
			struct ibv_port_attr attr;
			memset(&attr, 0, sizeof(attr));
			if (ibv_query_port(ctx, (uint8_t)dev->ports[p].num, &attr) == 0)
				dev->ports[p].verbs_active_mtu = ibv_mtu_bytes(attr.active_mtu);
		}
		ibv_close_device(ctx);
	}
	ibv_free_device_list(list);
	return n > 0 ? 0 : -1;
}
