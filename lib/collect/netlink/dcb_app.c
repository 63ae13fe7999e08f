/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcb_app.c - the DSCP -> priority map from DCB_ATTR_IEEE_APP_TABLE.  Pure.
 */
#include "config.h"
#include "collect/netlink/dcb_app.h"
#include "collect/netlink/nlmsg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/dcbnl.h>

/* Walk state for the APP table: entries repeat, so no table by type. */
struct app_walk {
	int8_t prio[ROCE_DSCP_MAX];
	size_t n;
	char why[ROCE_WHY_MAX]; /* the entry refused, when the walk is */
	const char *what;
};

static int app_entry_cb(const struct nlattr *attr, void *data)
{
	struct app_walk *w = data;
	struct dcb_app app;

	/* Newer kernels put non-IEEE selectors (PCP) in DCB_ATTR_DCB_APP
	 * entries: not DSCP, not ours. */
	if (mnl_attr_get_type(attr) != DCB_ATTR_IEEE_APP)
		return MNL_CB_OK;
	if (roce_nlmsg_struct(attr, &app, sizeof(app), w->what, "APP entry", "dcb_app", w->why, sizeof(w->why)) < 0)
		return MNL_CB_ERROR;
	if (app.selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return MNL_CB_OK;
	if (app.protocol >= ROCE_DSCP_MAX || app.priority >= ROCE_PRIOS) {
		snprintf(w->why, sizeof(w->why), "%s: DSCP APP entry dscp %u -> priority %u out of range", w->what,
		         app.protocol, app.priority);
		return MNL_CB_ERROR;
	}
	/* IEEE mode allows one DSCP with several priorities; the NIC uses one
	 * of them and we cannot tell which, so the map is not usable. */
	int8_t *slot = &w->prio[app.protocol];
	if (*slot >= 0 && *slot != app.priority) {
		snprintf(w->why, sizeof(w->why), "%s: APP table maps DSCP %u to both priority %d and %u", w->what,
		         app.protocol, *slot, app.priority);
		return MNL_CB_ERROR;
	}
	if (*slot < 0)
		w->n++;
	*slot = (int8_t)app.priority;
	return MNL_CB_OK;
}

/* Walk the nest into w: 0, or -1 with w->why. */
static int walk_table(const struct nlattr *attr, struct app_walk *w)
{
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0) {
		snprintf(w->why, sizeof(w->why), "%s: DCB_ATTR_IEEE_APP_TABLE is not a nest", w->what);
		return -1;
	}
	enum roce_nlmsg_walk rc = roce_nlmsg_walk_nest(attr, app_entry_cb, w);
	if (rc == ROCE_NLMSG_OVERRUN)
		snprintf(w->why, sizeof(w->why), "%s: APP entry overruns DCB_ATTR_IEEE_APP_TABLE", w->what);
	return rc == ROCE_NLMSG_WALKED ? 0 : -1; /* REFUSED: app_entry_cb said why */
}

int roce_dcb_app_parse(const struct nlattr *attr, struct roce_dscp_map *dscp, const char *what)
{
	struct app_walk w = { .what = what };
	memset(w.prio, -1, sizeof(w.prio));
	/* dcbnl_ieee_fill() always emits the nest, empty when no APP entry is
	 * configured; a reply without it (other kernels) means the same: the
	 * table was read and holds no DSCP entries.  That is a real answer
	 * ("no DSCP trust"), which check.c judges. */
	if (attr && walk_table(attr, &w) < 0) {
		roce_reading_set(&dscp->read, ROCE_MALFORMED, EPROTO, "%s", w.why);
		return -1;
	}
	memcpy(dscp->prio, w.prio, sizeof(dscp->prio));
	dscp->n = w.n;
	roce_reading_set(&dscp->read, ROCE_OK, 0, NULL);
	return 0;
}
