/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_verdicts.c - the job-level verdict rules (report_verdicts.h).  As
 * in verdicts.c: one function per rule, its fix text just above it; a rule
 * looks at one node of the merged report and may call verdict().  Every
 * code is documented in man/roce-report.1 (tests/e2e/man-pages.sh finds it
 * as the string just before verdict()'s severity argument).
 */
#include "config.h"
#include "report/report_verdicts.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append one verdict to node n.  code and fix are the rule's string
 * literals, kept as they are (static text: the one thing a fragment may
 * point to outside its arena, fragment.h); subject and the message are
 * copied.  0, -1 on ENOMEM. */
static int verdict(struct roce_fragment *n, const char *subject, const char *code, enum roce_severity sev,
                   const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int verdict(struct roce_fragment *n, const char *subject, const char *code, enum roce_severity sev,
                   const char *fix, const char *fmt, ...)
{
	char message[sizeof(((struct roce_job_verdict *)0)->message)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	/* In the node's arena, as everything a fragment holds (fragment.h).  A
	 * node gets a few job verdicts: each outgrown array stays in the arena.
	 * Copying the fix too would cost 16,384 copies of it in a large job. */
	struct roce_arena *a = &n->arena;
	struct roce_fragment_verdict *grown =
	        roce_arena_grow(a, n->verdicts, n->n_verdicts * sizeof(*grown), (n->n_verdicts + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	n->verdicts = grown;
	struct roce_fragment_verdict v = { (char *)code, roce_arena_strdup(a, subject), roce_arena_strdup(a, message),
		                           (char *)fix, (uint8_t)sev };
	if (!v.subject || !v.message)
		return -1;
	n->verdicts[n->n_verdicts++] = v;
	return 0;
}

typedef int (*job_rule)(const struct roce_job_report *r, struct roce_fragment *n);

/* The port's data counter in bytes, read at both ends; false when unread. */
static bool data_read(const struct roce_fragment_port *p, enum roce_counter_id id, uint64_t *bytes)
{
	*bytes = p->c[id];
	return p->presence == ROCE_PORT_BOTH && p->cs[id] != ROCE_DELTA_UNREAD;
}

#define FIX_NO_RDMA_TRAFFIC                                                                                         \
	"NCCL fell back to TCP sockets (NCCL_DEBUG=INFO logs NET/Socket instead of NET/IB): "                       \
	"check that NCCL_IB_HCA names this node's RoCE devices (the job's own value overrides the plugin's), that " \
	"NCCL_IB_DISABLE is not set and that a container sees /dev/infiniband; ignore this if the job's nodes do "  \
	"not talk to each other"
static int rule_no_rdma_traffic(const struct roce_job_report *r, struct roce_fragment *n)
{
	if (r->n_nodes < 2 || n->n_ports == 0)
		return 0;
	uint64_t xmit = 0, rcv = 0;
	for (size_t i = 0; i < n->n_ports; i++) {
		uint64_t x, y;
		/* An unread counter or a port that came or went: unknown, not zero. */
		if (!data_read(&n->ports[i], ROCE_C_PORT_XMIT_DATA, &x) ||
		    !data_read(&n->ports[i], ROCE_C_PORT_RCV_DATA, &y) || x >= ROCE_NO_RDMA_FLOOR_BYTES ||
		    y >= ROCE_NO_RDMA_FLOOR_BYTES)
			return 0;
		xmit += x;
		rcv += y;
	}
	return verdict(n, "node", "no_rdma_traffic", ROCE_SEV_WARN, FIX_NO_RDMA_TRAFFIC,
	               "a %zu-node job whose %zu RoCE port(s) on this node moved no RDMA data: %" PRIu64
	               " bytes sent, %" PRIu64 " received (port_xmit_data, port_rcv_data; under %u KiB per port)",
	               r->n_nodes, n->n_ports, xmit, rcv, ROCE_NO_RDMA_FLOOR_BYTES / 1024);
}

static const job_rule job_rules[] = {
	rule_no_rdma_traffic,
};

int roce_report_verdicts(struct roce_job_report *r)
{
	for (size_t i = 0; i < r->n_nodes; i++)
		for (size_t k = 0; k < sizeof(job_rules) / sizeof(job_rules[0]); k++)
			if (job_rules[k](r, &r->nodes[i]) < 0)
				return -1;
	return 0;
}
