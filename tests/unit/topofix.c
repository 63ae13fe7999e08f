/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topofix.c - see topofix.h. */
#include "config.h"
#include "unit.h"
#include "topofix.h"
#include "collect/topo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void topofix_own(char *out, size_t len, const char *name)
{
	const char *top = getenv("top_srcdir");
	snprintf(out, len, "%s/tests/fixtures/topo/%s", top ? top : ".", name);
}

void topofix_shared(char *out, size_t len, const char *name)
{
	const char *top = getenv("top_srcdir");
	snprintf(out, len, "%s/../shared/topologies/%s", top ? top : ".", name);
	if (access(out, R_OK))
		skip();
}

struct roce_locality *topofix_load(const char *path, const struct roce_locality_hca_in *hcas, size_t n)
{
	struct roce_topo_source src = { .xml_file = path };
	struct roce_topo *t = NULL;
	struct roce_error err = { "" };
	struct roce_locality *loc = calloc(1, sizeof(*loc));
	assert_non_null(loc);
	if (roce_topo_load(&src, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(roce_topo_origin(t), ROCE_TOPO_FROM_XML);
	assert_int_equal(roce_locality_build(t, hcas, n, loc, &err), 0);
	roce_topo_free(t);
	return loc;
}

const char *const topofix_all4[4] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3" };

static const struct {
	const char *name;
	bool own;
	size_t n;
	struct roce_locality_hca_in hcas[12];
} machines[] = {
	{ "two-socket.xml", true, 4, { { "mlx5_0", "0000:04:00.0", 0, 0 }, { "mlx5_1", "0000:04:00.1", 0, 0 },
	                           { "mlx5_2", "0000:88:00.0", 0, 0 }, { "mlx5_3", "0000:84:00.0", 0, 0 } } },
	/* same model, different mlx5 numbering: HCAs go by PCI address, not name or index */
	{ "topo.jwb0001.xml", false, 4, { { "mlx5_0", "0000:43:00.0", 0, 0 }, { "mlx5_1", "0000:04:00.0", 0, 0 },
	                                  { "mlx5_2", "0000:c3:00.0", 0, 0 }, { "mlx5_3", "0000:83:00.0", 0, 0 } } },
	{ "topo.jwb0004.xml", false, 4, { { "mlx5_0", "0000:04:00.0", 0, 0 }, { "mlx5_1", "0000:43:00.0", 0, 0 },
	                                  { "mlx5_2", "0000:83:00.0", 0, 0 }, { "mlx5_3", "0000:c3:00.0", 0, 0 } } },
	{ "ipa20.xml", false, 4, { { "mlx5_0", "0000:4d:00.0", 0, 0 }, { "mlx5_1", "0000:4d:00.1", 0, 0 },   /* one dual-port NIC */
	                           { "mlx5_2", "0000:5e:00.0", 0, 0 }, { "mlx5_3", "0000:da:00.0", 0, 0 } } },
	{ "topo.mel2001.xml", false, 2, { { "mlx5_0", "0000:43:00.0", 0, 0 }, { "mlx5_1", "0000:83:00.0", 0, 0 } } },
	/* the Dell XE9680 of the captures (README there): a Gen5 ConnectX-7 400G per GPU under its
	 * switch, a Gen4 dual-port ConnectX-6 Dx 100G under the switches of GPU 0 and GPU 4 */
	{ "xe9680-like.xml", true, 12, { { "mlx5_0", "0000:1a:00.0", 400000, 0 }, { "mlx5_1", "0000:3c:00.0", 400000, 0 },
	                                 { "mlx5_2", "0000:4d:00.0", 400000, 0 }, { "mlx5_3", "0000:5e:00.0", 400000, 0 },
	                                 { "mlx5_4", "0000:9c:00.0", 400000, 0 }, { "mlx5_5", "0000:bc:00.0", 400000, 0 },
	                                 { "mlx5_6", "0000:cc:00.0", 400000, 0 }, { "mlx5_7", "0000:dc:00.0", 400000, 0 },
	                                 { "mlx5_8", "0000:1b:00.0", 100000, 0 }, { "mlx5_9", "0000:1b:00.1", 100000, 0 },
	                                 { "mlx5_10", "0000:9d:00.0", 100000, 0 },
	                                 { "mlx5_11", "0000:9d:00.1", 100000, 0 } } },
	{ "coral-lassen.xml", false, 4, { { "mlx5_0", "0003:01:00.0", 0, 0 }, { "mlx5_1", "0003:01:00.1", 0, 0 },
	                                  { "mlx5_2", "0033:01:00.0", 0, 0 }, { "mlx5_3", "0033:01:00.1", 0, 0 } } },
};

struct roce_locality *topofix_machine(const char *name)
{
	char path[PATH_MAX];
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		if (strcmp(machines[i].name, name))
			continue;
		if (machines[i].own)
			topofix_own(path, sizeof(path), name);
		else
			topofix_shared(path, sizeof(path), name);
		return topofix_load(path, machines[i].hcas, machines[i].n);
	}
	fail_msg("no test machine %s", name);
	return NULL;
}

struct roce_gpuset topofix_gpus(const char *list, const struct roce_locality *loc)
{
	struct roce_gpuset s;
	roce_gpuset_parse(list, "/nonexistent-proc", loc, &s);
	return s;
}
