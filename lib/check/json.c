/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - the model, findings and plan as json-c objects.  The schema is
 * documented in README.md ("JSON (`--format json`, version 1)"); keep the two
 * in step.
 */
#include "config.h"
#include "check/json.h"
#include "base/pcicap.h"
#include "check/pciecheck.h"
#include "collect/trust.h"

#include <stdio.h>

static void put_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}
static void put_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}
static void put_bool(json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

json_object *roce_json_reading(const struct roce_reading *r)
{
	json_object *o = json_object_new_object();
	put_str(o, "status", roce_status_name(r->status));
	if (r->why[0])
		put_str(o, "why", r->why);
	return o;
}

/* Only readings that are not OK are shown, under "errors": {field: {...}}. */
static void put_reading(json_object **errors, const char *field, const struct roce_reading *r)
{
	if (r->status == ROCE_OK || r->status == ROCE_NOT_READ)
		return;
	if (!*errors)
		*errors = json_object_new_object();
	json_object_object_add(*errors, field, roce_json_reading(r));
}

static json_object *json_gid(const struct roce_gid *g)
{
	json_object *o = json_object_new_object(), *errors = NULL;
	char text[40], addr[64];
	put_int(o, "index", g->index);
	put_reading(&errors, "gid", &g->read);
	if (roce_reading_ok(&g->read)) {
		roce_gid_format_sysfs(g->raw, text);
		put_str(o, "gid", text);
		put_bool(o, "empty", g->empty);
		if (!g->empty) {
			roce_gid_format_addr(g->raw, addr, sizeof(addr));
			put_str(o, "addr", addr);
			put_str(o, "type", roce_gid_type_name(g->type));
			put_str(o, "ndev", g->ndev);
			put_reading(&errors, "type", &g->type_read);
			put_reading(&errors, "ndev", &g->ndev_read);
		}
	}
	if (errors)
		json_object_object_add(o, "errors", errors);
	return o;
}

static json_object *json_port(const struct roce_port *p)
{
	json_object *o = json_object_new_object(), *errors = NULL, *gids = json_object_new_array();
	put_int(o, "port", p->num);
	put_str(o, "state", p->state_name);
	put_int(o, "state_num", p->state);
	put_str(o, "phys_state", p->phys_state_name);
	put_int(o, "phys_state_num", p->phys_state);
	put_str(o, "link_layer", roce_link_layer_name(p->link_layer));
	put_str(o, "rate", p->rate);
	if (roce_reading_ok(&p->rate_read))
		put_int(o, "rate_mbps", p->rate_mbps);
	put_str(o, "netdev", p->netdev);
	put_int(o, "gid_table_size", p->gid_table_size);
	put_bool(o, "gid_table_scanned", p->gid_table_scanned);
	if (p->verbs_active_mtu > 0)
		put_int(o, "verbs_active_mtu", p->verbs_active_mtu);
	for (size_t i = 0; i < p->n_gids; i++)
		json_object_array_add(gids, json_gid(&p->gids[i]));
	json_object_object_add(o, "gids", gids);
	put_reading(&errors, "state", &p->state_read);
	put_reading(&errors, "phys_state", &p->phys_state_read);
	put_reading(&errors, "link_layer", &p->link_layer_read);
	put_reading(&errors, "rate", &p->rate_read);
	put_reading(&errors, "gids", &p->gids_read);
	put_reading(&errors, "netdev", &p->netdev_read);
	put_reading(&errors, "verbs", &p->verbs_read);
	if (errors)
		json_object_object_add(o, "errors", errors);
	return o;
}

static json_object *json_u64_array(const uint64_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)v[i]));
	return a;
}

static json_object *json_u8_array(const uint8_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

/* "ets": {"prio_tc", "tc_tx_bw", "tc_tsa"} and "buffer": {"prio2buffer",
 * "buffer_size", "total_size"} where the driver reports them; a driver
 * that does not (UNSUPPORTED) leaves them out, as does a reading that
 * failed (said under "errors"). */
static void put_dcb_ets(json_object *o, json_object **errors, const struct roce_netdev *nd)
{
	if (roce_reading_ok(&nd->ets.read)) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "prio_tc", json_u8_array(nd->ets.prio_tc, ROCE_PRIOS));
		json_object_object_add(e, "tc_tx_bw", json_u8_array(nd->ets.tc_tx_bw, ROCE_PRIOS));
		json_object_object_add(e, "tc_tsa", json_u8_array(nd->ets.tc_tsa, ROCE_PRIOS));
		json_object_object_add(o, "ets", e);
	}
	if (roce_reading_ok(&nd->buffer.read)) {
		json_object *b = json_object_new_object(), *sz = json_object_new_array();
		json_object_object_add(b, "prio2buffer", json_u8_array(nd->buffer.prio2buffer, ROCE_PRIOS));
		for (int i = 0; i < ROCE_PRIOS; i++)
			json_object_array_add(sz, json_object_new_int64(nd->buffer.buffer_size[i]));
		json_object_object_add(b, "buffer_size", sz);
		put_int(b, "total_size", nd->buffer.total_size);
		json_object_object_add(o, "buffer", b);
	}
	if (nd->ets.read.status != ROCE_UNSUPPORTED)
		put_reading(errors, "ets", &nd->ets.read);
	if (nd->buffer.read.status != ROCE_UNSUPPORTED)
		put_reading(errors, "buffer", &nd->buffer.read);
}

/* MLNX_OFED's qos/ (trust, dscp2prio as 64 priorities, -1 unmapped) and a VLAN's id and egress PCPs. */
static void json_trust(json_object *o, json_object **errors, const struct roce_netdev *nd)
{
	if (roce_reading_ok(&nd->trust.read)) {
		json_object *t = json_object_new_object();
		put_str(t, "mode", roce_trust_mode_name(nd->trust.mode));
		put_str(t, "from", nd->trust.from);
		if (roce_reading_ok(&nd->trust.dscp2prio.read)) {
			json_object *m = json_object_new_array();
			for (int d = 0; d < ROCE_DSCP_MAX; d++)
				json_object_array_add(m, json_object_new_int(nd->trust.dscp2prio.prio[d]));
			json_object_object_add(t, "dscp2prio", m);
		}
		json_object_object_add(o, "trust", t);
	}
	/* MISSING is not MLNX_OFED: no error, the trust is inferred from the APP table */
	if (nd->trust.read.status != ROCE_MISSING)
		put_reading(errors, "trust", &nd->trust.read);
	if (nd->trust.dscp2prio.read.status != ROCE_MISSING)
		put_reading(errors, "dscp2prio", &nd->trust.dscp2prio.read);
	if (nd->vlan.is_vlan) {
		json_object *v = json_object_new_object(), *eg = json_object_new_array();
		put_int(v, "id", (int)nd->vlan.id);
		for (int i = 0; i < ROCE_PRIOS; i++)
			if (nd->vlan.egress_pcps & (1u << i))
				json_object_array_add(eg, json_object_new_int(i));
		json_object_object_add(v, "egress_pcps", eg);
		json_object_object_add(o, "vlan", v);
	}
}

static json_object *json_netdev(const struct roce_netdev *nd)
{
	json_object *o = json_object_new_object(), *errors = NULL;
	put_str(o, "name", nd->name);
	if (roce_reading_ok(&nd->link_read)) {
		put_int(o, "ifindex", nd->ifindex);
		put_int(o, "mtu", nd->mtu);
		put_str(o, "operstate", nd->operstate);
		put_bool(o, "up", nd->up);
		put_int(o, "rdma_mtu", roce_ib_mtu_for_netdev_mtu(nd->mtu));
	}
	if (roce_reading_ok(&nd->speed_read))
		put_int(o, "speed_mbps", nd->speed_mbps);
	put_reading(&errors, "speed", &nd->speed_read);
	if (nd->ecn.read.status != ROCE_NOT_READ && nd->ecn.read.status != ROCE_MISSING) {
		json_object *ecn = json_object_new_object(), *np = json_object_new_array(),
		            *rp = json_object_new_array();
		for (int i = 0; i < ROCE_PRIOS; i++) {
			json_object_array_add(np, json_object_new_int(nd->ecn.np[i]));
			json_object_array_add(rp, json_object_new_int(nd->ecn.rp[i]));
		}
		json_object_object_add(ecn, "np_enabled", np);
		json_object_object_add(ecn, "rp_enabled", rp);
		put_int(ecn, "cnp_dscp", nd->ecn.cnp_dscp);
		put_int(ecn, "cnp_prio", nd->ecn.cnp_prio);
		json_object_object_add(o, "ecn", ecn);
	}
	put_reading(&errors, "ecn", &nd->ecn.read);
	json_trust(o, &errors, nd);
	put_reading(&errors, "link", &nd->link_read);
	if (roce_reading_ok(&nd->members_read)) {
		json_object *m = json_object_new_array();
		for (size_t i = 0; i < nd->n_members; i++)
			json_object_array_add(m, json_object_new_string(nd->members[i]));
		json_object_object_add(o, "members", m);
	} else if (nd->members_read.status != ROCE_MISSING) {
		put_reading(&errors, "members", &nd->members_read);
	}
	json_object *pfc = json_object_new_object();
	put_str(pfc, "status", roce_status_name(nd->pfc.read.status));
	if (roce_reading_ok(&nd->pfc.read)) {
		json_object *en = json_object_new_array();
		for (int i = 0; i < ROCE_PRIOS; i++)
			if (nd->pfc.enabled & (1u << i))
				json_object_array_add(en, json_object_new_int(i));
		json_object_object_add(pfc, "enabled", en);
		put_int(pfc, "cap", nd->pfc.cap);
		json_object_object_add(pfc, "requests", json_u64_array(nd->pfc.requests, ROCE_PRIOS));
		json_object_object_add(pfc, "indications", json_u64_array(nd->pfc.indications, ROCE_PRIOS));
	} else if (nd->pfc.read.why[0]) {
		put_str(pfc, "why", nd->pfc.read.why);
	}
	json_object_object_add(o, "pfc", pfc);
	if (roce_reading_ok(&nd->dscp.read)) {
		json_object *m = json_object_new_object();
		char k[8];
		for (int d = 0; d < ROCE_DSCP_MAX; d++)
			if (nd->dscp.prio[d] >= 0) {
				snprintf(k, sizeof(k), "%d", d);
				put_int(m, k, nd->dscp.prio[d]);
			}
		json_object_object_add(o, "dscp_prio", m);
	}
	put_reading(&errors, "dscp", &nd->dscp.read);
	put_dcb_ets(o, &errors, nd);
	if (errors)
		json_object_object_add(o, "errors", errors);
	return o;
}

/* A device's PCIe path, the device first: [{"bdf", "current_speed" ("16.0 GT/s"),
 * "current_width", "max_speed", "max_width", "acs": {"cap", "ctrl"} (bridges
 * with the capability), "errors"}]. */
static json_object *json_pcie_path(const struct roce_pcie_path *p)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < p->n; i++) {
		const struct roce_pcie_fn *fn = &p->fn[i];
		json_object *o = json_object_new_object(), *errors = NULL;
		char speed[24];
		put_str(o, "bdf", fn->bdf);
		if (roce_reading_ok(&fn->link_read)) {
			roce_pciecheck_speed(fn->cur_speed, speed, sizeof(speed));
			put_str(o, "current_speed", speed);
			put_int(o, "current_width", fn->cur_width);
			roce_pciecheck_speed(fn->max_speed, speed, sizeof(speed));
			put_str(o, "max_speed", speed);
			put_int(o, "max_width", fn->max_width);
		}
		if (fn->port_type_known) {
			char other[16];
			put_str(o, "port_type", roce_pcicap_port_type_name(fn->port_type, other, sizeof(other)));
		}
		if (fn->target_known) {
			roce_pciecheck_speed(fn->target_speed, speed, sizeof(speed));
			put_str(o, "target_speed", speed);
			if (fn->hasd)
				put_bool(o, "hasd", true);
		}
		if (fn->acs_read.status == ROCE_OK && fn->acs_present) {
			json_object *acs = json_object_new_object();
			put_int(acs, "cap", fn->acs_cap);
			put_int(acs, "ctrl", fn->acs_ctrl);
			json_object_object_add(o, "acs", acs);
		}
		put_reading(&errors, "link", &fn->link_read);
		put_reading(&errors, "acs", &fn->acs_read);
		if (errors)
			json_object_object_add(o, "errors", errors);
		json_object_array_add(a, o);
	}
	return a;
}

json_object *roce_json_node(const struct roce_node *node)
{
	json_object *o = json_object_new_object(), *devs = json_object_new_array(), *nds = json_object_new_array();
	json_object *errors = NULL;
	put_str(o, "sysfs_root", node->sysfs_root);
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		json_object *jd = json_object_new_object(), *ports = json_object_new_array(), *derr = NULL;
		put_str(jd, "name", dev->name);
		put_str(jd, "pci_addr", dev->pci_addr);
		put_str(jd, "fw_ver", dev->fw_ver);
		put_str(jd, "board_id", dev->board_id);
		put_str(jd, "hca_type", dev->hca_type);
		for (size_t p = 0; p < dev->n_ports; p++)
			json_object_array_add(ports, json_port(&dev->ports[p]));
		json_object_object_add(jd, "ports", ports);
		if (dev->pcie.read.status != ROCE_NOT_READ)
			json_object_object_add(jd, "pcie", json_pcie_path(&dev->pcie));
		if (roce_reading_ok(&dev->gpu_near_read))
			put_str(jd, "gpu_near", dev->gpu_near);
		put_reading(&derr, "gpu_near", &dev->gpu_near_read);
		if (roce_reading_ok(&dev->dmabuf_read))
			json_object_object_add(jd, "dmabuf_verbs", json_object_new_boolean(dev->dmabuf_verbs));
		if (roce_reading_ok(&dev->pcie.read) && roce_reading_ok(&dev->pcie.iommu_read)) {
			json_object *io = json_object_new_object();
			if (dev->pcie.iommu_group[0]) {
				put_str(io, "group", dev->pcie.iommu_group);
				put_str(io, "type", dev->pcie.iommu_type);
			}
			json_object_object_add(jd, "iommu", io);
		}
		put_reading(&derr, "pci_addr", &dev->pci_read);
		put_reading(&derr, "pcie", &dev->pcie.read);
		put_reading(&derr, "iommu", &dev->pcie.iommu_read);
		put_reading(&derr, "dmabuf", &dev->dmabuf_read);
		put_reading(&derr, "ports", &dev->ports_read);
		put_reading(&derr, "fw_ver", &dev->fw_ver_read);
		put_reading(&derr, "board_id", &dev->board_id_read);
		put_reading(&derr, "hca_type", &dev->hca_type_read);
		if (derr)
			json_object_object_add(jd, "errors", derr);
		json_object_array_add(devs, jd);
	}
	json_object_object_add(o, "devices", devs);
	for (size_t i = 0; i < node->n_netdevs; i++)
		json_object_array_add(nds, json_netdev(&node->netdevs[i]));
	json_object_object_add(o, "netdevs", nds);
	json_object *gdr = json_object_new_object();
	put_bool(gdr, "loaded", node->gdr.loaded);
	if (node->gdr.loaded)
		put_str(gdr, "module", node->gdr.module);
	put_str(gdr, "path", node->gdr.peer_memory ? "peer_memory" : node->gdr.dmabuf ? "dmabuf" : "none");
	put_bool(gdr, "peer_memory", node->gdr.peer_memory);
	if (node->gdr.peer_memory)
		put_str(gdr, "peer_file", node->gdr.peer_file);
	put_bool(gdr, "dmabuf", node->gdr.dmabuf);
	if (!node->gdr.dmabuf && node->gdr.dmabuf_why[0])
		put_str(gdr, "dmabuf_why", node->gdr.dmabuf_why);
	json_object_object_add(o, "gdr", gdr);
	json_object *mods = json_object_new_object();
	for (size_t i = 0; i < ROCE_MODULES; i++) {
		const struct roce_module *m = &node->modules[i];
		if (!m->name)
			continue;
		if (roce_reading_ok(&m->read))
			put_str(mods, m->name, m->version);
		else if (m->read.status != ROCE_MISSING) {
			char k[48];
			snprintf(k, sizeof(k), "module/%s", m->name);
			put_reading(&errors, k, &m->read);
		}
	}
	json_object_object_add(o, "modules", mods);
	put_reading(&errors, "devices", &node->devices_read);
	put_reading(&errors, "gdr", &node->gdr.read);
	if (errors)
		json_object_object_add(o, "errors", errors);
	return o;
}

json_object *roce_json_check(const struct roce_check_result *r)
{
	json_object *o = json_object_new_object(), *fs = json_object_new_array(), *ports = json_object_new_array();
	for (size_t i = 0; i < r->n_findings; i++) {
		const struct roce_finding *f = &r->findings[i];
		json_object *jf = json_object_new_object();
		put_str(jf, "check", f->check);
		put_str(jf, "subject", f->subject);
		if (f->device[0])
			put_str(jf, "device", f->device);
		if (f->port)
			put_int(jf, "port", f->port);
		put_str(jf, "status", roce_finding_verdict_name(f->status));
		put_bool(jf, "hardware", f->hardware);
		if (f->aside)
			put_bool(jf, "aside", true);
		if (f->cause[0])
			put_str(jf, "cause", f->cause);
		if (f->quiet)
			put_bool(jf, "quiet", true);
		put_str(jf, "message", f->message);
		json_object_array_add(fs, jf);
	}
	for (size_t i = 0; i < r->n_ports; i++) {
		const struct roce_port_result *p = &r->ports[i];
		json_object *jp = json_object_new_object();
		put_str(jp, "device", p->device);
		put_int(jp, "port", p->port);
		put_str(jp, "netdev", p->netdev);
		put_bool(jp, "roce", p->roce);
		put_bool(jp, "healthy", p->healthy);
		put_int(jp, "gid_index", p->gid_index);
		put_int(jp, "active_mtu", p->active_mtu);
		json_object_array_add(ports, jp);
	}
	json_object *s = json_object_new_object();
	put_str(s, "mode", r->mode == ROCE_MODE_STRICT ? "strict" : "warn");
	put_bool(s, "failed", r->failed);
	put_int(s, "pass", (int64_t)r->n_pass);
	put_int(s, "warn", (int64_t)r->n_warn);
	put_int(s, "fail", (int64_t)r->n_fail);
	put_int(s, "unknown", (int64_t)r->n_unknown);
	put_int(s, "gid_index", r->gid_index);
	put_int(s, "traffic_class", r->traffic_class);
	char reason[256];
	if (roce_check_drain_reason(r, reason, sizeof(reason)))
		put_str(s, "drain_reason", reason);
	json_object_object_add(o, "summary", s);
	json_object_object_add(o, "findings", fs);
	json_object_object_add(o, "ports", ports);
	return o;
}

json_object *roce_json_plan(const struct roce_plan *plan)
{
	json_object *o = json_object_new_object(), *env = json_object_new_object();
	put_bool(o, "valid", plan->valid);
	if (!plan->valid)
		put_str(o, "why", plan->why);
	for (size_t i = 0; i < plan->n_vars; i++)
		put_str(env, plan->vars[i].name, plan->vars[i].value);
	json_object_object_add(o, "env", env);
	return o;
}
