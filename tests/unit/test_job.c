/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_job.c - which jobs' prologs gate the node (lib/job/job.c,
 * roce_job_gates), and the path probe's own addresses (jobprobe.c).  What fails the gate is the drain rule
 * (roce_check_drain_reason, test_check.c); the gate itself runs in a real
 * Slurm in tests/e2e/spank-gate.sh. */
#include "config.h"
#include "unit.h"
#include "job/job.h"
#include "agree/probeshare.h"
#include "job/jobprobe.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>

static void gates(void **s)
{
	(void)s;
	struct roce_policy p;
	roce_policy_defaults(&p);
	assert_false(p.gate); /* Gate=no by default */
	assert_true(roce_job_gates(ROCE_MODE_STRICT, &p));
	assert_false(roce_job_gates(ROCE_MODE_WARN, &p));
	assert_false(roce_job_gates(ROCE_MODE_OFF, &p));
	/* Mode=strict in roce.conf is what --roce alone means, not a gate by itself */
	p.mode = ROCE_MODE_STRICT;
	assert_false(roce_job_gates(ROCE_MODE_WARN, &p));
	/* Gate=yes: every job, also those that asked for nothing */
	p.gate = true;
	assert_true(roce_job_gates(ROCE_MODE_OFF, &p));
	assert_true(roce_job_gates(ROCE_MODE_WARN, &p));
	assert_true(roce_job_gates(ROCE_MODE_STRICT, &p));
}

/* The prolog parts: the report needs no gate, the gate no report; arguments are checked first. */
static void prolog_arguments(void **s)
{
	(void)s;
	struct roce_policy p;
	struct roce_error err = { "" };
	roce_policy_defaults(&p);
	assert_int_equal(roce_job_prolog(&p, "/nonexistent", "12x", "node1", 0, ROCE_JOB_GATE, NULL, &err), -1);
	assert_int_equal(roce_job_prolog(&p, "/nonexistent", "12", "../x", 0, ROCE_JOB_GATE, NULL, &err), -1);
	/* neither part: nothing to do, nothing read */
	assert_int_equal(roce_job_prolog(&p, "/nonexistent", "12", "node1", 0, 0, NULL, &err), 0);
}

/* The path probe's own addresses (jobprobe.h): up, not loopback or
 * link-local; none at all past what a probe file holds. */
static void own_addresses(void **s)
{
	(void)s;
	enum { N = ROCE_PROBESHARE_HOSTS_MAX + 4 };
	static struct ifaddrs ifa[N];
	static struct sockaddr_in v4[N];
	static struct sockaddr_in6 v6;
	struct sockaddr_storage out[ROCE_PROBESHARE_HOSTS_MAX];
	char text[INET6_ADDRSTRLEN];
	memset(ifa, 0, sizeof(ifa));
	for (int i = 0; i < N; i++) {
		v4[i].sin_family = AF_INET;
		v4[i].sin_addr.s_addr = htonl(0xc6336400u + (uint32_t)i); /* 198.51.100.i */
		ifa[i].ifa_addr = (struct sockaddr *)&v4[i];
		ifa[i].ifa_flags = IFF_UP;
		ifa[i].ifa_next = i + 1 < N ? &ifa[i + 1] : NULL;
	}
	ifa[0].ifa_flags |= IFF_LOOPBACK; /* lo */
	ifa[1].ifa_flags = 0;             /* down */
	v6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, "fe80::1", &v6.sin6_addr);
	ifa[2].ifa_addr = (struct sockaddr *)&v6; /* link-local */
	ifa[3].ifa_addr = NULL;                   /* an interface without an address */
	/* the first 4 are left out: 32 others fit exactly */
	assert_int_equal(roce_jobprobe_pick_hosts(ifa, out), ROCE_PROBESHARE_HOSTS_MAX);
	inet_ntop(AF_INET, &((struct sockaddr_in *)&out[0])->sin_addr, text, sizeof(text));
	assert_string_equal(text, "198.51.100.4");
	/* one more: a partial list would make a right name look wrong, so none */
	ifa[3].ifa_addr = (struct sockaddr *)&v4[3];
	assert_int_equal(roce_jobprobe_pick_hosts(ifa, out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gates),
		cmocka_unit_test(prolog_arguments),
		cmocka_unit_test(own_addresses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
