/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_probeshare.c - a node's probe addresses, ports and key in SharedDir
 * (lib/agree/probeshare.c): the text written and parsed back, hostile texts
 * refused with the line and the problem, and (as root) the file: 0400
 * root's, an earlier job's not taken, a planted one refused, removed.
 */
#include "config.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agree/probeshare.h"
#include "agree/shareddir.h"
#include "probe/sockaddr.h"
#include "read/safefile.h"
#include "scratch.h"

static void two_rails(struct roce_probeshare *s, time_t t)
{
	memset(s, 0, sizeof(*s));
	s->written = t;
	for (size_t i = 0; i < ROCE_PROBEWIRE_KEY_LEN; i++)
		s->key.k[i] = (uint8_t)(0xa0 + i);
	s->n = 2;
	strcpy(s->rails[0].rail, "192.0.2.0/26");
	assert_int_equal(roce_sockaddr_parse("192.0.2.1", 40123, &s->rails[0].addr), 0);
	strcpy(s->rails[1].rail, "192.0.2.64/26");
	assert_int_equal(roce_sockaddr_parse("192.0.2.65", 40124, &s->rails[1].addr), 0);
}

static const char good[] = "slurm-roce/probe/1\n"
                           "time 1796371200\n"
                           "key a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\n"
                           "rail 192.0.2.0/26 192.0.2.1 40123\n"
                           "rail 192.0.2.64/26 192.0.2.65 40124\n";

static void t_text(void **state)
{
	(void)state;
	struct roce_probeshare s, back;
	struct roce_error err = { "" };
	char buf[ROCE_PROBESHARE_TEXT_MAX + 1];
	two_rails(&s, 1796371200);
	int len = roce_probeshare_format(&s, buf, sizeof(buf));
	assert_int_equal(len, (int)strlen(good));
	assert_string_equal(buf, good);
	assert_int_equal(roce_probeshare_parse(buf, (size_t)len, &back, &err), 0);
	assert_int_equal(back.written, 1796371200);
	assert_memory_equal(back.key.k, s.key.k, ROCE_PROBEWIRE_KEY_LEN);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.rails[1].rail, "192.0.2.64/26");
	assert_true(roce_sockaddr_same_host(&back.rails[1].addr, &s.rails[1].addr));
	assert_int_equal(roce_sockaddr_port(&back.rails[1].addr), 40124);
	/* IPv6 */
	strcpy(s.rails[1].rail, "2001:db8:1::/64");
	assert_int_equal(roce_sockaddr_parse("2001:db8:1::5", 9, &s.rails[1].addr), 0);
	len = roce_probeshare_format(&s, buf, sizeof(buf));
	assert_true(len > 0);
	assert_non_null(strstr(buf, "rail 2001:db8:1::/64 2001:db8:1::5 9\n"));
	assert_int_equal(roce_probeshare_parse(buf, (size_t)len, &back, &err), 0);
	/* the node's own addresses, for the name check */
	two_rails(&s, 1796371200);
	s.n_hosts = 2;
	assert_int_equal(roce_sockaddr_parse("10.1.2.3", 0, &s.hosts[0]), 0);
	assert_int_equal(roce_sockaddr_parse("2001:db8::7", 0, &s.hosts[1]), 0);
	len = roce_probeshare_format(&s, buf, sizeof(buf));
	assert_non_null(strstr(buf, "rail 192.0.2.64/26 192.0.2.65 40124\nhost 10.1.2.3\nhost 2001:db8::7\n"));
	assert_int_equal(roce_probeshare_parse(buf, (size_t)len, &back, &err), 0);
	assert_int_equal(back.n_hosts, 2);
	assert_true(roce_sockaddr_same_host(&back.hosts[1], &s.hosts[1]));
	/* a host that is no address, a ninth host: refused, the line named */
	char text[ROCE_PROBESHARE_TEXT_MAX];
	snprintf(text, sizeof(text), "%shost node3\n", good);
	assert_int_equal(roce_probeshare_parse(text, strlen(text), &back, &err), -1);
	assert_string_equal(err.msg, "probe file line 6: a host that is no address");
	snprintf(text, sizeof(text), "%s", good);
	for (int i = 0; i < 33; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "host 10.0.0.%d\n", i + 1);
	assert_int_equal(roce_probeshare_parse(text, strlen(text), &back, &err), -1);
	assert_string_equal(err.msg, "probe file line 38: more than 32 hosts");
	two_rails(&s, 1796371200);
	/* an address outside its rail is never written */
	assert_int_equal(roce_sockaddr_parse("192.0.2.200", 9, &s.rails[1].addr), 0);
	assert_int_equal(roce_probeshare_format(&s, buf, sizeof(buf)), -1);
}

/* Each text is good[] with one thing wrong. */
static void t_hostile(void **state)
{
	(void)state;
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", "empty" },
		{ "slurm-roce/probe/2\ntime 1\n", "line 1: not slurm-roce/probe/1" },
		{ "slurm-roce/probe/1\ntime 1\nkey 00\nrail 192.0.2.0/26 192.0.2.1 1\n",
		  "line 3: a key that is not 64" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "A0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail 192.0.2.0/26 192.0.2.1 1\n",
		  "line 3: a key" },
		{ "slurm-roce/probe/1\ntime 01\n", "line 2: a time that is no number" },
		{ "slurm-roce/probe/1\ntime 1\ntime 2\n", "line 3: a line that is none" },
		{ "slurm-roce/probe/1\ntime 1\nkey a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\n",
		  "no rail" },
		{ "slurm-roce/probe/1\ntime 1\nrail 192.0.2.0/26 192.0.2.1 1\n", "no time or no key" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.0/26 192.0.2.100 1\n",
		  "line 4: an address outside its rail" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.1/26 192.0.2.1 1\n",
		  "line 4: an address outside its rail, or a rail that is no canonical subnet" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.0/26 192.0.2.1 65536\n",
		  "line 4: a rail that is not SUBNET ADDRESS PORT" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.0/26 192.0.2.1 0\n",
		  "line 4: a rail that is not" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.0/26 192.0.2.1 5\nrail 192.0.2.0/26 192.0.2.2 5\n",
		  "line 5: a rail given twice" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.0/26 192.0.2.1 5 x\n",
		  "line 4: a line that is none" },
		{ "slurm-roce/probe/1\ntime 1\nkey "
		  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\nrail "
		  "192.0.2.0/26 192.0.2.1 5",
		  "not ending in a newline" },
	};
	struct roce_probeshare s;
	struct roce_error err;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (roce_probeshare_parse(bad[i].text, strlen(bad[i].text), &s, &err) == 0)
			fail_msg("text %zu taken", i);
		if (!strstr(err.msg, bad[i].why))
			fail_msg("text %zu: \"%s\" does not say \"%s\"", i, err.msg, bad[i].why);
		assert_int_equal(s.n, 0);
	}
	/* a NUL inside, 33 rails, more than the bound */
	char buf[ROCE_PROBESHARE_TEXT_MAX + 8];
	memcpy(buf, good, sizeof(good));
	buf[5] = '\0';
	assert_int_equal(roce_probeshare_parse(buf, sizeof(good) - 1, &s, &err), -1);
	size_t at = (size_t)snprintf(buf, sizeof(buf), "%.*s", (int)(strstr(good, "rail") - good), good);
	for (int i = 0; i < 33; i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "rail 10.%d.0.0/16 10.%d.0.1 7\n", i, i);
	assert_int_equal(roce_probeshare_parse(buf, at, &s, &err), -1);
	assert_non_null(strstr(err.msg, "line 36: more than 32 rails"));
	memset(buf, '\n', sizeof(buf));
	assert_int_equal(roce_probeshare_parse(buf, ROCE_PROBESHARE_TEXT_MAX + 1, &s, &err), -1);
}

/* As root: written 0400 root's, read back, an earlier job's not taken, a
 * planted (not root's) or linked one refused, removed. */
static void t_file(void **state)
{
	(void)state;
	char top[256], shared[300], path[400];
	struct roce_probeshare s, back;
	struct roce_error err = { "" };
	struct stat st;
	if (fx_tmpdir(top, sizeof(top), "probeshare") < 0)
		fail_msg("no scratch directory");
	int fd = roce_safefile_open_dir(NULL, top, ROCE_SAFEFILE_TRUSTED, 0, &err);
	if (geteuid() != 0 || fd < 0) {
		fx_rmtree(top);
		print_message("# skipped: needs root and a trusted TMPDIR (%s)\n", fd < 0 ? err.msg : "not root");
		skip();
	}
	close(fd);
	snprintf(shared, sizeof(shared), "%s/shared", top);
	time_t now = time(NULL);
	two_rails(&s, now);
	/* no job directory yet: not there */
	assert_int_equal(roce_probeshare_read(shared, "42", "node1", now - 60, &back, &err), -1); /* no SharedDir */
	fx_mkdirs(top, "shared/42");
	chmod(shared, 0711);
	snprintf(path, sizeof(path), "%s/42", shared);
	chmod(path, 0700);
	assert_int_equal(roce_probeshare_read(shared, "42", "node1", now - 60, &back, &err), 1);
	assert_int_equal(roce_probeshare_write(shared, "42", "node1", &s, &err), 0);
	snprintf(path, sizeof(path), "%s/42/probe.node1", shared);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0400);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(roce_probeshare_read(shared, "42", "node1", now - 60, &back, &err), 0);
	assert_int_equal(back.n, 2);
	assert_memory_equal(back.key.k, s.key.k, ROCE_PROBEWIRE_KEY_LEN);
	/* written before the job started: an earlier job's, not taken */
	assert_int_equal(roce_probeshare_read(shared, "42", "node1", now + 1, &back, &err), 1);
	/* names that are no node or job */
	assert_int_equal(roce_probeshare_write(shared, "42", "../x", &s, &err), -1);
	assert_int_equal(roce_probeshare_read(shared, "4/2", "node1", 0, &back, &err), -1);
	/* planted: another owner's file, a link */
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(roce_probeshare_read(shared, "42", "node1", 0, &back, &err), -1);
	assert_non_null(strstr(err.msg, "probe.node1"));
	assert_int_equal(unlink(path), 0);
	fx_putf(top, "shared/42/real", "%s", good);
	assert_int_equal(symlink("real", path), 0);
	assert_int_equal(roce_probeshare_read(shared, "42", "node1", 0, &back, &err), -1);
	assert_int_equal(unlink(path), 0);
	/* removed */
	assert_int_equal(roce_probeshare_write(shared, "42", "node1", &s, &err), 0);
	roce_probeshare_remove(shared, "42", "node1");
	assert_int_equal(stat(path, &st), -1);
	fx_rmtree(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_text),
		cmocka_unit_test(t_hostile),
		cmocka_unit_test(t_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
