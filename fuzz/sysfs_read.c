/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs_read - the bounded reader roce_sysfs_read() (and _read_u64) on a
 * regular file holding the input: binary, oversized, newline-only, NULs.
 * The file is a memfd reached as <root>/<rel> = /proc/self/fd/N, so the
 * reader's own open/fstat/read path runs.  The first input byte picks the
 * caller's buffer size.  On success the value is a terminated printable
 * line without trailing newline; on failure the reading says why.
 */
#include "config.h"
#include "fuzz.h"
#include "base/model.h"
#include "read/sysfs.h"

#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char rel[16];
	struct roce_reading r;

	if (size < 1)
		return 0;
	if (fd < 0) {
		fd = memfd_create("sysfs-value", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(rel, sizeof(rel), "%d", fd);
	}
	size_t len = (size_t)data[0] + 1;     /* 1..256: callers use 64 and 128 */
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	char *buf = malloc(len);
	if (!buf)
		return 0;
	memset(&r, 0, sizeof(r));
	int rc = roce_sysfs_read("/proc/self/fd", rel, buf, len, &r);
	if (rc == 0) {
		size_t n = strnlen(buf, len);
		FUZZ_CHECK(n < len, "value not terminated in %zu bytes", len);
		FUZZ_CHECK(r.status == ROCE_OK, "rc 0 with status %s", roce_status_name(r.status));
		FUZZ_CHECK(n == 0 || (buf[n - 1] != '\n' && buf[n - 1] != ' '), "trailing newline kept");
		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(buf[i] == '\t' || buf[i] == '\n' || (buf[i] >= 0x20 && buf[i] < 0x7f), "byte 0x%02x passed", (unsigned char)buf[i]);
	} else {
		FUZZ_CHECK(rc == -1 && r.status == ROCE_MALFORMED && r.why[0], "rc %d status %s", rc, roce_status_name(r.status));
		FUZZ_CHECK(buf[0] == '\0', "failed read left a value");
	}
	uint64_t v = 0;
	memset(&r, 0, sizeof(r));
	if (roce_sysfs_read_u64("/proc/self/fd", rel, &v, &r) < 0)
		FUZZ_CHECK(r.status == ROCE_MALFORMED && r.why[0], "u64 failure status %s", roce_status_name(r.status));
	free(buf);
	return 0;
}
