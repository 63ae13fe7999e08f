/*
 * counters.h - per-port RoCE counter snapshots and their deltas.
 *
 * A snapshot reads, for every port whose link layer is Ethernet under a sysfs
 * root, the standard counters/ and the mlx5 hw_counters/ that say something
 * about loss and congestion (the table in counters.c), plus the per-priority
 * PFC frame counts of the port's netdev from the node model (DCB netlink).
 * Every value records whether it was read.  A delta of two snapshots is
 * plain data for the verdicts and the report; it never contains a huge or
 * negative number: a counter that went backwards is "reset".
 *
 * Snapshots round-trip through JSON (json-c) so the prolog can leave one in
 * StateDir for the epilog.
 */
#ifndef ROCE_COUNTERS_H
#define ROCE_COUNTERS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "model.h"
#include "check.h"
#include "error.h"

/* The counters we read, in table order (counters.c has names and widths). */
enum roce_counter_id {
	/* standard counters/ */
	ROCE_C_PORT_XMIT_DATA = 0,
	ROCE_C_PORT_RCV_DATA,
	ROCE_C_PORT_XMIT_PACKETS,
	ROCE_C_PORT_RCV_PACKETS,
	ROCE_C_PORT_RCV_ERRORS,
	ROCE_C_PORT_XMIT_DISCARDS,
	ROCE_C_SYMBOL_ERROR,
	ROCE_C_LINK_DOWNED,
	ROCE_C_LINK_ERROR_RECOVERY,
	/* mlx5 hw_counters/: Q counters (32-bit) */
	ROCE_C_OUT_OF_SEQUENCE,
	ROCE_C_PACKET_SEQ_ERR,
	ROCE_C_IMPLIED_NAK_SEQ_ERR,
	ROCE_C_LOCAL_ACK_TIMEOUT_ERR,
	ROCE_C_DUPLICATE_REQUEST,
	ROCE_C_RNR_NAK_RETRY_ERR,
	ROCE_C_OUT_OF_BUFFER,
	ROCE_C_REQ_TRANSPORT_RETRIES_EXCEEDED,
	ROCE_C_ROCE_ADP_RETRANS,
	ROCE_C_ROCE_ADP_RETRANS_TO,
	ROCE_C_ROCE_SLOW_RESTART,
	ROCE_C_ROCE_SLOW_RESTART_CNPS,
	/* mlx5 hw_counters/: congestion and PPCNT (64-bit) */
	ROCE_C_NP_ECN_MARKED_ROCE_PACKETS,
	ROCE_C_NP_CNP_SENT,
	ROCE_C_RP_CNP_HANDLED,
	ROCE_C_RP_CNP_IGNORED,
	ROCE_C_RX_ICRC_ENCAPSULATED,
	ROCE_N_COUNTERS
};

enum roce_counter_kind { ROCE_KIND_TRAFFIC, ROCE_KIND_LINK, ROCE_KIND_LOSS, ROCE_KIND_CONGESTION };

struct roce_counter_def {
	const char *name;        /* sysfs file name */
	const char *report_name; /* key in reports: the sysfs name, or *_bytes for the word counters */
	bool hw;                 /* hw_counters/ (else counters/) */
	unsigned width;          /* bits: 64, 32, 16 or 8 */
	bool saturates;          /* IB PMA counters stop at their maximum instead of wrapping */
	unsigned scale;          /* multiply to get the reported unit (4 for data words) */
	enum roce_counter_kind kind;
};

extern const struct roce_counter_def roce_counter_defs[ROCE_N_COUNTERS];
/* Index of a counter by sysfs or report name, -1 when unknown. */
int roce_counter_lookup(const char *name);

struct roce_counter_sample {
	uint64_t value;                 /* raw, as sysfs printed it */
	struct roce_reading read;
};

struct roce_pfc_sample {
	struct roce_reading read;       /* copy of the netdev's DCB reading; NOT_READ = no model */
	uint8_t enabled;                /* bitmap of priorities with PFC on */
	uint64_t requests[ROCE_PRIOS];  /* PFC frames sent */
	uint64_t indications[ROCE_PRIOS]; /* PFC frames received */
};

struct roce_port_sample {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE];       /* "" when unknown */
	struct roce_counter_sample c[ROCE_N_COUNTERS];
	struct roce_pfc_sample pfc;
	/* the node check summary, per port: -1 / 0 = unknown */
	int gid_index;
	int active_mtu;                 /* RDMA MTU in bytes */
	unsigned netdev_mtu;
};

struct roce_snapshot {
	int64_t time_ns;                /* CLOCK_REALTIME when taken */
	struct roce_reading devices_read; /* /sys/class/infiniband itself */
	struct roce_port_sample *ports;
	size_t n_ports;
	int gid_index;                  /* node's GID index for NCCL, -1 unknown */
	int traffic_class;              /* -1 unknown */
};

void roce_snapshot_init(struct roce_snapshot *s);
void roce_snapshot_free(struct roce_snapshot *s);

/*
 * Read every Ethernet port's counters under sysfs_root (NULL = "/sys").
 * The ports are those of node when its device list was read, else listed
 * from sysfs.  node (may be NULL) supplies netdevs, netdev MTUs and PFC counters; check
 * (may be NULL) the GID index and active MTU.  Returns 0, or -1 on ENOMEM;
 * read failures are recorded per value, never returned.
 */
int roce_snapshot_take(struct roce_snapshot *s, const char *sysfs_root,
                       const struct roce_node *node, const struct roce_check_result *check);
/* The same with a CLOCK_MONOTONIC deadline (NULL = none): counters not yet
 * read when it passes are recorded ROCE_TIMEOUT instead of read, so a wedged
 * firmware costs one blocked read, not one per counter. */
int roce_snapshot_take_until(struct roce_snapshot *s, const char *sysfs_root, const struct roce_node *node,
                             const struct roce_check_result *check, const struct timespec *deadline);

/* Snapshot <-> JSON.  from_json validates everything (names, sizes, types)
 * and says what is wrong in err, naming the key (jsonin.h). */
json_object *roce_snapshot_to_json(const struct roce_snapshot *s);
int roce_snapshot_from_json(struct roce_snapshot *s, json_object *obj, struct roce_error *err);

/* ---------------------------------------------------------------- delta */

enum roce_delta_status {
	ROCE_DELTA_OK = 0,       /* value is exact */
	ROCE_DELTA_WRAPPED,      /* exact, after one wrap of a 32-bit counter */
	ROCE_DELTA_SATURATED,    /* the PMA counter sits at its maximum: value is a lower bound */
	ROCE_DELTA_RESET,        /* went backwards (driver reload): value = count since the reset, a lower bound */
	ROCE_DELTA_UNREAD,       /* not read at start or end: why says which */
};

struct roce_counter_delta {
	enum roce_delta_status status;
	uint64_t value;          /* scaled (bytes for the data counters) */
	char why[ROCE_WHY_MAX];  /* for UNREAD */
};

enum roce_port_presence {
	ROCE_PORT_BOTH = 0,
	ROCE_PORT_VANISHED,      /* in the start snapshot only */
	ROCE_PORT_APPEARED,      /* in the end snapshot only */
};

struct roce_port_delta {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE];
	enum roce_port_presence presence;
	bool reset;              /* some counter of this port went backwards */
	struct roce_counter_delta c[ROCE_N_COUNTERS];
	enum roce_delta_status pfc_status;   /* OK, RESET or UNREAD */
	char pfc_why[ROCE_WHY_MAX];
	uint8_t pfc_enabled;
	uint64_t pfc_requests[ROCE_PRIOS];
	uint64_t pfc_indications[ROCE_PRIOS];
	int gid_index;           /* from the end snapshot (start when vanished) */
	int active_mtu;
	unsigned netdev_mtu;
};

struct roce_delta {
	double seconds;          /* end - start, < 0 when unknown (clock went back) */
	struct roce_port_delta *ports;
	size_t n_ports;
	int gid_index;
	int traffic_class;
};

/* Pair ports by device and port number.  Returns 0, -1 on ENOMEM. */
int roce_delta_compute(const struct roce_snapshot *start, const struct roce_snapshot *end,
                       struct roce_delta *out);
void roce_delta_free(struct roce_delta *d);

/* One counter: end - start for a counter of def's width.  port_reset says
 * that a 64-bit counter of the same port went backwards, which makes a
 * smaller 32-bit value a reset rather than a wrap. */
void roce_counter_delta_one(const struct roce_counter_def *def, uint64_t start, uint64_t end,
                            bool port_reset, struct roce_counter_delta *out);

const char *roce_delta_status_name(enum roce_delta_status s);
const char *roce_port_presence_name(enum roce_port_presence p);

#endif
