/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcicap - the extended capability walker (lib/base/pcicap.h) on a config space
 * as /sys/bus/pci/devices/<bdf>/config gives it: any length (a reader
 * without root gets a short one), any list (loops, pointers out of the
 * extended space).  Exact-size copy: ASan sees any read past the end.
 * The standard list's walk to the PCI Express capability (the port type)
 * too, and the piecewise walk (roce_pcicap_acs_src, as pcie.c preads the
 * file) over the same bytes: it never asks past the 4 KiB space, and on a
 * whole space says what the buffer walk says.  Promises: the walks end; a found capability lies inside the space, on a
 * dword, at or after 0x100, and has the asked ID; unknown has a why.
 */
#include "config.h"
#include "fuzz.h"
#include "base/pcicap.h"

/* The bytes as a source that reads short at their end (exact copy: ASan
 * sees a read past it); off + len past 4 KiB is a broken promise. */
struct piece {
	const uint8_t *cfg;
	size_t len;
};

static size_t piece_read(void *ctx, size_t off, uint8_t *buf, size_t len)
{
	const struct piece *p = ctx;
	FUZZ_CHECK(off + len <= ROCE_PCICAP_SPACE, "asked for %zu bytes at 0x%zx", len, off);
	if (off >= p->len)
		return 0;
	size_t n = p->len - off < len ? p->len - off : len;
	memcpy(buf, p->cfg + off, n);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *cfg = malloc(size ? size : 1);
	if (!cfg)
		return 0;
	memcpy(cfg, data, size);
	char why[160] = "";
	size_t off = 0;
	int rc = roce_pcicap_find_ext(cfg, size, ROCE_PCICAP_ACS, &off, why, sizeof(why));
	FUZZ_CHECK(rc >= -1 && rc <= 1, "rc %d", rc);
	if (rc == 1) {
		FUZZ_CHECK(off >= 0x100 && off + 4 <= size && off % 4 == 0, "capability at 0x%zx of %zu bytes", off, size);
		FUZZ_CHECK((cfg[off] | cfg[off + 1] << 8) == ROCE_PCICAP_ACS, "wrong ID at 0x%zx", off);
	}
	if (rc < 0)
		FUZZ_CHECK(why[0] != '\0', "unknown without a why");
	uint16_t cap = 0, ctrl = 0;
	why[0] = '\0';
	rc = roce_pcicap_acs(cfg, size, &cap, &ctrl, why, sizeof(why));
	if (rc < 0)
		FUZZ_CHECK(why[0] != '\0', "ACS unknown without a why");
	uint16_t scap = 0, sctrl = 0;
	char swhy[160] = "";
	struct piece pc = { cfg, size };
	struct roce_pcicap_src src = { piece_read, &pc };
	int src_rc = roce_pcicap_acs_src(&src, &scap, &sctrl, swhy, sizeof(swhy));
	FUZZ_CHECK(src_rc >= -1 && src_rc <= 1, "source rc %d", src_rc);
	if (src_rc < 0)
		FUZZ_CHECK(swhy[0] != '\0', "source walk unknown without a why");
	if (size >= ROCE_PCICAP_SPACE) {
		FUZZ_CHECK(src_rc == rc, "source walk %d, buffer walk %d", src_rc, rc);
		if (rc == 1)
			FUZZ_CHECK(scap == cap && sctrl == ctrl, "source walk read other registers");
	}
	unsigned type = 99;
	why[0] = '\0';
	rc = roce_pcicap_port_type(cfg, size, &type, why, sizeof(why));
	FUZZ_CHECK(rc >= -1 && rc <= 1, "port type rc %d", rc);
	if (rc == 1)
		FUZZ_CHECK(type <= 0xf, "port type 0x%x", type);
	if (rc < 0)
		FUZZ_CHECK(why[0] != '\0', "port type unknown without a why");
	char other[16];
	roce_pcicap_port_type_name(rc == 1 ? type : 0, other, sizeof(other));
	char names[200];
	roce_pcicap_acs_names(ctrl, 0xffff, names, sizeof(names));
	free(cfg);
	return 0;
}
