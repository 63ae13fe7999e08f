/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_ports.h - which of a fragment's ports each verdict is about, found
 * by name once per fragment: a verdict's subject up to its first space names
 * the port as report_metric.h does ("mlx5_0:1 prio 3" is about mlx5_0:1;
 * "node" about none).  The names are indexed by hash (hashindex.h), so the
 * cost is linear in ports + verdicts: a search of the ports per verdict cost
 * verdicts x ports (a 9 MB fragment: 10-24 s of roce-report --nodes).  Pure.
 */
#ifndef ROCE_REPORT_PORTS_H
#define ROCE_REPORT_PORTS_H

#include <stddef.h>
#include "base/hashindex.h"
#include "fragment/fragment.h"

/* Zeroed: empty.  Reused from fragment to fragment (its memory kept). */
struct roce_report_ports {
	const struct roce_fragment *n;
	struct roce_hashindex index; /* port name -> port */
	char *names;                 /* the ports' names, NUL-separated: port i's at names + at[i] */
	size_t *at;
	size_t len, cap, cap_at;
	/* By port (roce_report_ports_verdicts): port i's verdicts are
	 * by[first[i] .. first[i + 1]), in the fragment's order. */
	size_t *first, *by;
	size_t cap_first, cap_by;
};

/* Index n's ports (n is kept, and must outlive the use).  0, -1 on ENOMEM. */
int roce_report_ports_index(struct roce_report_ports *x, const struct roce_fragment *n);
/* The port named by the first len bytes of name ("mlx5_0:1"), -1 none;
 * a name given twice is its first port's. */
long roce_report_ports_find(const struct roce_report_ports *x, const char *name, size_t len);
/* The port verdict v of the indexed fragment is about (its subject up to
 * the first space), -1 none; exact: whether the subject is the port's name
 * and nothing more. */
long roce_report_ports_of(const struct roce_report_ports *x, const struct roce_fragment_verdict *v, bool *exact);
/* Each port's exact verdicts (those whose subject is its name) into first
 * and by, as described above.  0, -1 on ENOMEM. */
int roce_report_ports_verdicts(struct roce_report_ports *x);
void roce_report_ports_free(struct roce_report_ports *x);

#endif
