/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcicap.c - the walk of a config space's extended capability list.
 */
#include "config.h"
#include "base/pcicap.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define EXT_START 0x100
#define STD_START 0x40 /* the standard list lives in 0x40-0xff */
#define STATUS 0x06
#define STATUS_CAP_LIST 0x10
#define CAP_PTR 0x34
#define EXP_LNKCTL2 0x30 /* Link Control 2, in the PCI Express capability */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Copies from a buffer: the source of the buffer versions below. */
struct mem {
	const uint8_t *cfg;
	size_t len;
};

static size_t mem_read(void *ctx, size_t off, uint8_t *buf, size_t len)
{
	const struct mem *m = ctx;
	if (off >= m->len)
		return 0;
	size_t n = m->len - off < len ? m->len - off : len;
	memcpy(buf, m->cfg + off, n);
	return n;
}

/* len bytes (at most 8) at off; -1 (why) when the source has fewer. */
static int src_bytes(const struct roce_pcicap_src *src, size_t off, uint8_t *buf, size_t len, char *why, size_t whylen)
{
	size_t got = src->read(src->ctx, off, buf, len);
	if (got >= len)
		return 0;
	snprintf(why, whylen, "only %zu of %d bytes of config space readable (the rest needs root)", off + got,
	         ROCE_PCICAP_SPACE);
	return -1;
}

static int roce_pcicap_find_ext_src(const struct roce_pcicap_src *src, uint16_t id, size_t *off, char *why,
                                    size_t whylen)
{
	/* One bit per dword of the extended space: a list that visits one twice loops. */
	bool seen[ROCE_PCICAP_SPACE / 4] = { false };
	uint8_t b[4];
	size_t pos = EXT_START;
	if (src_bytes(src, pos, b, 4, why, whylen) < 0)
		return -1;
	uint32_t h = le32(b);
	/* No extended capabilities: all zeros, or all ones (no extended space). */
	if (h == 0 || h == 0xffffffffu)
		return 0;
	for (;;) {
		seen[pos / 4] = true;
		if ((h & 0xffff) == id) {
			*off = pos;
			return 1;
		}
		/* next <= 0xffc: its dword lies inside the 4 KiB space */
		size_t next = (h >> 20) & 0xffc;
		if (next == 0)
			return 0;
		if (next < EXT_START) {
			snprintf(why, whylen, "the capability at 0x%zx points to 0x%zx, outside the extended space",
			         pos, next);
			return -1;
		}
		if (seen[next / 4]) {
			snprintf(why, whylen, "the capability list loops (0x%zx points back to 0x%zx)", pos, next);
			return -1;
		}
		pos = next;
		if (src_bytes(src, pos, b, 4, why, whylen) < 0)
			return -1;
		h = le32(b);
	}
}

int roce_pcicap_acs_src(const struct roce_pcicap_src *src, uint16_t *cap, uint16_t *ctrl, char *why, size_t whylen)
{
	size_t off;
	uint8_t b[4];
	int rc = roce_pcicap_find_ext_src(src, ROCE_PCICAP_ACS, &off, why, whylen);
	if (rc <= 0)
		return rc;
	if (off + 8 > ROCE_PCICAP_SPACE) {
		snprintf(why, whylen, "the ACS capability at 0x%zx runs past the end of the config space", off);
		return -1;
	}
	if (src_bytes(src, off + 4, b, 4, why, whylen) < 0)
		return -1;
	*cap = le16(b);
	*ctrl = le16(b + 2);
	return 1;
}

/* A buffer shorter than the whole space is unknown before any walk (what
 * the walk would find depends on bytes it does not have). */
static int whole_space(size_t len, char *why, size_t whylen)
{
	if (len >= ROCE_PCICAP_SPACE)
		return 0;
	snprintf(why, whylen, "only %zu of %d bytes of config space readable (the rest needs root)", len,
	         ROCE_PCICAP_SPACE);
	return -1;
}

int roce_pcicap_find_ext(const uint8_t *cfg, size_t len, uint16_t id, size_t *off, char *why, size_t whylen)
{
	struct mem m = { cfg, len };
	struct roce_pcicap_src src = { mem_read, &m };
	return whole_space(len, why, whylen) < 0 ? -1 : roce_pcicap_find_ext_src(&src, id, off, why, whylen);
}

int roce_pcicap_acs(const uint8_t *cfg, size_t len, uint16_t *cap, uint16_t *ctrl, char *why, size_t whylen)
{
	struct mem m = { cfg, len };
	struct roce_pcicap_src src = { mem_read, &m };
	return whole_space(len, why, whylen) < 0 ? -1 : roce_pcicap_acs_src(&src, cap, ctrl, why, whylen);
}

/* The offset of the PCI Express capability, through the standard list
 * (0x34): 1 found, 0 none, -1 unknown (why). */
static int find_exp(const uint8_t *cfg, size_t len, size_t *at, char *why, size_t whylen)
{
	bool seen[ROCE_PCICAP_STD_SPACE / 4] = { false };
	if (len < ROCE_PCICAP_STD_SPACE) {
		snprintf(why, whylen, "only %zu of %d bytes of config space readable (the rest needs root)", len,
		         ROCE_PCICAP_STD_SPACE);
		return -1;
	}
	if (!(cfg[STATUS] & STATUS_CAP_LIST))
		return 0;
	size_t pos = cfg[CAP_PTR] & 0xfc;
	while (pos) {
		if (pos < STD_START) {
			snprintf(why, whylen, "the standard capability list points to 0x%zx, inside the header", pos);
			return -1;
		}
		if (seen[pos / 4]) {
			snprintf(why, whylen, "the standard capability list loops (back to 0x%zx)", pos);
			return -1;
		}
		seen[pos / 4] = true;
		if (cfg[pos] == ROCE_PCICAP_EXP) {
			*at = pos;
			return 1;
		}
		pos = cfg[pos + 1] & 0xfc;
	}
	return 0;
}

int roce_pcicap_port_type(const uint8_t *cfg, size_t len, unsigned *type, char *why, size_t whylen)
{
	size_t pos;
	int rc = find_exp(cfg, len, &pos, why, whylen);
	/* pos <= 0xfc: the flags at pos + 2 and + 3 are inside the 256 bytes */
	if (rc == 1)
		*type = (unsigned)(cfg[pos + 2] >> 4) & 0xf;
	return rc;
}

int roce_pcicap_link_target(const uint8_t *cfg, size_t len, unsigned *tenths, bool *hasd, char *why, size_t whylen)
{
	/* Link Speeds Vector bit n (Target Link Speed value n): 2.5, 5, 8, 16, 32, 64 GT/s */
	static const unsigned speed[] = { 0, 25, 50, 80, 160, 320, 640 };
	size_t pos;
	int rc = find_exp(cfg, len, &pos, why, whylen);
	if (rc < 1)
		return rc;
	/* Link Control 2 is in version 2 of the capability only, at +0x30 */
	if ((cfg[pos + 2] & 0xf) < 2)
		return 0;
	if (pos + EXP_LNKCTL2 + 2 > ROCE_PCICAP_STD_SPACE) {
		snprintf(why, whylen, "the PCI Express capability at 0x%zx runs past the standard space", pos);
		return -1;
	}
	uint16_t ctl2 = le16(cfg + pos + EXP_LNKCTL2);
	unsigned t = ctl2 & 0xf;
	if (t == 0 || t >= sizeof(speed) / sizeof(speed[0])) {
		snprintf(why, whylen, "Link Control 2 at 0x%zx has target link speed %u, not a PCIe speed",
		         pos + EXP_LNKCTL2, t);
		return -1;
	}
	*tenths = speed[t];
	*hasd = (ctl2 & 0x20) != 0;
	return 1;
}

const char *roce_pcicap_port_type_name(unsigned type, char *buf, size_t len)
{
	switch (type) {
	case ROCE_PCIE_TYPE_ENDPOINT: return "endpoint";
	case ROCE_PCIE_TYPE_ROOT_PORT: return "root port";
	case ROCE_PCIE_TYPE_UPSTREAM: return "switch upstream port";
	case ROCE_PCIE_TYPE_DOWNSTREAM: return "switch downstream port";
	}
	snprintf(buf, len, "type 0x%x", type);
	return buf;
}

void roce_pcicap_acs_names(uint16_t ctrl, uint16_t mask, char *out, size_t len)
{
	static const char *const names[] = {
		"Source Validation",   "Translation Blocking", "P2P Request Redirect",  "P2P Completion Redirect",
		"Upstream Forwarding", "P2P Egress Control",   "Direct Translated P2P",
	};
	size_t used = 0;
	out[0] = '\0';
	for (unsigned b = 0; b < sizeof(names) / sizeof(names[0]); b++) {
		if (!(ctrl & mask & (1u << b)))
			continue;
		int n = snprintf(out + used, len - used, "%s%s", used ? ", " : "", names[b]);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}
