/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agree - the srun side of the job-wide agreement, in process, on synthetic
 * fingerprints (bench/agree.sh):
 *
 *   agree DIR N write     N fingerprints of job 4242 in DIR, nodes
 *                         gpu00001..: 8 rails each, every 97th node
 *                         without mlx5_7, every 1000th at RDMA MTU 1024
 *   agree DIR N gather    read them all (lib/agree/shareddir.c) and agree
 *                         (lib/agree/agree.c) as srun does; prints
 *                         "wall_ms cpu_ms maxrss_kib rails files_opened"
 */
#include "config.h"
#include "agree/agree.h"
#include "base/clock.h"
#include "agree/shareddir.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define JOB "4242"
#define RAILS 8

static char **node_names(size_t n)
{
	char **names = calloc(n, sizeof(*names));
	for (size_t i = 0; names && i < n; i++)
		if (asprintf(&names[i], "gpu%05zu", i + 1) < 0)
			exit(1);
	return names;
}

static int write_all(const char *dir, size_t n, char **names)
{
	struct roce_policy p;
	struct roce_error err;
	roce_policy_defaults(&p);
	snprintf(p.shared_dir, sizeof(p.shared_dir), "%s", dir);
	for (size_t i = 0; i < n; i++) {
		struct roce_fingerprint f = { .gid_index = 3, .addr_family = 4, .traffic_class = 104, .pfc_priority = 3 };
		snprintf(f.job_id, sizeof(f.job_id), JOB);
		snprintf(f.node, sizeof(f.node), "%s", names[i]);
		f.n_ports = i % 97 == 96 ? RAILS - 1 : RAILS;
		for (size_t k = 0; k < f.n_ports; k++) {
			snprintf(f.ports[k].device, sizeof(f.ports[k].device), "mlx5_%zu", k);
			f.ports[k].port = 1;
			snprintf(f.ports[k].netdev, sizeof(f.ports[k].netdev), "eth%zu", k);
			f.ports[k].active_mtu = i % 1000 == 999 ? 1024 : 4096;
			f.ports[k].netdev_mtu = 9000;
			f.ports[k].rate_gbps = 400;
			f.ports[k].ecn_np = f.ports[k].ecn_rp = 1;
			snprintf(f.ports[k].rail, sizeof(f.ports[k].rail), "2001:db8:%zx::/64", k + 1);
			struct roce_fp_device *d = &f.devices[f.n_devices++];
			snprintf(d->device, sizeof(d->device), "mlx5_%zu", k);
			snprintf(d->hca_type, sizeof(d->hca_type), "MT4129");
			snprintf(d->board_id, sizeof(d->board_id), "MT_0000000838");
			snprintf(d->fw_ver, sizeof(d->fw_ver), "28.39.1002");
		}
		f.trust = ROCE_TRUST_DSCP;
		snprintf(f.driver, sizeof(f.driver), "24.10-1.1.4");
		char entry[ROCE_SHAREDDIR_ENTRY_MAX];
		if (roce_shareddir_write(&p, &f, getuid(), time(NULL), entry, sizeof(entry), &err) < 0) {
			fprintf(stderr, "agree: %s\n", err.msg);
			return 1;
		}
	}
	return 0;
}

static int gather(const char *dir, size_t n, char **names)
{
	struct roce_fp_gather g;
	struct roce_agreement a;
	struct roce_error err;
	struct rusage ru;
	double t0 = roce_clock_ms_of(CLOCK_MONOTONIC), c0 = roce_clock_ms_of(CLOCK_PROCESS_CPUTIME_ID);
	if (roce_shareddir_gather(dir, JOB, time(NULL) - 3600, (const char *const *)names, n, 0, &g, &err) < 0) {
		fprintf(stderr, "agree: %s\n", err.msg);
		return 1;
	}
	const struct roce_fingerprint **fps = calloc(n, sizeof(*fps));
	for (size_t i = 0; fps && i < n; i++)
		fps[i] = g.fp[i];
	if (!fps || roce_agree(fps, (const char *const *)names, n, NULL, NULL, &a) < 0)
		return 1;
	double wall = roce_clock_ms_of(CLOCK_MONOTONIC) - t0, cpu = roce_clock_ms_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f %.3f %ld %zu %zu\n", wall, cpu, ru.ru_maxrss, a.n_rails, g.n_files);
	if (g.n_read != n) {
		fprintf(stderr, "agree: read %zu of %zu\n", g.n_read, n);
		return 1;
	}
	roce_agree_free(&a);
	free(fps);
	roce_shareddir_gather_free(&g);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: agree DIR N write|gather\n");
		return 2;
	}
	size_t n = strtoul(argv[2], NULL, 10);
	char **names = node_names(n);
	if (!names)
		return 1;
	int rc = strcmp(argv[3], "write") == 0 ? write_all(argv[1], n, names) : gather(argv[1], n, names);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}
