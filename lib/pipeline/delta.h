/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * delta.h - two counter snapshots of a node -> per-port deltas.  Pure.
 *
 * A delta is plain data for the verdicts and the report; it never contains
 * a huge or negative number: a counter that went backwards is "reset", one
 * not read at start or end is "unread" with the reason.
 */
#ifndef ROCE_DELTA_H
#define ROCE_DELTA_H

#include <stdbool.h>
#include <stdint.h>
#include "base/counter.h"
#include "pipeline/snapshot.h"

enum roce_delta_status {
	ROCE_DELTA_OK = 0,    /* value is exact */
	ROCE_DELTA_WRAPPED,   /* exact, after one wrap of a 32-bit counter */
	ROCE_DELTA_SATURATED, /* the PMA counter sits at its maximum: value is a lower bound */
	ROCE_DELTA_RESET,     /* went backwards (driver reload): value = count since the reset, a lower bound */
	ROCE_DELTA_UNREAD,    /* not read at start or end: why says which */
};

struct roce_counter_delta {
	enum roce_delta_status status;
	uint64_t value;         /* scaled (bytes for the data counters) */
	char why[ROCE_WHY_MAX]; /* for UNREAD */
};

enum roce_port_presence {
	ROCE_PORT_BOTH = 0,
	ROCE_PORT_VANISHED, /* in the start snapshot only */
	ROCE_PORT_APPEARED, /* in the end snapshot only */
};

struct roce_port_delta {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE];
	enum roce_port_presence presence;
	bool reset; /* some counter of this port went backwards */
	struct roce_counter_delta c[ROCE_N_COUNTERS];
	enum roce_delta_status pfc_status; /* OK, RESET or UNREAD */
	char pfc_why[ROCE_WHY_MAX];
	uint8_t pfc_enabled;
	uint64_t pfc_requests[ROCE_PRIOS];
	uint64_t pfc_indications[ROCE_PRIOS];
	int gid_index;                          /* from the end snapshot (start when vanished) */
	int gid_index_start;                    /* the prolog's, -1 unknown (and for a port that appeared) */
	char gid_addr_start[ROCE_GID_ADDR_MAX]; /* the address at those indexes, "" unknown */
	char gid_addr_end[ROCE_GID_ADDR_MAX];
	int active_mtu;
	unsigned netdev_mtu;
	char state_start[24]; /* port state at the prolog and the epilog, "" = not read */
	char state_end[24];
	int check;                    /* the worse check of prolog and epilog (enum roce_verdict), -1 = none */
	char check_why[ROCE_WHY_MAX]; /* its finding and when: "at job start: gid: ..." */
	unsigned rate_mbps;           /* 0 unknown */
	char fw_ver[64];              /* "" unknown */
};

struct roce_delta {
	double seconds; /* end - start, < 0 when unknown (clock went back) */
	struct roce_port_delta *ports;
	size_t n_ports;
	int gid_index;
	int traffic_class;
	enum roce_trust_mode trust;
	int check; /* as a port's, for the findings about no port */
	char check_why[ROCE_WHY_MAX];
};

/* Pair ports by device and port number.  Returns 0, -1 on ENOMEM. */
int roce_delta_compute(const struct roce_snapshot *start, const struct roce_snapshot *end, struct roce_delta *out);
void roce_delta_free(struct roce_delta *d);

/* One counter: end - start for a counter of def's width.  port_reset says
 * that a 64-bit counter of the same port went backwards, which makes a
 * smaller 32-bit value a reset rather than a wrap. */
void roce_delta_counter(const struct roce_counter_def *def, uint64_t start, uint64_t end, bool port_reset,
                        struct roce_counter_delta *out);

/* The GID NCCL was given moved to another index or changed address between
 * the two snapshots (both read, the port in both): the job report's
 * gid_changed and the live view's. */
bool roce_delta_gid_changed(const struct roce_port_delta *pd);

/* A port's check_why: "at job start: WHY" (end: "at job end: WHY") into
 * why (ROCE_WHY_MAX bytes); a WHY too long for it is cut after its last
 * whole word, and "..." says so.  WHY is "CHECK: message" (snapshot.c). */
void roce_delta_check_why(char *why, bool end, const char *what);
/* True when a check_why (roce_delta_check_why's, or a bare WHY) is the
 * finding of the named check ("link_rate"). */
bool roce_delta_check_why_is(const char *why, const char *check);

const char *roce_delta_status_name(enum roce_delta_status s);
const char *roce_delta_presence_name(enum roce_port_presence p);

#endif
