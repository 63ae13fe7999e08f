/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.c - the check's findings (and the locality step's choice) -> the
 * NCCL environment of a job.  Pure.
 *
 * Only validated values are exported: the healthy ports in NCCL's exact-match
 * form (=dev:port, so mlx5_1 does not also match mlx5_10), the GID index the
 * check found on every one of them, the netdevs for NCCL's bootstrap, and the
 * traffic class whose DSCP lands on the PFC priority.
 */
#include "config.h"
#include "check/plan.h"
#include "check/choice.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int roce_plan_setf(struct roce_plan *plan, const char *name, const char *fmt, ...)
{
	struct roce_env_var *v = NULL;
	for (size_t i = 0; i < plan->n_vars && !v; i++)
		if (strcmp(plan->vars[i].name, name) == 0)
			v = &plan->vars[i];
	if (!v) {
		if (plan->n_vars >= ROCE_PLAN_VARS)
			return -1;
		v = &plan->vars[plan->n_vars++];
		snprintf(v->name, sizeof(v->name), "%s", name);
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(v->value, sizeof(v->value), fmt, ap);
	va_end(ap);
	return (n < 0 || (size_t)n >= sizeof(v->value)) ? -1 : 0;
}

const char *roce_plan_get(const struct roce_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n_vars; i++)
		if (strcmp(plan->vars[i].name, name) == 0)
			return plan->vars[i].value;
	return NULL;
}

void roce_plan_list_add(char *list, size_t len, const char *item)
{
	/* list is "=a,b,c": compare against each entry */
	const char *p = list[0] == '=' ? list + 1 : list;
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n == strlen(item) && strncmp(p, item, n) == 0)
			return;
		p += n + (p[n] == ',');
	}
	size_t used = strlen(list);
	snprintf(list + used, len - used, "%s%s", used ? "," : "=", item);
}

/* "=dev:port,..." for the healthy ports of device (in port order). */
static size_t add_device_ports(const struct roce_check_result *check, const char *device, char *hcas, size_t hlen,
                               char *ifnames, size_t ilen, size_t n)
{
	char item[128];
	for (size_t i = 0; i < check->n_ports && n < ROCE_HCA_MAX; i++) {
		const struct roce_port_result *pr = &check->ports[i];
		if (!pr->healthy || (device && strcmp(pr->device, device) != 0))
			continue;
		snprintf(item, sizeof(item), "%s:%u", pr->device, pr->port);
		roce_plan_list_add(hcas, hlen, item);
		if (pr->netdev[0])
			roce_plan_list_add(ifnames, ilen, pr->netdev);
		n++;
	}
	return n;
}

int roce_plan_build(const struct roce_policy *policy, const struct roce_check_result *check,
                    const struct roce_choice *choice, struct roce_plan *out)
{
	memset(out, 0, sizeof(*out));
	if (check->failed && policy->mode == ROCE_MODE_STRICT) {
		snprintf(out->why, sizeof(out->why), "the node failed its RoCE checks in strict mode");
		return 0;
	}
	char hcas[2048] = "", ifnames[512] = "";
	size_t n = 0;
	enum roce_gdr_level gdr = policy->gdr_level;
	if (choice && choice->n_hca) {
		for (size_t i = 0; i < choice->n_hca; i++)
			n = add_device_ports(check, choice->hca[i], hcas, sizeof(hcas), ifnames, sizeof(ifnames), n);
		gdr = choice->gdr_level;
	} else {
		n = add_device_ports(check, NULL, hcas, sizeof(hcas), ifnames, sizeof(ifnames), 0);
	}
	if (n == 0 || check->gid_index < 0) {
		snprintf(out->why, sizeof(out->why), "no healthy RoCE port");
		return 0;
	}
	if (roce_plan_setf(out, "NCCL_IB_HCA", "%s", hcas) < 0 ||
	    roce_plan_setf(out, "NCCL_IB_GID_INDEX", "%d", check->gid_index) < 0 ||
	    roce_plan_setf(out, "NCCL_NET_GDR_LEVEL", "%s", roce_gdr_level_name(gdr)) < 0 ||
	    roce_plan_setf(out, "NCCL_SOCKET_IFNAME", "%s", ifnames) < 0)
		goto overflow;
	if (check->traffic_class >= 0 && roce_plan_setf(out, "NCCL_IB_TC", "%d", check->traffic_class) < 0)
		goto overflow;
	/* PCP trust: the VLAN tag's priority is the service level NCCL puts in its address handles. */
	if (check->trust == ROCE_TRUST_PCP && policy->pfc_priority != ROCE_PFC_NONE &&
	    roce_plan_setf(out, "NCCL_IB_SL", "%d", policy->pfc_priority) < 0)
		goto overflow;
	out->valid = true;
	return 0;
overflow:
	memset(out, 0, sizeof(*out));
	snprintf(out->why, sizeof(out->why), "internal error: environment value too long");
	return -1;
}
