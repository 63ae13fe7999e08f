/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snapshot.h - every RoCE port's counters at one moment: taken from sysfs
 * (snapshot.c: not pure, reads the files), and to and from JSON
 * (snapshot_json.c: pure), so the prolog can leave one in StateDir for the
 * epilog.
 *
 * A snapshot reads, for every port whose link layer is Ethernet under a
 * sysfs root, the counters of counter.h, plus the per-priority PFC frame
 * counts of the port's netdev from the node model (DCB netlink).  Every
 * value records whether it was read.  With the check result it also keeps
 * each port's state and the check's worst finding, so the report can say
 * that a port was down or failed its check at job start or end.
 */
#ifndef ROCE_SNAPSHOT_H
#define ROCE_SNAPSHOT_H

#include <json-c/json.h>
#include <stdint.h>
#include "check/check.h"
#include "base/counter.h"
#include "base/error.h"
#include "base/model.h"

/* A GID's address as text (INET6_ADDRSTRLEN is 46). */
#define ROCE_GID_ADDR_MAX 48

struct roce_counter_sample {
	uint64_t value; /* raw, as sysfs printed it */
	struct roce_reading read;
};

struct roce_pfc_sample {
	struct roce_reading read;         /* copy of the netdev's DCB reading; NOT_READ = no model */
	uint8_t enabled;                  /* bitmap of priorities with PFC on */
	uint64_t requests[ROCE_PRIOS];    /* PFC frames sent */
	uint64_t indications[ROCE_PRIOS]; /* PFC frames received */
};

struct roce_port_sample {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE]; /* "" when unknown */
	struct roce_counter_sample c[ROCE_N_COUNTERS];
	struct roce_pfc_sample pfc;
	/* the node check summary, per port: -1 / 0 = unknown */
	int gid_index;
	char gid_addr[ROCE_GID_ADDR_MAX]; /* the address at gid_index ("10.0.0.1", "fd00::1"), "" unknown */
	int active_mtu;                   /* RDMA MTU in bytes */
	unsigned netdev_mtu;
	/* what the check saw (the report's port_down and check_failed verdicts) */
	char state[24];               /* port state: "ACTIVE", "DOWN"; "" = not read */
	int check;                    /* worst enum roce_verdict of the port's findings; -1 = not checked */
	char check_why[ROCE_WHY_MAX]; /* that finding, "check: message"; "" when it passed */
	unsigned rate_mbps;           /* the port's link rate, 0 unknown */
	char fw_ver[64];              /* the device's firmware, "" unknown */
};

struct roce_snapshot {
	int64_t time_ns;                  /* CLOCK_REALTIME when taken */
	struct roce_reading devices_read; /* /sys/class/infiniband itself */
	struct roce_port_sample *ports;
	size_t n_ports;
	int gid_index;                /* node's GID index for NCCL, -1 unknown */
	int traffic_class;            /* -1 unknown */
	enum roce_trust_mode trust;   /* the RoCE ports' priority trust (check_trust.c) */
	int check;                    /* worst verdict of the findings about no port; -1 = not checked */
	char check_why[ROCE_WHY_MAX]; /* that finding, "check: message" */
};

/* ---------------------------------------------------------------- snapshot.c */

void roce_snapshot_init(struct roce_snapshot *s);
void roce_snapshot_free(struct roce_snapshot *s);

/*
 * Read every Ethernet port's counters under sysfs_root (NULL = "/sys").
 * The ports are those of node when its device list was read, else listed
 * from sysfs.  node (may be NULL) supplies netdevs, netdev MTUs and PFC
 * counters; check (may be NULL) the GID index and active MTU.  Returns 0, or
 * -1 on ENOMEM; read failures are recorded per value, never returned.
 */
int roce_snapshot_take(struct roce_snapshot *s, const char *sysfs_root, const struct roce_node *node,
                       const struct roce_check_result *check);
/* The same with a deadline in roce_clock_ms() time (clock.h; 0 = none):
 * counters not yet read when it passes are recorded ROCE_TIMEOUT instead of
 * read, so a wedged firmware costs one blocked read, not one per counter. */
int roce_snapshot_take_until(struct roce_snapshot *s, const char *sysfs_root, const struct roce_node *node,
                             const struct roce_check_result *check, int64_t deadline_ms);

/* ---------------------------------------------------------------- snapshot_json.c */

/* from_json validates everything (names, sizes, types) and says what is
 * wrong in err, naming the key (jsonin.h). */
json_object *roce_snapshot_json_build(const struct roce_snapshot *s);
int roce_snapshot_json_parse(struct roce_snapshot *s, json_object *obj, struct roce_error *err);

#endif
