/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * drain.c - drain this node through libslurm, for a step's check
 * (slurmstepd.c) and the job prolog's gate (jobscript.c), and what the gate
 * asks slurmctld first.  Both run in a slurmstepd as root, where
 * libslurmfull is already loaded and sends the RPCs, each bounded by
 * Slurm's MessageTimeout.  Whether to drain, and what to say, is
 * check_drain.c's (lib/check/check.h).
 */
#include "config.h"
#include "roce.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <slurm/slurm.h>

/* The node's state (ROCE_DRAIN_STATE_* bits, check.h) and drain reason as
 * slurmctld has them, into *state and buf ("" = none); -1 when slurmctld
 * cannot be asked. */
static int node_state(const char *node, unsigned *state, char *buf, size_t len)
{
	node_info_msg_t *info = NULL;
	*state = 0;
	buf[0] = '\0';
	if (slurm_load_node_single(&info, (char *)node, SHOW_ALL) != SLURM_SUCCESS || !info)
		return -1;
	if (info->record_count >= 1) {
		uint32_t st = info->node_array[0].node_state;
		*state = ((st & NODE_STATE_DRAIN) ? ROCE_DRAIN_STATE_DRAIN : 0) |
		         ((st & NODE_STATE_FAIL) ? ROCE_DRAIN_STATE_FAIL : 0) |
		         ((st & NODE_STATE_BASE) == NODE_STATE_DOWN ? ROCE_DRAIN_STATE_DOWN : 0);
		if (info->node_array[0].reason)
			snprintf(buf, len, "%s", info->node_array[0].reason);
	}
	slurm_free_node_info_msg(info);
	return 0;
}

int roce_drain_node(const char *node, const char *reason)
{
	char current[256];
	unsigned state;
	if (node_state(node, &state, current, sizeof(current)) < 0) {
		slurm_error(ROCE_LOG "%s: cannot read the node's state from slurmctld: not draining it (\"%s\"): %s",
		            node, reason, slurm_strerror(errno));
		return -1;
	}
	if (roce_check_drain_leave_alone(state, current)) {
		char shown[200];
		slurm_info(ROCE_LOG "%s: already drained for \"%s\": left alone (%s)", node,
		           roce_printable(current, shown, sizeof(shown)), reason);
		return 1;
	}
	update_node_msg_t msg;
	slurm_init_update_node_msg(&msg);
	msg.node_names = (char *)node;
	msg.node_state = NODE_STATE_DRAIN;
	msg.reason = (char *)reason;
#ifdef HAVE_UPDATE_NODE_MSG_T_REASON_UID
	msg.reason_uid = 0; /* gone in 26.05: slurmctld records the sender */
#endif
	if (slurm_update_node(&msg) != SLURM_SUCCESS) {
		slurm_error(ROCE_LOG "%s: cannot drain the node (\"%s\"): %s", node, reason, slurm_strerror(errno));
		return -1;
	}
	slurm_info(ROCE_LOG "%s: drained: %s", node, reason);
	return 0;
}
