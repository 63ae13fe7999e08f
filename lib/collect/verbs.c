/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verbs.c - libibverbs cross-check of the active MTU.
 *
 * Every port of the model gets an answer when asked, in verbs_read: OK with
 * the MTU in verbs_active_mtu, or why the query was not done (UNSUPPORTED:
 * libibverbs lists no device of that name, as on a machine without RDMA
 * hardware or without the provider library; UNREADABLE: the query failed),
 * so that check.c can say the cross-check was not done instead of staying
 * silent.
 *
 * Each device opened is also asked, as NCCL asks (net_ib.cc,
 * ncclIbDmaBufSupport), whether it takes DMA-BUF memory registrations:
 * ibv_reg_dmabuf_mr on a new protection domain with fd -1 fails with
 * EOPNOTSUPP or EPROTONOSUPPORT when the kernel or the provider cannot, with
 * EBADF (the fd) when they can.
 */
#include "config.h"
#include "collect/verbs.h"
#include <errno.h>
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

/* Why the port's query was not done (err: an errno). */
static void mark_port(const struct roce_device *dev, struct roce_port *port, int err)
{
	port->verbs_active_mtu = 0;
	if (err == ENODEV)
		roce_reading_set(&port->verbs_read, ROCE_UNSUPPORTED, err,
		                 "libibverbs has no device %s (no RDMA hardware, or no provider library for its "
		                 "driver)",
		                 dev->name);
	else
		roce_reading_set(&port->verbs_read, ROCE_UNREADABLE, err, "libibverbs could not query %s port %u: %s",
		                 dev->name, port->num,
		                 err == EPROTO ? "an active MTU code it does not know" : strerror(err));
}

static void mark_device(struct roce_device *dev, int err)
{
	for (size_t p = 0; p < dev->n_ports; p++)
		mark_port(dev, &dev->ports[p], err);
	dev->dmabuf_verbs = false;
	if (err == ENODEV)
		roce_reading_set(&dev->dmabuf_read, ROCE_UNSUPPORTED, err,
		                 "libibverbs has no device %s: DMA-BUF not probed", dev->name);
	else
		roce_reading_set(&dev->dmabuf_read, ROCE_UNREADABLE, err, "libibverbs could not open %s: %s", dev->name,
		                 strerror(err));
}

/* NCCL's probe: a registration with fd -1 that can only fail; how it fails
 * says whether DMA-BUF is supported. */
static void probe_dmabuf(struct roce_device *dev, struct ibv_context *ctx)
{
#if HAVE_DECL_IBV_REG_DMABUF_MR
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd) {
		int err = errno ? errno : EIO;
		roce_reading_set(&dev->dmabuf_read, ROCE_UNREADABLE, err, "%s: ibv_alloc_pd: %s (DMA-BUF not probed)",
		                 dev->name, strerror(err));
		return;
	}
	errno = 0;
	struct ibv_mr *mr = ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
	int err = errno;
	if (mr) /* never with fd -1; not ours to keep */
		ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	dev->dmabuf_verbs = err != EOPNOTSUPP && err != EPROTONOSUPPORT;
	roce_reading_set(&dev->dmabuf_read, ROCE_OK, err, NULL);
#else
	(void)ctx;
	roce_reading_set(&dev->dmabuf_read, ROCE_UNSUPPORTED, ENOSYS,
	                 "built with a libibverbs without ibv_reg_dmabuf_mr (rdma-core < 34): DMA-BUF not probed on %s",
	                 dev->name);
#endif
}

static struct ibv_device *find_ibv(struct ibv_device **list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(ibv_get_device_name(list[i]), name) == 0)
			return list[i];
	return NULL;
}

/* Query every port of one device; -1 when one did not answer (recorded). */
static int query_device(struct roce_device *dev, struct ibv_device *ibdev)
{
	struct ibv_context *ctx = ibv_open_device(ibdev);
	if (!ctx) {
		mark_device(dev, errno ? errno : EIO);
		return -1;
	}
	int rc = 0;
	for (size_t p = 0; p < dev->n_ports; p++) {
		struct ibv_port_attr attr;
		memset(&attr, 0, sizeof(attr));
		int err = ibv_query_port(ctx, (uint8_t)dev->ports[p].num, &attr);
		int bytes = err ? 0 : ibv_mtu_bytes(attr.active_mtu);
		/* An MTU code this libibverbs does not know is a protocol error, not "not asked". */
		if (err || !bytes) {
			mark_port(dev, &dev->ports[p], err ? err : EPROTO);
			rc = -1;
		} else {
			dev->ports[p].verbs_active_mtu = bytes;
			roce_reading_set(&dev->ports[p].verbs_read, ROCE_OK, 0, NULL);
		}
	}
	probe_dmabuf(dev, ctx);
	ibv_close_device(ctx);
	return rc;
}

int roce_verbs_collect(struct roce_node *node)
{
	int n = 0;
	errno = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	if (!list) {
		/* ENOSYS: the kernel has no uverbs support (no RDMA device at all). */
		int err = errno && errno != ENOSYS ? errno : ENODEV;
		for (size_t d = 0; d < node->n_devices; d++)
			mark_device(&node->devices[d], err);
		return -1;
	}
	int rc = n > 0 ? 0 : -1; /* verbs.h: -1 only when libibverbs has no device at all */
	for (size_t d = 0; d < node->n_devices; d++) {
		struct roce_device *dev = &node->devices[d];
		struct ibv_device *ibdev = find_ibv(list, n, dev->name);
		if (!ibdev)
			mark_device(dev, ENODEV);
		else
			query_device(dev, ibdev); /* failures are recorded per port */
	}
	ibv_free_device_list(list);
	return rc;
}
