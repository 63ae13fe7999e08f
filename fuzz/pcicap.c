/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcicap - the extended capability walker (lib/pcicap.h) on a config space
 * as /sys/bus/pci/devices/<bdf>/config gives it: any length (a reader
 * without root gets a short one), any list (loops, pointers out of the
 * extended space).  Exact-size copy: ASan sees any read past the end.
 * The standard list's walk to the PCI Express capability (the port type)
 * too.  Promises: the walks end; a found capability lies inside the space, on a
 * dword, at or after 0x100, and has the asked ID; unknown has a why.
 */
#include "config.h"
#include "fuzz.h"
#include "pcicap.h"

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
