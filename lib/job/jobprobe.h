/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobprobe.h - the path probe as the job prolog runs it (Probe=ip, issue
 * 27): after the node's check and before its fingerprint, each RoCE rail
 * the fingerprint offers is probed towards the next node of the job's node
 * list (lib/agree/pathprobe.h), and the verdicts go into the fingerprint's
 * ports, for srun's agreement (probeagree.h).  Budget, whatever the job's
 * size: the neighbours' files awaited ROCE_JOBPROBE_WAIT_MS (or half of
 * TimeoutMs, if longer: a site that gives its checks more time gives its
 * prologs' skew more too), the probes ROCE_JOBPROBE_PROBE_MS, the
 * responder kept until the previous node says it has finished (at most
 * ROCE_JOBPROBE_LINGER_MS after its file was read), all within
 * roce_jobprobe_budget_ms().  A healthy job's nodes, whose prologs start
 * together, are done in tens of milliseconds.  Then the next node's name
 * is resolved (getaddrinfo, at most ROCE_JOBPROBE_RESOLVE_MS more) and
 * compared with the addresses it announced in its probe file.
 */
#ifndef ROCE_JOBPROBE_H
#define ROCE_JOBPROBE_H

#include <ifaddrs.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include "agree/fingerprint.h"
#include "base/jobnodes.h"
#include "fragment/verdicts.h"
#include "base/error.h"
#include "read/policy.h"

#define ROCE_JOBPROBE_WAIT_MS 1000
#define ROCE_JOBPROBE_PROBE_MS 500
#define ROCE_JOBPROBE_LINGER_MS 700
#define ROCE_JOBPROBE_MS 2000 /* the whole, at the shortest wait */
#define ROCE_JOBPROBE_RESOLVE_MS 250 /* the next node's name (a stuck DNS is no reason to wait) */

/* The probe's whole budget under p: what the prolog's deadline grows by. */
int roce_jobprobe_budget_ms(const struct roce_policy *p);


/* Probe fp's rails (fp from roce_fingerprint_from_check of model and
 * check) and write the verdicts into fp's ports.  0 probed, or nothing to
 * probe (a one-node job, no rail), err "" or naming a rail not probed
 * (the next node's file did not come in time); -1 with err: this node
 * took no part (its rail addresses, SharedDir), its ports say "local" so
 * that srun names it.  A rail not probed is never a path failure. */
int roce_jobprobe_run(const struct roce_policy *p, const struct roce_node *model, const struct roce_check_result *check,
                      const struct roce_job_nodes *job, uid_t job_uid, struct roce_fingerprint *fp,
                      struct roce_error *err);

/* What the prolog runs (Probe=ip; else nothing, false): roce_jobprobe_run,
 * or without SharedDir a word saying so.  True when there is something the
 * admin should know, in note (after note's own text when had). */
bool roce_jobprobe_prolog(const struct roce_policy *p, const struct roce_node *model,
                          const struct roce_check_result *check, const struct roce_job_nodes *job, uid_t job_uid,
                          struct roce_fingerprint *fp, struct roce_error *note, bool had);

/* This node's own addresses for its probe file (which its name should
 * resolve to on the other nodes), from getifaddrs()'s list: up, not
 * loopback or link-local; none at all when there are more than
 * ROCE_PROBESHARE_HOSTS_MAX (a partial list would make a right name look
 * wrong: the name check is then skipped).  How many went into out. */
size_t roce_jobprobe_pick_hosts(const struct ifaddrs *all, struct sockaddr_storage *out);

/* The epilog: the probe's results in f (the node's own fingerprint) as the
 * report's verdicts: a path_probe warn per port whose path failed (info
 * when not probed), or one info for the node when every probe passed.
 * 0, -1 on ENOMEM. */
int roce_jobprobe_verdicts(const struct roce_fingerprint *f, struct roce_verdict_list *out);

/* The same from the node's fingerprint in SharedDir (entry: its name, as
 * the prolog recorded it); nothing when it cannot be read. */
void roce_jobprobe_own(const struct roce_policy *p, const char *job_id, const char *entry,
                       struct roce_verdict_list *out);

/* The epilog's half: this node's probe file removed from SharedDir. */
void roce_jobprobe_remove(const struct roce_policy *p, const char *job_id, const char *node);

#endif
