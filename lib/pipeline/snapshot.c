/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snapshot.c - take a counter snapshot from sysfs and the node model (snapshot.h). */
#include "config.h"
#include "pipeline/snapshot.h"
#include "base/clock.h"
#include "read/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void roce_snapshot_init(struct roce_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->gid_index = -1;
	s->traffic_class = -1;
	s->check = -1;
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
	ps->check = -1;
	return ps;
}

/* The worst of the check's findings about device:port (port 0: about no
 * port), as *verdict and "check: message" in why; -1 when none. */
static void worst_finding(const struct roce_check_result *check, const char *device, unsigned port, int *verdict,
                          char *why, size_t len)
{
	const struct roce_finding *worst = NULL;
	*verdict = -1;
	why[0] = '\0';
	for (size_t i = 0; i < check->n_findings; i++) {
		const struct roce_finding *f = &check->findings[i];
		if (f->port != port || (port && strcmp(f->device, device) != 0))
			continue;
		if (!worst || f->status > worst->status)
			worst = f;
	}
	if (!worst)
		return;
	*verdict = (int)worst->status;
	if (worst->status != ROCE_PASS)
		snprintf(why, len, "%.23s: %.*s", worst->check, (int)(len > 26 ? len - 26 : 0), worst->message);
}

/* The address of the GID the check chose, so the epilog can tell that it
 * moved or changed during the job (the report's gid_changed); "" when the
 * entry was not read. */
static void gid_addr(const struct roce_port *mp, int index, char *out, size_t len)
{
	const struct roce_gid *g = roce_port_read_gid(mp, index);
	out[0] = '\0';
	if (g)
		roce_gid_format_addr(g->raw, out, len);
}

/* The port's PFC state and pause counters, from its netdev, or for a bond
 * (RoCE LAG) from its members, where the kernel keeps them: the frames of
 * every member added up, a priority enabled when it is on every member; a
 * member that could not be read makes the whole unknown. */
static void pfc_sample(struct roce_port_sample *ps, const struct roce_node *node, const struct roce_netdev *nd)
{
	const struct roce_netdev *qos[ROCE_BOND_MEMBERS_MAX];
	size_t n = roce_node_qos_netdevs(node, nd, qos);
	ps->pfc.enabled = 0xff;
	for (size_t m = 0; m < n; m++) {
		const struct roce_pfc *p = &qos[m]->pfc;
		if (!roce_reading_ok(&p->read)) {
			ps->pfc.read = p->read;
			ps->pfc.enabled = 0;
			memset(ps->pfc.requests, 0, sizeof(ps->pfc.requests));
			memset(ps->pfc.indications, 0, sizeof(ps->pfc.indications));
			return;
		}
		ps->pfc.enabled &= p->enabled;
		for (int i = 0; i < ROCE_PRIOS; i++) {
			ps->pfc.requests[i] += p->requests[i];
			ps->pfc.indications[i] += p->indications[i];
		}
	}
	ps->pfc.read = qos[0]->pfc.read;
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
	if (mp && roce_reading_ok(&mp->state_read))
		snprintf(ps->state, sizeof(ps->state), "%s", mp->state_name);
	if (check)
		worst_finding(check, ps->device, ps->port, &ps->check, ps->check_why, sizeof(ps->check_why));
	if (mp && roce_reading_ok(&mp->rate_read))
		ps->rate_mbps = mp->rate_mbps;
	if (dev && roce_reading_ok(&dev->fw_ver_read))
		snprintf(ps->fw_ver, sizeof(ps->fw_ver), "%s", dev->fw_ver);

	const struct roce_netdev *nd = ps->netdev[0] ? roce_node_find_netdev(node, ps->netdev) : NULL;
	if (!node)
		roce_reading_set(&ps->pfc.read, ROCE_NOT_READ, 0, "no node model collected");
	else if (!nd)
		roce_reading_set(&ps->pfc.read, ROCE_MISSING, 0, "%s:%u: netdev unknown, no PFC counters", ps->device,
		                 ps->port);
	else {
		pfc_sample(ps, node, nd);
		if (roce_reading_ok(&nd->link_read))
			ps->netdev_mtu = nd->mtu;
	}

	const struct roce_port_result *pr = check ? roce_check_port(check, ps->device, ps->port) : NULL;
	if (pr) {
		ps->gid_index = pr->gid_index;
		gid_addr(mp, pr->gid_index, ps->gid_addr, sizeof(ps->gid_addr));
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

static bool expired(int64_t deadline_ms) { return deadline_ms && roce_clock_ms() >= deadline_ms; }

/* A wedged firmware makes every counter read block for the driver's command
 * timeout: past the deadline the remaining counters are not read at all. */
static void sample_counters(struct roce_port_sample *ps, const char *root, int64_t deadline_ms)
{
	if (expired(deadline_ms)) {
		for (int i = 0; i < ROCE_N_COUNTERS; i++)
			roce_reading_set(&ps->c[i].read, ROCE_TIMEOUT, 0, "%s:%u: deadline passed before %s was read",
			                 ps->device, ps->port, roce_counter_defs[i].name);
		return;
	}

	char dir[2][PATH_MAX];
	int dfd[2] = { -1, -1 };
	for (int hw = 0; hw < 2; hw++) {
		if (roce_sysfs_path(dir[hw], sizeof(dir[hw]), "%s/class/infiniband/%s/ports/%u/%s", root, ps->device,
		                    ps->port, hw ? "hw_counters" : "counters") == 0)
			dfd[hw] = open(dir[hw], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		else
			snprintf(dir[hw], sizeof(dir[hw]), "(path too long)");
	}
	for (int i = 0; i < ROCE_N_COUNTERS; i++) {
		const struct roce_counter_def *def = &roce_counter_defs[i];
		if (i && expired(deadline_ms))
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
static int snapshot_device(struct roce_snapshot *s, const char *root, const char *dev, const struct roce_node *node,
                           const struct roce_check_result *check, int64_t deadline_ms)
{
	char rel[PATH_MAX], **ports = NULL, ll[32];
	size_t n_ports = 0;
	struct roce_reading r;

	if (roce_sysfs_path(rel, sizeof(rel), "class/infiniband/%s/ports", dev) < 0 ||
	    roce_sysfs_list(root, rel, &ports, &n_ports, &r) < 0)
		return 0; /* a device without ports has nothing to count */
	for (size_t i = 0; i < n_ports; i++) {
		/* What rdma.c refuses, refused here too; the fragment keeps ports 1..255. */
		unsigned long num = roce_port_name_ok(ports[i]) ? strtoul(ports[i], NULL, 10) : 0;
		if (num == 0 || num > 255)
			continue;
		if (roce_sysfs_path(rel, sizeof(rel), "class/infiniband/%s/ports/%lu/link_layer", dev, num) < 0 ||
		    roce_sysfs_read(root, rel, ll, sizeof(ll), &r) < 0 || strcmp(ll, "Ethernet") != 0)
			continue;
		struct roce_port_sample *ps = add_port(s);
		if (!ps)
			goto nomem;
		snprintf(ps->device, sizeof(ps->device), "%s", dev);
		ps->port = (unsigned)num;
		sample_counters(ps, root, deadline_ms);
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
                               const struct roce_check_result *check, int64_t deadline_ms)
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
			sample_counters(ps, root, deadline_ms);
			sample_from_model(ps, node, check);
		}
	}
	return 0;
}

int roce_snapshot_take(struct roce_snapshot *s, const char *sysfs_root, const struct roce_node *node,
                       const struct roce_check_result *check)
{
	return roce_snapshot_take_until(s, sysfs_root, node, check, 0);
}

int roce_snapshot_take_until(struct roce_snapshot *s, const char *sysfs_root, const struct roce_node *node,
                             const struct roce_check_result *check, int64_t deadline_ms)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	char **devs = NULL;
	size_t n_devs = 0;

	roce_snapshot_free(s);
	roce_snapshot_init(s);
	s->time_ns = roce_clock_realtime_ns();
	if (check) {
		s->gid_index = check->gid_index;
		s->traffic_class = check->traffic_class;
		s->trust = check->trust;
		worst_finding(check, "", 0, &s->check, s->check_why, sizeof(s->check_why));
	}
	/* A listing with refused names (MALFORMED) was still read: use the model,
	 * never list the directory again and pick the refused names up. */
	if (node && roce_devices_listed(node)) {
		s->devices_read = node->devices_read;
		return snapshot_from_model(s, root, node, check, deadline_ms);
	}
	if (roce_sysfs_list(root, "class/infiniband", &devs, &n_devs, &s->devices_read) < 0)
		return s->devices_read.err == ENOMEM ? -1 : 0;
	for (size_t i = 0; i < n_devs; i++) {
		if (!roce_device_name_ok(devs[i])) /* what rdma.c refuses, refused here too */
			continue;
		if (snapshot_device(s, root, devs[i], node, check, deadline_ms) < 0) {
			roce_sysfs_names_free(devs, n_devs);
			return -1;
		}
	}
	roce_sysfs_names_free(devs, n_devs);
	return 0;
}
