/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probeshare.c - a node's probe addresses, ports and key in SharedDir: written by root, read as hostile. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agree/probeshare.h"
#include "base/slurmid.h"
#include "probe/sockaddr.h"
#include "read/readfile.h"
#include "read/safefile.h"

#define SCHEMA "slurm-roce/probe/1"
#define NAME_MAX_ 96 /* "probe." and a node name */

static const char hexdig[] = "0123456789abcdef";

/* Is addr (with a port) inside the canonical subnet text? */
static bool rail_holds(const char *rail, const struct sockaddr_storage *addr)
{
	struct roce_subnet net;
	const uint8_t *a = addr->ss_family == AF_INET6 ? ((const struct sockaddr_in6 *)addr)->sin6_addr.s6_addr
	                                               : (const uint8_t *)&((const struct sockaddr_in *)addr)->sin_addr;
	return roce_subnet_canonical(rail) && roce_subnet_parse(rail, &net) == 0 && net.family == addr->ss_family &&
	       roce_subnet_contains(&net, addr->ss_family, a) && roce_sockaddr_port(addr) != 0;
}

int roce_probeshare_format(const struct roce_probeshare *s, char *buf, size_t len)
{
	char key[2 * ROCE_PROBEWIRE_KEY_LEN + 1], shown[ROCE_SOCKADDR_TEXT_MAX];
	size_t at;
	if (s->n > ROCE_PROBESHARE_RAILS_MAX || s->written <= 0)
		return -1;
	for (size_t i = 0; i < ROCE_PROBEWIRE_KEY_LEN; i++) {
		key[2 * i] = hexdig[s->key.k[i] >> 4];
		key[2 * i + 1] = hexdig[s->key.k[i] & 15];
	}
	key[sizeof(key) - 1] = '\0';
	int n = snprintf(buf, len, SCHEMA "\ntime %" PRId64 "\nkey %s\n", (int64_t)s->written, key);
	if (n < 0 || (size_t)n >= len)
		return -1;
	at = (size_t)n;
	for (size_t i = 0; i < s->n; i++) {
		const struct roce_probeshare_rail *r = &s->rails[i];
		if (!rail_holds(r->rail, &r->addr))
			return -1;
		n = snprintf(buf + at, len - at, "rail %s %s %u\n", r->rail, roce_sockaddr_text(&r->addr, shown),
		             roce_sockaddr_port(&r->addr));
		if (n < 0 || (size_t)n >= len - at)
			return -1;
		at += (size_t)n;
	}
	for (size_t i = 0; i < s->n_hosts && i < ROCE_PROBESHARE_HOSTS_MAX; i++) {
		n = snprintf(buf + at, len - at, "host %s\n", roce_sockaddr_text(&s->hosts[i], shown));
		if (n < 0 || (size_t)n >= len - at)
			return -1;
		at += (size_t)n;
	}
	return at <= ROCE_PROBESHARE_TEXT_MAX ? (int)at : -1;
}

/* A decimal of at most 19 digits without sign or leading zero, in [lo, hi]. */
static bool number(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	int64_t x = 0;
	size_t n = strlen(s);
	if (n == 0 || n > 19 || (s[0] == '0' && n > 1))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (INT64_MAX - (s[i] - '0')) / 10)
			return false;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return x >= lo && x <= hi;
}

static bool hex_key(const char *s, struct roce_probewire_key *k)
{
	if (strlen(s) != 2 * ROCE_PROBEWIRE_KEY_LEN)
		return false;
	for (size_t i = 0; i < 2 * ROCE_PROBEWIRE_KEY_LEN; i++) {
		const char *d = s[i] ? strchr(hexdig, s[i]) : NULL;
		if (!d)
			return false;
		k->k[i / 2] = (uint8_t)(i % 2 ? k->k[i / 2] | (d - hexdig) : (d - hexdig) << 4);
	}
	return true;
}

/* One line's words (split at single spaces: no other white space) -> s. */
static const char *parse_line(char *line, size_t lineno, struct roce_probeshare *s, unsigned *seen)
{
	char *w[5];
	size_t n = 0;
	int64_t v;
	for (char *p = line, *save = NULL, *t; n < 5 && (t = strtok_r(p, " ", &save)); p = NULL)
		w[n++] = t;
	if (lineno == 1)
		return n == 1 && !strcmp(w[0], SCHEMA) ? NULL : "not " SCHEMA;
	if (n == 2 && !strcmp(w[0], "time") && !(*seen & 1)) {
		*seen |= 1;
		if (!number(w[1], 1, (int64_t)1 << 40, &v))
			return "a time that is no number of seconds";
		s->written = (time_t)v;
		return NULL;
	}
	if (n == 2 && !strcmp(w[0], "key") && !(*seen & 2)) {
		*seen |= 2;
		return hex_key(w[1], &s->key) ? NULL : "a key that is not 64 lowercase hex digits";
	}
	if (n == 4 && !strcmp(w[0], "rail")) {
		struct roce_probeshare_rail *r = &s->rails[s->n];
		if (s->n == ROCE_PROBESHARE_RAILS_MAX)
			return "more than 32 rails";
		if (strlen(w[1]) >= sizeof(r->rail) || !number(w[3], 1, 65535, &v) ||
		    roce_sockaddr_parse(w[2], (uint16_t)v, &r->addr) < 0)
			return "a rail that is not SUBNET ADDRESS PORT";
		strcpy(r->rail, w[1]);
		if (!rail_holds(r->rail, &r->addr))
			return "an address outside its rail, or a rail that is no canonical subnet";
		for (size_t i = 0; i < s->n; i++)
			if (!strcmp(s->rails[i].rail, r->rail))
				return "a rail given twice";
		s->n++;
		return NULL;
	}
	if (n == 2 && !strcmp(w[0], "host")) {
		if (s->n_hosts == ROCE_PROBESHARE_HOSTS_MAX)
			return "more than 32 hosts";
		if (roce_sockaddr_parse(w[1], 0, &s->hosts[s->n_hosts]) < 0)
			return "a host that is no address";
		s->n_hosts++;
		return NULL;
	}
	return "a line that is none of time, key (once each), rail and host";
}

int roce_probeshare_parse(const char *text, size_t len, struct roce_probeshare *s, struct roce_error *err)
{
	char buf[ROCE_PROBESHARE_TEXT_MAX + 1];
	unsigned seen = 0;
	size_t lineno = 0;
	const char *why = NULL;
	memset(s, 0, sizeof(*s));
	if (len > ROCE_PROBESHARE_TEXT_MAX || len == 0 || text[len - 1] != '\n' || memchr(text, '\0', len)) {
		roce_error_set(err, "probe file: empty, over %d bytes, not ending in a newline or holding a NUL",
		               ROCE_PROBESHARE_TEXT_MAX);
		return -1;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (char *line = buf, *nl; !why && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		why = parse_line(line, ++lineno, s, &seen);
	}
	if (!why && seen != 3)
		why = "no time or no key";
	if (!why && s->n == 0)
		why = "no rail";
	if (why) {
		roce_error_set(err, "probe file line %zu: %s", lineno, why);
		memset(s, 0, sizeof(*s));
		return -1;
	}
	return 0;
}

static bool file_name(const char *job_id, const char *node, char *name)
{
	return roce_slurmid_job_ok(job_id) && roce_slurmid_node_ok(node) &&
	       (size_t)snprintf(name, NAME_MAX_, "probe.%s", node) < NAME_MAX_;
}

/* SharedDir/<job>/ as it is (nothing made); -1, or -2 when the job's
 * directory is not there (yet). */
static int job_fd(const char *shared_dir, const char *job_id, struct roce_error *err)
{
	int dfd = roce_safefile_open_dir("SharedDir", shared_dir, ROCE_SAFEFILE_TRUSTED, 0, err);
	if (dfd < 0)
		return -1;
	int jfd = openat(dfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), e = errno;
	if (jfd < 0)
		roce_error_set(err, "SharedDir/%s: %s", job_id, strerror(e));
	close(dfd);
	return jfd >= 0 ? jfd : e == ENOENT ? -2 : -1;
}

int roce_probeshare_write(const char *shared_dir, const char *job_id, const char *node, const struct roce_probeshare *s,
                          struct roce_error *err)
{
	char name[NAME_MAX_], text[ROCE_PROBESHARE_TEXT_MAX + 1];
	int len = roce_probeshare_format(s, text, sizeof(text));
	if (!file_name(job_id, node, name) || len < 0) {
		roce_error_set(err, "probe file: job id, node name or rails not usable");
		return -1;
	}
	int jfd = job_fd(shared_dir, job_id, err);
	if (jfd < 0)
		return -1;
	/* 0400 root's: the key is for root's prologs on the job's nodes only */
	int rc = roce_safefile_write(jfd, name, text, (size_t)len, geteuid(), getegid(), 0400, -1, 0, err);
	close(jfd);
	return rc;
}

int roce_probeshare_read(const char *shared_dir, const char *job_id, const char *node, time_t since,
                         struct roce_probeshare *s, struct roce_error *err)
{
	char name[NAME_MAX_], text[ROCE_PROBESHARE_TEXT_MAX + 2];
	struct roce_reading r;
	struct roce_error perr;
	memset(s, 0, sizeof(*s));
	if (!file_name(job_id, node, name)) {
		roce_error_set(err, "probe file: job id or node name not usable");
		return -1;
	}
	int jfd = job_fd(shared_dir, job_id, err);
	if (jfd < 0)
		return jfd == -2 ? 1 : -1;
	ssize_t len = roce_readfile_buf(jfd, NULL, name, text, sizeof(text),
	                                ROCE_READFILE_NOFOLLOW | ROCE_READFILE_TRUSTED, &r);
	close(jfd);
	if (len < 0 && r.err == ENOENT)
		return 1;
	if (len < 0) {
		roce_error_set(err, "%s: %s", name, r.why);
		return -1;
	}
	if (roce_probeshare_parse(text, (size_t)len, s, &perr) < 0) {
		roce_error_set(err, "%s: %s", name, perr.msg);
		return -1;
	}
	if (s->written < since) {
		memset(s, 0, sizeof(*s));
		return 1; /* an earlier job's with this id: this node's own is not written yet */
	}
	return 0;
}

void roce_probeshare_remove(const char *shared_dir, const char *job_id, const char *node)
{
	char name[NAME_MAX_];
	struct roce_error e;
	if (!file_name(job_id, node, name))
		return;
	int jfd = job_fd(shared_dir, job_id, &e);
	if (jfd < 0)
		return;
	unlinkat(jfd, name, 0);
	close(jfd);
}
