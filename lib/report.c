/* report.c - verdicts, per-node fragments, and the merged job report. */
#include "config.h"
#include "report.h"
#include "jsonin.h"
#include "printable.h"
#include "readfile.h"
#include "safefile.h"
#include "sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FRAGMENT_MAX (16u << 20)   /* a node with 4096 ports is < 16 MiB */
#define PORTS_MAX 4096
#define VERDICTS_MAX 65536
#define SHARED_MAX 4096

const char *roce_severity_name(enum roce_severity s)
{
	switch (s) {
	case ROCE_SEV_INFO: return "info";
	case ROCE_SEV_WARN: return "warn";
	case ROCE_SEV_FAIL: return "fail";
	}
	return "?";
}

bool roce_job_id_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 10 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	return strtoull(s, NULL, 10) <= UINT32_MAX;
}

bool roce_node_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 63 || s[0] == '.' || s[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
			return false;
	return true;
}

/* ---------------------------------------------------------------- verdicts */

void roce_verdict_list_free(struct roce_verdict_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static struct roce_job_verdict *verdict_add(struct roce_verdict_list *l, const char *code,
                                            enum roce_severity sev, const char *subject)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct roce_job_verdict *grown = realloc(l->v, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		l->v = grown;
		l->cap = cap;
	}
	struct roce_job_verdict *v = &l->v[l->n++];
	memset(v, 0, sizeof(*v));
	snprintf(v->code, sizeof(v->code), "%s", code);
	v->severity = sev;
	snprintf(v->subject, sizeof(v->subject), "%s", subject);
	return v;
}

/* Count of a counter during the job, or 0 when it was not read.  A reset or
 * saturated counter gives its lower bound: those events did happen. */
static uint64_t seen(const struct roce_port_delta *pd, enum roce_counter_id id)
{
	return pd->c[id].status == ROCE_DELTA_UNREAD ? 0 : pd->c[id].value;
}

#define ADD(code, sev, ...) do { \
	if (!(v = verdict_add(out, code, sev, subject))) return -1; \
	snprintf(v->message, sizeof(v->message), __VA_ARGS__); } while (0)
#define FIX(...) snprintf(v->fix, sizeof(v->fix), __VA_ARGS__)

static int link_verdicts(const struct roce_port_delta *pd, const char *subject, struct roce_verdict_list *out)
{
	struct roce_job_verdict *v;
	uint64_t down = seen(pd, ROCE_C_LINK_DOWNED);
	if (down) {
		ADD("link_down", ROCE_SEV_FAIL, "the link went down %" PRIu64 " time(s) during the job", down);
		FIX("check the cable, transceiver and switch port (mlxlink -d <pci> -m, switch port logs); "
		    "collectives usually fail or hang when a link drops");
	}
	uint64_t sym = seen(pd, ROCE_C_SYMBOL_ERROR), rcv = seen(pd, ROCE_C_PORT_RCV_ERRORS),
	         icrc = seen(pd, ROCE_C_RX_ICRC_ENCAPSULATED), rec = seen(pd, ROCE_C_LINK_ERROR_RECOVERY);
	if (sym || rcv || icrc || rec) {
		ADD("physical_errors", ROCE_SEV_WARN,
		    "physical layer errors: symbol_error %" PRIu64 ", port_rcv_errors %" PRIu64
		    ", rx_icrc_encapsulated %" PRIu64 ", link_error_recovery %" PRIu64, sym, rcv, icrc, rec);
		FIX("a bad cable, optic or dirty connector: check the bit error rate (mlxlink -c) and the "
		    "switch port's error counters; reseat or replace the cable");
	}
	uint64_t disc = seen(pd, ROCE_C_PORT_XMIT_DISCARDS);
	if (disc) {
		ADD("xmit_discards", ROCE_SEV_WARN, "%" PRIu64 " packets discarded on transmit", disc);
		FIX("the port could not send: link down, or packets timed out at the head of a paused queue; "
		    "look for pause storms and link flaps on this port and its switch port");
	}
	return 0;
}

static int loss_verdicts(const struct roce_port_delta *pd, const struct roce_fragment_meta *m,
                         const char *subject, struct roce_verdict_list *out)
{
	struct roce_job_verdict *v;
	char prio[48] = "the RoCE priority";
	if (m && m->pfc_priority >= 0)
		snprintf(prio, sizeof(prio), "priority %d", m->pfc_priority);

	uint64_t retries = seen(pd, ROCE_C_REQ_TRANSPORT_RETRIES_EXCEEDED);
	if (retries) {
		ADD("retries_exceeded", ROCE_SEV_FAIL,
		    "%" PRIu64 " queue pairs gave up after exhausting their retries (the application saw "
		    "\"transport retry counter exceeded\", NCCL \"completion with error 12\")", retries);
		FIX("sustained packet loss or an unreachable peer: check PFC and ECN on the path, and that every "
		    "node uses the same, routable RoCE v2 GID index");
	}
	uint64_t oos = seen(pd, ROCE_C_OUT_OF_SEQUENCE), seq = seen(pd, ROCE_C_PACKET_SEQ_ERR),
	         nak = seen(pd, ROCE_C_IMPLIED_NAK_SEQ_ERR), dup = seen(pd, ROCE_C_DUPLICATE_REQUEST);
	if (oos || seq || nak) {
		ADD("packet_loss", ROCE_SEV_WARN,
		    "packets were lost: out_of_sequence %" PRIu64 ", packet_seq_err %" PRIu64
		    ", implied_nak_seq_err %" PRIu64 ", duplicate_request %" PRIu64, oos, seq, nak, dup);
		FIX("RoCE needs a lossless or ECN-managed path: check that PFC is on for %s on this NIC and "
		    "on every switch hop, and that ECN marking is set on the switch queues of that traffic class", prio);
	}
	uint64_t to = seen(pd, ROCE_C_LOCAL_ACK_TIMEOUT_ERR);
	if (to) {
		ADD("rdma_timeouts", ROCE_SEV_WARN, "%" PRIu64 " RDMA transport timeouts (no ACK within the QP timeout)", to);
		FIX("lost packets or a congested or unreachable peer: check link errors and PFC on the peers; "
		    "raising NCCL_IB_TIMEOUT hides the loss but does not fix it");
	}
	uint64_t rnr = seen(pd, ROCE_C_RNR_NAK_RETRY_ERR);
	if (rnr) {
		ADD("rnr_retries", ROCE_SEV_WARN, "%" PRIu64 " receiver-not-ready retries exhausted", rnr);
		FIX("a receiver did not post buffers in time: the receiving process fell behind (CPU binding, "
		    "starved progress thread)");
	}
	uint64_t oob = seen(pd, ROCE_C_OUT_OF_BUFFER);
	if (oob) {
		ADD("out_of_buffer", ROCE_SEV_WARN, "%" PRIu64 " packets dropped: no receive buffer posted", oob);
		FIX("the receiving process fell behind; check its CPU and NUMA binding");
	}
	uint64_t adp = seen(pd, ROCE_C_ROCE_ADP_RETRANS), adpto = seen(pd, ROCE_C_ROCE_ADP_RETRANS_TO);
	if (adp || adpto) {
		ADD("adaptive_retrans", ROCE_SEV_INFO,
		    "adaptive retransmission fired: roce_adp_retrans %" PRIu64 ", roce_adp_retrans_to %" PRIu64, adp, adpto);
		FIX("the NIC retransmitted early because ACKs were late: a symptom of loss or deep queues on the path");
	}
	return 0;
}

static int congestion_verdicts(const struct roce_port_delta *pd, const struct roce_delta *d,
                               const char *subject, struct roce_verdict_list *out)
{
	struct roce_job_verdict *v;
	uint64_t ign = seen(pd, ROCE_C_RP_CNP_IGNORED);
	if (ign) {
		ADD("ecn_reaction_disabled", ROCE_SEV_WARN,
		    "%" PRIu64 " congestion notifications (CNPs) ignored: the NIC's ECN reaction point is disabled "
		    "on the priority this traffic uses", ign);
		FIX("enable DCQCN's reaction point for that priority (MLNX_OFED: echo 1 > "
		    "/sys/class/net/%s/ecn/roce_rp/enable/<prio>); without it congestion becomes pauses or loss",
		    pd->netdev[0] ? pd->netdev : "<netdev>");
	}
	uint64_t marked = seen(pd, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS), sent = seen(pd, ROCE_C_NP_CNP_SENT),
	         handled = seen(pd, ROCE_C_RP_CNP_HANDLED);
	if (marked || sent || handled) {
		ADD("congestion", ROCE_SEV_INFO,
		    "the fabric signalled congestion: %" PRIu64 " ECN-marked packets received, %" PRIu64
		    " CNPs sent, %" PRIu64 " CNPs handled (rate reduced)", marked, sent, handled);
		FIX("normal under load; high counts relative to the packets moved point at an oversubscribed "
		    "path or incast traffic");
	}
	if (pd->pfc_status == ROCE_DELTA_UNREAD)
		return 0;
	for (int p = 0; p < ROCE_PRIOS; p++) {
		uint64_t rx = pd->pfc_indications[p], tx = pd->pfc_requests[p];
		if (!rx && !tx)
			continue;
		double rate = d->seconds > 0 ? (double)(rx > tx ? rx : tx) / d->seconds : 0;
		char prio_subject[96];
		/* one verdict per priority: the subject names it, so (subject, code) stays unique */
		snprintf(prio_subject, sizeof(prio_subject), "%.80s prio %d", subject, p);
		const char *port_subject = subject;
		subject = prio_subject;
		if (rate > ROCE_PAUSE_STORM_RATE) {
			ADD("pause_storm", ROCE_SEV_WARN,
			    "PFC pause storm on priority %d: %" PRIu64 " pause frames received, %" PRIu64
			    " sent (%.0f per second)", p, rx, tx, rate);
			FIX("%s: a receiver that cannot drain (stuck host, slow PCIe) or a misconfigured buffer "
			    "spreads pauses through the fabric; check the switch's PFC watchdog and the hosts that paused",
			    tx > rx ? "this NIC paused its switch" : "the switch paused this NIC");
		} else {
			ADD("pfc_pauses", ROCE_SEV_INFO, "PFC on priority %d: %" PRIu64 " pause frames received, %" PRIu64
			    " sent", p, rx, tx);
			FIX("lossless flow control at work; many pauses mean congestion that ECN did not resolve");
		}
		subject = port_subject;
	}
	return 0;
}

static int port_state_verdicts(const struct roce_port_delta *pd, const struct roce_fragment_meta *m,
                               const char *subject, struct roce_verdict_list *out)
{
	struct roce_job_verdict *v;
	if (pd->presence == ROCE_PORT_VANISHED) {
		ADD("port_vanished", ROCE_SEV_WARN, "the port disappeared during the job");
		FIX("driver reload, device reset or hot-unplug: check dmesg for mlx5_core errors");
		return 0;
	}
	if (pd->presence == ROCE_PORT_APPEARED) {
		ADD("port_appeared", ROCE_SEV_WARN, "the port appeared during the job: no counts for it");
		FIX("driver reload or device reset during the job: check dmesg for mlx5_core errors");
		return 0;
	}
	if (pd->reset) {
		ADD("counter_reset", ROCE_SEV_WARN,
		    "counters went backwards during the job: values are counts since the reset, lower bounds");
		FIX("driver reload or firmware reset during the job: check dmesg for mlx5_core errors");
	}
	if (m && m->no_start)
		return 0;   /* one node verdict says it all */
	size_t unread = 0, unread_hw = 0;
	const char *why = "";
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (pd->c[i].status == ROCE_DELTA_UNREAD) {
			if (!unread)
				why = pd->c[i].why;
			unread++;
			unread_hw += roce_counter_defs[i].hw;
		}
	if (unread) {
		ADD("counters_unread", ROCE_SEV_INFO, "%zu of %d counters could not be read (first: %s)",
		    unread, ROCE_N_COUNTERS, why);
		if (unread == unread_hw)
			FIX("hw_counters/ are mlx5's: without them this driver's ports get no loss or congestion verdicts");
		else
			FIX("the reason above names the file; the verdicts only use counters that were read");
	}
	return 0;
}

int roce_verdicts_from_delta(const struct roce_delta *d, const struct roce_fragment_meta *m,
                             struct roce_verdict_list *out)
{
	struct roce_job_verdict *v;
	const char *subject = "node";
	if (m && m->n_shared) {
		char jobs[200] = "";
		for (size_t i = 0; i < m->n_shared && strlen(jobs) < sizeof(jobs) - 24; i++)
			snprintf(jobs + strlen(jobs), sizeof(jobs) - strlen(jobs), "%s%s", i ? ", " : "", m->shared_with[i]);
		ADD("shared_node", ROCE_SEV_WARN, "node shared with job(s) %s during this job", jobs);
		FIX("counters are per port, not per job: the numbers include the other jobs' traffic");
	}
	if (m && m->no_start) {
		ADD("no_prolog_snapshot", ROCE_SEV_WARN, "no counts for this node: %s", m->note ? m->note : "no prolog snapshot");
		FIX("the job prolog did not snapshot this node: with Prolog= scripts set PrologFlags=Alloc so every node "
		    "runs it; after installing the plugin restart slurmd; check that StateDir is writable by root");
	}
	if (d->n_ports == 0) {
		ADD("no_roce_ports", ROCE_SEV_INFO, "no RoCE (Ethernet link layer) port on this node");
		FIX("nothing to report; if the node should have RoCE ports, run roce-check");
	}
	for (size_t i = 0; i < d->n_ports; i++) {
		const struct roce_port_delta *pd = &d->ports[i];
		char sub[96];
		snprintf(sub, sizeof(sub), "%s:%u", pd->device, pd->port);
		if (port_state_verdicts(pd, m, sub, out) < 0 || link_verdicts(pd, sub, out) < 0 ||
		    loss_verdicts(pd, m, sub, out) < 0 || congestion_verdicts(pd, d, sub, out) < 0)
			return -1;
	}
	return 0;
}
#undef ADD
#undef FIX

/* ---------------------------------------------------------------- compact data */

struct roce_report_port {
	char *device, *netdev;
	unsigned port;
	uint8_t presence;            /* enum roce_port_presence */
	bool reset;
	int gid_index, active_mtu;
	unsigned netdev_mtu;
	uint8_t pfc_status;          /* enum roce_delta_status */
	uint8_t pfc_enabled;
	char *pfc_why;
	uint64_t pfc_req[ROCE_PRIOS], pfc_ind[ROCE_PRIOS];
	uint64_t c[ROCE_N_COUNTERS];
	uint8_t cs[ROCE_N_COUNTERS]; /* enum roce_delta_status */
	char **why;                  /* NULL, or ROCE_N_COUNTERS strings for UNREAD ones */
};

struct roce_report_verdict {
	char *code, *subject, *message, *fix;
	uint8_t severity;
};

struct roce_report_node {
	char *name;
	long uid;
	double seconds;
	int64_t start_ns, end_ns;
	char **shared;
	size_t n_shared;
	int gid_index, traffic_class, pfc_priority;
	char *note;
	struct roce_report_port *ports;
	size_t n_ports;
	struct roce_report_verdict *verdicts;
	size_t n_verdicts;
};

static void port_free(struct roce_report_port *p)
{
	free(p->device);
	free(p->netdev);
	free(p->pfc_why);
	if (p->why)
		for (int i = 0; i < ROCE_N_COUNTERS; i++)
			free(p->why[i]);
	free(p->why);
}

static void node_free(struct roce_report_node *n)
{
	free(n->name);
	free(n->note);
	for (size_t i = 0; i < n->n_shared; i++)
		free(n->shared[i]);
	free(n->shared);
	for (size_t i = 0; i < n->n_ports; i++)
		port_free(&n->ports[i]);
	free(n->ports);
	for (size_t i = 0; i < n->n_verdicts; i++) {
		free(n->verdicts[i].code);
		free(n->verdicts[i].subject);
		free(n->verdicts[i].message);
		free(n->verdicts[i].fix);
	}
	free(n->verdicts);
	memset(n, 0, sizeof(*n));
}

/* ---------------------------------------------------------------- JSON out */

static json_object *prio_list(uint8_t bitmap)
{
	json_object *a = json_object_new_array();
	for (int p = 0; p < ROCE_PRIOS; p++)
		if (bitmap & (1u << p))
			json_object_array_add(a, json_object_new_int(p));
	return a;
}

static json_object *u64s(const uint64_t *v)
{
	json_object *a = json_object_new_array();
	for (int i = 0; i < ROCE_PRIOS; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

static json_object *port_json(const struct roce_report_port *p)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object(),
	            *st = json_object_new_object(), *why = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int((int)p->port));
	json_object_object_add(o, "netdev", json_object_new_string(p->netdev));
	json_object_object_add(o, "presence", json_object_new_string(roce_delta_presence_name(p->presence)));
	json_object_object_add(o, "reset", json_object_new_boolean(p->reset));
	json_object_object_add(o, "gid_index", json_object_new_int(p->gid_index));
	json_object_object_add(o, "active_mtu", json_object_new_int(p->active_mtu));
	json_object_object_add(o, "netdev_mtu", json_object_new_int64(p->netdev_mtu));
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const char *name = roce_counter_defs[i].report_name;
		if (p->cs[i] == ROCE_DELTA_UNREAD) {
			json_object_object_add(c, name, NULL);
			if (p->why && p->why[i])
				json_object_object_add(why, name, json_object_new_string(p->why[i]));
		} else {
			json_object_object_add(c, name, json_object_new_uint64(p->c[i]));
		}
		if (p->cs[i] != ROCE_DELTA_OK)
			json_object_object_add(st, name, json_object_new_string(roce_delta_status_name(p->cs[i])));
	}
	json_object_object_add(o, "counters", c);
	json_object_object_add(o, "counter_status", st);
	json_object_object_add(o, "counter_why", why);
	json_object *pfc = json_object_new_object();
	json_object_object_add(pfc, "status", json_object_new_string(roce_delta_status_name(p->pfc_status)));
	if (p->pfc_status == ROCE_DELTA_UNREAD) {
		json_object_object_add(pfc, "why", json_object_new_string(p->pfc_why ? p->pfc_why : ""));
	} else {
		json_object_object_add(pfc, "enabled", prio_list(p->pfc_enabled));
		json_object_object_add(pfc, "requests", u64s(p->pfc_req));
		json_object_object_add(pfc, "indications", u64s(p->pfc_ind));
	}
	json_object_object_add(o, "pfc", pfc);
	return o;
}

static json_object *verdict_json(const char *code, int sev, const char *subject, const char *msg, const char *fix)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "code", json_object_new_string(code));
	json_object_object_add(o, "severity", json_object_new_string(roce_severity_name((enum roce_severity)sev)));
	json_object_object_add(o, "subject", json_object_new_string(subject));
	json_object_object_add(o, "message", json_object_new_string(msg));
	json_object_object_add(o, "fix", json_object_new_string(fix));
	return o;
}

static json_object *node_json(const struct roce_report_node *n, bool fragment, const char *job_id)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array(),
	            *verdicts = json_object_new_array(), *shared = json_object_new_array();
	if (fragment)
		json_object_object_add(o, "schema", json_object_new_string(ROCE_FRAGMENT_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(job_id));
	json_object_object_add(o, "name", json_object_new_string(n->name));
	json_object_object_add(o, "job_uid", json_object_new_int64(n->uid));
	json_object_object_add(o, "start_ns", json_object_new_int64(n->start_ns));
	json_object_object_add(o, "end_ns", json_object_new_int64(n->end_ns));
	json_object_object_add(o, "seconds", json_object_new_double(n->seconds));
	for (size_t i = 0; i < n->n_shared; i++)
		json_object_array_add(shared, json_object_new_string(n->shared[i]));
	json_object_object_add(o, "shared_with", shared);
	json_object_object_add(o, "gid_index", json_object_new_int(n->gid_index));
	json_object_object_add(o, "traffic_class", json_object_new_int(n->traffic_class));
	json_object_object_add(o, "pfc_priority", json_object_new_int(n->pfc_priority));
	if (n->note)
		json_object_object_add(o, "note", json_object_new_string(n->note));
	for (size_t i = 0; i < n->n_ports; i++)
		json_object_array_add(ports, port_json(&n->ports[i]));
	json_object_object_add(o, "ports", ports);
	for (size_t i = 0; i < n->n_verdicts; i++) {
		const struct roce_report_verdict *v = &n->verdicts[i];
		json_object_array_add(verdicts, verdict_json(v->code, v->severity, v->subject, v->message, v->fix));
	}
	json_object_object_add(o, "verdicts", verdicts);
	return o;
}

/* ---------------------------------------------------------------- fragment build */

static int port_from_delta(struct roce_report_port *p, const struct roce_port_delta *pd)
{
	memset(p, 0, sizeof(*p));
	p->device = strdup(pd->device);
	p->netdev = strdup(pd->netdev);
	p->port = pd->port;
	p->presence = (uint8_t)pd->presence;
	p->reset = pd->reset;
	p->gid_index = pd->gid_index;
	p->active_mtu = pd->active_mtu;
	p->netdev_mtu = pd->netdev_mtu;
	p->pfc_status = (uint8_t)pd->pfc_status;
	p->pfc_enabled = pd->pfc_enabled;
	p->pfc_why = strdup(pd->pfc_why);
	memcpy(p->pfc_req, pd->pfc_requests, sizeof(p->pfc_req));
	memcpy(p->pfc_ind, pd->pfc_indications, sizeof(p->pfc_ind));
	if (!p->device || !p->netdev || !p->pfc_why)
		return -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		p->c[i] = pd->c[i].value;
		p->cs[i] = (uint8_t)pd->c[i].status;
		if (pd->c[i].status != ROCE_DELTA_UNREAD)
			continue;
		if (!p->why && !(p->why = calloc(ROCE_N_COUNTERS, sizeof(*p->why))))
			return -1;
		if (!(p->why[i] = strdup(pd->c[i].why)))
			return -1;
	}
	return 0;
}

json_object *roce_fragment_build(const struct roce_fragment_meta *m, const struct roce_delta *d,
                                 const struct roce_verdict_list *v)
{
	struct roce_report_node n;
	json_object *o = NULL;
	memset(&n, 0, sizeof(n));
	n.name = (char *)m->node;
	n.uid = (long)m->job_uid;
	n.start_ns = m->start_ns;
	n.end_ns = m->end_ns;
	n.seconds = d->seconds;
	n.shared = (char **)m->shared_with;
	n.n_shared = m->n_shared;
	n.gid_index = d->gid_index;
	n.traffic_class = d->traffic_class;
	n.pfc_priority = m->pfc_priority;
	n.note = (char *)m->note;
	if (d->n_ports && !(n.ports = calloc(d->n_ports, sizeof(*n.ports))))
		return NULL;
	for (size_t i = 0; i < d->n_ports; i++) {
		n.n_ports++;
		if (port_from_delta(&n.ports[i], &d->ports[i]) < 0)
			goto out;
	}
	if (v->n && !(n.verdicts = calloc(v->n, sizeof(*n.verdicts))))
		goto out;
	for (size_t i = 0; i < v->n; i++) {
		n.verdicts[i] = (struct roce_report_verdict){ v->v[i].code, v->v[i].subject, v->v[i].message,
		                                              v->v[i].fix, (uint8_t)v->v[i].severity };
	}
	n.n_verdicts = v->n;
	o = node_json(&n, true, m->job_id);
out:
	for (size_t i = 0; i < n.n_ports; i++)
		port_free(&n.ports[i]);
	free(n.ports);
	free(n.verdicts);   /* strings belong to v */
	return o;
}

/* ---------------------------------------------------------------- fragment parse */

/* Fragments may sit on a shared file system: every string kept is escaped
 * (printable.h), so no terminal escape or newline reaches an admin's screen
 * or the exposition format. */

static const char *delta_status_name(int s) { return roce_delta_status_name((enum roce_delta_status)s); }
static const char *presence_name(int p) { return roce_delta_presence_name((enum roce_port_presence)p); }
static const char *severity_name(int s) { return roce_severity_name((enum roce_severity)s); }

/* A copy for the report, or -1 with err set. */
static int keep(char **dst, const char *s, struct roce_error *err)
{
	if ((*dst = roce_printable_dup(s)))
		return 0;
	roce_error_set(err, "out of memory");
	return -1;
}

/* "counter_why" of an unread counter, when there is one. */
static int keep_why(struct roce_report_port *p, int i, json_object *why, const char *name, struct roce_error *err)
{
	json_object *w = why ? roce_jin_get(why, name, json_type_string) : NULL;
	if (!w)
		return 0;
	if (!p->why && !(p->why = calloc(ROCE_N_COUNTERS, sizeof(*p->why)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	return keep(&p->why[i], json_object_get_string(w), err);
}

static int parse_port_counters(json_object *o, struct roce_report_port *p, struct roce_error *err)
{
	json_object *c, *st, *why = roce_jin_get(o, "counter_why", json_type_object), *m;
	if (roce_jin_member(o, "counters", json_type_object, &c, err) < 0 ||
	    roce_jin_member(o, "counter_status", json_type_object, &st, err) < 0)
		return -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const char *name = roce_counter_defs[i].report_name;
		int s = ROCE_DELTA_OK;
		/* Only counters that are not "ok" have a status. */
		if (json_object_object_get_ex(st, name, NULL) &&
		    roce_jin_enum(st, name, delta_status_name, ROCE_DELTA_OK, ROCE_DELTA_UNREAD, &s, err) < 0)
			return -1;
		p->cs[i] = (uint8_t)s;
		if (!json_object_object_get_ex(c, name, &m)) {
			roce_error_set(err, "counter %s missing", name);
			return -1;
		}
		if (s == ROCE_DELTA_UNREAD) {
			if (m) {
				roce_error_set(err, "counter %s is unread but has a value", name);
				return -1;
			}
			if (keep_why(p, i, why, name, err) < 0)
				return -1;
		} else if (!roce_jin_u64_value(m, &p->c[i])) {
			roce_error_set(err, "counter %s is not a counter value", name);
			return -1;
		}
	}
	return 0;
}

static int parse_prio_bitmap(json_object *o, const char *key, uint8_t *bitmap, struct roce_error *err)
{
	json_object *a;
	*bitmap = 0;
	if (roce_jin_member(o, key, json_type_array, &a, err) < 0)
		return -1;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);
		int64_t p = json_object_get_int64(e);
		if (i >= ROCE_PRIOS || !json_object_is_type(e, json_type_int) || p < 0 || p >= ROCE_PRIOS) {
			roce_error_set(err, "\"%s\" is not a list of priorities 0..%d", key, ROCE_PRIOS - 1);
			return -1;
		}
		*bitmap |= (uint8_t)(1u << p);
	}
	return 0;
}

static int parse_port_pfc(json_object *o, struct roce_report_port *p, struct roce_error *err)
{
	json_object *pfc;
	int st;
	if (roce_jin_member(o, "pfc", json_type_object, &pfc, err) < 0 ||
	    roce_jin_enum(pfc, "status", delta_status_name, ROCE_DELTA_OK, ROCE_DELTA_UNREAD, &st, err) < 0)
		return -1;
	p->pfc_status = (uint8_t)st;
	if (st == ROCE_DELTA_UNREAD) {
		json_object *m = roce_jin_get(pfc, "why", json_type_string);
		return keep(&p->pfc_why, m ? json_object_get_string(m) : "", err);
	}
	return parse_prio_bitmap(pfc, "enabled", &p->pfc_enabled, err) < 0 ||
	       roce_jin_u64s(pfc, "requests", p->pfc_req, ROCE_PRIOS, err) < 0 ||
	       roce_jin_u64s(pfc, "indications", p->pfc_ind, ROCE_PRIOS, err) < 0 ? -1 : 0;
}

static int parse_port(json_object *o, struct roce_report_port *p, struct roce_error *err)
{
	const char *dev, *netdev;
	int64_t port, gid, mtu, nmtu;
	int presence;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "port is not an object");
		return -1;
	}
	if (roce_jin_str(o, "device", ROCE_NAME_MAX - 1, &dev, err) < 0 || keep(&p->device, dev, err) < 0 ||
	    roce_jin_str(o, "netdev", IF_NAMESIZE - 1, &netdev, err) < 0 || keep(&p->netdev, netdev, err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_enum(o, "presence", presence_name, ROCE_PORT_BOTH, ROCE_PORT_APPEARED, &presence, err) < 0 ||
	    roce_jin_bool(o, "reset", &p->reset, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(o, "active_mtu", 0, 65536, &mtu, err) < 0 ||
	    roce_jin_int(o, "netdev_mtu", 0, UINT32_MAX, &nmtu, err) < 0)
		return -1;
	p->port = (unsigned)port;
	p->presence = (uint8_t)presence;
	p->gid_index = (int)gid;
	p->active_mtu = (int)mtu;
	p->netdev_mtu = (unsigned)nmtu;
	if (parse_port_counters(o, p, err) < 0)
		return -1;
	return parse_port_pfc(o, p, err);
}

static int parse_verdict(json_object *o, struct roce_report_verdict *v, struct roce_error *err)
{
	const char *code, *subject, *msg, *fix;
	int sev;
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "verdict is not an object");
		return -1;
	}
	if (roce_jin_str(o, "code", 31, &code, err) < 0 ||
	    roce_jin_enum(o, "severity", severity_name, ROCE_SEV_INFO, ROCE_SEV_FAIL, &sev, err) < 0 ||
	    roce_jin_str(o, "subject", 95, &subject, err) < 0 || roce_jin_str(o, "message", 1023, &msg, err) < 0 ||
	    roce_jin_str(o, "fix", 1023, &fix, err) < 0)
		return -1;
	v->severity = (uint8_t)sev;
	return keep(&v->code, code, err) < 0 || keep(&v->subject, subject, err) < 0 || keep(&v->message, msg, err) < 0 ||
	       keep(&v->fix, fix, err) < 0 ? -1 : 0;
}

static int parse_shared(json_object *o, struct roce_report_node *n, struct roce_error *err)
{
	json_object *a;
	if (roce_jin_member(o, "shared_with", json_type_array, &a, err) < 0)
		return -1;
	size_t len = json_object_array_length(a);
	if (len > SHARED_MAX) {
		roce_error_set(err, "\"shared_with\" has more than %d entries", SHARED_MAX);
		return -1;
	}
	if (len && !(n->shared = calloc(len, sizeof(*n->shared)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string) || !roce_job_id_ok(json_object_get_string(e))) {
			roce_error_set(err, "shared_with[%zu] is not a job id", i);
			return -1;
		}
		if (keep(&n->shared[n->n_shared], json_object_get_string(e), err) < 0)
			return -1;
		n->n_shared++;
	}
	return 0;
}

/* An array member of at most max entries, allocated as n entries of size bytes in *v. */
static int parse_array(json_object *o, const char *key, size_t max, size_t size, void **v, json_object **a,
                       struct roce_error *err)
{
	if (roce_jin_member(o, key, json_type_array, a, err) < 0)
		return -1;
	size_t n = json_object_array_length(*a);
	if (n > max) {
		roce_error_set(err, "\"%s\" has more than %zu entries", key, max);
		return -1;
	}
	if (n && !(*v = calloc(n, size))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	return 0;
}

static int parse_ports_verdicts(json_object *o, struct roce_report_node *n, struct roce_error *err)
{
	json_object *ports, *verdicts;
	struct roce_error sub;
	if (parse_array(o, "ports", PORTS_MAX, sizeof(*n->ports), (void **)&n->ports, &ports, err) < 0)
		return -1;
	for (size_t i = 0; i < json_object_array_length(ports); i++) {
		n->n_ports++;
		if (parse_port(json_object_array_get_idx(ports, i), &n->ports[i], &sub) < 0) {
			roce_error_set(err, "ports[%zu]: %s", i, sub.msg);
			return -1;
		}
	}
	if (parse_array(o, "verdicts", VERDICTS_MAX, sizeof(*n->verdicts), (void **)&n->verdicts, &verdicts, err) < 0)
		return -1;
	for (size_t i = 0; i < json_object_array_length(verdicts); i++) {
		n->n_verdicts++;
		if (parse_verdict(json_object_array_get_idx(verdicts, i), &n->verdicts[i], &sub) < 0) {
			roce_error_set(err, "verdicts[%zu]: %s", i, sub.msg);
			return -1;
		}
	}
	return 0;
}

static int parse_node(json_object *o, struct roce_report_node *n, struct roce_error *err)
{
	const char *name;
	int64_t uid, gid, tc, prio;
	json_object *m;

	if (roce_jin_str(o, "name", 63, &name, err) < 0)
		return -1;
	if (!roce_node_name_ok(name)) {
		roce_error_set(err, "\"name\" is not a node name");
		return -1;
	}
	if (keep(&n->name, name, err) < 0 || roce_jin_int(o, "job_uid", 0, UINT32_MAX, &uid, err) < 0 ||
	    roce_jin_int(o, "start_ns", 0, INT64_MAX, &n->start_ns, err) < 0 ||
	    roce_jin_int(o, "end_ns", 0, INT64_MAX, &n->end_ns, err) < 0 ||
	    roce_jin_double(o, "seconds", &n->seconds, err) < 0 || parse_shared(o, n, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(o, "traffic_class", -1, 255, &tc, err) < 0 ||
	    roce_jin_int(o, "pfc_priority", -1, 7, &prio, err) < 0)
		return -1;
	n->uid = (long)uid;
	n->gid_index = (int)gid;
	n->traffic_class = (int)tc;
	n->pfc_priority = (int)prio;
	if ((m = roce_jin_get(o, "note", json_type_string)) && keep(&n->note, json_object_get_string(m), err) < 0)
		return -1;
	return parse_ports_verdicts(o, n, err);
}

/* ---------------------------------------------------------------- merge */

void roce_report_init(struct roce_job_report *r, const char *job_id)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->job_id, sizeof(r->job_id), "%s", job_id ? job_id : "");
}

void roce_report_free(struct roce_job_report *r)
{
	for (size_t i = 0; i < r->n_nodes; i++)
		node_free(&r->nodes[i]);
	free(r->nodes);
	for (size_t i = 0; i < r->n_errors; i++)
		free(r->errors[i]);
	free(r->errors);
	memset(r, 0, sizeof(*r));
}

static int add_error(struct roce_job_report *r, const char *source, const char *err)
{
	char **grown = realloc(r->errors, (r->n_errors + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	r->errors = grown;
	/* The file name and what the parser quotes from the file are hostile. */
	size_t len = strlen(source) + strlen(err) + 3;
	char *line = malloc(len);
	if (!line)
		return -1;
	snprintf(line, len, "%s: %s", source, err);
	r->errors[r->n_errors] = roce_printable_dup(line);
	free(line);
	if (!r->errors[r->n_errors])
		return -1;
	r->n_errors++;
	return 0;
}

/* The fragment's schema and job id, then the node. */
static int parse_fragment(const struct roce_job_report *r, json_object *frag, struct roce_report_node *n,
                          struct roce_error *err)
{
	const char *s;
	if (!json_object_is_type(frag, json_type_object)) {
		roce_error_set(err, "not a JSON object");
		return -1;
	}
	if (roce_jin_str(frag, "schema", 64, &s, err) < 0)
		return -1;
	if (strcmp(s, ROCE_FRAGMENT_SCHEMA) != 0) {
		roce_error_set(err, "unknown schema \"%.64s\"", s);
		return -1;
	}
	if (roce_jin_str(frag, "job_id", ROCE_JOBID_MAX - 1, &s, err) < 0)
		return -1;
	if (strcmp(s, r->job_id) != 0) {
		roce_error_set(err, "fragment of job %.24s, not %s", s, r->job_id);
		return -1;
	}
	return parse_node(frag, n, err);
}

int roce_report_add(struct roce_job_report *r, json_object *frag, const char *source, struct roce_error *err)
{
	struct roce_report_node n;
	memset(&n, 0, sizeof(n));

	if (parse_fragment(r, frag, &n, err) < 0) {
		node_free(&n);
		add_error(r, source, err->msg);
		return -1;
	}
	/* Linear scan for duplicates would make the merge quadratic: names are
	 * checked after sorting instead (roce_report_sort). */
	if (r->n_nodes == r->cap_nodes) {
		size_t cap = r->cap_nodes ? r->cap_nodes * 2 : 64;
		struct roce_report_node *grown = realloc(r->nodes, cap * sizeof(*grown));
		if (!grown) {
			node_free(&n);
			roce_error_set(err, "out of memory");
			return -1;
		}
		r->nodes = grown;
		r->cap_nodes = cap;
	}
	r->nodes[r->n_nodes++] = n;
	return 0;
}

static void load_one(struct roce_job_report *r, int dfd, const char *name)
{
	struct roce_error err;
	struct roce_reading rd;
	char base[80];
	size_t len = 0;
	char *buf = roce_readfile(dfd, NULL, name, FRAGMENT_MAX, ROCE_READFILE_NOFOLLOW, &len, &rd);
	if (!buf) {
		roce_error_set(&err, "cannot read: %s", strerror(errno));
		add_error(r, name, err.msg);
		return;
	}
	json_object *frag = roce_jin_parse(buf, len, &err);
	if (!frag) {
		add_error(r, name, err.msg);
	} else if (roce_report_add(r, frag, name, &err) == 0) {
		/* The file name and the node name must agree, or a copied file would pose as another node. */
		snprintf(base, sizeof(base), "%s.json", r->nodes[r->n_nodes - 1].name);
		if (strcmp(base, name) != 0) {
			node_free(&r->nodes[--r->n_nodes]);
			add_error(r, name, "the node name inside does not match the file name");
		}
	}
	json_object_put(frag);
	free(buf);
}

int roce_report_load_dir(struct roce_job_report *r, const char *dir, struct roce_error *err)
{
	int dfd = roce_safefile_open_dir(dir);
	if (dfd < 0) {
		roce_error_set(err, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	DIR *d = fdopendir(dfd);
	if (!d) {
		roce_error_set(err, "cannot list %s: %s", dir, strerror(errno));
		close(dfd);
		return -1;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		load_one(r, dirfd(d), e->d_name);
	}
	closedir(d);
	return 0;
}

long roce_report_job_uid(const struct roce_job_report *r)
{
	long uid = -1;
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (uid >= 0 && r->nodes[i].uid != uid)
			return -1;
		uid = r->nodes[i].uid;
	}
	return uid;
}

static int node_cmp(const void *a, const void *b)
{
	const struct roce_report_node *x = a, *y = b;
	int c = roce_natural_cmp(x->name, y->name);
	return c ? c : strcmp(x->name, y->name);
}

void roce_report_sort(struct roce_job_report *r)
{
	if (r->n_nodes > 1)
		qsort(r->nodes, r->n_nodes, sizeof(*r->nodes), node_cmp);
	/* Same name twice (only possible through roce_report_add): keep the first. */
	size_t w = 0;
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (w && strcmp(r->nodes[w - 1].name, r->nodes[i].name) == 0) {
			add_error(r, r->nodes[i].name, "duplicate fragment for this node ignored");
			node_free(&r->nodes[i]);
			continue;
		}
		r->nodes[w++] = r->nodes[i];
	}
	r->n_nodes = w;
}

/* ---------------------------------------------------------------- job-level views */

static char *join_names(const char *const *names, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", names[i]);
	return s;
}

static char *nodelist_of(roce_nodelist_fn fn, const char *const *names, size_t n)
{
	char *s = fn ? fn(names, n) : NULL;
	return s ? s : join_names(names, n);
}

/* A group of nodes sharing a value ("4096" MTU, "packet_loss" verdict). */
struct group {
	char *key;
	int severity;
	const char **names;
	size_t n;
};

struct groups {
	struct group *g;
	size_t n;
};

static void groups_free(struct groups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].key);
		free(gs->g[i].names);
	}
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

/* Few distinct keys in practice: a linear search per node is fine. */
static int group_add(struct groups *gs, const char *key, int severity, const char *name)
{
	struct group *g = NULL;
	for (size_t i = 0; i < gs->n; i++)
		if (strcmp(gs->g[i].key, key) == 0)
			g = &gs->g[i];
	if (!g) {
		struct group *grown = realloc(gs->g, (gs->n + 1) * sizeof(*grown));
		if (!grown)
			return -1;
		gs->g = grown;
		g = &gs->g[gs->n];
		memset(g, 0, sizeof(*g));
		if (!(g->key = strdup(key)))
			return -1;
		gs->n++;
	}
	if (severity > g->severity)
		g->severity = severity;
	/* names arrive in sorted node order, one per node: skip repeats of the last */
	if (g->n && strcmp(g->names[g->n - 1], name) == 0)
		return 0;
	const char **grown = realloc(g->names, (g->n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	g->names = grown;
	g->names[g->n++] = name;
	return 0;
}

enum consistency_key { CONS_GID, CONS_MTU, CONS_PFC, CONS_N };
static const char *const cons_name[CONS_N] = { "gid_index", "active_mtu", "pfc_priorities" };
static const char *const cons_title[CONS_N] = { "RoCE v2 GID index", "RDMA MTU", "PFC priorities" };

/* The node's value for a consistency key, as text. */
static void cons_value(const struct roce_report_node *n, enum consistency_key k, char *buf, size_t len)
{
	buf[0] = '\0';
	if (k == CONS_GID) {
		if (n->gid_index >= 0)
			snprintf(buf, len, "%d", n->gid_index);
		else
			snprintf(buf, len, "unknown");
		return;
	}
	/* Per port values, distinct, in port order. */
	for (size_t i = 0; i < n->n_ports; i++) {
		const struct roce_report_port *p = &n->ports[i];
		char v[40] = "";
		if (p->presence == ROCE_PORT_VANISHED)
			continue;
		if (k == CONS_MTU) {
			snprintf(v, sizeof(v), p->active_mtu > 0 ? "%d" : "unknown", p->active_mtu);
		} else if (p->pfc_status == ROCE_DELTA_UNREAD) {
			snprintf(v, sizeof(v), "unknown");
		} else {
			for (int q = 0; q < ROCE_PRIOS; q++)
				if (p->pfc_enabled & (1u << q))
					snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%d", v[0] ? "+" : "", q);
			if (!v[0])
				snprintf(v, sizeof(v), "none");
		}
		/* skip values already listed */
		char probe[48];
		snprintf(probe, sizeof(probe), ",%s,", v);
		char have[300];
		snprintf(have, sizeof(have), ",%s,", buf);
		if (strstr(have, probe))
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", v);
	}
	if (!buf[0])
		snprintf(buf, len, "no ports");
}

static int consistency_groups(const struct roce_job_report *r, enum consistency_key k, struct groups *gs)
{
	for (size_t i = 0; i < r->n_nodes; i++) {
		char v[256];
		cons_value(&r->nodes[i], k, v, sizeof(v));
		if (group_add(gs, v, 0, r->nodes[i].name) < 0)
			return -1;
	}
	return 0;
}

/* Job verdicts: code -> the nodes that have it, with the worst severity. */
static int verdict_groups(const struct roce_job_report *r, struct groups *gs)
{
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts; j++) {
			const struct roce_report_verdict *v = &r->nodes[i].verdicts[j];
			if (group_add(gs, v->code, v->severity, r->nodes[i].name) < 0)
				return -1;
		}
	return 0;
}

static const char *verdict_fix_for(const struct roce_job_report *r, const char *code)
{
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts; j++)
			if (strcmp(r->nodes[i].verdicts[j].code, code) == 0)
				return r->nodes[i].verdicts[j].fix;
	return "";
}

static int cmp_group_sev(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->severity != y->severity)
		return y->severity - x->severity;
	return strcmp(x->key, y->key);
}

static double job_seconds(const struct roce_job_report *r)
{
	double s = -1;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].seconds > s)
			s = r->nodes[i].seconds;
	return s;
}

static const char **all_names(const struct roce_job_report *r)
{
	const char **names = malloc((r->n_nodes ? r->n_nodes : 1) * sizeof(*names));
	for (size_t i = 0; names && i < r->n_nodes; i++)
		names[i] = r->nodes[i].name;
	return names;
}

/* ---------------------------------------------------------------- JSON report */

/* Everything but nodes[]: small, whatever the job's size. */
static json_object *summary_json(const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *o = json_object_new_object(),
	            *verdicts = json_object_new_array(), *cons = json_object_new_object(),
	            *errors = json_object_new_array();
	const char **names = all_names(r);
	char *list = names ? nodelist_of(nodelist, names, r->n_nodes) : NULL;
	struct groups gs = { 0 };

	json_object_object_add(o, "job_id", json_object_new_string(r->job_id));
	json_object_object_add(o, "nodelist", json_object_new_string(list ? list : ""));
	json_object_object_add(o, "node_count", json_object_new_int64((int64_t)r->n_nodes));
	json_object_object_add(o, "seconds", json_object_new_double(job_seconds(r)));
	if (verdict_groups(r, &gs) == 0) {
		if (gs.n > 1)
			qsort(gs.g, gs.n, sizeof(*gs.g), cmp_group_sev);
		for (size_t i = 0; i < gs.n; i++) {
			json_object *v = json_object_new_object();
			char *nl = nodelist_of(nodelist, gs.g[i].names, gs.g[i].n);
			json_object_object_add(v, "code", json_object_new_string(gs.g[i].key));
			json_object_object_add(v, "severity", json_object_new_string(roce_severity_name(gs.g[i].severity)));
			json_object_object_add(v, "nodes", json_object_new_string(nl ? nl : ""));
			json_object_object_add(v, "node_count", json_object_new_int64((int64_t)gs.g[i].n));
			json_object_object_add(v, "fix", json_object_new_string(verdict_fix_for(r, gs.g[i].key)));
			json_object_array_add(verdicts, v);
			free(nl);
		}
	}
	groups_free(&gs);
	json_object_object_add(o, "verdicts", verdicts);
	for (int k = 0; k < CONS_N; k++) {
		json_object *c = json_object_new_object(), *vals = json_object_new_object();
		if (consistency_groups(r, (enum consistency_key)k, &gs) == 0)
			for (size_t i = 0; i < gs.n; i++) {
				char *nl = nodelist_of(nodelist, gs.g[i].names, gs.g[i].n);
				json_object_object_add(vals, gs.g[i].key, json_object_new_string(nl ? nl : ""));
				free(nl);
			}
		json_object_object_add(c, "consistent", json_object_new_boolean(gs.n <= 1));
		json_object_object_add(c, "values", vals);
		json_object_object_add(cons, cons_name[k], c);
		groups_free(&gs);
	}
	json_object_object_add(o, "consistency", cons);
	for (size_t i = 0; i < r->n_errors; i++)
		json_object_array_add(errors, json_object_new_string(r->errors[i]));
	json_object_object_add(o, "errors", errors);
	free(list);
	free(names);
	return o;
}

json_object *roce_report_json(const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *o = summary_json(r, nodelist), *nodes = json_object_new_array();
	for (size_t i = 0; i < r->n_nodes; i++)
		json_object_array_add(nodes, node_json(&r->nodes[i], false, r->job_id));
	json_object_object_add(o, "nodes", nodes);
	return o;
}

int roce_report_print_json(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	json_object *head = summary_json(r, nodelist);
	if (!head)
		return -1;
	fputc('{', out);
	json_object_object_foreach(head, key, val) {
		/* keys are ours: plain identifiers, no escaping needed */
		fprintf(out, "\"%s\":%s,", key, json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(head);
	fputs("\"nodes\":[", out);
	for (size_t i = 0; i < r->n_nodes; i++) {
		json_object *n = node_json(&r->nodes[i], false, r->job_id);
		const char *text = n ? json_object_to_json_string_ext(n, JSON_C_TO_STRING_PLAIN) : NULL;
		if (!text) {
			json_object_put(n);
			return -1;
		}
		fprintf(out, "%s%s", i ? "," : "", text);
		json_object_put(n);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}

/* ---------------------------------------------------------------- text report */

static const char *human_bytes(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

/* A counter cell: exact number, ">=N" lower bound, or "-" unknown. */
static const char *cell(const struct roce_report_port *p, enum roce_counter_id id, char *buf, size_t len)
{
	if (p->cs[id] == ROCE_DELTA_UNREAD)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%" PRIu64,
		         p->cs[id] == ROCE_DELTA_RESET || p->cs[id] == ROCE_DELTA_SATURATED ? ">=" : "", p->c[id]);
	return buf;
}

static const char *sum_cell(const struct roce_report_port *p, const enum roce_counter_id *ids, size_t n,
                            char *buf, size_t len)
{
	uint64_t sum = 0;
	bool any = false, bound = false;
	for (size_t i = 0; i < n; i++) {
		if (p->cs[ids[i]] == ROCE_DELTA_UNREAD)
			continue;
		any = true;
		sum += p->c[ids[i]];
		bound |= p->cs[ids[i]] == ROCE_DELTA_RESET || p->cs[ids[i]] == ROCE_DELTA_SATURATED;
	}
	if (!any)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%" PRIu64, bound ? ">=" : "", sum);
	return buf;
}

static const char *pfc_cell(const struct roce_report_port *p, bool rx, char *buf, size_t len)
{
	if (p->pfc_status == ROCE_DELTA_UNREAD) {
		snprintf(buf, len, "-");
		return buf;
	}
	uint64_t sum = 0;
	for (int q = 0; q < ROCE_PRIOS; q++)
		sum += rx ? p->pfc_ind[q] : p->pfc_req[q];
	snprintf(buf, len, "%s%" PRIu64, p->pfc_status == ROCE_DELTA_RESET ? ">=" : "", sum);
	return buf;
}

static void print_port_row(FILE *out, const struct roce_report_node *n, const struct roce_report_port *p)
{
	static const enum roce_counter_id loss[] = { ROCE_C_OUT_OF_SEQUENCE, ROCE_C_PACKET_SEQ_ERR,
	                                             ROCE_C_IMPLIED_NAK_SEQ_ERR };
	char port[80], tx[24], rx[24], txr[24], rxr[24], l[24], to[24], ecn[24], cnps[24], cnph[24], cnpi[24],
	    prx[24], ptx[24];
	snprintf(port, sizeof(port), "%s:%u", p->device, p->port);
	const char *state = p->presence != ROCE_PORT_BOTH ? roce_delta_presence_name(p->presence) : p->reset ? "reset" : "";
	if (p->cs[ROCE_C_PORT_XMIT_DATA] == ROCE_DELTA_UNREAD)
		snprintf(tx, sizeof(tx), "-"), snprintf(txr, sizeof(txr), "-");
	else {
		human_bytes((double)p->c[ROCE_C_PORT_XMIT_DATA], tx, sizeof(tx));
		if (n->seconds > 0)
			human_bytes((double)p->c[ROCE_C_PORT_XMIT_DATA] / n->seconds, txr, sizeof(txr));
		else
			snprintf(txr, sizeof(txr), "-");
	}
	if (p->cs[ROCE_C_PORT_RCV_DATA] == ROCE_DELTA_UNREAD)
		snprintf(rx, sizeof(rx), "-"), snprintf(rxr, sizeof(rxr), "-");
	else {
		human_bytes((double)p->c[ROCE_C_PORT_RCV_DATA], rx, sizeof(rx));
		if (n->seconds > 0)
			human_bytes((double)p->c[ROCE_C_PORT_RCV_DATA] / n->seconds, rxr, sizeof(rxr));
		else
			snprintf(rxr, sizeof(rxr), "-");
	}
	fprintf(out, "%-16s %-12s %-8s %10s %10s %10s %10s %7s %7s %8s %8s %8s %7s %8s %8s %s\n", n->name, port,
	        p->netdev[0] ? p->netdev : "-", tx, rx, txr, rxr, sum_cell(p, loss, 3, l, sizeof(l)),
	        cell(p, ROCE_C_LOCAL_ACK_TIMEOUT_ERR, to, sizeof(to)),
	        cell(p, ROCE_C_NP_ECN_MARKED_ROCE_PACKETS, ecn, sizeof(ecn)),
	        cell(p, ROCE_C_NP_CNP_SENT, cnps, sizeof(cnps)), cell(p, ROCE_C_RP_CNP_HANDLED, cnph, sizeof(cnph)),
	        cell(p, ROCE_C_RP_CNP_IGNORED, cnpi, sizeof(cnpi)), pfc_cell(p, true, prx, sizeof(prx)),
	        pfc_cell(p, false, ptx, sizeof(ptx)), state);
}

static void print_node_verdicts(FILE *out, const struct roce_report_node *n)
{
	for (size_t j = 0; j < n->n_verdicts; j++) {
		const struct roce_report_verdict *v = &n->verdicts[j];
		fprintf(out, "  %-4s %s %s %s: %s\n       fix: %s\n", roce_severity_name(v->severity), n->name,
		        v->subject, v->code, v->message, v->fix);
	}
}

int roce_report_print_text(FILE *out, const struct roce_job_report *r, roce_nodelist_fn nodelist)
{
	const char **names = all_names(r);
	char *list = names ? nodelist_of(nodelist, names, r->n_nodes) : NULL;
	struct groups gs = { 0 };
	int rc = 0;
	char dur[32] = "unknown duration";
	double secs = job_seconds(r);
	if (secs >= 0)
		snprintf(dur, sizeof(dur), "%.1f s", secs);

	fprintf(out, "RoCE fabric report for job %s: %zu node(s) %s, %s\n\n", r->job_id, r->n_nodes,
	        list ? list : "", dur);
	fprintf(out, "%-16s %-12s %-8s %10s %10s %10s %10s %7s %7s %8s %8s %8s %7s %8s %8s %s\n", "NODE", "PORT",
	        "NETDEV", "TX", "RX", "TX/s", "RX/s", "LOSS", "TIMEOUT", "ECN_MARK", "CNP_SENT", "CNP_HNDL", "CNP_IGN",
	        "PAUSE_RX", "PAUSE_TX", "STATE");
	for (size_t i = 0; i < r->n_nodes; i++) {
		for (size_t j = 0; j < r->nodes[i].n_ports; j++)
			print_port_row(out, &r->nodes[i], &r->nodes[i].ports[j]);
		if (!r->nodes[i].n_ports)
			fprintf(out, "%-16s (no RoCE ports)\n", r->nodes[i].name);
	}
	fprintf(out, "LOSS = out_of_sequence + packet_seq_err + implied_nak_seq_err; \">=\" = lower bound "
	             "(counter reset or saturated); \"-\" = not read\n");

	fprintf(out, "\nJob verdicts:\n");
	if (verdict_groups(r, &gs) < 0)
		rc = -1;
	if (gs.n > 1)
		qsort(gs.g, gs.n, sizeof(*gs.g), cmp_group_sev);
	size_t shown = 0;
	for (size_t i = 0; i < gs.n; i++) {
		char *nl = nodelist_of(nodelist, gs.g[i].names, gs.g[i].n);
		fprintf(out, "  %-4s %s on %zu node(s): %s\n", roce_severity_name(gs.g[i].severity), gs.g[i].key,
		        gs.g[i].n, nl ? nl : "");
		free(nl);
		shown++;
	}
	if (!shown)
		fprintf(out, "  none: no loss, congestion or link problems seen\n");
	groups_free(&gs);

	fprintf(out, "\nConsistency across nodes:\n");
	for (int k = 0; k < CONS_N; k++) {
		if (consistency_groups(r, (enum consistency_key)k, &gs) < 0)
			rc = -1;
		if (gs.n == 1) {
			fprintf(out, "  %-18s %s on every node\n", cons_title[k], gs.g[0].key);
		} else if (gs.n > 1) {
			fprintf(out, "  %-18s DIFFERS:", cons_title[k]);
			for (size_t i = 0; i < gs.n; i++) {
				char *nl = nodelist_of(nodelist, gs.g[i].names, gs.g[i].n);
				fprintf(out, "%s %s on %s", i ? ";" : "", gs.g[i].key, nl ? nl : "");
				free(nl);
			}
			fprintf(out, "\n");
		}
		groups_free(&gs);
	}

	fprintf(out, "\nNode verdicts:\n");
	for (size_t i = 0; i < r->n_nodes; i++)
		print_node_verdicts(out, &r->nodes[i]);
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].note)
			fprintf(out, "note: %s: %s\n", r->nodes[i].name, r->nodes[i].note);
	for (size_t i = 0; i < r->n_errors; i++)
		fprintf(out, "error: fragment %s\n", r->errors[i]);
	free(list);
	free(names);
	return rc;
}

/* ---------------------------------------------------------------- Prometheus */

/* name="value" with backslash, double quote and newline escaped
 * (exposition format), appended to buf; a leading comma unless first. */
static void label(char *buf, size_t len, const char *name, const char *value, bool first)
{
	size_t n = strlen(buf);
	n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = value; *p && n + 3 < len; p++) {
		if (*p == '\\' || *p == '"')
			buf[n++] = '\\', buf[n++] = *p;
		else if (*p == '\n')
			buf[n++] = '\\', buf[n++] = 'n';
		else
			buf[n++] = *p;
	}
	if (n + 2 <= len) {
		buf[n++] = '"';
		buf[n] = '\0';
	}
}

/* Labels are built once per node or port and reused for every sample. */
static void node_labels(char *buf, size_t len, const char *job, const struct roce_report_node *n)
{
	buf[0] = '\0';
	label(buf, len, "job", job, true);
	label(buf, len, "node", n->name, false);
}

static void port_labels(char *buf, size_t len, const char *job, const struct roce_report_node *n,
                        const struct roce_report_port *p)
{
	char num[16];
	snprintf(num, sizeof(num), "%u", p->port);
	node_labels(buf, len, job, n);
	label(buf, len, "device", p->device, false);
	label(buf, len, "port", num, false);
}

static void family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

int roce_report_print_prometheus(FILE *out, const struct roce_job_report *r)
{
	char lb[1024];
	family(out, "roce_job_seconds", "Time between the job's prolog and epilog snapshots on the node.");
	for (size_t i = 0; i < r->n_nodes; i++) {
		node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
		fprintf(out, "roce_job_seconds{%s} %.3f\n", lb, r->nodes[i].seconds);
	}
	family(out, "roce_job_shared_node", "1 when other jobs ran on the node during the job (counters are per port).");
	for (size_t i = 0; i < r->n_nodes; i++) {
		node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
		fprintf(out, "roce_job_shared_node{%s} %d\n", lb, r->nodes[i].n_shared ? 1 : 0);
	}
	family(out, "roce_job_port_counter_delta",
	       "Change of a RoCE port counter during the job; counter is the sysfs name, data counters in bytes.");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_report_port *p = &r->nodes[i].ports[j];
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				if (p->cs[c] != ROCE_DELTA_UNREAD)
					fprintf(out, "roce_job_port_counter_delta{%s,counter=\"%s\"} %" PRIu64 "\n", lb,
					        roce_counter_defs[c].report_name, p->c[c]);
		}
	family(out, "roce_job_port_counter_lower_bound",
	       "1 when the counter's delta is only a lower bound (counter reset or saturated during the job).");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_report_port *p = &r->nodes[i].ports[j];
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int c = 0; c < ROCE_N_COUNTERS; c++)
				if (p->cs[c] == ROCE_DELTA_RESET || p->cs[c] == ROCE_DELTA_SATURATED)
					fprintf(out, "roce_job_port_counter_lower_bound{%s,counter=\"%s\"} 1\n", lb,
					        roce_counter_defs[c].report_name);
		}
	family(out, "roce_job_port_pfc_pause_frames", "PFC pause frames during the job per priority; direction rx = received.");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_ports; j++) {
			const struct roce_report_port *p = &r->nodes[i].ports[j];
			if (p->pfc_status == ROCE_DELTA_UNREAD)
				continue;
			port_labels(lb, sizeof(lb), r->job_id, &r->nodes[i], p);
			for (int q = 0; q < ROCE_PRIOS; q++)
				fprintf(out, "roce_job_port_pfc_pause_frames{%s,priority=\"%d\",direction=\"rx\"} %" PRIu64 "\n"
				             "roce_job_port_pfc_pause_frames{%s,priority=\"%d\",direction=\"tx\"} %" PRIu64 "\n",
				        lb, q, p->pfc_ind[q], lb, q, p->pfc_req[q]);
		}
	family(out, "roce_job_verdict", "A verdict on the node's fabric during the job (severity info, warn or fail).");
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t j = 0; j < r->nodes[i].n_verdicts; j++) {
			const struct roce_report_verdict *v = &r->nodes[i].verdicts[j];
			node_labels(lb, sizeof(lb), r->job_id, &r->nodes[i]);
			label(lb, sizeof(lb), "subject", v->subject, false);
			label(lb, sizeof(lb), "code", v->code, false);
			label(lb, sizeof(lb), "severity", roce_severity_name(v->severity), false);
			fprintf(out, "roce_job_verdict{%s} 1\n", lb);
		}
	return ferror(out) ? -1 : 0;
}
