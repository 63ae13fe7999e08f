/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpuset.c - the job's GPU list, hostile text, to Slurm GPU indexes; GPU
 * UUIDs through the NVIDIA driver's /proc files to the topology's GPUs.
 *
 * The list comes from the user's environment (CUDA_VISIBLE_DEVICES) or
 * Slurm's, into root's prolog: it is bounded, every byte is checked, and
 * any of it that is shown in a message is escaped (printable.h).
 */
#include "config.h"
#include "check/gpuset.h"
#include "base/pciaddr.h"
#include "base/printable.h"
#include "read/readfile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GPU_LIST_MAX 4096 /* longer than any real list of 64 UUIDs */
#define GPU_INDEX_MAX 4095
#define UUID_LEN 40  /* "GPU-" and 8-4-4-4-12 hex digits */
#define SHOWN_MAX 44 /* hostile text in messages: 40 bytes and "..." */

const char *roce_gpuset_status_name(enum roce_gpuset_status s)
{
	switch (s) {
	case ROCE_GPUS_NONE: return "none";
	case ROCE_GPUS_OK: return "ok";
	case ROCE_GPUS_UNKNOWN: return "mapping unknown";
	case ROCE_GPUS_INVALID: return "invalid";
	}
	return "?";
}

/* ------------------------------------------------------------------ the driver's UUIDs */

/* The driver's GPUs, read once per list and only if the list holds a UUID. */
struct uuid_map {
	bool scanned;
	struct roce_reading read;
	size_t n;
	struct {
		char uuid[48];
		char busid[ROCE_PCI_MAX];
	} e[ROCE_LOCALITY_GPU_MAX];
};

/* "8-4-4-4-12" hex digits */
static bool uuid_ok(const char *s, size_t len)
{
	static const int group[] = { 8, 4, 4, 4, 12 };
	size_t p = 0;
	for (int g = 0; g < 5; g++) {
		for (int i = 0; i < group[g]; i++, p++)
			if (p >= len || !isxdigit((unsigned char)s[p]))
				return false;
		if (g < 4 && (p >= len || s[p++] != '-'))
			return false;
	}
	return p == len;
}

/* Value after "Key:" on one line of the driver's information file, trimmed. */
static bool info_value(const char *line, const char *key, char *out, size_t outlen)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k))
		return false;
	line += k;
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strcspn(line, "\n");
	while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (n >= outlen)
		return false;
	memcpy(out, line, n);
	out[n] = '\0';
	return true;
}

/* One GPU's information file: its "GPU UUID:" and "Bus Location:" (in the
 * canonical form), or false when either is missing or not well-formed
 * (the driver writes "GPU-????..." when it cannot read the UUID). */
static bool info_entry(const char *path, char uuid[48], char busid[ROCE_PCI_MAX])
{
	char text[4096], bus[ROCE_PCI_MAX] = "";
	struct roce_reading r;
	struct roce_pciaddr b;
	if (roce_readfile_buf(AT_FDCWD, NULL, path, text, sizeof(text), ROCE_READFILE_NOFOLLOW, &r) < 0)
		return false;
	uuid[0] = '\0';
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		info_value(line, "GPU UUID:", uuid, 48);
		info_value(line, "Bus Location:", bus, sizeof(bus));
	}
	if (strncmp(uuid, "GPU-", 4) || !uuid_ok(uuid + 4, strlen(uuid + 4)) || roce_pciaddr_parse(bus, &b))
		return false;
	roce_pciaddr_format(&b, busid, ROCE_PCI_MAX);
	return true;
}

/* <proc_root>/driver/nvidia/gpus/<busid>/information, every GPU's. */
static void uuid_scan(const char *proc_root, struct uuid_map *m)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	m->scanned = true;
	snprintf(dir, sizeof(dir), "%s/driver/nvidia/gpus", proc_root ? proc_root : "/proc");
	DIR *d = opendir(dir);
	if (!d) {
		roce_reading_set(&m->read, errno == ENOENT ? ROCE_MISSING : ROCE_UNREADABLE, errno,
		                 "%s: %s (is the NVIDIA driver loaded?)", dir, strerror(errno));
		return;
	}
	struct dirent *de;
	roce_reading_set(&m->read, ROCE_OK, 0, NULL);
	while ((de = readdir(d)) && m->n < ROCE_LOCALITY_GPU_MAX) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/information", dir, de->d_name);
		if (info_entry(path, m->e[m->n].uuid, m->e[m->n].busid))
			m->n++;
	}
	closedir(d);
}

/* ------------------------------------------------------------------ the list */

struct gpu_parse {
	const char *proc_root;
	const struct roce_locality *loc;
	struct uuid_map map;
	struct roce_gpuset *out;
	bool have[GPU_INDEX_MAX + 1];
	bool unknown;
};

static void gpu_unknown(struct gpu_parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gpu_unknown(struct gpu_parse *ps, const char *fmt, ...)
{
	va_list ap;
	if (ps->unknown)
		return; /* the first reason is the one to show */
	ps->unknown = true;
	va_start(ap, fmt);
	vsnprintf(ps->out->why, sizeof(ps->out->why), fmt, ap);
	va_end(ap);
}

static void gpu_add(struct gpu_parse *ps, unsigned idx, const char *token)
{
	if (ps->loc && idx >= ps->loc->n_gpus) {
		gpu_unknown(ps, "GPU index %u (in \"%s\") is not among the %zu NVIDIA GPUs of the topology", idx, token,
		            ps->loc->n_gpus);
		return;
	}
	if (idx >= ROCE_LOCALITY_GPU_MAX) {
		gpu_unknown(ps, "GPU index %u is beyond the %d supported", idx, ROCE_LOCALITY_GPU_MAX);
		return;
	}
	ps->have[idx] = true;
}

/* A GPU UUID ("GPU-" and 36 characters) to its Slurm index via the driver's bus id. */
static void gpu_add_uuid(struct gpu_parse *ps, const char *uuid, const char *token)
{
	if (!ps->map.scanned)
		uuid_scan(ps->proc_root, &ps->map);
	if (!roce_reading_ok(&ps->map.read)) {
		gpu_unknown(ps, "GPU UUIDs cannot be mapped: %s", ps->map.read.why);
		return;
	}
	for (size_t i = 0; i < ps->map.n; i++) {
		if (strncasecmp(ps->map.e[i].uuid, uuid, UUID_LEN))
			continue;
		for (size_t g = 0; ps->loc && g < ps->loc->n_gpus; g++)
			if (!strcmp(ps->loc->gpus[g].pci_addr, ps->map.e[i].busid)) {
				gpu_add(ps, (unsigned)g, token);
				return;
			}
		gpu_unknown(ps, "%s is at %s, which is not an NVIDIA GPU of the topology", token, ps->map.e[i].busid);
		return;
	}
	gpu_unknown(ps, "%s is not listed by the NVIDIA driver", token);
}

static bool decimal(const char *s, size_t len, unsigned *out)
{
	unsigned v = 0;
	if (len == 0 || len > 5)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* An index "2" or a range "2-3": 0, 1 when s is neither, -1 when out of range (why set). */
static int index_entry(struct gpu_parse *ps, const char *s, size_t len, const char *tok)
{
	unsigned a, b;
	const char *dash = memchr(s, '-', len);
	if (decimal(s, len, &a))
		b = a;
	else if (!dash || !decimal(s, (size_t)(dash - s), &a) || !decimal(dash + 1, len - (size_t)(dash - s) - 1, &b))
		return 1;
	if (a > b || b > GPU_INDEX_MAX) {
		snprintf(ps->out->why, sizeof(ps->out->why), "\"%s\" is not a valid GPU index or range (0-%d)", tok,
		         GPU_INDEX_MAX);
		return -1;
	}
	for (unsigned i = a; i <= b; i++)
		gpu_add(ps, i, tok);
	return 0;
}

/* A GPU UUID, the old MIG form naming its GPU, a MIG UUID or NoDevFiles:
 * 0 (added, or unknown with why set), 1 when s is none of them. */
static int uuid_entry(struct gpu_parse *ps, const char *s, size_t len, const char *tok)
{
	char uuid[UUID_LEN + 1];
	if (len == 10 && !strncmp(s, "NoDevFiles", len)) {
		gpu_unknown(ps, "Slurm set %s: the GPUs have no device files, so which ones is unknown", tok);
		return 0;
	}
	if (len == UUID_LEN && !strncmp(s, "GPU-", 4) && uuid_ok(s + 4, 36)) {
		snprintf(uuid, sizeof(uuid), "%.*s", UUID_LEN, s);
		gpu_add_uuid(ps, uuid, tok);
		return 0;
	}
	/* Old MIG form "MIG-GPU-<uuid>/<gi>/<ci>" names its parent GPU. */
	if (len > 44 && !strncmp(s, "MIG-GPU-", 8) && uuid_ok(s + 8, 36) && s[44] == '/') {
		snprintf(uuid, sizeof(uuid), "%.*s", UUID_LEN, s + 4);
		gpu_add_uuid(ps, uuid, tok);
		return 0;
	}
	if (len == UUID_LEN && !strncmp(s, "MIG-", 4) && uuid_ok(s + 4, 36)) {
		gpu_unknown(ps, "%s is a MIG instance: its parent GPU is not known here", tok);
		return 0;
	}
	return 1;
}

/* One comma-separated entry.  Returns -1 on garbage (why set). */
static int gpu_entry(struct gpu_parse *ps, const char *s, size_t len)
{
	char tok[SHOWN_MAX];
	roce_printable_n(s, len, tok, sizeof(tok));
	int rc = index_entry(ps, s, len, tok);
	if (rc <= 0)
		return rc;
	if (!uuid_entry(ps, s, len, tok))
		return 0;
	snprintf(ps->out->why, sizeof(ps->out->why), "\"%s\" is not a GPU index or UUID", tok);
	return -1;
}

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* Every entry, trimmed of blanks.  -1 at the first bad one (why set). */
static int gpu_entries(struct gpu_parse *ps, const char *list, size_t len)
{
	for (size_t pos = 0; pos <= len;) {
		size_t end = pos;
		while (end < len && list[end] != ',')
			end++;
		size_t a = pos, b = end;
		while (a < b && blank(list[a]))
			a++;
		while (b > a && blank(list[b - 1]))
			b--;
		if (a == b) {
			snprintf(ps->out->why, sizeof(ps->out->why), "empty entry at byte %zu of the GPU list", pos);
			return -1;
		}
		if (gpu_entry(ps, list + a, b - a))
			return -1;
		pos = end + 1;
	}
	return 0;
}

static enum roce_gpuset_status gpu_list(struct gpu_parse *ps, const char *list)
{
	struct roce_gpuset *out = ps->out;
	size_t len = list ? strnlen(list, GPU_LIST_MAX + 1) : 0;
	size_t lead = 0;
	while (lead < len && blank(list[lead]))
		lead++;
	if (lead == len)
		return ROCE_GPUS_NONE;
	if (len > GPU_LIST_MAX) {
		snprintf(out->why, sizeof(out->why), "GPU list longer than %d bytes", GPU_LIST_MAX);
		return ROCE_GPUS_INVALID;
	}
	if (gpu_entries(ps, list, len))
		return ROCE_GPUS_INVALID;
	if (ps->unknown)
		return ROCE_GPUS_UNKNOWN;
	for (unsigned i = 0; i < ROCE_LOCALITY_GPU_MAX; i++)
		if (ps->have[i])
			out->idx[out->n++] = i;
	return ROCE_GPUS_OK;
}

void roce_gpuset_parse(const char *list, const char *proc_root, const struct roce_locality *loc,
                       struct roce_gpuset *out)
{
	struct gpu_parse *ps = calloc(1, sizeof(*ps)); /* 4 KiB of flags and 5 KiB of UUIDs: not on the stack */
	memset(out, 0, sizeof(*out));
	if (!ps) {
		out->status = ROCE_GPUS_UNKNOWN;
		snprintf(out->why, sizeof(out->why), "out of memory");
		return;
	}
	ps->proc_root = proc_root;
	ps->loc = loc;
	ps->out = out;
	out->status = gpu_list(ps, list);
	if (out->status != ROCE_GPUS_OK)
		out->n = 0;
	free(ps);
}
