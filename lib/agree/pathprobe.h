/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pathprobe.h - one node's half of the path probe (Probe=ip, issue 27),
 * as the job prolog will run it: draw this node's key, open its responder
 * on its rail addresses (lib/probe/responder.h), tell its ring neighbours
 * where through SharedDir (probeshare.h), read its neighbours' files (the
 * next node in the job's node list, whose rails it probes, and the previous
 * one, the only addresses its responder answers), probe each rail the next
 * node also has (lib/probe/prober.h) and serve the responder until the
 * deadline; then resolves the next node's name as the job's bootstrap
 * would (getaddrinfo) and compares with the addresses that node announced.
 * O(1) files, datagrams and lookups per node whatever the job's size.
 * Run by the job prolog (lib/job/jobprobe.h).
 */
#ifndef ROCE_PATHPROBE_H
#define ROCE_PATHPROBE_H

#include <net/if.h>
#include <stddef.h>
#include <sys/socket.h>
#include <time.h>
#include "agree/fingerprint.h"
#include "agree/probeshare.h"
#include "base/error.h"
#include "probe/prober.h"

/* One of this node's rails. */
struct roce_pathprobe_rail {
	char rail[ROCE_SUBNET_TEXT_MAX]; /* canonical subnet */
	struct sockaddr_storage addr;    /* this node's address on it */
	char netdev[IF_NAMESIZE];        /* "": routed by the kernel */
	int active_mtu;                  /* 0 unknown */
	unsigned netdev_mtu;             /* 0 unknown */
};

struct roce_pathprobe_in {
	const char *shared_dir, *job_id, *self;
	const char *const *nodes; /* the job's nodes, in the job's order */
	size_t n_nodes;
	time_t since; /* the job's start: older neighbour files are an earlier job's */
	int tos;      /* the traffic class RoCE uses */
	const struct roce_pathprobe_rail *rails;
	size_t n_rails;
	int wait_ms;  /* for the neighbours' files */
	int probe_ms; /* the probe's deadline once the next node's file is read */
	int serve_ms;  /* the responder answers at most this long from the start */
	int linger_ms; /* and (> 0) stops this long after the previous node's file was read */
	const struct sockaddr_storage *hosts; /* this node's own addresses (for the next node's name check) */
	size_t n_hosts;
	int resolve_ms; /* > 0: the next node's name is resolved (getaddrinfo) within this */
};

/* What this node found on each of its rails towards the next node. */
struct roce_pathprobe_result {
	char peer[ROCE_FP_NODE_MAX]; /* the next node; "" none (a one-node job) */
	size_t n;
	struct {
		char rail[ROCE_SUBNET_TEXT_MAX];
		enum roce_prober_verdict verdict;
		unsigned largest; /* the largest IP packet that passed, 0 none */
		int dscp;         /* the DSCP that arrived, -1 unknown */
		char words[200];  /* roce_prober_describe(), or why it was not probed */
	} rails[ROCE_PROBESHARE_RAILS_MAX];
	unsigned answered; /* probes this node's responder answered */
	/* the next node's name resolved here to none of the addresses it
	 * announced: the first it resolved to ("" when it resolved right, did
	 * not resolve in time, or the next node announced none) */
	char name_got[64];
	double ms;         /* from the start until this node's probes were answered or failed */
};

/* 0 with out filled (a rail the next node has no file or no address for is
 * NO_ANSWER with words saying so), or -1 with err when this node could not
 * take part (no key, a responder address, SharedDir). */
int roce_pathprobe_run(const struct roce_pathprobe_in *in, struct roce_pathprobe_result *out, struct roce_error *err);

#endif
