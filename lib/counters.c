/* counters.c - per-port RoCE counter snapshots, deltas and their JSON form. */
#include "config.h"
#include "counters.h"
#include "json.h"
#include "jsonin.h"
#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SNAPSHOT_SCHEMA "slurm-roce/snapshot/1"

/*
 * Widths.  How we decide, counter by counter:
 *  - counters/ is the IB PMA view (drivers/infiniband/core/sysfs.c).  The
 *    data and packet counters come from PortCountersExtended when the device
 *    advertises IB_PMA_CLASS_CAP_EXT_WIDTH, which mlx5 does: 64-bit.  The
 *    error counters only exist in PortCounters, with the PMA field widths
 *    (symbol_error 16, link_error_recovery 8, link_downed 8, port_rcv_errors
 *    16, port_xmit_discards 16), and PMA counters saturate at their maximum
 *    instead of wrapping (IBA 16.1.3.5).
 *  - hw_counters/ Q counters (mlx5 QUERY_Q_COUNTER: out_of_sequence, the
 *    *_err retransmission counters, out_of_buffer, roce_adp_*, roce_slow_*)
 *    are 32-bit big-endian fields that the driver widens to u64: they wrap.
 *  - Congestion counters (QUERY_CONG_STATISTICS) and the PPCNT counter
 *    rx_icrc_encapsulated are 64-bit fields.
 */
#define C(n, hw, w, sat, kind) { #n, #n, hw, w, sat, 1, kind }
const struct roce_counter_def roce_counter_defs[ROCE_N_COUNTERS] = {
	[ROCE_C_PORT_XMIT_DATA] = { "port_xmit_data", "port_xmit_bytes", false, 64, false, 4, ROCE_KIND_TRAFFIC },
	[ROCE_C_PORT_RCV_DATA] = { "port_rcv_data", "port_rcv_bytes", false, 64, false, 4, ROCE_KIND_TRAFFIC },
	[ROCE_C_PORT_XMIT_PACKETS] = C(port_xmit_packets, false, 64, false, ROCE_KIND_TRAFFIC),
	[ROCE_C_PORT_RCV_PACKETS] = C(port_rcv_packets, false, 64, false, ROCE_KIND_TRAFFIC),
	[ROCE_C_PORT_RCV_ERRORS] = C(port_rcv_errors, false, 16, true, ROCE_KIND_LINK),
	[ROCE_C_PORT_XMIT_DISCARDS] = C(port_xmit_discards, false, 16, true, ROCE_KIND_LOSS),
	[ROCE_C_SYMBOL_ERROR] = C(symbol_error, false, 16, true, ROCE_KIND_LINK),
	[ROCE_C_LINK_DOWNED] = C(link_downed, false, 8, true, ROCE_KIND_LINK),
	[ROCE_C_LINK_ERROR_RECOVERY] = C(link_error_recovery, false, 8, true, ROCE_KIND_LINK),
	[ROCE_C_OUT_OF_SEQUENCE] = C(out_of_sequence, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_PACKET_SEQ_ERR] = C(packet_seq_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_IMPLIED_NAK_SEQ_ERR] = C(implied_nak_seq_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_LOCAL_ACK_TIMEOUT_ERR] = C(local_ack_timeout_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_DUPLICATE_REQUEST] = C(duplicate_request, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_RNR_NAK_RETRY_ERR] = C(rnr_nak_retry_err, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_OUT_OF_BUFFER] = C(out_of_buffer, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_REQ_TRANSPORT_RETRIES_EXCEEDED] = C(req_transport_retries_exceeded, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_ROCE_ADP_RETRANS] = C(roce_adp_retrans, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_ROCE_ADP_RETRANS_TO] = C(roce_adp_retrans_to, true, 32, false, ROCE_KIND_LOSS),
	[ROCE_C_ROCE_SLOW_RESTART] = C(roce_slow_restart, true, 32, false, ROCE_KIND_CONGESTION),
	[ROCE_C_ROCE_SLOW_RESTART_CNPS] = C(roce_slow_restart_cnps, true, 32, false, ROCE_KIND_CONGESTION),
	[ROCE_C_NP_ECN_MARKED_ROCE_PACKETS] = C(np_ecn_marked_roce_packets, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_NP_CNP_SENT] = C(np_cnp_sent, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_RP_CNP_HANDLED] = C(rp_cnp_handled, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_RP_CNP_IGNORED] = C(rp_cnp_ignored, true, 64, false, ROCE_KIND_CONGESTION),
	[ROCE_C_RX_ICRC_ENCAPSULATED] = C(rx_icrc_encapsulated, true, 64, false, ROCE_KIND_LINK),
};
#undef C

int roce_counter_lookup(const char *name)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (strcmp(roce_counter_defs[i].name, name) == 0 ||
		    strcmp(roce_counter_defs[i].report_name, name) == 0)
			return i;
	return -1;
}

const char *roce_delta_status_name(enum roce_delta_status s)
{
	switch (s) {
	case ROCE_DELTA_OK: return "ok";
	case ROCE_DELTA_WRAPPED: return "wrapped";
	case ROCE_DELTA_SATURATED: return "saturated";
	case ROCE_DELTA_RESET: return "reset";
	case ROCE_DELTA_UNREAD: return "unread";
	}
	return "?";
}

const char *roce_port_presence_name(enum roce_port_presence p)
{
	switch (p) {
	case ROCE_PORT_BOTH: return "present";
	case ROCE_PORT_VANISHED: return "vanished";
	case ROCE_PORT_APPEARED: return "appeared";
	}
	return "?";
}

void roce_snapshot_init(struct roce_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->gid_index = -1;
	s->traffic_class = -1;
}

void roce_snapshot_free(struct roce_snapshot *s)
{
	free(s->ports);
	s->ports = NULL;
	s->n_ports = 0;
}

/* ---------------------------------------------------------------- taking */

static struct roce_port_sample *add_port(struct roce_snapshot *s)
{
	struct roce_port_sample *grown = realloc(s->ports, (s->n_ports + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	s->ports = grown;
	struct roce_port_sample *ps = &s->ports[s->n_ports++];
	memset(ps, 0, sizeof(*ps));
	ps->gid_index = -1;
	return ps;
}

/* Fill netdev, PFC and the summary from the model and the check result. */
static void sample_from_model(struct roce_port_sample *ps, const struct roce_node *node,
                              const struct roce_check_result *check)
{
	const struct roce_port *mp = NULL;
	const struct roce_device *dev = node ? roce_node_find_device(node, ps->device) : NULL;
	for (size_t i = 0; dev && i < dev->n_ports; i++)
		if (dev->ports[i].num == ps->port)
			mp = &dev->ports[i];
	if (mp && roce_reading_ok(&mp->netdev_read))
		snprintf(ps->netdev, sizeof(ps->netdev), "%s", mp->netdev);

	const struct roce_netdev *nd = ps->netdev[0] ? roce_node_find_netdev(node, ps->netdev) : NULL;
	if (!node)
		roce_reading_set(&ps->pfc.read, ROCE_NOT_READ, 0, "no node model collected");
	else if (!nd)
		roce_reading_set(&ps->pfc.read, ROCE_MISSING, 0, "%s:%u: netdev unknown, no PFC counters",
		                 ps->device, ps->port);
	else {
		ps->pfc.read = nd->pfc.read;
		if (roce_reading_ok(&nd->pfc.read)) {
			ps->pfc.enabled = nd->pfc.enabled;
			memcpy(ps->pfc.requests, nd->pfc.requests, sizeof(ps->pfc.requests));
			memcpy(ps->pfc.indications, nd->pfc.indications, sizeof(ps->pfc.indications));
		}
		if (roce_reading_ok(&nd->link_read))
			ps->netdev_mtu = nd->mtu;
	}

	const struct roce_port_result *pr = check ? roce_check_port(check, ps->device, ps->port) : NULL;
	if (pr) {
		ps->gid_index = pr->gid_index;
		ps->active_mtu = pr->active_mtu;
	} else if (mp && mp->verbs_active_mtu > 0) {
		ps->active_mtu = mp->verbs_active_mtu;
	} else if (ps->netdev_mtu) {
		ps->active_mtu = roce_ib_mtu_for_netdev_mtu(ps->netdev_mtu);
	}
}

/* One counter file under an open directory, through the sysfs reader (no
 * path walk per counter).  Counters are read at every job start and end on
 * every port, and on mlx5 each read is a firmware command (one: the reader's
 * second read() at EOF does not call the driver again). */
static void read_counter(int dfd, const char *dir, const char *name, struct roce_counter_sample *cs)
{
	if (dfd < 0) {
		roce_reading_set(&cs->read, ROCE_MISSING, ENOENT, "cannot open %s/%s: %s", dir, name, strerror(ENOENT));
		return;
	}
	roce_sysfs_read_u64_at(dfd, dir, name, &cs->value, &cs->read);
}

static bool expired(const struct timespec *deadline)
{
	struct timespec now;
	if (!deadline)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* A wedged firmware makes every counter read block for the driver's command
 * timeout: past the deadline the remaining counters are not read at all. */
static void sample_counters(struct roce_port_sample *ps, const char *root, const struct timespec *deadline)
{
	if (expired(deadline)) {
		for (int i = 0; i < ROCE_N_COUNTERS; i++)
			roce_reading_set(&ps->c[i].read, ROCE_TIMEOUT, 0, "%s:%u: deadline passed before %s was read",
			                 ps->device, ps->port, roce_counter_defs[i].name);
		return;
	}

	char dir[2][PATH_MAX];
	int dfd[2] = { -1, -1 };
	for (int hw = 0; hw < 2; hw++) {
		if (roce_path(dir[hw], sizeof(dir[hw]), "%s/class/infiniband/%s/ports/%u/%s", root, ps->device, ps->port,
		              hw ? "hw_counters" : "counters") == 0)
			dfd[hw] = open(dir[hw], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		else
			snprintf(dir[hw], sizeof(dir[hw]), "(path too long)");
	}
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const struct roce_counter_def *def = &roce_counter_defs[i];
		if (i && expired(deadline))
			roce_reading_set(&ps->c[i].read, ROCE_TIMEOUT, 0, "%s/%s: deadline passed before it was read",
			                 dir[def->hw], def->name);
		else
			read_counter(dfd[def->hw], dir[def->hw], def->name, &ps->c[i]);
	}
	for (int hw = 0; hw < 2; hw++)
		if (dfd[hw] >= 0)
			close(dfd[hw]);
}

/* One device: every port whose link_layer reads "Ethernet". */
static int snapshot_device(struct roce_snapshot *s, const char *root, const char *dev,
                           const struct roce_node *node, const struct roce_check_result *check,
                           const struct timespec *deadline)
{
	char rel[PATH_MAX], **ports = NULL, ll[32];
	size_t n_ports = 0;
	struct roce_reading r;

	if (roce_path(rel, sizeof(rel), "class/infiniband/%s/ports", dev) < 0 ||
	    roce_sysfs_list(root, rel, &ports, &n_ports, &r) < 0)
		return 0;   /* a device without ports has nothing to count */
	for (size_t i = 0; i < n_ports; i++) {
		/* What rdma.c refuses, refused here too; the fragment keeps ports 1..255. */
		unsigned long num = roce_port_name_ok(ports[i]) ? strtoul(ports[i], NULL, 10) : 0;
		if (num == 0 || num > 255)
			continue;
		if (roce_path(rel, sizeof(rel), "class/infiniband/%s/ports/%lu/link_layer", dev, num) < 0 ||
		    roce_sysfs_read(root, rel, ll, sizeof(ll), &r) < 0 || strcmp(ll, "Ethernet") != 0)
			continue;
		struct roce_port_sample *ps = add_port(s);
		if (!ps)
			goto nomem;
		snprintf(ps->device, sizeof(ps->device), "%s", dev);
		ps->port = (unsigned)num;
		sample_counters(ps, root, deadline);
		sample_from_model(ps, node, check);
	}
	roce_sysfs_names_free(ports, n_ports);
	return 0;
nomem:
	roce_sysfs_names_free(ports, n_ports);
	return -1;
}

/* The collector already listed devices and ports and read their link
 * layers: take the Ethernet ports from the model instead of listing again. */
static int snapshot_from_model(struct roce_snapshot *s, const char *root, const struct roce_node *node,
                               const struct roce_check_result *check, const struct timespec *deadline)
{
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		for (size_t p = 0; p < dev->n_ports; p++) {
			if (dev->ports[p].link_layer != ROCE_LL_ETHERNET)
				continue;
			struct roce_port_sample *ps = add_port(s);
			if (!ps)
				return -1;
			snprintf(ps->device, sizeof(ps->device), "%s", dev->name);
			ps->port = dev->ports[p].num;
			sample_counters(ps, root, deadline);
			sample_from_model(ps, node, check);
		}
	}
	return 0;
}

int roce_snapshot_take(struct roce_snapshot *s, const char *sysfs_root,
                       const struct roce_node *node, const struct roce_check_result *check)
{
	return roce_snapshot_take_until(s, sysfs_root, node, check, NULL);
}

int roce_snapshot_take_until(struct roce_snapshot *s, const char *sysfs_root, const struct roce_node *node,
                             const struct roce_check_result *check, const struct timespec *deadline)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	char **devs = NULL;
	size_t n_devs = 0;
	struct timespec ts;

	roce_snapshot_free(s);
	roce_snapshot_init(s);
	clock_gettime(CLOCK_REALTIME, &ts);
	s->time_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (check) {
		s->gid_index = check->gid_index;
		s->traffic_class = check->traffic_class;
	}
	/* A listing with refused names (MALFORMED) was still read: use the model,
	 * never list the directory again and pick the refused names up. */
	if (node && roce_devices_listed(node)) {
		s->devices_read = node->devices_read;
		return snapshot_from_model(s, root, node, check, deadline);
	}
	if (roce_sysfs_list(root, "class/infiniband", &devs, &n_devs, &s->devices_read) < 0)
		return s->devices_read.err == ENOMEM ? -1 : 0;
	for (size_t i = 0; i < n_devs; i++) {
		if (!roce_device_name_ok(devs[i]))   /* what rdma.c refuses, refused here too */
			continue;
		if (snapshot_device(s, root, devs[i], node, check, deadline) < 0) {
			roce_sysfs_names_free(devs, n_devs);
			return -1;
		}
	}
	roce_sysfs_names_free(devs, n_devs);
	return 0;
}

/* ---------------------------------------------------------------- delta */

void roce_counter_delta_one(const struct roce_counter_def *def, uint64_t start, uint64_t end,
                            bool port_reset, struct roce_counter_delta *out)
{
	uint64_t max = def->width >= 64 ? UINT64_MAX : ((uint64_t)1 << def->width) - 1;
	memset(out, 0, sizeof(*out));
	out->status = ROCE_DELTA_OK;
	if (start > max || end > max) {
		/* Wider than we believed: trust nothing but monotony. */
		max = UINT64_MAX;
	}
	if (end >= start) {
		out->value = (end - start) * def->scale;
		if (def->saturates && end == max)
			out->status = ROCE_DELTA_SATURATED;
		return;
	}
	/* end < start: a 32-bit counter wraps, unless the port itself was reset
	 * (its 64-bit counters went back too); saturating and 64-bit counters
	 * never wrap within a job. */
	if (max == UINT32_MAX && !def->saturates && !port_reset) {
		out->status = ROCE_DELTA_WRAPPED;
		out->value = (max - start + 1 + end) * def->scale;
		return;
	}
	out->status = ROCE_DELTA_RESET;
	out->value = end * def->scale;
}

static const struct roce_port_sample *find_sample(const struct roce_snapshot *s, const char *dev, unsigned port)
{
	for (size_t i = 0; i < s->n_ports; i++)
		if (s->ports[i].port == port && strcmp(s->ports[i].device, dev) == 0)
			return &s->ports[i];
	return NULL;
}

/* A reading that failed, at start or end, as text. */
static void unread_why(char *why, const char *when, const struct roce_reading *r)
{
	snprintf(why, ROCE_WHY_MAX, "%s: %s%s%.160s", when, roce_status_name(r->status),
	         r->why[0] ? ": " : "", r->why);
}

/* Did a counter that cannot wrap (64-bit or saturating) go backwards?  Then
 * the port was reset, and a smaller 32-bit value is a reset too. */
static bool port_was_reset(const struct roce_port_sample *a, const struct roce_port_sample *b)
{
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const struct roce_counter_def *def = &roce_counter_defs[i];
		if ((def->width == 64 || def->saturates) && roce_reading_ok(&a->c[i].read) && roce_reading_ok(&b->c[i].read) &&
		    b->c[i].value < a->c[i].value)
			return true;
	}
	return false;
}

static void pfc_delta(struct roce_port_delta *pd, const struct roce_pfc_sample *a, const struct roce_pfc_sample *b)
{
	pd->pfc_enabled = b->enabled;
	if (!roce_reading_ok(&a->read) || !roce_reading_ok(&b->read)) {
		pd->pfc_status = ROCE_DELTA_UNREAD;
		unread_why(pd->pfc_why, !roce_reading_ok(&a->read) ? "start" : "end",
		           !roce_reading_ok(&a->read) ? &a->read : &b->read);
		return;
	}
	pd->pfc_status = ROCE_DELTA_OK;
	for (int p = 0; p < ROCE_PRIOS; p++) {
		/* ieee_pfc counters are u64: going back means the driver restarted. */
		if (b->requests[p] < a->requests[p] || b->indications[p] < a->indications[p])
			pd->pfc_status = ROCE_DELTA_RESET;
	}
	for (int p = 0; p < ROCE_PRIOS; p++) {
		pd->pfc_requests[p] = pd->pfc_status == ROCE_DELTA_RESET ? b->requests[p] : b->requests[p] - a->requests[p];
		pd->pfc_indications[p] = pd->pfc_status == ROCE_DELTA_RESET ? b->indications[p]
		                                                           : b->indications[p] - a->indications[p];
	}
}

static void port_delta(struct roce_port_delta *pd, const struct roce_port_sample *a, const struct roce_port_sample *b)
{
	const struct roce_port_sample *any = b ? b : a;
	memset(pd, 0, sizeof(*pd));
	snprintf(pd->device, sizeof(pd->device), "%s", any->device);
	pd->port = any->port;
	snprintf(pd->netdev, sizeof(pd->netdev), "%s", any->netdev);
	pd->gid_index = any->gid_index;
	pd->active_mtu = any->active_mtu;
	pd->netdev_mtu = any->netdev_mtu;
	pd->presence = !a ? ROCE_PORT_APPEARED : !b ? ROCE_PORT_VANISHED : ROCE_PORT_BOTH;
	if (pd->presence != ROCE_PORT_BOTH) {
		const char *why = a ? "port vanished during the job" : "port appeared during the job";
		for (int i = 0; i < ROCE_N_COUNTERS; i++) {
			pd->c[i].status = ROCE_DELTA_UNREAD;
			snprintf(pd->c[i].why, sizeof(pd->c[i].why), "%s", why);
		}
		pd->pfc_status = ROCE_DELTA_UNREAD;
		snprintf(pd->pfc_why, sizeof(pd->pfc_why), "%s", why);
		return;
	}
	pd->reset = port_was_reset(a, b);
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		struct roce_counter_delta *cd = &pd->c[i];
		if (!roce_reading_ok(&a->c[i].read)) {
			cd->status = ROCE_DELTA_UNREAD;
			unread_why(cd->why, "start", &a->c[i].read);
		} else if (!roce_reading_ok(&b->c[i].read)) {
			cd->status = ROCE_DELTA_UNREAD;
			unread_why(cd->why, "end", &b->c[i].read);
		} else {
			roce_counter_delta_one(&roce_counter_defs[i], a->c[i].value, b->c[i].value, pd->reset, cd);
			if (cd->status == ROCE_DELTA_RESET)
				pd->reset = true;
		}
	}
	pfc_delta(pd, &a->pfc, &b->pfc);
}

int roce_delta_compute(const struct roce_snapshot *start, const struct roce_snapshot *end, struct roce_delta *out)
{
	memset(out, 0, sizeof(*out));
	out->gid_index = end->gid_index;
	out->traffic_class = end->traffic_class;
	out->seconds = end->time_ns >= start->time_ns ? (double)(end->time_ns - start->time_ns) / 1e9 : -1.0;
	size_t cap = start->n_ports + end->n_ports;
	if (cap == 0)
		return 0;
	out->ports = calloc(cap, sizeof(*out->ports));
	if (!out->ports)
		return -1;
	/* Start order first, then ports that only the end snapshot has. */
	for (size_t i = 0; i < start->n_ports; i++) {
		const struct roce_port_sample *a = &start->ports[i];
		port_delta(&out->ports[out->n_ports++], a, find_sample(end, a->device, a->port));
	}
	for (size_t i = 0; i < end->n_ports; i++) {
		const struct roce_port_sample *b = &end->ports[i];
		if (!find_sample(start, b->device, b->port))
			port_delta(&out->ports[out->n_ports++], NULL, b);
	}
	return 0;
}

void roce_delta_free(struct roce_delta *d)
{
	free(d->ports);
	d->ports = NULL;
	d->n_ports = 0;
}

/* ---------------------------------------------------------------- JSON */

static json_object *u64_array(const uint64_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

static json_object *port_sample_json(const struct roce_port_sample *ps)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(ps->device));
	json_object_object_add(o, "port", json_object_new_int((int)ps->port));
	json_object_object_add(o, "netdev", json_object_new_string(ps->netdev));
	json_object_object_add(o, "gid_index", json_object_new_int(ps->gid_index));
	json_object_object_add(o, "active_mtu", json_object_new_int(ps->active_mtu));
	json_object_object_add(o, "netdev_mtu", json_object_new_int64(ps->netdev_mtu));
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const struct roce_counter_sample *cs = &ps->c[i];
		json_object_object_add(c, roce_counter_defs[i].name,
		                       roce_reading_ok(&cs->read) ? json_object_new_uint64(cs->value) : roce_json_reading(&cs->read));
	}
	json_object_object_add(o, "counters", c);
	json_object *pfc = json_object_new_object();
	json_object_object_add(pfc, "read", roce_json_reading(&ps->pfc.read));
	json_object_object_add(pfc, "enabled", json_object_new_int(ps->pfc.enabled));
	json_object_object_add(pfc, "requests", u64_array(ps->pfc.requests, ROCE_PRIOS));
	json_object_object_add(pfc, "indications", u64_array(ps->pfc.indications, ROCE_PRIOS));
	json_object_object_add(o, "pfc", pfc);
	return o;
}

json_object *roce_snapshot_to_json(const struct roce_snapshot *s)
{
	json_object *o = json_object_new_object(), *ports = json_object_new_array();
	json_object_object_add(o, "schema", json_object_new_string(SNAPSHOT_SCHEMA));
	json_object_object_add(o, "time_ns", json_object_new_int64(s->time_ns));
	json_object_object_add(o, "devices_read", roce_json_reading(&s->devices_read));
	json_object_object_add(o, "gid_index", json_object_new_int(s->gid_index));
	json_object_object_add(o, "traffic_class", json_object_new_int(s->traffic_class));
	for (size_t i = 0; i < s->n_ports; i++)
		json_object_array_add(ports, port_sample_json(&s->ports[i]));
	json_object_object_add(o, "ports", ports);
	return o;
}

/* Parsing: the file is ours and root-only, but a truncated or edited one
 * must give a clear error, not a crash or a silently wrong delta. */

static int parse_pfc(json_object *o, struct roce_pfc_sample *pfc, struct roce_error *err)
{
	json_object *m;
	int64_t v;
	if (roce_jin_member(o, "read", json_type_object, &m, err) < 0 || roce_jin_reading(m, &pfc->read, err) < 0 ||
	    roce_jin_int(o, "enabled", 0, 255, &v, err) < 0)
		return -1;
	pfc->enabled = (uint8_t)v;
	return roce_jin_u64s(o, "requests", pfc->requests, ROCE_PRIOS, err) < 0 ||
	       roce_jin_u64s(o, "indications", pfc->indications, ROCE_PRIOS, err) < 0 ? -1 : 0;
}

/* One counter: a value, or the reading that says why there is none. */
static int parse_counter(json_object *c, const char *name, struct roce_counter_sample *cs, struct roce_error *err)
{
	json_object *m;
	if (!json_object_object_get_ex(c, name, &m)) {
		roce_error_set(err, "counter %s missing", name);
		return -1;
	}
	if (json_object_is_type(m, json_type_object)) {
		if (roce_jin_reading(m, &cs->read, err) < 0)
			return -1;
		if (roce_reading_ok(&cs->read)) {
			roce_error_set(err, "counter %s: ok without a value", name);
			return -1;
		}
		return 0;
	}
	if (!roce_jin_u64_value(m, &cs->value)) {
		roce_error_set(err, "counter %s is not a counter value", name);
		return -1;
	}
	roce_reading_set(&cs->read, ROCE_OK, 0, NULL);
	return 0;
}

static int parse_port(json_object *o, struct roce_port_sample *ps, struct roce_error *err)
{
	json_object *c, *m;
	int64_t port, gid, mtu, nmtu;
	struct roce_error sub;
	memset(ps, 0, sizeof(*ps));
	if (!json_object_is_type(o, json_type_object)) {
		roce_error_set(err, "port is not an object");
		return -1;
	}
	if (roce_jin_strcpy(o, "device", ps->device, sizeof(ps->device), err) < 0 ||
	    roce_jin_strcpy(o, "netdev", ps->netdev, sizeof(ps->netdev), err) < 0 ||
	    roce_jin_int(o, "port", 1, 255, &port, err) < 0 ||
	    roce_jin_int(o, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(o, "active_mtu", 0, 65536, &mtu, err) < 0 ||
	    roce_jin_int(o, "netdev_mtu", 0, UINT32_MAX, &nmtu, err) < 0 ||
	    roce_jin_member(o, "counters", json_type_object, &c, err) < 0)
		return -1;
	ps->port = (unsigned)port;
	ps->gid_index = (int)gid;
	ps->active_mtu = (int)mtu;
	ps->netdev_mtu = (unsigned)nmtu;
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		if (parse_counter(c, roce_counter_defs[i].name, &ps->c[i], &sub) < 0) {
			roce_error_set(err, "%s:%u: %s", ps->device, ps->port, sub.msg);
			return -1;
		}
	if (roce_jin_member(o, "pfc", json_type_object, &m, err) < 0)
		return -1;
	return parse_pfc(m, &ps->pfc, err);
}

/* ports[i] duplicates an earlier port: the delta pairs ports by device and
 * number, so a duplicate would pair crosswise. */
static bool duplicate_port(const struct roce_snapshot *s, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (s->ports[j].port == s->ports[i].port && strcmp(s->ports[j].device, s->ports[i].device) == 0)
			return true;
	return false;
}

static int parse_ports(struct roce_snapshot *s, json_object *ports, struct roce_error *err)
{
	struct roce_error sub;
	size_t n = json_object_array_length(ports);
	if (n > 4096) {
		roce_error_set(err, "%zu ports: not a real node", n);
		return -1;
	}
	if (n && !(s->ports = calloc(n, sizeof(*s->ports)))) {
		roce_error_set(err, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		s->n_ports++;
		if (parse_port(json_object_array_get_idx(ports, i), &s->ports[i], &sub) < 0) {
			roce_error_set(err, "ports[%zu]: %s", i, sub.msg);
			return -1;
		}
		if (duplicate_port(s, i)) {
			roce_error_set(err, "ports[%zu]: duplicate %.64s:%u", i, s->ports[i].device, s->ports[i].port);
			return -1;
		}
	}
	return 0;
}

int roce_snapshot_from_json(struct roce_snapshot *s, json_object *obj, struct roce_error *err)
{
	json_object *m, *ports;
	const char *schema;
	int64_t gid, tc;

	roce_snapshot_free(s);
	roce_snapshot_init(s);
	if (!json_object_is_type(obj, json_type_object)) {
		roce_error_set(err, "snapshot is not a JSON object");
		return -1;
	}
	if (roce_jin_str(obj, "schema", 63, &schema, err) < 0)
		return -1;
	if (strcmp(schema, SNAPSHOT_SCHEMA) != 0) {
		roce_error_set(err, "unknown snapshot schema \"%s\"", schema);
		return -1;
	}
	if (roce_jin_int(obj, "time_ns", 0, INT64_MAX, &s->time_ns, err) < 0 ||
	    roce_jin_member(obj, "devices_read", json_type_object, &m, err) < 0 ||
	    roce_jin_reading(m, &s->devices_read, err) < 0 ||
	    roce_jin_int(obj, "gid_index", -1, ROCE_GID_MAX, &gid, err) < 0 ||
	    roce_jin_int(obj, "traffic_class", -1, 255, &tc, err) < 0 ||
	    roce_jin_member(obj, "ports", json_type_array, &ports, err) < 0)
		return -1;
	s->gid_index = (int)gid;
	s->traffic_class = (int)tc;
	if (parse_ports(s, ports, err) < 0) {
		roce_snapshot_free(s);
		return -1;
	}
	return 0;
}
