/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nlparse - CPU time of the netlink reply parsers alone, per message, on
 * byte-exact replies (tests/lib/nlreply.c): an RTM_NEWLINK, a full
 * RTM_GETDCB (PFC and APP table) and the EOPNOTSUPP of a driver without
 * DCB.  Prints "link_ns dcb_ns dcb_eopnotsupp_ns" for ROUNDS of each.
 *
 *   nlparse [ROUNDS]
 *
 * bench/netlink.sh builds it against a build's library; PARSE_LINK and
 * PARSE_DCB name the parsers of a library older than lib/collect/netlink/rtlink.c and
 * lib/collect/netlink/dcb.c (roce_parse_link_msg, roce_parse_dcb_msg).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nlreply.h"

#ifndef PARSE_LINK
#define PARSE_LINK roce_rtlink_parse
#define PARSE_DCB roce_dcb_parse
#endif
int PARSE_LINK(const struct nlmsghdr *nlh, struct roce_netdev *nd);
int PARSE_DCB(const struct nlmsghdr *nlh, struct roce_netdev *nd);

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ns per parse of nlh, rounds times; exits when the parser says no */
static double per_parse(int (*parse)(const struct nlmsghdr *, struct roce_netdev *),
                        const struct nlmsghdr *nlh, int want, int rounds)
{
	struct roce_netdev nd;
	double t0 = cpu_ns();
	for (int i = 0; i < rounds; i++) {
		nlreply_netdev(&nd, "eth0");
		if (parse(nlh, &nd) != want) {
			fprintf(stderr, "nlparse: unexpected parse result\n");
			exit(1);
		}
	}
	return (cpu_ns() - t0) / rounds;
}

int main(int argc, char **argv)
{
	static union { char b[NLREPLY_BUFSZ]; uint64_t align; } l, d, e;
	int rounds = argc > 1 ? atoi(argv[1]) : 100000;
	if (rounds <= 0)
		rounds = 1;
	struct nlmsghdr *link = nlreply_link(l.b, 1, "eth0", 7, IFF_UP | IFF_RUNNING, 9000, IF_OPER_UP);
	struct nlmsghdr *dcb = nlreply_dcb_sample(d.b, 1, "eth0", NLREPLY_IEEE | NLREPLY_PFC | NLREPLY_APP);
	struct nlmsghdr *err = nlreply_error(e.b, 1, -EOPNOTSUPP, RTM_GETDCB);
	printf("%.1f %.1f %.1f\n", per_parse(PARSE_LINK, link, 0, rounds), per_parse(PARSE_DCB, dcb, 0, rounds),
	       per_parse(PARSE_DCB, err, -1, rounds));
	return 0;
}
