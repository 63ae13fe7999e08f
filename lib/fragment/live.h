/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live.h - one node's live sample of a running job: every RoCE port's
 * counters since the job started (the prolog's snapshot) and since the
 * sample before, and the GID and link changes seen while the job runs.
 *
 * The node's health check takes the samples (livesample.h) and files each
 * as ReportDir/<jobid>/<node>.live; roce-report --live reads them
 * (livereport.h).  live.c builds a sample from snapshots (pure); live_json.c
 * writes it as JSON and reads it back strictly and bounded: a live file may
 * sit on a shared file system and is read by root, so it is hostile input,
 * as a fragment is (fragment.h).
 *
 *   {"schema": "slurm-roce/live/1", "job_id", "node", "job_uid", "start_ns",
 *    "now_ns", "samples", "counters": [report names...],
 *    "ports": [{"device", "port", "netdev", "presence", "state_start",
 *               "state_now", "gid_index_start", "gid_addr_start",
 *               "gid_index_now", "gid_addr_now",
 *               "since_start": INTERVAL, "since_last": INTERVAL}],
 *    "events": [{"code", "subject", "first_ns", "last_ns", "message"}]}
 *   INTERVAL: {"from_ns", "values": [one per counter, null = not read],
 *              "lower_bound": [names of values that are lower bounds],
 *              "pfc": null (not read) | {"reset", "requests": [8], "indications": [8]}}
 */
#ifndef ROCE_LIVE_H
#define ROCE_LIVE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/error.h"
#include "base/slurmid.h"
#include "pipeline/delta.h"

#define ROCE_LIVE_SCHEMA "slurm-roce/live/1"
/* Bounds of what a reader takes: more than any node has. */
#define ROCE_LIVE_PORTS_MAX 256
#define ROCE_LIVE_EVENTS_MAX 64
#define ROCE_LIVE_FILE_MAX (1u << 20)

/* The counters over one interval, from_ns to the sample's now_ns: as a
 * fragment port holds them (fragment.h), data counters in bytes. */
struct roce_live_interval {
	int64_t from_ns;
	uint64_t c[ROCE_N_COUNTERS];
	uint8_t cs[ROCE_N_COUNTERS]; /* enum roce_delta_status */
	uint8_t pfc_status;          /* OK, RESET or UNREAD */
	uint64_t pfc_req[ROCE_PRIOS], pfc_ind[ROCE_PRIOS];
};

struct roce_live_port {
	char device[ROCE_NAME_MAX];
	unsigned port;
	char netdev[IF_NAMESIZE];
	uint8_t presence;                       /* enum roce_port_presence, against the job's start */
	char state_start[24], state_now[24];    /* "" not read */
	int gid_index_start, gid_index_now;     /* -1 unknown */
	char gid_addr_start[ROCE_GID_ADDR_MAX]; /* "" unknown */
	char gid_addr_now[ROCE_GID_ADDR_MAX];
	struct roce_live_interval since_start, since_last;
};

/* A change seen while the job runs, kept from the sample that first saw it. */
struct roce_live_event {
	char code[24];             /* "gid_changed", "link_down" */
	char subject[80];          /* "mlx5_0:1" */
	int64_t first_ns, last_ns; /* the samples that saw it first and last */
	char message[320];         /* as the last of them saw it */
};

struct roce_live {
	char job_id[ROCE_JOBID_MAX];
	char node[64];
	long job_uid;
	int64_t start_ns; /* the prolog's snapshot */
	int64_t now_ns;   /* this sample */
	unsigned samples; /* of the job on this node, this one included */
	struct roce_live_port *ports;
	size_t n_ports;
	struct roce_live_event *events;
	size_t n_events;
};

/* ---------------------------------------------------------------- live.c */

void roce_live_init(struct roce_live *l);
void roce_live_free(struct roce_live *l);

/* Who the sample is of. */
struct roce_live_meta {
	const char *job_id, *node;
	long job_uid;
	unsigned samples; /* this one included */
};

/*
 * l = the sample now: each port of now since start (the prolog's snapshot)
 * and since prev (the sample before's snapshot; start for the first), the
 * events of the sample before (n_prev of them) with this sample's added or
 * brought up to date: a GID that moved or changed address against the job's
 * start or the sample before (gid_changed), a link that went down since the
 * sample before, a port not ACTIVE now, gone or new (link_down).  0, or -1
 * on ENOMEM (l then empty).
 */
int roce_live_build(struct roce_live *l, const struct roce_live_meta *m, const struct roce_snapshot *start,
                    const struct roce_snapshot *prev, const struct roce_snapshot *now,
                    const struct roce_live_event *prev_events, size_t n_prev);

/* An event code's severity and what to check; -1 / NULL for a code that is not one. */
int roce_live_event_severity(const char *code);
const char *roce_live_event_fix(const char *code);

/* ---------------------------------------------------------------- live_json.c */

/* The live file; its text is json_object_to_json_string_ext(o, PLAIN). */
json_object *roce_live_json_build(const struct roce_live *l);
/* A live file's text read back strictly: every member checked for type,
 * range and size, at most ROCE_LIVE_PORTS_MAX ports and
 * ROCE_LIVE_EVENTS_MAX events, strings kept escaped (printable.h).  -1
 * with err naming what is wrong; l is initialised in every case. */
int roce_live_json_read(struct roce_live *l, const char *text, size_t len, struct roce_error *err);

/* Events alone (the health check keeps them between its samples). */
json_object *roce_live_json_events_build(const struct roce_live_event *e, size_t n);
int roce_live_json_events_parse(json_object *arr, struct roce_live_event **e, size_t *n, struct roce_error *err);

#endif
