/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probeshare.h - what one node tells its ring neighbours for the path probe
 * (Probe=ip, issue 27; lib/probe/), through SharedDir: per job and node one
 * file, SharedDir/<job>/probe.<node>, root's and 0400 (the job's user may
 * list the job's directory but never read it), holding
 *
 *   slurm-roce/probe/1
 *   time <T>                   when the prolog wrote it (seconds)
 *   key <64 hex digits>        the key this node's responder takes probes under
 *   rail <subnet> <address> <port>   per rail: this node's address on it and
 *                              its responder's UDP port
 *   host <address>             at most 32: the node's own addresses (not
 *                              loopback or link-local), which its name should
 *                              resolve to on every node; none when it has
 *                              more (a partial list would make a right name
 *                              look wrong)
 *
 * Each node draws its own key (a per-job, per-node secret): a prober tags
 * its probes with its neighbour's key, read from this file as root; nothing
 * is shared that another node's epilog would have to remove.  The file is
 * per node on purpose (an address is one node's alone): it is no entry of
 * the agreement (shareddir.h: its name does not start with a digit, srun
 * passes it by), never part of a fingerprint's digest, and read only by the
 * prologs that probe this node.  Its content is hostile: parsed strictly
 * (every line known, at most ROCE_PROBESHARE_TEXT_MAX bytes and
 * ROCE_PROBESHARE_RAILS_MAX rails, canonical subnets, each address inside
 * its rail, ports 1-65535), and the reader takes only a regular file owned
 * by root, writable by nobody else, written since the job started.
 */
#ifndef ROCE_PROBESHARE_H
#define ROCE_PROBESHARE_H

#include <stddef.h>
#include <sys/socket.h>
#include <time.h>
#include "base/error.h"
#include "base/subnet.h"
#include "probe/probewire.h"

#define ROCE_PROBESHARE_RAILS_MAX 32
#define ROCE_PROBESHARE_TEXT_MAX 4096
#define ROCE_PROBESHARE_HOSTS_MAX 32 /* the node's own addresses, for the name check */

struct roce_probeshare_rail {
	char rail[ROCE_SUBNET_TEXT_MAX]; /* canonical subnet */
	struct sockaddr_storage addr;    /* the node's address on it, with its responder's port */
};

struct roce_probeshare {
	time_t written;
	struct roce_probewire_key key;
	size_t n;
	struct roce_probeshare_rail rails[ROCE_PROBESHARE_RAILS_MAX];
	size_t n_hosts; /* the node's own addresses (its name should resolve to one of them) */
	struct sockaddr_storage hosts[ROCE_PROBESHARE_HOSTS_MAX];
};

/* s as the file's text into buf (len bytes): its length, or -1 when it does
 * not fit or a rail is not one roce_probeshare_parse() would take. */
int roce_probeshare_format(const struct roce_probeshare *s, char *buf, size_t len);
/* text (len bytes) -> *s: 0, or -1 with err naming the line and the problem. */
int roce_probeshare_parse(const char *text, size_t len, struct roce_probeshare *s, struct roce_error *err);

/* The prolog's half: s as node's file in SharedDir/<job>/ (the job's
 * directory exists: the prolog wrote its fingerprint there first).  0, or
 * -1 with err. */
int roce_probeshare_write(const char *shared_dir, const char *job_id, const char *node, const struct roce_probeshare *s,
                          struct roce_error *err);
/* node's file, written at or after since: 0 read, 1 not there (yet: an
 * older one is not there either), -1 refused with err saying why. */
int roce_probeshare_read(const char *shared_dir, const char *job_id, const char *node, time_t since,
                         struct roce_probeshare *s, struct roce_error *err);
/* The epilog's half: node's file removed (nothing to say when it is not there). */
void roce_probeshare_remove(const char *shared_dir, const char *job_id, const char *node);

#endif
