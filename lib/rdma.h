/*
 * rdma.h - the RDMA collector: devices, ports and GID tables from sysfs
 * (/sys/class/infiniband), and the GPUDirect RDMA module from /sys/module.
 */
#ifndef ROCE_RDMA_H
#define ROCE_RDMA_H

#include "model.h"

/* How much of each GID table to read.  NCCL scans from index 0 up; so do we
 * when the wanted entry is not the expected one. */
struct roce_gid_want {
	int index;          /* the policy's index, or -1 (auto: scan) */
	int addr_family;    /* AF_INET / AF_INET6 */
	bool full;          /* read every entry (roce-check --gids) */
};

int roce_collect_rdma(struct roce_node *node, const char *sysfs_root, const struct roce_gid_want *want);
/* Was class/infiniband listed?  Also true when devices_read is MALFORMED: that
 * only says entries with names the kernel never gives were refused (they are
 * not in node->devices; never list the directory again to find them). */
bool roce_devices_listed(const struct roce_node *node);
/* A name the kernel gives an RDMA device ([A-Za-z0-9_.-], not starting with '.',
 * shorter than ROCE_NAME_MAX): the only names paths are built from. */
bool roce_device_name_ok(const char *name);
int roce_collect_gdr(struct roce_node *node, const char *sysfs_root);

/* Parsers of single sysfs values (exposed for tests and fuzzing). */
int roce_parse_port_state(const char *s, int *num, char *name, size_t namelen);   /* "4: ACTIVE" */
int roce_parse_gid(const char *s, uint8_t raw[16]);                                /* "0000:...:a424" */
int roce_parse_gid_type(const char *s, enum roce_gid_type *t);                    /* "RoCE v2" */
int roce_parse_link_layer(const char *s, enum roce_link_layer *ll);               /* "Ethernet" */

/* Is this GID the routable RoCE v2 entry of the family that NCCL would pick?
 * Stricter than NCCL for IPv4: a link-local address (169.254.0.0/16) is refused. */
bool roce_gid_usable(const struct roce_gid *g, int addr_family);
/* An IPv4-mapped GID of a link-local address (::ffff:169.254.x.y)? */
bool roce_gid_is_ipv4_link_local(const uint8_t raw[16]);
/* Any link-local GID: fe80::/10 or ::ffff:169.254.0.0/112. */
bool roce_gid_any_link_local(const uint8_t raw[16]);

#endif
