/* SPDX-License-Identifier: GPL-2.0-or-later */
/* agreed.c - the agreement as a step's nodes get it (agreed.h). */
#include "config.h"
#include "agree/agreed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- to the step */

static const char *const verdict_words[] = { "rails", "empty", "own", "fail" };

int roce_agreed_encode(const struct roce_agreement *a, enum roce_agree_verdict v, const char *step, char *buf,
                       size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "2;%s;%s", step, verdict_words[v]);
	if (v != ROCE_AGREED_RAILS)
		return used < len ? 0 : -1;
	for (size_t k = 0; k < a->ref.n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%c%s", k ? ',' : ';', a->ref.key[k]);
	for (size_t k = 0; k < a->n_rails && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%c%d@%d", k ? ',' : ';', a->rails[k].col,
		                         a->rails[k].active_mtu);
	return used < len && a->n_rails ? 0 : -1;
}

/* "3@4096" */
static int decode_rail(const char *s, size_t n_ref, struct roce_agree_rail *r)
{
	char *end;
	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '@'))
		return -1;
	unsigned long col = strtoul(s, &end, 10);
	if (*end != '@' || col >= n_ref || end[1] < '0' || end[1] > '9')
		return -1;
	long mtu = strtol(end + 1, &end, 10);
	if (*end || mtu > 4096)
		return -1;
	r->col = (int)col;
	r->active_mtu = (int)mtu;
	return 0;
}

static int decode_lists(char *keys, char *rails, struct roce_agreed *d)
{
	char *save = NULL;
	for (char *tok = strtok_r(keys, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (d->ref.n == ROCE_FP_PORTS_MAX || strlen(tok) >= ROCE_RAIL_KEY_MAX || !roce_rails_key_ok(tok))
			return -1;
		snprintf(d->ref.key[d->ref.n++], ROCE_RAIL_KEY_MAX, "%s", tok);
	}
	bool seen[ROCE_FP_PORTS_MAX] = { false };
	for (char *tok = strtok_r(rails, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct roce_agree_rail *r = &d->rails[d->n_rails];
		if (d->n_rails == ROCE_FP_PORTS_MAX || decode_rail(tok, d->ref.n, r) < 0 || seen[r->col])
			return -1;
		seen[r->col] = true;
		d->n_rails++;
	}
	return d->ref.n && d->n_rails ? 0 : -1;
}

int roce_agreed_decode(const char *s, struct roce_agreed *d, struct roce_error *err)
{
	char copy[ROCE_AGREE_ENV_MAX], *save = NULL;
	memset(d, 0, sizeof(*d));
	if (!s || strlen(s) >= sizeof(copy) || strncmp(s, "2;", 2) != 0 || strstr(s, ",,") || strstr(s, ";;"))
		goto bad;
	snprintf(copy, sizeof(copy), "%s", s + 2);
	char *step = strtok_r(copy, ";", &save), *word = strtok_r(NULL, ";", &save), *keys = strtok_r(NULL, ";", &save),
	     *rails = strtok_r(NULL, ";", &save);
	if (!step || !word || strlen(step) >= sizeof(d->step) || strspn(step, "0123456789.") != strlen(step) ||
	    strtok_r(NULL, ";", &save))
		goto bad;
	snprintf(d->step, sizeof(d->step), "%s", step);
	int v = 0;
	while (v <= ROCE_AGREED_FAIL && strcmp(word, verdict_words[v]) != 0)
		v++;
	if (v > ROCE_AGREED_FAIL || (v == ROCE_AGREED_RAILS) != (keys != NULL) || (keys != NULL) != (rails != NULL))
		goto bad;
	d->verdict = (enum roce_agree_verdict)v;
	if (keys && decode_lists(keys, rails, d) < 0)
		goto bad;
	return 0;
bad:
	memset(d, 0, sizeof(*d));
	roce_error_set(err, "%s is not a value the plugin's srun side wrote", ROCE_AGREE_ENV);
	return -1;
}

/* ---------------------------------------------------------------- on each node */

int roce_agreed_apply(const struct roce_agreed *d, const struct roce_fingerprint *self, struct roce_plan *plan,
                      char *why, size_t len)
{
	char hca[sizeof(plan->vars[0].value)] = "", ifs[sizeof(plan->vars[0].value)] = "", item[ROCE_NAME_MAX + 8];
	int port_of[ROCE_FP_PORTS_MAX];
	size_t wused = 0;
	int lacking = 0;
	why[0] = '\0';
	roce_rails_fit(&d->ref, self, port_of);
	for (size_t k = 0; k < d->n_rails; k++) {
		const struct roce_agree_rail *r = &d->rails[k];
		int i = r->col >= 0 && (size_t)r->col < d->ref.n ? port_of[r->col] : -1;
		const struct roce_fp_port *p = i >= 0 ? &self->ports[i] : NULL;
		if (!p || (r->active_mtu && p->active_mtu != r->active_mtu)) {
			lacking++;
			if (wused < len)
				wused += (size_t)snprintf(why + wused, len - wused, "%s%s %s", wused ? ", " : "",
				                          r->col >= 0 && (size_t)r->col < d->ref.n ? d->ref.key[r->col]
				                                                                   : "?",
				                          p ? "has another RDMA MTU here" : "has no healthy port here");
			continue;
		}
		snprintf(item, sizeof(item), "%s:%u", p->device, p->port);
		roce_plan_list_add(hca, sizeof(hca), item);
		roce_plan_list_add(ifs, sizeof(ifs), p->netdev);
	}
	if (!plan->valid)
		return lacking;
	if (!hca[0]) {
		plan->valid = false;
		snprintf(plan->why, sizeof(plan->why), "none of the step's agreed rails is usable here");
		return lacking;
	}
	/* Both fit (each list is at most a value long) and a valid plan sets both. */
	(void)roce_plan_setf(plan, "NCCL_IB_HCA", "%s", hca);
	(void)roce_plan_setf(plan, "NCCL_SOCKET_IFNAME", "%s", ifs);
	return lacking;
}
