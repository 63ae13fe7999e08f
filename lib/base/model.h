/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - the node model: what one node's RoCE fabric looks like, as plain data.
 *
 * The collectors are the only code that fills it: lib/collect/ (rdma.c:
 * devices, ports, GIDs and module versions from sysfs; netclass.c, trust.c,
 * pcie.c, gdr.c, verbs.c) and lib/collect/netlink/ (rtlink.c and dcb*.c:
 * rtnetlink and DCB), run by collect.c.  The layers above only read it: the
 * checks (lib/check/), the counter snapshot and the job's fingerprint.  The
 * hwloc topology (topo.h) is not in it.  Every field that comes from the
 * outside world has a struct roce_reading next to it that says whether the
 * value was read and, if not, why: a value is never silently defaulted.
 */
#ifndef ROCE_MODEL_H
#define ROCE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

#define ROCE_NAME_MAX 64 /* RDMA device names are at most 64 bytes (IB_DEVICE_NAME_MAX) */
#define ROCE_PCI_MAX 32  /* "0000:41:00.0" */
#define ROCE_WHY_MAX 192
#define ROCE_GID_MAX 4096 /* refuse larger tables: no real HCA has one */
#define ROCE_PRIOS 8
#define ROCE_DSCP_MAX 64
#define ROCE_RATE_MAX_GBPS 10000 /* a larger link rate is garbage, not a port */
#define ROCE_BOND_MEMBERS_MAX 8  /* ports of one bond we look at (RoCE LAG bonds two) */

/* Why a value is or is not in the model. */
enum roce_status {
	ROCE_NOT_READ = 0, /* nobody asked (lazy reads) */
	ROCE_OK,
	ROCE_MISSING,     /* ENOENT: the file, device or attribute does not exist */
	ROCE_UNREADABLE,  /* open/read failed with another errno */
	ROCE_MALFORMED,   /* read, but not in the kernel's format */
	ROCE_UNSUPPORTED, /* the driver said EOPNOTSUPP (e.g. DCB on veth) */
	ROCE_TIMEOUT,     /* the collector's deadline fired */
};

struct roce_reading {
	enum roce_status status;
	int err;                /* errno where there was one, else 0 */
	char why[ROCE_WHY_MAX]; /* human text naming the file/value, empty when OK */
};

const char *roce_status_name(enum roce_status s);
/* What a failed open, read or listing means: ENOENT, ENOTDIR, ENODEV, ENXIO
 * MISSING; EOPNOTSUPP UNSUPPORTED; any other errno UNREADABLE. */
enum roce_status roce_status_for_errno(int err);
/* FNV-1a of a string: a short stable fingerprint (not a security hash). */
uint32_t roce_fnv1a(const char *s);
/* Record a result; fmt may be NULL for ROCE_OK. */
void roce_reading_set(struct roce_reading *r, enum roce_status s, int err, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static inline bool roce_reading_ok(const struct roce_reading *r) { return r->status == ROCE_OK; }

enum roce_gid_type {
	ROCE_GID_TYPE_UNKNOWN = 0,
	ROCE_GID_TYPE_IB_ROCE_V1, /* sysfs "IB/RoCE v1" */
	ROCE_GID_TYPE_ROCE_V2,    /* sysfs "RoCE v2" */
};

struct roce_gid {
	int index;
	uint8_t raw[16];         /* network byte order */
	bool empty;              /* all zeros: an unused slot */
	enum roce_gid_type type; /* only read for non-empty entries */
	char ndev[IF_NAMESIZE];  /* only read for non-empty entries */
	struct roce_reading read, type_read, ndev_read;
};

enum roce_link_layer { ROCE_LL_UNKNOWN = 0, ROCE_LL_ETHERNET, ROCE_LL_INFINIBAND };

struct roce_port {
	unsigned num;        /* 1-based, as in sysfs */
	int state;           /* 4 = ACTIVE */
	char state_name[24]; /* "ACTIVE" */
	struct roce_reading state_read;
	int phys_state;           /* 5 = LinkUp */
	char phys_state_name[32]; /* "LinkUp" */
	struct roce_reading phys_state_read;
	enum roce_link_layer link_layer;
	struct roce_reading link_layer_read;
	char rate[64];                 /* "100 Gb/sec (4X EDR)" */
	unsigned rate_mbps;            /* parsed from rate (2.5 Gb/s = 2500), 0 unless rate_read is OK */
	struct roce_reading rate_read; /* MALFORMED: rate is not "<n>[.5] Gb/sec (...)" */

	/* GID entries read so far, sorted by index.  Reads are lazy (see
	 * rdma.c): a healthy port usually has exactly one entry here. */
	struct roce_gid *gids;
	size_t n_gids;
	int gid_table_size;     /* entries in gids/, -1 unknown */
	bool gid_table_scanned; /* every non-empty entry is in gids[] */
	struct roce_reading gids_read;

	/* The port's Ethernet netdev: from the GID ndevs, else device/net/. */
	char netdev[IF_NAMESIZE];
	struct roce_reading netdev_read;

	int verbs_active_mtu;           /* bytes from ibv_query_port, 0 = none */
	struct roce_reading verbs_read; /* NOT_READ: not asked; else OK, or why the query was not done */
};

/*
 * One PCI function on a device's PCIe path (pcie.c reads them from
 * /sys/bus/pci/devices/<bdf>/).  Link speeds are in tenths of GT/s (80 =
 * "8.0 GT/s PCIe"), 0 where sysfs says "Unknown"; a width of 0 is a link
 * that is down.
 */
struct roce_pcie_fn {
	char bdf[ROCE_PCI_MAX];        /* "0000:c1:00.0" */
	unsigned cur_speed, max_speed; /* tenths of GT/s */
	unsigned cur_width, max_width; /* lanes */
	struct roce_reading link_read; /* the four link attributes: OK, or the first that failed */
	/* From the config space (bridges only: NOT_READ for the device
	 * itself): the PCI Express port type, when acs_read is OK and the
	 * function has the capability, and ACS. */
	bool port_type_known;
	unsigned port_type; /* pcicap.h ROCE_PCIE_TYPE_* */
	struct roce_reading acs_read;
	bool acs_present;
	uint16_t acs_cap, acs_ctrl; /* capability and control registers */
	/* Also from a bridge's config space: its vendor (the first bytes,
	 * which any reader gets), and when acs_read is OK and the port has
	 * Link Control 2, the speed it may train to (tenths of GT/s) and
	 * Hardware Autonomous Speed Disable. */
	bool vendor_known;
	uint16_t vendor;
	bool target_known;
	unsigned target_speed;
	bool hasd;
};

#define ROCE_PCIE_DEPTH_MAX 12 /* functions from a device up to its root port */

/* A device's PCIe path: fn[0] the device itself, fn[n - 1] its root port
 * (the first function under the host bridge), in between the switch ports. */
struct roce_pcie_path {
	struct roce_reading read; /* the path itself (the bus/pci/devices link) */
	size_t n;
	struct roce_pcie_fn fn[ROCE_PCIE_DEPTH_MAX];
	/* fn[0]'s IOMMU group (<bdf>/iommu_group -> kernel/iommu_groups/<n>):
	 * OK with iommu_group "" is no IOMMU; else its type file's word
	 * ("DMA", "DMA-FQ", "identity", "blocked", "unmanaged"). */
	struct roce_reading iommu_read;
	char iommu_group[12];
	char iommu_type[16];
	/* Only for a function right below an NVIDIA root port (fn[1] of
	 * vendor 0x10de, the place of a GPU attached over NVLink-C2C): how many
	 * PCI functions sit directly under its host bridge (pciDDDD:BB), -1
	 * not counted. */
	int host_fns;
};

struct roce_device {
	char name[ROCE_NAME_MAX];    /* "mlx5_0" */
	char pci_addr[ROCE_PCI_MAX]; /* basename of realpath(device) */
	struct roce_reading pci_read;
	struct roce_pcie_path pcie; /* NOT_READ when pci_read is not OK */
	struct roce_port *ports;
	size_t n_ports;
	struct roce_reading ports_read;
	/* Inventory: what the adapter is and runs.  hca_type + board_id is the
	 * adapter model ports are compared within (LinkRate=auto, firmware). */
	char fw_ver[64];   /* "20.39.1002" */
	char board_id[64]; /* "MT_0000000223" */
	char hca_type[64]; /* "MT4123" */
	struct roce_reading fw_ver_read, board_id_read, hca_type_read;
	/* roce-check --verbs: NCCL's DMA-BUF probe (verbs.c), NOT_READ when
	 * not asked; OK: dmabuf_verbs says whether the device and kernel take
	 * a DMA-BUF memory registration. */
	struct roce_reading dmabuf_read;
	bool dmabuf_verbs;
	/* The device's neighbourhood (pcie.c, read only when LinkRate=auto
	 * must tell roles apart): an NVIDIA GPU below the same root port,
	 * behind a PCIe switch shared with the device (a GPU's rail), its
	 * address in gpu_near; "" none.  NOT_READ: not needed. */
	struct roce_reading gpu_near_read;
	char gpu_near[ROCE_PCI_MAX];
};

struct roce_pfc {
	struct roce_reading read; /* ROCE_UNSUPPORTED = unknown, not disabled */
	uint8_t cap;              /* traffic classes that can do PFC */
	uint8_t enabled;          /* bitmap of priorities with PFC on */
	uint8_t mbc;
	uint16_t delay;
	uint64_t requests[ROCE_PRIOS];    /* PFC frames sent, per priority */
	uint64_t indications[ROCE_PRIOS]; /* PFC frames received, per priority */
};

/* DSCP -> priority entries of the DCB APP table (selector 5). */
struct roce_dscp_map {
	struct roce_reading read;
	size_t n;                   /* entries present */
	int8_t prio[ROCE_DSCP_MAX]; /* -1 = no entry for that DSCP */
};

/* ETS (IEEE 802.1Qaz) from DCB_ATTR_IEEE_ETS: which traffic class each
 * priority goes to, and how the classes share the link. */
struct roce_ets {
	struct roce_reading read;     /* UNSUPPORTED: the reply has no ETS (driver without ieee_getets) */
	uint8_t prio_tc[ROCE_PRIOS];  /* priority -> traffic class, 0-7 */
	uint8_t tc_tx_bw[ROCE_PRIOS]; /* per traffic class, % of the link under TSA ETS */
	uint8_t tc_tsa[ROCE_PRIOS];   /* per traffic class, IEEE_8021QAZ_TSA_* */
};

/* The port's receive buffers from DCB_ATTR_DCB_BUFFER (struct dcbnl_buffer,
 * what `dcb buffer show` and mlnx_qos --prio2buffer read). */
struct roce_dcb_buffer {
	/* UNSUPPORTED: the reply has none (kernel < 4.18 or driver without dcbnl_getbuffer) */
	struct roce_reading read;
	uint8_t prio2buffer[ROCE_PRIOS];  /* priority -> receive buffer, 0-7 */
	uint32_t buffer_size[ROCE_PRIOS]; /* bytes, per buffer (DCBX_MAX_BUFFERS is 8) */
	uint32_t total_size;              /* bytes */
};

/* ECN/DCQCN as MLNX_OFED shows it (class/net/<if>/ecn/): the notification
 * point (roce_np: answers ECN marks with CNPs) and the reaction point
 * (roce_rp: slows down on CNPs), enabled per priority. */
struct roce_ecn {
	struct roce_reading read;              /* MISSING: no ecn/ (upstream mlx5: debugfs only); else the
	                                       first file that failed, named; the others are still read */
	int8_t np[ROCE_PRIOS], rp[ROCE_PRIOS]; /* 1 on, 0 off, -1 not read */
	int cnp_dscp;                          /* roce_np/cnp_dscp 0-63, -1 not read */
	int cnp_prio;                          /* roce_np/cnp_802p_prio 0-7, -1 not read */
};

/* The priority trust of the port (MLNX_OFED class/net/<if>/qos/): which
 * header field picks an incoming packet's priority.  PCP: the VLAN tag's
 * priority bits (untagged traffic is priority 0); DSCP: the IP header's
 * DSCP through dscp2prio. */
enum roce_trust_mode { ROCE_TRUST_UNKNOWN = 0, ROCE_TRUST_PCP, ROCE_TRUST_DSCP };

struct roce_trust {
	struct roce_reading read;       /* qos/trust: MISSING = not MLNX_OFED (infer from the APP table) */
	enum roce_trust_mode mode;      /* when read is OK */
	char from[IF_NAMESIZE];         /* the netdev whose qos/ was read (a VLAN's lower device) */
	struct roce_dscp_map dscp2prio; /* qos/dscp2prio; its read says why not */
};

/* A VLAN netdev (rtnetlink IFLA_LINKINFO kind "vlan"), where the GID is on one. */
struct roce_vlan {
	bool is_vlan;
	unsigned id;
	uint8_t egress_pcps; /* bitmap of the PCPs the egress QoS map sends to */
};

/* An address of a netdev (rtnetlink RTM_GETADDR), with its prefix length:
 * a RoCE v2 GID is made from one, and the prefix is the port's subnet, its
 * rail (fingerprint.h). */
#define ROCE_NETDEV_ADDRS 16
struct roce_ifaddr {
	int family;       /* AF_INET or AF_INET6 */
	uint8_t addr[16]; /* network order; IPv4 in the first 4 bytes */
	unsigned prefix;  /* 0-32 or 0-128 */
};

struct roce_netdev {
	char name[IF_NAMESIZE];
	struct roce_reading link_read; /* rtnetlink RTM_GETLINK */
	int ifindex;
	unsigned mtu;
	bool up;            /* IFF_UP and operstate UP (or UNKNOWN on links without carrier reporting) */
	char operstate[16]; /* "UP", "DOWN", "UNKNOWN", ... */
	struct roce_pfc pfc;
	struct roce_dscp_map dscp;
	struct roce_ets ets;
	struct roce_dcb_buffer buffer;
	int speed_mbps; /* class/net/<if>/speed; -1 = the kernel says unknown (link down) */
	struct roce_reading speed_read;
	struct roce_ecn ecn;
	struct roce_trust trust; /* trust.c */
	struct roce_vlan vlan;   /* rtlink.c, with link_read */
	/* rtaddr.c: one dump for every netdev.  OK with n_addrs 0: none. */
	struct roce_reading addr_read;
	size_t n_addrs;
	size_t addrs_more; /* beyond ROCE_NETDEV_ADDRS: counted, not kept */
	struct roce_ifaddr addrs[ROCE_NETDEV_ADDRS];
	/* A bond (RoCE LAG: mlx5_bond_N's netdev): its member ports, from
	 * class/net/<bond>/bonding/slaves (bond.c).  Each member is an entry
	 * of the node's netdevs too: PFC, ETS, ECN and trust live on the
	 * members, the bond has none.  MISSING: not a bond. */
	struct roce_reading members_read;
	size_t n_members;
	char members[ROCE_BOND_MEMBERS_MAX][IF_NAMESIZE];
};

/* GPUDirect RDMA readiness (gdr.c): a peer-memory client, or DMA-BUF. */
struct roce_gdr {
	struct roce_reading read;
	bool loaded;                   /* a peer-memory module directory exists */
	char module[32];               /* "nvidia_peermem" or "nv_peer_mem" */
	bool peer_memory;              /* a peer-memory client is registered (NCCL's test) */
	char peer_file[64];            /* the file that says so, under sysfs */
	bool dmabuf;                   /* Linux >= 5.12 and the NVIDIA open kernel module */
	char kernel[64];               /* the kernel release, when read */
	char dmabuf_why[ROCE_WHY_MAX]; /* why DMA-BUF is not possible */
	bool no_driver;                /* no /proc/driver/nvidia/version: no NVIDIA driver (no GPUs to serve) */
};

/* A kernel module's version (/sys/module/<name>/version; in-tree modules have none). */
#define ROCE_MODULES 5
struct roce_module {
	const char *name; /* "mlx5_core", ...: a constant of the collector */
	char version[64];
	struct roce_reading read; /* MISSING: not loaded, or no version file */
};

struct roce_node {
	char sysfs_root[256];
	struct roce_reading devices_read; /* /sys/class/infiniband itself */
	struct roce_device *devices;
	size_t n_devices;
	struct roce_netdev *netdevs; /* one per distinct port netdev */
	size_t n_netdevs;
	struct roce_gdr gdr;
	struct roce_module modules[ROCE_MODULES];
};

void roce_node_init(struct roce_node *node);
void roce_node_free(struct roce_node *node);

struct roce_device *roce_node_find_device(const struct roce_node *node, const char *name);
struct roce_netdev *roce_node_find_netdev(const struct roce_node *node, const char *name);
/* device's port num (node may be NULL: none); NULL when the model has none. */
const struct roce_port *roce_node_find_port(const struct roce_node *node, const char *device, unsigned num);
/* port's GID entry index as collected (port may be NULL), whatever its
 * readings say; NULL when the port has none. */
const struct roce_gid *roce_port_find_gid(const struct roce_port *port, int index);
/* The same when it was read and is not empty, else NULL. */
const struct roce_gid *roce_port_read_gid(const struct roce_port *port, int index);
/* The netdevs that hold the QoS of a port whose netdev is nd (PFC, ETS,
 * the APP table, ECN, the priority trust): a bond's members that are in
 * the node's netdevs (RoCE LAG: the bond has none of it), else nd itself.
 * Fills out (at most ROCE_BOND_MEMBERS_MAX) and returns how many. */
size_t roce_node_qos_netdevs(const struct roce_node *node, const struct roce_netdev *nd,
                             const struct roce_netdev *out[ROCE_BOND_MEMBERS_MAX]);
/* Returns the existing entry or appends a new zeroed one; NULL on ENOMEM. */
struct roce_netdev *roce_node_add_netdev(struct roce_node *node, const char *name);

/* The kernel's iboe_get_mtu(): largest IB MTU <= netdev MTU - 96 header bytes; 0 below 256. */
int roce_ib_mtu_for_netdev_mtu(unsigned netdev_mtu);

/* IPv4-mapped (::ffff:a.b.c.d)? link-local (fe80::/10)? */
bool roce_gid_is_ipv4(const uint8_t raw[16]);
bool roce_gid_is_link_local(const uint8_t raw[16]);
/* An IPv4-mapped GID of a link-local address (::ffff:169.254.x.y)? */
bool roce_gid_is_ipv4_link_local(const uint8_t raw[16]);
/* Any link-local GID: fe80::/10 or ::ffff:169.254.0.0/112. */
bool roce_gid_any_link_local(const uint8_t raw[16]);
/* Is this GID the routable RoCE v2 entry of the family that NCCL would pick?
 * Stricter than NCCL for IPv4: a link-local address (169.254.0.0/16) is refused. */
bool roce_gid_usable(const struct roce_gid *g, int addr_family);

/* Was class/infiniband listed?  Also true when devices_read is MALFORMED: that
 * only says entries with names the kernel never gives were refused (they are
 * not in node->devices; never list the directory again to find them). */
bool roce_devices_listed(const struct roce_node *node);

/* Names the kernel gives, the only names paths are built from: an RDMA device
 * ([A-Za-z0-9_.-], not starting with '.', shorter than ROCE_NAME_MAX), a port
 * (1-5 digits, >= 1), a netdev (shorter than IF_NAMESIZE, printable, none of
 * "/:,=^" or white space, not "." or "..": also safe in NCCL_SOCKET_IFNAME). */
bool roce_device_name_ok(const char *name);
bool roce_port_name_ok(const char *name);
bool roce_netdev_name_ok(const char *name);
/* Text as sysfs prints it ("0000:...:0a00:0001") and as an address ("10.0.0.1"/"fd00::1"). */
void roce_gid_format_sysfs(const uint8_t raw[16], char out[40]);
void roce_gid_format_addr(const uint8_t raw[16], char *out, size_t outlen);
const char *roce_gid_type_name(enum roce_gid_type t);
const char *roce_link_layer_name(enum roce_link_layer ll);

#endif
