/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fixtures.c - see fixtures.h. */
#include "config.h"
#include "unit.h"
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/rdma.h"
#include "fragment/fragment_read.h"
#include "fragment/verdicts.h"

void fx_healthy_node(struct roce_node *node, size_t n)
{
	roce_node_init(node);
	roce_reading_set(&node->devices_read, ROCE_OK, 0, NULL);
	node->devices = calloc(n, sizeof(*node->devices));
	node->n_devices = n;
	for (size_t i = 0; i < n; i++) {
		struct roce_device *d = &node->devices[i];
		snprintf(d->name, sizeof(d->name), "mlx5_%zu", i);
		snprintf(d->pci_addr, sizeof(d->pci_addr), "0000:%02zx:00.0", 0x41 + i);
		roce_reading_set(&d->pci_read, ROCE_OK, 0, NULL);
		roce_reading_set(&d->ports_read, ROCE_OK, 0, NULL);
		snprintf(d->fw_ver, sizeof(d->fw_ver), "20.39.1002");
		snprintf(d->board_id, sizeof(d->board_id), "MT_0000000223");
		snprintf(d->hca_type, sizeof(d->hca_type), "MT4123");
		roce_reading_set(&d->fw_ver_read, ROCE_OK, 0, NULL);
		roce_reading_set(&d->board_id_read, ROCE_OK, 0, NULL);
		roce_reading_set(&d->hca_type_read, ROCE_OK, 0, NULL);
		d->ports = calloc(1, sizeof(*d->ports));
		d->n_ports = 1;
		struct roce_port *p = &d->ports[0];
		p->num = 1;
		p->state = 4; snprintf(p->state_name, sizeof(p->state_name), "ACTIVE");
		p->phys_state = 5; snprintf(p->phys_state_name, sizeof(p->phys_state_name), "LinkUp");
		p->link_layer = ROCE_LL_ETHERNET;
		snprintf(p->rate, sizeof(p->rate), "100 Gb/sec (4X EDR)");
		p->rate_mbps = 100000;
		roce_reading_set(&p->rate_read, ROCE_OK, 0, NULL);
		roce_reading_set(&p->state_read, ROCE_OK, 0, NULL);
		roce_reading_set(&p->phys_state_read, ROCE_OK, 0, NULL);
		roce_reading_set(&p->link_layer_read, ROCE_OK, 0, NULL);
		roce_reading_set(&p->gids_read, ROCE_OK, 0, NULL);
		snprintf(p->netdev, sizeof(p->netdev), "eth%u", (unsigned)(i % 1000)); /* i < 1000: fits */
		p->gid_table_size = 256;
		p->gids = calloc(1, sizeof(*p->gids));
		p->n_gids = 1;
		struct roce_gid *g = &p->gids[0];
		g->index = 3;
		char text[48];
		snprintf(text, sizeof(text), "0000:0000:0000:0000:0000:ffff:c000:02%02zx", 10 + i);
		assert_int_equal(roce_rdma_parse_gid(text, g->raw), 0);
		g->type = ROCE_GID_TYPE_ROCE_V2;
		snprintf(g->ndev, sizeof(g->ndev), "eth%u", (unsigned)(i % 1000));
		roce_reading_set(&g->read, ROCE_OK, 0, NULL);
		roce_reading_set(&g->type_read, ROCE_OK, 0, NULL);
		roce_reading_set(&g->ndev_read, ROCE_OK, 0, NULL);

		struct roce_netdev *nd = roce_node_add_netdev(node, p->netdev);
		roce_reading_set(&nd->link_read, ROCE_OK, 0, NULL);
		nd->ifindex = (int)i + 2;
		nd->mtu = 9000;
		nd->up = true;
		snprintf(nd->operstate, sizeof(nd->operstate), "UP");
		roce_reading_set(&nd->pfc.read, ROCE_OK, 0, NULL);
		nd->pfc.enabled = 1u << 3;
		roce_reading_set(&nd->dscp.read, ROCE_OK, 0, NULL);
		nd->dscp.prio[26] = 3;
		nd->dscp.prio[48] = 6;
		nd->dscp.n = 2;
	}
	roce_reading_set(&node->gdr.read, ROCE_OK, 0, NULL);
	node->gdr.loaded = true;
	snprintf(node->gdr.module, sizeof(node->gdr.module), "nvidia_peermem");
	node->gdr.peer_memory = true;
	snprintf(node->gdr.peer_file, sizeof(node->gdr.peer_file), "kernel/mm/memory_peers/nv_mem/version");
}

void fx_bond(struct roce_node *node)
{
	fx_healthy_node(node, 2);
	/* mlx5_1 goes: RoCE LAG registers one device for both ports */
	struct roce_device *gone = &node->devices[1];
	for (size_t p = 0; p < gone->n_ports; p++)
		free(gone->ports[p].gids);
	free(gone->ports);
	node->n_devices = 1;
	struct roce_device *d = &node->devices[0];
	snprintf(d->name, sizeof(d->name), "mlx5_bond_0");
	snprintf(d->ports[0].netdev, sizeof(d->ports[0].netdev), "bond0");
	snprintf(d->ports[0].gids[0].ndev, sizeof(d->ports[0].gids[0].ndev), "bond0");
	struct roce_netdev *b = roce_node_add_netdev(node, "bond0");
	assert_non_null(b);
	roce_reading_set(&b->link_read, ROCE_OK, 0, NULL);
	b->ifindex = 9;
	b->mtu = 9000;
	b->up = true;
	snprintf(b->operstate, sizeof(b->operstate), "UP");
	/* the bonding driver has no DCB */
	roce_reading_set(&b->pfc.read, ROCE_UNSUPPORTED, 95, "RTM_GETDCB bond0: not supported");
	roce_reading_set(&b->dscp.read, ROCE_UNSUPPORTED, 95, "RTM_GETDCB bond0: not supported");
	roce_reading_set(&b->members_read, ROCE_OK, 0, NULL);
	b->n_members = 2;
	snprintf(b->members[0], sizeof(b->members[0]), "eth0");
	snprintf(b->members[1], sizeof(b->members[1]), "eth1");
}

void fx_add_port(struct roce_node *node, const char *dev, const char *netdev)
{
	node->devices = realloc(node->devices, (node->n_devices + 1) * sizeof(*node->devices));
	assert_non_null(node->devices);
	struct roce_device *d = &node->devices[node->n_devices++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", dev);
	d->ports = calloc(1, sizeof(*d->ports));
	assert_non_null(d->ports);
	d->n_ports = 1;
	d->ports[0].num = 1;
	snprintf(d->ports[0].netdev, sizeof(d->ports[0].netdev), "%s", netdev);
}

struct roce_port_sample fx_port_sample(const char *dev)
{
	struct roce_port_sample p;
	memset(&p, 0, sizeof(p));
	snprintf(p.device, sizeof(p.device), "%s", dev);
	p.port = 1;
	p.gid_index = -1;
	for (int i = 0; i < ROCE_N_COUNTERS; i++)
		roce_reading_set(&p.c[i].read, ROCE_OK, 0, NULL);
	roce_reading_set(&p.pfc.read, ROCE_NOT_READ, 0, "no node model collected");
	return p;
}

void fx_delta(struct roce_delta *d, size_t n_ports, double seconds)
{
	memset(d, 0, sizeof(*d));
	d->seconds = seconds;
	d->gid_index = 3;
	d->traffic_class = 106;
	d->ports = calloc(n_ports, sizeof(*d->ports));
	d->n_ports = n_ports;
	for (size_t i = 0; i < n_ports; i++) {
		struct roce_port_delta *p = &d->ports[i];
		snprintf(p->device, sizeof(p->device), "mlx5_%zu", i);
		p->port = 1;
		snprintf(p->netdev, sizeof(p->netdev), "eth%u", (unsigned)(i % 1000)); /* i < 1000: fits */
		p->gid_index = 3;
		p->gid_index_start = 3;
		p->active_mtu = 4096;
		p->netdev_mtu = 9000;
		p->pfc_status = ROCE_DELTA_OK;
		p->pfc_enabled = 1u << 3;
	}
}

struct fx_check *fx_check_new(size_t n_ports)
{
	struct fx_check *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	fx_healthy_node(&f->node, n_ports);
	roce_policy_defaults(&f->policy);
	return f;
}

void fx_check_run(struct fx_check *f)
{
	roce_check_result_free(&f->check);
	assert_int_equal(roce_check(&f->node, &f->policy, &f->check), 0);
	assert_int_equal(roce_plan_build(&f->policy, &f->check, NULL, &f->plan), 0);
}

void fx_check_free(struct fx_check *f)
{
	roce_check_result_free(&f->check);
	roce_node_free(&f->node);
	free(f);
}

int fx_check_setup2(void **state)
{
	*state = fx_check_new(2);
	return 0;
}

int fx_check_setup3(void **state)
{
	*state = fx_check_new(3);
	return 0;
}

int fx_check_teardown(void **state)
{
	fx_check_free(*state);
	return 0;
}

const struct roce_finding *fx_finding(const struct roce_check_result *r, const char *check, const char *subject,
                                      enum roce_verdict status)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (!strcmp(r->findings[i].check, check) && !strcmp(r->findings[i].subject, subject) &&
		    r->findings[i].status == status)
			return &r->findings[i];
	return NULL;
}

size_t fx_finding_count(const struct roce_check_result *r, const char *check, int status)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_findings; i++)
		n += !strcmp(r->findings[i].check, check) && (status == FX_ANY || (int)r->findings[i].status == status);
	return n;
}

struct roce_fragment_meta fx_meta(const char *node)
{
	struct roce_fragment_meta m = { .job_id = "4242", .node = node, .job_uid = 1000,
	                                .start_ns = 1000000000, .end_ns = 11000000000, .pfc_priority = 3 };
	return m;
}

json_object *fx_fragment(const char *node, struct roce_delta *d, const struct roce_fragment_meta *mp)
{
	struct roce_verdict_list v = { 0 };
	struct roce_fragment f;
	struct roce_fragment_meta m = mp ? *mp : fx_meta(node);
	m.node = node;
	assert_int_equal(roce_verdicts_from_delta(d, &m, &v), 0);
	assert_int_equal(roce_fragment_build(&f, &m, d, &v, NULL), 0);
	json_object *o = fx_fragment_json(&f, m.job_id, true);
	roce_fragment_free(&f);
	roce_verdict_list_free(&v);
	return o;
}

json_object *fx_fragment_json(const struct roce_fragment *f, const char *job_id, bool with_schema)
{
	struct roce_fragment_text t = { 0 };
	assert_int_equal(roce_fragment_write(&t, f, job_id, with_schema), 0);
	json_object *o = json_tokener_parse(t.s);
	assert_non_null(o);
	roce_fragment_write_free(&t);
	return o;
}

int fx_fragment_read_json(json_object *o, const char *job_id, struct roce_fragment *f, struct roce_error *err)
{
	size_t len;
	const char *text =
	        json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	assert_non_null(text);
	char *copy = strndup(text, len);
	assert_non_null(copy);
	int rc = roce_fragment_read(NULL, copy, len, job_id, f, err);
	free(copy);
	return rc;
}

int fx_report_add(struct roce_job_report *r, json_object *frag, const char *source, struct roce_error *err)
{
	struct roce_fragment f;
	if (fx_fragment_read_json(frag, r->job_id, &f, err) < 0) {
		roce_report_error(r, source, err->msg);
		return -1;
	}
	return roce_report_append(r, &f, err);
}

double fx_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

char *fx_nodelist(const char *const *names, size_t n)
{
	char *s = malloc(160);
	snprintf(s, 160, "%s..%s(%zu)", names[0], names[n - 1], n);
	return s;
}

void fx_merged_job(struct roce_job_report *r)
{
	struct roce_delta d;
	struct roce_error err;
	roce_report_init(r, "4242");
	const char *nodes[] = { "n10", "n2", "n1", "n3" };
	for (size_t i = 0; i < 4; i++) {
		fx_delta(&d, 2, 10);
		if (i == 3) {
			d.ports[1].active_mtu = 1024;   /* one port of one node differs */
			d.gid_index = 5;
		}
		if (i == 1)
			d.ports[0].c[ROCE_C_PACKET_SEQ_ERR].value = 3;
		json_object *f = fx_fragment(nodes[i], &d, NULL);
		assert_int_equal(fx_report_add(r, f, nodes[i], &err), 0);
		json_object_put(f);
		roce_delta_free(&d);
	}
	/* another job's fragment is refused; a duplicate is taken, then dropped by the sort */
	fx_delta(&d, 1, 10);
	struct roce_fragment_meta other = fx_meta("n9");
	other.job_id = "7";
	json_object *f = fx_fragment("n9", &d, &other);
	assert_int_equal(fx_report_add(r, f, "n9.json", &err), -1);
	assert_non_null(strstr(err.msg, "fragment of job 7"));
	json_object_put(f);
	f = fx_fragment("n1", &d, NULL);
	assert_int_equal(fx_report_add(r, f, "again", &err), 0);
	json_object_put(f);
	roce_delta_free(&d);
	roce_report_sort(r);
}

/* Ports mlx5_0:1 and mlx5_1:1 of a node at t seconds, ACTIVE, GID 3, counters read as 0. */
static void live_snap(struct roce_snapshot *s, struct roce_port_sample *ps, int64_t t)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 2; i++) {
		char dev[16];
		snprintf(dev, sizeof(dev), "mlx5_%d", i);
		ps[i] = fx_port_sample(dev);
		snprintf(ps[i].netdev, sizeof(ps[i].netdev), "eth%d", i);
		snprintf(ps[i].state, sizeof(ps[i].state), "ACTIVE");
		snprintf(ps[i].gid_addr, sizeof(ps[i].gid_addr), "192.0.2.1%d", i);
		ps[i].gid_index = 3;
	}
	s->time_ns = t * 1000000000LL;
	s->ports = ps;
	s->n_ports = 2;
	s->check = -1;
}

void fx_live(struct roce_live *l, const char *job, const char *node, long uid)
{
	struct roce_snapshot start, prev, now;
	struct roce_port_sample a[2], b[2], c[2];
	struct roce_live_meta m = { job, node, uid, 2 };
	live_snap(&start, a, 1000);
	live_snap(&prev, b, 1300);
	live_snap(&now, c, 1600);
	/* port_xmit_data counts 4-byte words */
	b[0].c[ROCE_C_PORT_XMIT_DATA].value = 25 << 20;
	c[0].c[ROCE_C_PORT_XMIT_DATA].value = 75 << 20;
	c[0].c[ROCE_C_OUT_OF_SEQUENCE].value = 7;
	c[1].gid_index = 4;
	assert_int_equal(roce_live_build(l, &m, &start, &prev, &now, NULL, 0), 0);
}
