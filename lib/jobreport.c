/* jobreport.c - job prolog (snapshot) and epilog (delta, verdicts, fragment). */
#include "config.h"
#include "jobreport.h"
#include "check.h"
#include "collect.h"
#include "counters.h"
#include "report.h"
#include "worker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define STATE_SCHEMA "slurm-roce/state/1"
#define STATE_MAX (16u << 20)

/* ---------------------------------------------------------------- atomic files */

static int write_atomic(int dfd, const char *name, const void *data, size_t len, uid_t owner,
                        gid_t group, mode_t mode, long reader_uid, bool durable, struct roce_error *err);

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ".<name>.<16 hex>": dot names are never read as fragments or snapshots. */
static void temp_name(char *buf, size_t len, const char *name)
{
	uint64_t r = 0;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (uint64_t)getpid() * 2654435761u ^ (uint64_t)(uintptr_t)buf;
	snprintf(buf, len, ".%s.%016llx", name, (unsigned long long)r);
}

/* POSIX access ACL as the kernel's xattr format (linux/posix_acl_xattr.h):
 * owner r, user:<reader> r, group r, mask r, other none. */
static int set_reader_acl(int fd, uid_t reader)
{
	struct { uint16_t tag, perm; uint32_t id; } __attribute__((packed)) e[5] = {
		{ 0x01, 4, UINT32_MAX },   /* ACL_USER_OBJ */
		{ 0x02, 4, reader },       /* ACL_USER */
		{ 0x04, 4, UINT32_MAX },   /* ACL_GROUP_OBJ */
		{ 0x10, 4, UINT32_MAX },   /* ACL_MASK */
		{ 0x20, 0, UINT32_MAX },   /* ACL_OTHER */
	};
	char buf[4 + sizeof(e)];
	uint32_t version = 2;   /* POSIX_ACL_XATTR_VERSION, little-endian on the hosts Slurm runs on */
	memcpy(buf, &version, 4);
	memcpy(buf + 4, e, sizeof(e));
	return fsetxattr(fd, "system.posix_acl_access", buf, sizeof(buf), 0);
}

static int set_owner_mode(int fd, uid_t owner, gid_t group, mode_t mode, long reader_uid, struct roce_error *err)
{
	if (fchown(fd, owner, group) < 0 || fchmod(fd, mode) < 0) {
		roce_error_set(err, "cannot set owner/mode: %s", strerror(errno));
		return -1;
	}
	if (reader_uid < 0 || (uid_t)reader_uid == owner)
		return 0;
	if (set_reader_acl(fd, (uid_t)reader_uid) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOTSUP) {
		roce_error_set(err, "cannot set the reader ACL: %s", strerror(errno));
		return -1;
	}
	/* No ACLs on this file system: the reader owns the file instead. */
	if (fchown(fd, (uid_t)reader_uid, group) < 0 || fchmod(fd, mode) < 0) {
		roce_error_set(err, "cannot give the file to uid %ld: %s", reader_uid, strerror(errno));
		return -1;
	}
	return 0;
}

/* Give an anonymous O_TMPFILE a temporary name in dir. */
static int link_tmpfile(int fd, int dfd, char *tmp, size_t tmplen, const char *name)
{
	for (int tries = 0; tries < 16; tries++) {
		temp_name(tmp, tmplen, name);
		if (linkat(fd, "", dfd, tmp, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno == ENOENT || errno == EPERM) {
			/* Without CAP_DAC_READ_SEARCH AT_EMPTY_PATH is refused: go through /proc. */
			char proc[64];
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
			if (linkat(AT_FDCWD, proc, dfd, tmp, AT_SYMLINK_FOLLOW) == 0)
				return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static int open_named_temp(int dfd, char *tmp, size_t tmplen, const char *name)
{
	for (int tries = 0; tries < 16; tries++) {
		temp_name(tmp, tmplen, name);
		int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int roce_write_atomic(int dfd, const char *name, const void *data, size_t len, uid_t owner,
                      gid_t group, mode_t mode, long reader_uid, struct roce_error *err)
{
	return write_atomic(dfd, name, data, len, owner, group, mode, reader_uid, true, err);
}

static int write_atomic(int dfd, const char *name, const void *data, size_t len, uid_t owner,
                        gid_t group, mode_t mode, long reader_uid, bool durable, struct roce_error *err)
{
	char tmp[NAME_MAX + 1] = "";
	bool named = false;
	int fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		fd = open_named_temp(dfd, tmp, sizeof(tmp), name);
		named = true;
	}
	if (fd < 0) {
		roce_error_set(err, "cannot create a temporary file for %s: %s", name, strerror(errno));
		return -1;
	}
	if (write_all(fd, data, len) < 0) {
		roce_error_set(err, "cannot write %s: %s", name, strerror(errno));
		goto fail;
	}
	if (set_owner_mode(fd, owner, group, mode, reader_uid, err) < 0)
		goto fail;
	if (durable && fsync(fd) < 0) {
		roce_error_set(err, "cannot sync %s: %s", name, strerror(errno));
		goto fail;
	}
	if (!named) {
		if (link_tmpfile(fd, dfd, tmp, sizeof(tmp), name) < 0) {
			roce_error_set(err, "cannot link %s: %s", name, strerror(errno));
			tmp[0] = '\0';
			goto fail;
		}
		named = true;
	}
	if (renameat(dfd, tmp, dfd, name) < 0) {
		roce_error_set(err, "cannot rename into %s: %s", name, strerror(errno));
		goto fail;
	}
	close(fd);
	if (durable && fsync(dfd) < 0 && errno != EINVAL) {
		/* The file is complete and in place; only its durability is in doubt. */
		roce_error_set(err, "cannot sync the directory of %s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
fail:
	if (named && tmp[0])
		unlinkat(dfd, tmp, 0);
	close(fd);
	return -1;
}

/* ---------------------------------------------------------------- directories */

/* mkdir -p for a configured directory (the admin's path: symlinks in it are
 * the admin's choice and followed).  Returns an O_DIRECTORY fd. */
static int open_config_dir(const char *path, mode_t mode, bool *created, struct roce_error *err)
{
	char buf[PATH_MAX];
	*created = false;
	if (path[0] != '/' || snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		roce_error_set(err, "%s: not an absolute path", path);
		return -1;
	}
	int fd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT)
		goto done;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
			roce_error_set(err, "cannot create %s: %s", buf, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, mode) == 0)
		*created = true;
	else if (errno != EEXIST) {
		roce_error_set(err, "cannot create %s: %s", buf, strerror(errno));
		return -1;
	}
	fd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
done:
	if (fd < 0)
		roce_error_set(err, "cannot open %s: %s", path, strerror(errno));
	return fd;
}

/* StateDir: ours alone.  Root-owned, nobody else can even look. */
int roce_state_dir_open(const char *path, struct roce_error *err)
{
	bool created;
	struct stat st;
	int fd = open_config_dir(path, 0700, &created, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		roce_error_set(err, "StateDir %s is not owned by uid %u: refusing to use it", path, (unsigned)geteuid());
		goto fail;
	}
	if ((st.st_mode & 077) && fchmod(fd, 0700) < 0) {
		roce_error_set(err, "StateDir %s: cannot make it 0700: %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* ReportDir/<jobid>/: root-owned 0755 under a root-owned ReportDir that
 * others cannot write to (else a user could plant the job directory). */
static int open_job_report_dir(const char *path, const char *job_id, gid_t *admin_gid, struct roce_error *err)
{
	bool created;
	struct stat st;
	int jfd = -1, rfd = open_config_dir(path, 0755, &created, err);
	if (rfd < 0)
		return -1;
	if (fstat(rfd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & S_IWOTH)) {
		roce_error_set(err, "ReportDir %s must be owned by uid %u and not writable by others",
		               path, (unsigned)geteuid());
		goto out;
	}
	*admin_gid = st.st_gid;
	if (mkdirat(rfd, job_id, 0755) < 0 && errno != EEXIST) {
		roce_error_set(err, "cannot create %s/%s: %s", path, job_id, strerror(errno));
		goto out;
	}
	jfd = openat(rfd, job_id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (jfd < 0) {
		roce_error_set(err, "cannot open %s/%s: %s", path, job_id, strerror(errno));
		goto out;
	}
	if (fstat(jfd, &st) < 0 || st.st_uid != geteuid()) {
		roce_error_set(err, "%s/%s is not owned by uid %u: refusing to write into it", path, job_id,
		               (unsigned)geteuid());
		close(jfd);
		jfd = -1;
		goto out;
	}
	if ((st.st_mode & 07777) != 0755)
		fchmod(jfd, 0755);
	fsync(rfd);   /* the new job directory entry */
out:
	close(rfd);
	return jfd;
}

/* ---------------------------------------------------------------- state files */

/* "<digits>.json" -> the job id, else NULL. */
static bool state_name_job(const char *name, char *job, size_t len)
{
	size_t n = strlen(name);
	if (n < 6 || n - 5 >= len || strcmp(name + n - 5, ".json") != 0)
		return false;
	memcpy(job, name, n - 5);
	job[n - 5] = '\0';
	return roce_job_id_ok(job);
}

struct idlist {
	char (*id)[ROCE_JOBID_MAX];
	size_t n;
};

static void idlist_add(struct idlist *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->id[i], id) == 0)
			return;
	if (l->n >= 4096)
		return;
	void *grown = realloc(l->id, (l->n + 1) * sizeof(*l->id));
	if (!grown)
		return;   /* a missed "shared" mark is not worth failing the report */
	l->id = grown;
	snprintf(l->id[l->n++], ROCE_JOBID_MAX, "%s", id);
}

static json_object *read_json_at(int dfd, const char *name, char *why, size_t whylen)
{
	struct stat st;
	json_object *o = NULL;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_size > STATE_MAX) {
		snprintf(why, whylen, "not a regular file of ours below %u bytes", STATE_MAX);
		goto out;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	ssize_t got = buf ? pread(fd, buf, (size_t)st.st_size, 0) : -1;
	if (got != st.st_size) {
		snprintf(why, whylen, "short read");
	} else {
		buf[got] = '\0';
		enum json_tokener_error jerr;
		o = json_tokener_parse_verbose(buf, &jerr);
		if (!o)
			snprintf(why, whylen, "not JSON: %s", json_tokener_error_desc(jerr));
	}
	free(buf);
out:
	close(fd);
	return o;
}

/* When this boot began, in CLOCK_REALTIME seconds (0 unknown). */
static time_t boot_time(void)
{
	struct timespec now, up;
	if (clock_gettime(CLOCK_REALTIME, &now) < 0 || clock_gettime(CLOCK_BOOTTIME, &up) < 0)
		return 0;
	return now.tv_sec - up.tv_sec;
}

/* Other jobs' snapshots.  One written before this boot began belongs to a
 * job that died with the node: removed, so it cannot flag later jobs as
 * sharing.  (mtime, not content: no need to read every other snapshot.) */
static void scan_state_dir(int sfd, const char *job_id, struct idlist *others)
{
	int dup_fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	struct stat st;
	char job[ROCE_JOBID_MAX];
	time_t booted = boot_time();
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d))) {
		const char *with = strstr(e->d_name, ".with.");
		if (with && (size_t)(with - e->d_name) < sizeof(job)) {
			/* <X>.with.<Y> whose X has no snapshot any more: X's epilog
			 * took its markers before a late prolog added this one. */
			char snap[ROCE_JOBID_MAX + 8];
			snprintf(snap, sizeof(snap), "%.*s.json", (int)(with - e->d_name), e->d_name);
			bool ours = (size_t)(with - e->d_name) == strlen(job_id) &&
			            strncmp(e->d_name, job_id, strlen(job_id)) == 0;
			if (!ours && faccessat(sfd, snap, F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
				unlinkat(sfd, e->d_name, 0);
			continue;
		}
		if (!state_name_job(e->d_name, job, sizeof(job)) || strcmp(job, job_id) == 0)
			continue;
		if (booted > 0 && fstatat(sfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_mtime + 2 < booted) {
			unlinkat(sfd, e->d_name, 0);
			continue;
		}
		idlist_add(others, job);
	}
	closedir(d);
}

/* Markers "<jobid>.with.<other>" left for us by later jobs' prologs. */
static void take_markers(int sfd, const char *job_id, struct idlist *shared)
{
	/* A fresh open, not dup(): a dup shares the directory offset with sfd. */
	int dup_fd = openat(sfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	char prefix[ROCE_JOBID_MAX + 8];
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	snprintf(prefix, sizeof(prefix), "%s.with.", job_id);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		const char *other = e->d_name + strlen(prefix);
		if (roce_job_id_ok(other))
			idlist_add(shared, other);
		unlinkat(sfd, e->d_name, 0);
	}
	closedir(d);
}

/* ---------------------------------------------------------------- shared steps */

struct job_ctx {
	struct roce_policy pol;
	const char *job_id, *node;
	uid_t uid;
	char host[64];           /* node name fallback: the short host name */
};

static int job_ctx_init(struct job_ctx *c, const struct roce_policy *p, const char *sysfs_root,
                        const char *job_id, const char *node, uid_t uid, struct roce_error *err)
{
	if (!roce_job_id_ok(job_id)) {
		roce_error_set(err, "job id \"%.24s\" is not 1-10 digits", job_id ? job_id : "(null)");
		return -1;
	}
	if (!node || !*node) {
		/* slurmstepd has SLURMD_NODENAME; without it the host name is the best guess */
		if (gethostname(c->host, sizeof(c->host)) < 0) {
			roce_error_set(err, "no node name and gethostname failed: %s", strerror(errno));
			return -1;
		}
		c->host[sizeof(c->host) - 1] = '\0';
		c->host[strcspn(c->host, ".")] = '\0';
		node = c->host;
	}
	if (!roce_node_name_ok(node)) {
		roce_error_set(err, "node name \"%.64s\" is not usable as a file name", node ? node : "(null)");
		return -1;
	}
	c->pol = *p;
	if (sysfs_root && snprintf(c->pol.sysfs_root, sizeof(c->pol.sysfs_root), "%s", sysfs_root) >=
	                      (int)sizeof(c->pol.sysfs_root)) {
		roce_error_set(err, "sysfs root too long");
		return -1;
	}
	c->job_id = job_id;
	c->node = node;
	c->uid = uid;
	return 0;
}

/* Collect the model, check it, snapshot the counters. */
static int take_snapshot(const struct job_ctx *c, struct roce_snapshot *s, struct roce_error *err)
{
	struct roce_node node;
	struct roce_check_result result;
	struct roce_collect_opts opts = { .sysfs_root = c->pol.sysfs_root, .netlink = true };
	int rc = 0;

	roce_node_init(&node);
	roce_collect(&node, &c->pol, &opts);
	bool checked = roce_check(&node, &c->pol, &result) == 0;
	/* The counters get the policy's collector budget again, after the collector. */
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += c->pol.timeout_ms / 1000;
	deadline.tv_nsec += (long)(c->pol.timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	if (roce_snapshot_take_until(s, c->pol.sysfs_root, &node, checked ? &result : NULL, &deadline) < 0) {
		roce_error_set(err, "out of memory taking the counter snapshot");
		rc = -1;
	}
	if (checked)
		roce_check_result_free(&result);
	roce_node_free(&node);
	return rc;
}

/* ---------------------------------------------------------------- prolog */

static json_object *state_json(const struct job_ctx *c, const struct roce_snapshot *s)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "schema", json_object_new_string(STATE_SCHEMA));
	json_object_object_add(o, "job_id", json_object_new_string(c->job_id));
	json_object_object_add(o, "node", json_object_new_string(c->node));
	json_object_object_add(o, "job_uid", json_object_new_int64(c->uid));
	json_object_object_add(o, "snapshot", roce_snapshot_to_json(s));
	return o;
}

static void touch_marker(int sfd, const char *job, const char *other)
{
	char marker[2 * ROCE_JOBID_MAX + 8];
	snprintf(marker, sizeof(marker), "%s.with.%s", job, other);
	int fd = openat(sfd, marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

/*
 * Sharing is detected AFTER our snapshot is in place, and marked both ways
 * (<other>.with.<us> and <us>.with.<other>): of two prologs running at the
 * same time, the one that scans last sees the other's snapshot, so both
 * epilogs find a marker whatever the interleaving.
 */
static void mark_sharing(int sfd, const char *job_id)
{
	struct idlist others = { 0 };
	scan_state_dir(sfd, job_id, &others);
	for (size_t i = 0; i < others.n; i++) {
		touch_marker(sfd, others.id[i], job_id);
		touch_marker(sfd, job_id, others.id[i]);
	}
	free(others.id);
}

int roce_job_prolog(const struct roce_policy *p, const char *sysfs_root, const char *job_id,
                    const char *node_name, uid_t job_uid, struct roce_error *err)
{
	struct job_ctx c;
	struct roce_snapshot s;
	char name[ROCE_JOBID_MAX + 8];
	int rc = ROCE_JOB_NONFATAL, sfd;

	if (job_ctx_init(&c, p, sysfs_root, job_id, node_name, job_uid, err) < 0)
		return -1;
	if ((sfd = roce_state_dir_open(c.pol.state_dir, err)) < 0)
		return ROCE_JOB_NONFATAL;
	roce_snapshot_init(&s);
	if (take_snapshot(&c, &s, err) < 0)
		goto out;
	json_object *o = state_json(&c, &s);
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
	snprintf(name, sizeof(name), "%s.json", job_id);
	if (!text)
		roce_error_set(err, "out of memory serialising the snapshot");
	/* Atomic but not fsync'd: if the node crashes the job is gone too, and
	 * the epilog copes with a missing snapshot. */
	else if (write_atomic(sfd, name, text, strlen(text), geteuid(), getegid(), 0600, -1, false, err) == 0) {
		rc = 0;
		mark_sharing(sfd, job_id);
	}
	json_object_put(o);
out:
	roce_snapshot_free(&s);
	close(sfd);
	return rc;
}

/* ---------------------------------------------------------------- epilog */

/* The prolog's snapshot.  -1 with why when absent or unusable. */
static int load_state(int sfd, const struct job_ctx *c, struct roce_snapshot *start, char *why, size_t whylen)
{
	char name[ROCE_JOBID_MAX + 8], sub[ROCE_WHY_MAX];
	json_object *m, *o;
	snprintf(name, sizeof(name), "%s.json", c->job_id);
	if (!(o = read_json_at(sfd, name, sub, sizeof(sub)))) {
		snprintf(why, whylen, "no prolog snapshot (%.120s/%s: %.60s)", c->pol.state_dir, name, sub);
		return -1;
	}
	int rc = -1;
	if (!json_object_object_get_ex(o, "job_id", &m) || strcmp(json_object_get_string(m), c->job_id) != 0)
		snprintf(why, whylen, "prolog snapshot %s is for another job", name);
	else if (!json_object_object_get_ex(o, "snapshot", &m) ||
	         roce_snapshot_from_json(start, m, sub, sizeof(sub)) < 0)
		snprintf(why, whylen, "prolog snapshot %s unusable: %s", name, sub);
	else
		rc = 0;
	json_object_put(o);
	return rc;
}

/* Without a usable start: every counter of the end snapshot becomes unread. */
static int start_from_end(struct roce_snapshot *start, const struct roce_snapshot *end, const char *why)
{
	roce_snapshot_free(start);
	*start = *end;
	start->ports = NULL;
	if (end->n_ports && !(start->ports = malloc(end->n_ports * sizeof(*start->ports))))
		return -1;
	memcpy(start->ports, end->ports, end->n_ports * sizeof(*start->ports));
	for (size_t i = 0; i < end->n_ports; i++) {
		for (int k = 0; k < ROCE_N_COUNTERS; k++)
			roce_reading_set(&start->ports[i].c[k].read, ROCE_MISSING, 0, "%s", why);
		roce_reading_set(&start->ports[i].pfc.read, ROCE_MISSING, 0, "%s", why);
	}
	return 0;
}

/* ".<name>.<random>" left by an earlier writer of the same file that was
 * killed (only where the file system has no O_TMPFILE).  Only this node
 * writes its name, so they are ours to remove. */
static void remove_stale_temps(int dfd, const char *name)
{
	char prefix[NAME_MAX + 2];
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	snprintf(prefix, sizeof(prefix), ".%s.", name);
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			unlinkat(dfd, e->d_name, 0);
	closedir(d);
}

static int write_fragment(const struct job_ctx *c, const struct roce_snapshot *start, const struct roce_snapshot *end,
                          const struct idlist *shared, const char *note, bool no_start, struct roce_error *err)
{
	struct roce_delta d;
	struct roce_verdict_list v = { 0 };
	const char *ids[4096];
	char name[80];
	gid_t admin_gid = 0;
	int rc = -1, jfd = -1;
	json_object *frag = NULL;

	for (size_t i = 0; i < shared->n; i++)
		ids[i] = shared->id[i];
	struct roce_fragment_meta m = {
		.job_id = c->job_id, .node = c->node, .job_uid = c->uid,
		.start_ns = start->time_ns, .end_ns = end->time_ns,
		.shared_with = ids, .n_shared = shared->n,
		.pfc_priority = c->pol.pfc_priority, .note = note, .no_start = no_start,
	};
	if (roce_delta_compute(start, end, &d) < 0 || roce_verdicts_from_delta(&d, &m, &v) < 0 ||
	    !(frag = roce_fragment_build(&m, &d, &v))) {
		roce_error_set(err, "out of memory building the report");
		goto out;
	}
	/* plain: read by programs (roce-report, jq); a third smaller and faster to merge */
	const char *text = json_object_to_json_string_ext(frag, JSON_C_TO_STRING_PLAIN);
	if (!text) {
		roce_error_set(err, "out of memory serialising the report");
		goto out;
	}
	if ((jfd = open_job_report_dir(c->pol.report_dir, c->job_id, &admin_gid, err)) < 0)
		goto out;
	snprintf(name, sizeof(name), "%s.json", c->node);
	remove_stale_temps(jfd, name);
	if (roce_write_atomic(jfd, name, text, strlen(text), geteuid(), admin_gid, 0440, (long)c->uid, err) == 0)
		rc = 0;
out:
	if (jfd >= 0)
		close(jfd);
	json_object_put(frag);
	roce_verdict_list_free(&v);
	roce_delta_free(&d);
	return rc;
}

int roce_job_epilog(const struct roce_policy *p, const char *sysfs_root, const char *job_id,
                    const char *node_name, uid_t job_uid, struct roce_error *err)
{
	struct job_ctx c;
	struct roce_snapshot start, end;
	struct idlist shared = { 0 };
	char note[ROCE_WHY_MAX + 64] = "", name[ROCE_JOBID_MAX + 8];
	struct roce_error serr;
	int rc = ROCE_JOB_NONFATAL;
	bool have_start = false;

	if (job_ctx_init(&c, p, sysfs_root, job_id, node_name, job_uid, err) < 0)
		return -1;
	roce_snapshot_init(&start);
	roce_snapshot_init(&end);
	int sfd = roce_state_dir_open(c.pol.state_dir, &serr);
	if (sfd < 0)
		snprintf(note, sizeof(note), "no prolog snapshot: %.200s", serr.msg);
	else {
		have_start = load_state(sfd, &c, &start, note, sizeof(note)) == 0;
		take_markers(sfd, job_id, &shared);
		scan_state_dir(sfd, job_id, &shared);
	}
	if (take_snapshot(&c, &end, err) < 0)
		goto out;
	if (!have_start && start_from_end(&start, &end, note) < 0) {
		roce_error_set(err, "out of memory");
		goto out;
	}
	if (write_fragment(&c, &start, &end, &shared, note[0] ? note : NULL, !have_start, err) == 0)
		rc = 0;
out:
	/* The snapshot goes whatever happened: a stale one would flag later jobs as sharing. */
	if (sfd >= 0) {
		snprintf(name, sizeof(name), "%s.json", job_id);
		unlinkat(sfd, name, 0);   /* no fsync: a snapshot that reappears after a crash is stale and removed */
		close(sfd);
	}
	free(shared.id);
	roce_snapshot_free(&start);
	roce_snapshot_free(&end);
	return rc;
}

/* ---------------------------------------------------------------- with a deadline */

/* The prolog delays the job's start, so it gets less room for writing than
 * the epilog, which may write to a shared file system. */
#define PROLOG_MARGIN_MS 1000
#define EPILOG_MARGIN_MS 3000

struct job_call {
	const struct roce_policy *policy;
	bool prolog;
	const char *sysfs_root, *job_id, *node;
	uid_t uid;
};

struct job_result {
	int rc;
	struct roce_error err;
};

static void job_worker(const void *arg, void *res)
{
	const struct job_call *c = arg;
	struct job_result *r = res;
	r->rc = c->prolog ? roce_job_prolog(c->policy, c->sysfs_root, c->job_id, c->node, c->uid, &r->err)
	                  : roce_job_epilog(c->policy, c->sysfs_root, c->job_id, c->node, c->uid, &r->err);
}

/* An epilog that did not run (an earlier check stuck) or was abandoned at its
 * deadline still owes the job's snapshot its removal: a stale one would flag
 * every later job on the node as sharing it.  No sysfs read needed. */
static void drop_snapshot(const struct roce_policy *p, const char *job_id)
{
	struct roce_error e = { "" };
	char name[ROCE_JOBID_MAX + 8];
	if (!roce_job_id_ok(job_id))
		return;
	int sfd = roce_state_dir_open(p->state_dir, &e);
	if (sfd < 0)
		return;
	snprintf(name, sizeof(name), "%s.json", job_id);
	unlinkat(sfd, name, 0);
	close(sfd);
}

int roce_job_run(const struct roce_policy *p, bool prolog, const char *sysfs_root, const char *job_id,
                 const char *node_name, uid_t job_uid, struct roce_error *err)
{
	struct job_call call = { p, prolog, sysfs_root, job_id, node_name, job_uid };
	struct job_result res;
	struct roce_error why = { "" };
	int margin = prolog ? PROLOG_MARGIN_MS : EPILOG_MARGIN_MS;

	memset(&res, 0, sizeof(res));
	if (roce_worker_run_guarded(p, sysfs_root, "the counter snapshot", job_worker, &call, &res,
	                            sizeof(res), p->timeout_ms + margin, &why) < 0) {
		roce_error_set(err, "%s", why.msg);
		if (!prolog)
			drop_snapshot(p, job_id);
		return ROCE_JOB_NONFATAL;
	}
	res.err.msg[sizeof(res.err.msg) - 1] = '\0';   /* the child's text is trusted no further than its bounds */
	if (res.rc != 0)
		roce_error_set(err, "%s", res.err.msg);
	return res.rc < 0 ? -1 : res.rc > 0 ? ROCE_JOB_NONFATAL : 0;
}
