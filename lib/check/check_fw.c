/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_fw.c - firmware of the node's adapters.  Pure.
 *
 * "Same driver and firmware everywhere" is the first thing a RoCE site
 * checks: two adapters of one model (hca_type + board_id) on a node running
 * different firmware is a half-finished update, which behaves differently
 * per port (congestion control defaults, PFC watchdog, bugs).  A warning:
 * the ports work.  A firmware version that cannot be read is unknown,
 * naming the file; a device whose model cannot be read is not compared.
 */
#include "config.h"
#include "check/check.h"

#include <stdio.h>
#include <string.h>

static bool same_model(const struct roce_device *a, const struct roce_device *b)
{
	return roce_reading_ok(&a->hca_type_read) && roce_reading_ok(&a->board_id_read) &&
	       roce_reading_ok(&b->hca_type_read) && roce_reading_ok(&b->board_id_read) &&
	       !strcmp(a->hca_type, b->hca_type) && !strcmp(a->board_id, b->board_id);
}

/* "mlx5_0 20.39.1002, mlx5_1 20.35.1012" for d's model, from the first device of it on. */
static void list_model(const struct roce_node *node, size_t first, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t j = first; j < node->n_devices; j++) {
		const struct roce_device *o = &node->devices[j];
		if (j != first && !same_model(&node->devices[first], o))
			continue;
		if (roce_reading_ok(&o->fw_ver_read))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s %s", buf[0] ? ", " : "", o->name,
			         o->fw_ver);
	}
}

/* One finding per adapter model, said at its first device. */
static int check_model(struct roce_check_result *r, const struct roce_node *node, size_t first)
{
	const struct roce_device *d = &node->devices[first];
	bool mixed = false;
	size_t n = 0;
	for (size_t j = first; j < node->n_devices; j++) {
		const struct roce_device *o = &node->devices[j];
		if (!same_model(d, o) || !roce_reading_ok(&o->fw_ver_read))
			continue;
		n++;
		mixed |= strcmp(o->fw_ver, d->fw_ver) != 0;
	}
	char list[512];
	list_model(node, first, list, sizeof(list));
	if (mixed)
		return roce_finding_addf(r, "firmware", d->name, 0, ROCE_WARN, "differs", 0, NULL,
		                         "%s (%s) adapters on this node run different firmware (%s): flash them all "
		                         "to the same version (mlxfwmanager, or the vendor's tool) and reboot or "
		                         "reset them",
		                         d->hca_type, d->board_id, list);
	return roce_finding_pass(r, "firmware", d->name, 0, "%s (%s) firmware %s (%zu adapter%s)", d->hca_type,
	                         d->board_id, d->fw_ver, n, n == 1 ? "" : "s");
}

int roce_check_fw(struct roce_check_result *r, const struct roce_node *node)
{
	for (size_t i = 0; i < node->n_devices; i++) {
		const struct roce_device *d = &node->devices[i];
		const struct roce_reading *fw = &d->fw_ver_read;
		if (fw->status == ROCE_NOT_READ || fw->status == ROCE_MISSING)
			continue;
		if (!roce_reading_ok(fw)) {
			if (roce_finding_addf(r, "firmware", d->name, 0, ROCE_UNKNOWN, "unknown", 0, NULL,
			                      "%s firmware version cannot be read (%s: %s)", d->name,
			                      roce_status_name(fw->status), fw->why) < 0)
				return -1;
			continue;
		}
		if (!roce_reading_ok(&d->hca_type_read) || !roce_reading_ok(&d->board_id_read))
			continue;
		/* The first readable device of its model speaks for the model. */
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = same_model(&node->devices[j], d) && roce_reading_ok(&node->devices[j].fw_ver_read);
		if (!seen && check_model(r, node, i) < 0)
			return -1;
	}
	return 0;
}
