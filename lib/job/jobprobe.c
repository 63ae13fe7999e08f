/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobprobe.c - the path probe in the job prolog: rails from the fingerprint, verdicts into it (jobprobe.h). */
#include "config.h"
#include "job/jobprobe.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "agree/pathprobe.h"
#include "agree/probeagree.h"
#include "agree/probeshare.h"
#include "agree/shareddir.h"

/* An address as fingerprint.h gives it -> a sockaddr (port 0). */
static void to_sockaddr(int family, const uint8_t *addr, struct sockaddr_storage *out)
{
	memset(out, 0, sizeof(*out));
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)out;
		a->sin_family = AF_INET;
		memcpy(&a->sin_addr, addr, 4);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)out;
		a->sin6_family = AF_INET6;
		memcpy(&a->sin6_addr, addr, 16);
	}
}

size_t roce_jobprobe_pick_hosts(const struct ifaddrs *all, struct sockaddr_storage *out)
{
	size_t n = 0;
	for (const struct ifaddrs *i = all; i; i = i->ifa_next) {
		const struct sockaddr *a = i->ifa_addr;
		if (!a || !(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK) ||
		    (a->sa_family != AF_INET && a->sa_family != AF_INET6))
			continue;
		if (a->sa_family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(&((const struct sockaddr_in6 *)a)->sin6_addr))
			continue;
		if (n == ROCE_PROBESHARE_HOSTS_MAX)
			return 0; /* more than a file holds: none, so that no right name looks wrong */
		memset(&out[n], 0, sizeof(out[n]));
		memcpy(&out[n++], a, a->sa_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	}
	return n;
}

static size_t own_hosts(struct sockaddr_storage *out)
{
	struct ifaddrs *all;
	if (getifaddrs(&all) < 0)
		return 0;
	size_t n = roce_jobprobe_pick_hosts(all, out);
	freeifaddrs(all);
	return n;
}

/* One rail per subnet the fingerprint offers: its first port's address. */
static size_t rails_of(const struct roce_node *model, const struct roce_check_result *check,
                       const struct roce_fingerprint *fp, struct roce_pathprobe_rail *rails)
{
	size_t n = 0;
	for (size_t i = 0; i < fp->n_ports && n < ROCE_PROBESHARE_RAILS_MAX; i++) {
		const struct roce_fp_port *p = &fp->ports[i];
		uint8_t addr[16];
		char netdev[IF_NAMESIZE];
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(rails[k].rail, p->rail);
		/* sent from the address's own netdev (a VLAN's), as RoCE's packets leave */
		int family =
		        p->rail[0] && !seen ? roce_fingerprint_port_addr(model, check, p->device, p->port, addr, netdev) : 0;
		if (!family)
			continue;
		struct roce_pathprobe_rail *r = &rails[n++];
		memset(r, 0, sizeof(*r));
		snprintf(r->rail, sizeof(r->rail), "%s", p->rail);
		to_sockaddr(family, addr, &r->addr);
		snprintf(r->netdev, sizeof(r->netdev), "%s", netdev);
		r->active_mtu = p->active_mtu;
		r->netdev_mtu = p->netdev_mtu;
	}
	return n;
}

static int wait_ms(const struct roce_policy *p)
{
	return p->timeout_ms / 2 > ROCE_JOBPROBE_WAIT_MS ? p->timeout_ms / 2 : ROCE_JOBPROBE_WAIT_MS;
}

int roce_jobprobe_budget_ms(const struct roce_policy *p)
{
	return wait_ms(p) + ROCE_JOBPROBE_MS - ROCE_JOBPROBE_WAIT_MS + ROCE_JOBPROBE_RESOLVE_MS;
}

static enum roce_fp_probe fp_verdict(enum roce_prober_verdict v)
{
	switch (v) {
	case ROCE_PROBER_OK: return ROCE_FP_PROBE_OK;
	case ROCE_PROBER_NO_ANSWER: return ROCE_FP_PROBE_NO_ANSWER;
	case ROCE_PROBER_SIZE: return ROCE_FP_PROBE_SIZE;
	case ROCE_PROBER_DSCP: return ROCE_FP_PROBE_DSCP;
	case ROCE_PROBER_LOCAL: break;
	}
	return ROCE_FP_PROBE_LOCAL;
}

/* Every port of fp on rail gets the verdict. */
static void put(struct roce_fingerprint *fp, const struct roce_pathprobe_rail *rail, const char *peer, int tos,
                enum roce_fp_probe v, unsigned largest, int arrived)
{
	struct roce_prober_target t = { .n_sizes = 0 };
	roce_prober_sizes(&t, rail->addr.ss_family == AF_INET6 ? 6 : 4, rail->active_mtu, rail->netdev_mtu);
	for (size_t i = 0; i < fp->n_ports; i++) {
		struct roce_fp_probe_result *r = &fp->ports[i].probe;
		if (strcmp(fp->ports[i].rail, rail->rail) != 0)
			continue;
		memset(r, 0, sizeof(*r));
		r->verdict = v;
		snprintf(r->peer, sizeof(r->peer), "%s", peer);
		r->largest = largest;
		r->of = t.n_sizes ? t.sizes[t.n_sizes - 1].ip_size : 0;
		r->sent = tos >> 2;
		r->arrived = arrived;
	}
}

/* The node after node in the job's ring; NULL when node is not in the job. */
static const char *next_of(const struct roce_job_nodes *job, const char *node)
{
	for (size_t i = 0; i < job->n; i++)
		if (!strcmp(job->names[i], node))
			return job->names[(i + 1) % job->n];
	return NULL;
}

/* The first rail not probed, in words, for the prolog's log. */
static void say_unprobed(const struct roce_pathprobe_result *res, struct roce_error *err)
{
	for (size_t i = 0; i < res->n; i++)
		if (res->rails[i].verdict == ROCE_PROBER_LOCAL) {
			roce_error_set(err, "path probe to %.64s on %s: not probed: %.200s", res->peer, res->rails[i].rail,
			               res->rails[i].words);
			return;
		}
}

int roce_jobprobe_run(const struct roce_policy *p, const struct roce_node *model, const struct roce_check_result *check,
                      const struct roce_job_nodes *job, uid_t job_uid, struct roce_fingerprint *fp,
                      struct roce_error *err)
{
	struct roce_pathprobe_rail rails[ROCE_PROBESHARE_RAILS_MAX];
	struct sockaddr_storage hosts[ROCE_PROBESHARE_HOSTS_MAX];
	struct roce_pathprobe_result res;
	const char *next = job && job->n >= 2 ? next_of(job, fp->node) : NULL;
	err->msg[0] = '\0';
	if (!next)
		return 0; /* one node, or a node list that does not name us: nobody to probe */
	size_t n = rails_of(model, check, fp, rails);
	if (!n)
		return 0;
	int tos = check->traffic_class >= 0 && check->traffic_class <= 255 ? check->traffic_class : 0;
	time_t now = time(NULL);
	struct roce_pathprobe_in in = {
		.shared_dir = p->shared_dir,
		.job_id = fp->job_id,
		.self = fp->node,
		.nodes = job->names,
		.n_nodes = job->n,
		/* an earlier job's file with this id is older than the job (clocks may differ) */
		.since = (job->start > 0 && job->start <= now ? job->start : now) - ROCE_SHAREDDIR_SLACK_S,
		.tos = tos,
		.rails = rails,
		.n_rails = n,
		.wait_ms = wait_ms(p),
		.probe_ms = ROCE_JOBPROBE_PROBE_MS,
		.serve_ms = roce_jobprobe_budget_ms(p) - ROCE_JOBPROBE_RESOLVE_MS,
		.linger_ms = ROCE_JOBPROBE_LINGER_MS,
		.hosts = hosts,
		.n_hosts = own_hosts(hosts),
		.resolve_ms = ROCE_JOBPROBE_RESOLVE_MS,
	};
	if (roce_shareddir_prepare(p, fp->job_id, job_uid, err) < 0 || roce_pathprobe_run(&in, &res, err) < 0) {
		for (size_t i = 0; i < n; i++)
			put(fp, &rails[i], next, tos, ROCE_FP_PROBE_LOCAL, 0, -1);
		return -1;
	}
	say_unprobed(&res, err);
	if (res.name_got[0]) {
		snprintf(fp->resolves.peer, sizeof(fp->resolves.peer), "%s", res.peer);
		snprintf(fp->resolves.got, sizeof(fp->resolves.got), "%s", res.name_got);
	}
	for (size_t i = 0; i < res.n && i < n; i++)
		put(fp, &rails[i], res.peer, tos, fp_verdict(res.rails[i].verdict), res.rails[i].largest,
		    res.rails[i].dscp);
	return 0;
}

bool roce_jobprobe_prolog(const struct roce_policy *p, const struct roce_node *model,
                          const struct roce_check_result *check, const struct roce_job_nodes *job, uid_t job_uid,
                          struct roce_fingerprint *fp, struct roce_error *note, bool had)
{
	struct roce_error e = { "" };
	if (p->probe != ROCE_PROBE_IP)
		return false;
	if (!p->shared_dir[0])
		roce_error_set(&e, "Probe=ip needs SharedDir (roce.conf(5)): no path probe");
	else
		roce_jobprobe_run(p, model, check, job, job_uid, fp, &e); /* failed: its ports say "local" */
	if (!e.msg[0])
		return false;
	if (had) {
		struct roce_error first = *note;
		roce_error_set(note, "%.300s; %.300s", first.msg, e.msg);
	} else {
		*note = e;
	}
	return true;
}

/* What to check for a failed path, by its failure. */
static const char *probe_fix(enum roce_fp_probe v)
{
	switch (v) {
	case ROCE_FP_PROBE_SIZE:
		return "a hop on the path has a smaller MTU than the hosts (a switch port or VLAN at 1500 between hosts "
		       "at 9000 drops every jumbo frame): set the switch ports of this rail to the hosts' MTU";
	case ROCE_FP_PROBE_DSCP:
		return "a switch re-marked the DSCP on the way: RoCE lands on another priority at the far end (lossy "
		       "without PFC); trust DSCP and keep the marking on every hop of this rail";
	case ROCE_FP_PROBE_NO_ANSWER:
		return "the rail is up on both ends and unreachable between them: a cable in the wrong leaf, an "
		       "address on the wrong VLAN or subnet, a filter; ping the peer's rail address from this netdev";
	default:
		return "the next node's probe file did not come in time or was refused (slurmd's log says which): "
		       "the rail was kept unprobed";
	}
}

int roce_jobprobe_verdicts(const struct roce_fingerprint *f, struct roce_verdict_list *out)
{
	size_t ok = 0, probed = 0;
	for (size_t i = 0; i < f->n_ports; i++) {
		const struct roce_fp_port *p = &f->ports[i];
		if (p->probe.verdict == ROCE_FP_PROBE_NONE)
			continue;
		probed++;
		if (p->probe.verdict == ROCE_FP_PROBE_OK) {
			ok++;
			continue;
		}
		struct roce_job_verdict v = { .code = "path_probe",
			                      .severity = p->probe.verdict == ROCE_FP_PROBE_LOCAL ? ROCE_SEV_INFO
			                                                                           : ROCE_SEV_WARN };
		char words[96];
		roce_probeagree_words(&p->probe, words, sizeof(words));
		snprintf(v.subject, sizeof(v.subject), "%s:%u", p->device, p->port);
		snprintf(v.message, sizeof(v.message), "path to %s on %s: %s", p->probe.peer, p->rail[0] ? p->rail : "?",
		         words);
		snprintf(v.fix, sizeof(v.fix), "%s", probe_fix(p->probe.verdict));
		if (roce_verdict_list_add(out, &v) < 0)
			return -1;
	}
	if (f->resolves.peer[0]) {
		struct roce_job_verdict v = { .code = "path_probe", .severity = ROCE_SEV_WARN, .subject = "node" };
		snprintf(v.message, sizeof(v.message), "%s resolves here to %s, not an address %s has", f->resolves.peer,
		         f->resolves.got, f->resolves.peer);
		snprintf(v.fix, sizeof(v.fix),
		         "fix the name in this node's /etc/hosts or DNS: a job that reaches its nodes by name (a "
		         "bootstrap's MASTER_ADDR, mpirun's host list) connects to the wrong host or hangs");
		if (roce_verdict_list_add(out, &v) < 0)
			return -1;
	}
	if (!probed || ok != probed)
		return 0;
	/* the same words on every healthy node: one line in the report */
	struct roce_job_verdict v = { .code = "path_probe", .severity = ROCE_SEV_INFO, .subject = "node" };
	snprintf(v.message, sizeof(v.message), "the path probe to the next node passed on every rail (%zu port%s)",
	         probed, probed == 1 ? "" : "s");
	snprintf(v.fix, sizeof(v.fix), "nothing to do: IP path, MTU and DSCP as RoCE will use them");
	return roce_verdict_list_add(out, &v);
}

void roce_jobprobe_own(const struct roce_policy *p, const char *job_id, const char *entry,
                       struct roce_verdict_list *out)
{
	struct roce_error e;
	struct roce_fingerprint *f = malloc(sizeof(*f)); /* 32 ports: not for the stack */
	if (f && roce_shareddir_read_own(p, job_id, entry, f, &e) == 0)
		roce_jobprobe_verdicts(f, out);
	free(f);
}

void roce_jobprobe_remove(const struct roce_policy *p, const char *job_id, const char *node)
{
	if (p->shared_dir[0])
		roce_probeshare_remove(p->shared_dir, job_id, node);
}
