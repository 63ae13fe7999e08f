/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_conf - roce.conf: roce_policy_load() on a file holding the input.
 *
 * The parser takes a path, so the input goes into a memfd and the parser
 * opens it through /proc/self/fd/N: the real fopen/getline path, no copy of
 * the parser's internals.  Whatever it accepts must leave a policy whose
 * string fields are terminated and whose numbers are within their ranges.
 */
#include "config.h"
#include "fuzz.h"
#include "read/policy.h"
#include "read/policyfile.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static void check_policy(const struct roce_policy *p)
{
	FUZZ_CHECK(p->gid_index == ROCE_GID_AUTO || (p->gid_index >= 0 && p->gid_index <= 255), "gid %d", p->gid_index);
	FUZZ_CHECK(p->addr_family == AF_INET || p->addr_family == AF_INET6, "family %d", p->addr_family);
	FUZZ_CHECK(p->pfc_priority == ROCE_PFC_NONE || (p->pfc_priority >= 0 && p->pfc_priority <= 7), "pfc %d", p->pfc_priority);
	FUZZ_CHECK(p->traffic_class == ROCE_TC_AUTO || (p->traffic_class >= 0 && p->traffic_class <= 255), "tc %d", p->traffic_class);
	FUZZ_CHECK(p->timeout_ms >= 1 && p->timeout_ms <= 600000, "timeout %d", p->timeout_ms);
	FUZZ_CHECK(p->n_hca <= ROCE_HCA_MAX, "n_hca %zu", p->n_hca);
	for (size_t i = 0; i < p->n_hca; i++)
		FUZZ_CHECK(memchr(p->hca[i], '\0', sizeof(p->hca[i])) && roce_token_ok(p->hca[i], 63), "hca %zu", i);
	const char *paths[] = { p->topology_file, p->topology_cache, p->report_dir, p->state_dir, p->sysfs_root };
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		FUZZ_CHECK(memchr(paths[i], '\0', 256) && (paths[i][0] == '\0' || paths[i][0] == '/'), "path %zu", i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct roce_policy p;
	struct roce_error err = { "" };

	if (fd < 0) {
		fd = memfd_create("roce.conf", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	roce_policy_defaults(&p);
	int rc = roce_policyfile_load(&p, path, false, &err);
	FUZZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)), "error text not terminated");
	if (rc < 0)
		FUZZ_CHECK(err.msg[0] != '\0', "failure without an error message");
	check_policy(&p);
	return 0;
}
