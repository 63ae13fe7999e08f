/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy-default - is VALUE the code's default for roce.conf KEY?  For
 * tests/e2e/man-pages.sh, which reads the defaults roce.conf(5) states.
 *
 *   policy-default KEY VALUE
 *
 * Exit 0: setting KEY=VALUE on roce_policy_defaults() (through the real
 * roce_policy_set) leaves the policy byte for byte unchanged, so VALUE is
 * the default.  Exit 1: it changes it (not the default).  Exit 2: unknown
 * key, or a value the parser refuses.
 *
 * The pages state the packaged paths: a VALUE under /var/ is taken under
 * this build's localstatedir.  An empty VALUE (the page's "Default: empty")
 * cannot go through the parser, which refuses empty values; it is checked
 * on the field for the keys whose default is empty (Hca, TopologyFile, SharedDir,
 * Rails).
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "read/policy.h"

static int empty_default(const char *key, const struct roce_policy *p)
{
	if (!strcasecmp(key, "Hca"))
		return p->n_hca == 0 ? 0 : 1;
	if (!strcasecmp(key, "TopologyFile"))
		return p->topology_file[0] == '\0' ? 0 : 1;
	if (!strcasecmp(key, "SharedDir"))
		return p->shared_dir[0] == '\0' ? 0 : 1;
	if (!strcasecmp(key, "Rails"))
		return p->n_rails == 0 ? 0 : 1;
	fprintf(stderr, "policy-default: %s: no empty default known for this key\n", key);
	return 2;
}

int main(int argc, char **argv)
{
	struct roce_policy def, set;
	struct roce_error err = { "" };
	char value[512];

	if (argc != 3) {
		fprintf(stderr, "usage: policy-default KEY VALUE\n");
		return 2;
	}
	roce_policy_defaults(&def);
	if (!argv[2][0])
		return empty_default(argv[1], &def);
	if (!strncmp(argv[2], "/var/", 5))
		snprintf(value, sizeof(value), "%s/%s", LOCALSTATEDIR, argv[2] + 5);
	else
		snprintf(value, sizeof(value), "%s", argv[2]);
	roce_policy_defaults(&set);
	if (roce_policy_set(&set, argv[1], value, "policy-default", &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	if (memcmp(&def, &set, sizeof(def))) {
		fprintf(stderr, "policy-default: %s=%s is not the code's default\n", argv[1], value);
		return 1;
	}
	return 0;
}
