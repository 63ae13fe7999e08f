/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pathprobe - lib/probe/ between network namespaces, for tests/e2e/probe-netns.sh.
 *
 *   pathprobe serve KEYBYTE ADDR PORT PEER MS
 *       answer probes on ADDR:PORT from PEER for MS milliseconds; prints
 *       "answered N untagged N stranger N"
 *   pathprobe probe KEYBYTE LOCAL PEER PORT TOS RDMA_MTU NETDEV_MTU MS
 *       probe PEER:PORT from LOCAL with TOS, sized for the MTUs, under a
 *       deadline of MS; prints the verdict's words, the datagrams sent and
 *       the milliseconds it took
 *   pathprobe forge ADDR PORT
 *       send PORT a datagram that looks like a probe but carries no tag,
 *       and a plain one; exit 1 when anything answers within 300 ms
 *
 * KEYBYTE fills the job's key (two processes with the same byte share it).
 */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "probe/prober.h"
#include "probe/responder.h"
#include "probe/sockaddr.h"

static void key_of(const char *s, struct roce_probewire_key *k) { memset(k->k, atoi(s), sizeof(k->k)); }

static int addr(const char *s, const char *port, struct sockaddr_storage *a)
{
	if (roce_sockaddr_parse(s, (uint16_t)atoi(port), a) == 0)
		return 0;
	fprintf(stderr, "pathprobe: %s is no address\n", s);
	exit(2);
}

static int serve(char **av)
{
	struct roce_probewire_key k;
	struct roce_responder r;
	struct roce_prober none = { .n = 0 };
	struct roce_error err = { "" };
	struct sockaddr_storage here, peer;
	key_of(av[0], &k);
	addr(av[1], av[2], &here);
	addr(av[3], "0", &peer);
	if (roce_responder_open(&r, &k, &here, 1, &err) < 0 || roce_responder_allow(&r, &peer, 1) < 0) {
		fprintf(stderr, "pathprobe: %s\n", err.msg);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	int64_t until = roce_clock_ms() + atoi(av[4]);
	roce_prober_run(&none, &r, until, until, &err);
	printf("answered %u untagged %u stranger %u\n", r.stats.answered, r.stats.untagged, r.stats.stranger);
	roce_responder_close(&r);
	return 0;
}

static int probe(char **av)
{
	struct roce_prober p = { .n = 1 };
	struct roce_error err = { "" };
	char why[300];
	key_of(av[0], &p.key);
	addr(av[1], "0", &p.t[0].local);
	addr(av[2], av[3], &p.t[0].peer);
	p.t[0].tos = atoi(av[4]);
	roce_prober_sizes(&p.t[0], p.t[0].local.ss_family == AF_INET6 ? 6 : 4, atoi(av[5]), (unsigned)atoi(av[6]));
	int64_t t0 = roce_clock_ms();
	if (roce_prober_run(&p, NULL, t0 + atoi(av[7]), 0, &err) < 0) {
		fprintf(stderr, "pathprobe: %s\n", err.msg);
		return 1;
	}
	roce_prober_describe(&p.t[0], why, sizeof(why));
	printf("%s\nsent %u\nms %lld\n", why, p.t[0].sent, (long long)(roce_clock_ms() - t0));
	return 0;
}

static int forge(char **av)
{
	struct sockaddr_storage to;
	uint8_t buf[100] = "RPRB\x01\x01";
	char got[100];
	addr(av[0], av[1], &to);
	int fd = socket(to.ss_family, SOCK_DGRAM, 0);
	buf[11] = sizeof(buf);
	if (fd < 0 || connect(fd, (struct sockaddr *)&to, roce_sockaddr_len(&to)) < 0 ||
	    send(fd, buf, sizeof(buf), 0) < 0 || send(fd, "hello", 5, 0) < 0)
		return 2;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	if (poll(&pfd, 1, 300) > 0 && recv(fd, got, sizeof(got), MSG_DONTWAIT) >= 0) {
		printf("answered\n");
		return 1;
	}
	printf("no answer\n");
	return 0;
}

int main(int ac, char **av)
{
	if (ac == 7 && !strcmp(av[1], "serve"))
		return serve(av + 2);
	if (ac == 10 && !strcmp(av[1], "probe"))
		return probe(av + 2);
	if (ac == 4 && !strcmp(av[1], "forge"))
		return forge(av + 2);
	fprintf(stderr, "usage: pathprobe serve KEYBYTE ADDR PORT PEER MS | probe KEYBYTE LOCAL PEER PORT TOS RDMA_MTU "
	                "NETDEV_MTU MS | forge ADDR PORT\n");
	return 2;
}
