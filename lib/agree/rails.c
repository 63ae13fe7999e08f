/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rails.c - a node's ports placed on the step's rails (rails.h). */
#include "config.h"
#include "agree/rails.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void roce_rails_key(const struct roce_fp_port *p, char out[ROCE_RAIL_KEY_MAX])
{
	if (p->rail[0])
		snprintf(out, ROCE_RAIL_KEY_MAX, "%s", p->rail);
	else
		snprintf(out, ROCE_RAIL_KEY_MAX, "%.63s:%u", p->device, p->port);
}

bool roce_rails_key_is_subnet(const char *key) { return strchr(key, '/') != NULL; }

bool roce_rails_key_ok(const char *key)
{
	char dev[ROCE_NAME_MAX];
	if (roce_rails_key_is_subnet(key))
		return roce_subnet_canonical(key);
	const char *colon = strrchr(key, ':');
	if (!colon || (size_t)(colon - key) >= sizeof(dev))
		return false;
	memcpy(dev, key, (size_t)(colon - key));
	dev[colon - key] = '\0';
	const char *p = colon + 1;
	size_t nd = strspn(p, "0123456789");
	return roce_device_name_ok(dev) && nd >= 1 && nd <= 3 && !p[nd] && p[0] != '0' && atoi(p) <= 255;
}

/* Is column c's key the key of f's port i? */
struct fit_in {
	const struct roce_rails *ref;
	char keys[ROCE_FP_PORTS_MAX][ROCE_RAIL_KEY_MAX]; /* f's ports' */
	int cols[ROCE_FP_PORTS_MAX];                     /* the subnet columns, in order */
	int ports[ROCE_FP_PORTS_MAX];                    /* f's subnet ports that some column has, in order */
	size_t nc, np;
};

static bool on_some_column(const struct roce_rails *ref, const char *key)
{
	for (size_t c = 0; c < ref->n; c++)
		if (strcmp(ref->key[c], key) == 0)
			return true;
	return false;
}

/* The longest common subsequence of the subnet ports and the subnet
 * columns, a match on the diagonal (the port's place is the column's)
 * counting a little more: score = 64 * matches + diagonal matches. */
static void fit_subnets(const struct fit_in *in, int *port_of)
{
	static const int W = 64;
	int dp[ROCE_FP_PORTS_MAX + 1][ROCE_FP_PORTS_MAX + 1];
	size_t np = in->np, nc = in->nc;
	for (size_t i = np + 1; i-- > 0;)
		for (size_t j = nc + 1; j-- > 0;) {
			if (i == np || j == nc) {
				dp[i][j] = 0;
				continue;
			}
			int best = dp[i + 1][j] > dp[i][j + 1] ? dp[i + 1][j] : dp[i][j + 1];
			if (strcmp(in->keys[in->ports[i]], in->ref->key[in->cols[j]]) == 0) {
				int take = W + (i == j) + dp[i + 1][j + 1];
				best = take > best ? take : best;
			}
			dp[i][j] = best;
		}
	for (size_t i = 0, j = 0; i < np && j < nc;) {
		bool match = strcmp(in->keys[in->ports[i]], in->ref->key[in->cols[j]]) == 0;
		if (match && dp[i][j] == W + (i == j) + dp[i + 1][j + 1]) {
			port_of[in->cols[j]] = in->ports[i];
			i++, j++;
		} else if (dp[i][j] == dp[i + 1][j]) {
			i++;
		} else {
			j++;
		}
	}
}

void roce_rails_fit(const struct roce_rails *ref, const struct roce_fingerprint *f, int port_of[ROCE_FP_PORTS_MAX])
{
	struct fit_in in = { .ref = ref };
	size_t n_ports = f->n_ports < ROCE_FP_PORTS_MAX ? f->n_ports : ROCE_FP_PORTS_MAX;
	for (size_t c = 0; c < ROCE_FP_PORTS_MAX; c++)
		port_of[c] = -1;
	for (size_t i = 0; i < n_ports; i++)
		roce_rails_key(&f->ports[i], in.keys[i]);
	for (size_t c = 0; c < ref->n && c < ROCE_FP_PORTS_MAX; c++) {
		if (roce_rails_key_is_subnet(ref->key[c])) {
			in.cols[in.nc++] = (int)c;
			continue;
		}
		/* a name: that port, on one column only */
		for (size_t i = 0; i < n_ports && port_of[c] < 0; i++) {
			bool taken = false;
			for (size_t k = 0; k < c; k++)
				taken |= port_of[k] == (int)i;
			if (!taken && strcmp(in.keys[i], ref->key[c]) == 0)
				port_of[c] = (int)i;
		}
	}
	for (size_t i = 0; i < n_ports; i++)
		if (roce_rails_key_is_subnet(in.keys[i]) && on_some_column(ref, in.keys[i]))
			in.ports[in.np++] = (int)i;
	fit_subnets(&in, port_of);
}
