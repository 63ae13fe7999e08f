/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prober.h - the path probe's asking half (issue 27): per rail, from this
 * node's rail address to the ring neighbour's responder (responder.h) on
 * the same rail, a few UDP datagrams with DF set (IP_PMTUDISC_DO: never
 * fragmented, so a hop with a smaller MTU drops them) and the job's TOS
 * byte, sized as IP packets: the smallest probe (is the neighbour there at
 * all), 1500 (a standard MTU hop), a full RoCE v2 packet at the active RDMA
 * MTU and the netdev MTU.  Each is sent at most ROCE_PROBER_TRIES times,
 * the first at once, the second 60 ms later (or a third of the way to the
 * deadline, if sooner) and the third two thirds of the way: O(1) datagrams
 * per rail whatever the job's size.  Answers
 * are parsed as hostile (probewire.h): only a tagged answer of this run,
 * from the neighbour's address and port (a connected socket), to a probe
 * that was sent counts.  roce_prober_run() serves a responder in the same
 * loop, so a node answers its other neighbour while it asks its own.
 */
#ifndef ROCE_PROBER_H
#define ROCE_PROBER_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "base/error.h"
#include "probe/probewire.h"
#include "probe/responder.h"

#define ROCE_PROBER_SIZES_MAX 4
#define ROCE_PROBER_TARGETS_MAX 32 /* a rail each */
#define ROCE_PROBER_TRIES 3

enum roce_prober_state {
	ROCE_PROBER_UNANSWERED = 0, /* no answer (yet) */
	ROCE_PROBER_PASSED,         /* answered: it arrived whole */
	ROCE_PROBER_TOO_BIG_HERE,   /* the kernel refused it: above this node's own path MTU (EMSGSIZE) */
	ROCE_PROBER_SEND_FAILED,    /* another error sending it */
};

struct roce_prober_size {
	unsigned ip_size; /* the IP packet's bytes */
	enum roce_prober_state state;
	int tos_arrived; /* the TOS byte the neighbour read, -1 unknown */
	int err;         /* errno of SEND_FAILED */
};

struct roce_prober_target {
	/* set by the caller */
	struct sockaddr_storage local; /* this node's rail address (port 0: any) */
	char netdev[IF_NAMESIZE];      /* "": routed by the kernel; else SO_BINDTODEVICE (root) */
	struct sockaddr_storage peer;  /* the neighbour's rail address and its responder's port */
	int tos;                       /* the TOS byte RoCE uses: the traffic class (DSCP << 2) */
	size_t n_sizes;                /* roce_prober_sizes() */
	struct roce_prober_size sizes[ROCE_PROBER_SIZES_MAX];
	/* set by roce_prober_run */
	int fd;                       /* -1: no socket (setup_err), -2: probed and closed */
	unsigned sent;                /* datagrams sent */
	bool refused;                 /* an ICMP port unreachable came back */
	char setup_err[ROCE_ERR_MAX]; /* the socket could not be made: nothing was sent */
};

struct roce_prober {
	struct roce_probewire_key key;
	uint64_t session; /* 0: roce_prober_run() draws one */
	size_t n;
	struct roce_prober_target t[ROCE_PROBER_TARGETS_MAX];
};

/* t's sizes for an IP family (4 or 6), the rail's RDMA MTU (0 unknown) and
 * netdev MTU (0 unknown), ascending, without repeats. */
void roce_prober_sizes(struct roce_prober_target *t, int family, int active_mtu, unsigned netdev_mtu);

/* Probe every target until each size is answered or failed, or until
 * deadline_ms (roce_clock_ms()); serve r (NULL: none) meanwhile and on
 * until serve_until_ms.  0, or -1 with err on ENOMEM (a target whose
 * socket cannot be made gets setup_err; the others go on). */
int roce_prober_run(struct roce_prober *p, struct roce_responder *r, int64_t deadline_ms, int64_t serve_until_ms,
                    struct roce_error *err);

/* What a target's probe found. */
enum roce_prober_verdict {
	ROCE_PROBER_OK = 0,    /* every size passed, the DSCP arrived as sent */
	ROCE_PROBER_NO_ANSWER, /* not even the smallest probe was answered: unreachable */
	ROCE_PROBER_SIZE,      /* some sizes passed, the larger did not */
	ROCE_PROBER_DSCP,      /* every size passed with another DSCP, or one not read */
	ROCE_PROBER_LOCAL,     /* this node could not probe (setup_err, a send error) */
};
/* The verdict, the largest IP packet that passed (0 none) and the DSCP
 * that arrived (-1 unknown). */
enum roce_prober_verdict roce_prober_verdict(const struct roce_prober_target *t, unsigned *largest, int *dscp_arrived);
/* The verdict in words: "ok", "no answer", "largest size that passed 1500
 * of 4160", "DSCP 26 sent, 0 arrived"... into buf (len bytes). */
void roce_prober_describe(const struct roce_prober_target *t, char *buf, size_t len);

#endif
