/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fingerprint-auth - what signing each node's fingerprint with MUNGE would
 * cost (issue 29, item 6; docs/threat-model.md): a fingerprint-sized
 * payload encoded N times (each node's prolog, once per job) and decoded N
 * times (srun, at every step on N nodes), through a running munged, and
 * what munged answers when a credential is decoded a second time (a second
 * step) or after its time to live.  libmunge is opened with dlopen and
 * declared here (munge.h: its ABI has not changed since 0.5), so the
 * project gains no build dependency for a measurement.
 *
 *   fingerprint-auth SOCKET N [PAYLOAD_BYTES]
 * prints: encode and decode, total and per credential in microseconds.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

typedef struct munge_ctx *munge_ctx_t;
enum { MUNGE_OPT_SOCKET = 8, EMUNGE_CRED_REPLAYED = 17 };

static int (*encode)(char **cred, munge_ctx_t ctx, const void *buf, int len);
static int (*decode)(const char *cred, munge_ctx_t ctx, void **buf, int *len, uid_t *uid, gid_t *gid);
static munge_ctx_t (*ctx_create)(void);
static int (*ctx_set)(munge_ctx_t ctx, int opt, ...);
static const char *(*err_text)(int e);

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int load(void)
{
	void *h = dlopen("libmunge.so.2", RTLD_NOW);
	if (!h)
		return -1;
	encode = dlsym(h, "munge_encode");
	decode = dlsym(h, "munge_decode");
	ctx_create = dlsym(h, "munge_ctx_create");
	ctx_set = dlsym(h, "munge_ctx_set");
	err_text = dlsym(h, "munge_strerror");
	return encode && decode && ctx_create && ctx_set && err_text ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: fingerprint-auth SOCKET N [PAYLOAD_BYTES]\n");
		return 2;
	}
	int n = atoi(argv[2]), size = argc > 3 ? atoi(argv[3]) : 640;
	if (load() < 0) {
		fprintf(stderr, "fingerprint-auth: cannot load libmunge.so.2: %s\n", dlerror());
		return 1;
	}
	munge_ctx_t enc = ctx_create(), dec = ctx_create();
	if (!enc || !dec || ctx_set(enc, MUNGE_OPT_SOCKET, argv[1]) || ctx_set(dec, MUNGE_OPT_SOCKET, argv[1]))
		return 1;
	char *payload = malloc((size_t)size), **creds = calloc((size_t)n, sizeof(*creds));
	if (!payload || !creds)
		return 1;
	memset(payload, 'x', (size_t)size);
	double t0 = now_us();
	for (int i = 0; i < n; i++) {
		int e = encode(&creds[i], enc, payload, size);
		if (e) {
			fprintf(stderr, "encode: %s\n", err_text(e));
			return 1;
		}
	}
	double t1 = now_us();
	for (int i = 0; i < n; i++) {
		void *buf = NULL;
		int len = 0;
		uid_t uid;
		gid_t gid;
		int e = decode(creds[i], dec, &buf, &len, &uid, &gid);
		free(buf);
		if (e) {
			fprintf(stderr, "decode: %s\n", err_text(e));
			return 1;
		}
	}
	double t2 = now_us();
	/* a second step of the same job decodes the same credentials again */
	void *buf = NULL;
	int len = 0;
	uid_t uid;
	gid_t gid;
	int again = decode(creds[0], dec, &buf, &len, &uid, &gid);
	free(buf);
	printf("credentials %d payload %d bytes credential %zu bytes\n", n, size, strlen(creds[0]));
	printf("encode total %.1f ms, %.1f us each\n", (t1 - t0) / 1e3, (t1 - t0) / n);
	printf("decode total %.1f ms, %.1f us each\n", (t2 - t1) / 1e3, (t2 - t1) / n);
	printf("decoded again: %s\n", again ? err_text(again) : "Success");
	return again == EMUNGE_CRED_REPLAYED ? 0 : 3;
}
