/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probeagree.h - the path probe's verdicts in the job-wide agreement
 * (Probe=ip, issue 27): a rail whose probe failed between any two nodes of
 * the step is left out on every node (a TRIM line: warn leaves it out,
 * strict fails the step), one line per node pair and rail naming the
 * failure: no answer, the largest size that passed, the DSCP that arrived.
 * A rail not probed (LOCAL) is said in a SHOULD line and kept.  Pure.
 */
#ifndef ROCE_PROBEAGREE_H
#define ROCE_PROBEAGREE_H

#include <stddef.h>
#include <stdbool.h>
#include "agree/fingerprint.h"
#include "agree/lines.h"
#include "agree/rails.h"

/* r's failure in words ("no answer", "largest size that passed 1500 of
 * 9000", "DSCP 26 sent, 0 arrived", "not probed") into buf. */
void roce_probeagree_words(const struct roce_fp_probe_result *r, char *buf, size_t len);

/* drop[c] for each column c of ref that is agreed[c] and a node's probe
 * failed on (fps[i] is nodes[i]'s, NULL none), a TRIM line in lines for
 * each such node and rail (and the SHOULD lines of a rail not probed and of
 * roce_probeagree_names); how many columns to drop. */
size_t roce_probeagree_failed(const struct roce_rails *ref, const bool *agreed,
                              const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n,
                              struct roce_lines *lines, bool drop[ROCE_FP_PORTS_MAX]);

/* A SHOULD line for each node whose fingerprint says the next node's name
 * resolved there to an address that node does not have ("node2 resolves
 * node3 to 192.0.2.99, not an address node3 has (/etc/hosts or DNS)"). */
void roce_probeagree_names(const struct roce_fingerprint *const *fps, const char *const *nodes, size_t n,
                           struct roce_lines *lines);

#endif
