/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_kv - plugstack arguments and roce-check --set: roce_policy_set_kv()
 * on the input as one C string, then as NUL-separated words (what SPANK's
 * argv of plugstack.conf looks like), all on one policy.
 */
#include "config.h"
#include "fuzz.h"
#include "read/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_policy p;
	struct roce_error err = { "" };
	char *s = fuzz_cstr(data, size);
	if (!s)
		return 0;
	roce_policy_defaults(&p);
	/* Every NUL-terminated word of the input is one argument. */
	for (size_t off = 0; off <= size; off += strlen(s + off) + 1) {
		err.msg[0] = '\0';
		int rc = roce_policy_set_kv(&p, s + off, "plugstack.conf", &err);
		FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
		FUZZ_CHECK(rc == 0 || err.msg[0], "failure without an error message");
		FUZZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)), "error text not terminated");
	}
	FUZZ_CHECK(p.n_hca <= ROCE_HCA_MAX, "n_hca %zu", p.n_hca);
	FUZZ_CHECK(p.gid_index == ROCE_GID_AUTO || (p.gid_index >= 0 && p.gid_index <= 255), "gid %d", p.gid_index);
	free(s);
	return 0;
}
