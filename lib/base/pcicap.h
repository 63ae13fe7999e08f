/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcicap.h - the PCIe extended capability list of a config space, as the
 * bytes of /sys/bus/pci/devices/<bdf>/config.  Pure: it walks a buffer.
 *
 * Extended capabilities start at 0x100, each with a 32-bit little-endian
 * header: ID bits 15:0, version 19:16, next offset 31:20 (0 ends the list).
 * The walk never trusts the bytes: a space shorter than 4096 bytes (what a
 * reader without CAP_SYS_ADMIN gets), a next offset below 0x100 or a list
 * that comes back to an offset it visited is unknown, with the reason.
 */
#ifndef ROCE_PCICAP_H
#define ROCE_PCICAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_PCICAP_SPACE 4096    /* a PCIe function's config space */
#define ROCE_PCICAP_STD_SPACE 256 /* its PCI-compatible part: the standard list */
#define ROCE_PCICAP_EXP 0x10      /* PCI Express capability (standard list) */
#define ROCE_PCICAP_ACS 0x000d    /* Access Control Services */

/* ACS control register bits (PCIe base spec 7.7.11.3; pci_regs.h PCI_ACS_*). */
#define ROCE_ACS_SV 0x0001 /* Source Validation */
#define ROCE_ACS_TB 0x0002 /* Translation Blocking */
#define ROCE_ACS_RR 0x0004 /* P2P Request Redirect */
#define ROCE_ACS_CR 0x0008 /* P2P Completion Redirect */
#define ROCE_ACS_UF 0x0010 /* Upstream Forwarding */
#define ROCE_ACS_EC 0x0020 /* P2P Egress Control */
#define ROCE_ACS_DT 0x0040 /* Direct Translated P2P */
/* The bits that send GPU<->NIC peer traffic up to the root complex. */
#define ROCE_ACS_P2P_BLOCKING (ROCE_ACS_SV | ROCE_ACS_RR | ROCE_ACS_CR | ROCE_ACS_UF)

/* PCI Express Device/Port Type (bits 7:4 of the PCI Express Capabilities
 * register; pci_regs.h PCI_EXP_TYPE_*): ACS on a switch's ports decides
 * whether peer traffic below the switch stays there; a root port's ACS
 * does not (traffic through it goes via the root complex anyway). */
#define ROCE_PCIE_TYPE_ENDPOINT 0x0
#define ROCE_PCIE_TYPE_ROOT_PORT 0x4
#define ROCE_PCIE_TYPE_UPSTREAM 0x5   /* a switch's upstream port */
#define ROCE_PCIE_TYPE_DOWNSTREAM 0x6 /* a switch's downstream port */

/* The Device/Port Type from the PCI Express capability, found through the
 * standard list (0x34, needs the first 256 bytes): 1 found (*type), 0 the
 * function has no such capability, -1 unknown (why: short space, bad or
 * looping list). */
int roce_pcicap_port_type(const uint8_t *cfg, size_t len, unsigned *type, char *why, size_t whylen);
/* The Target Link Speed of Link Control 2 (in tenths of GT/s, 25 = 2.5)
 * and its Hardware Autonomous Speed Disable bit, from the PCI Express
 * capability (version 2, the first 256 bytes): what the port may train to,
 * lowered by a BIOS "PCIe generation" setting or setpci.  1 read, 0 the
 * function has no such register, -1 unknown (why). */
int roce_pcicap_link_target(const uint8_t *cfg, size_t len, unsigned *tenths, bool *hasd, char *why, size_t whylen);
/* "root port", "switch upstream port", ... ("type 0x9" for the others). */
const char *roce_pcicap_port_type_name(unsigned type, char *buf, size_t len);

/* Find extended capability id in cfg (len bytes).  1 found (*off set), 0 not
 * in the list, -1 unknown (why says which: short space, bad or looping list). */
int roce_pcicap_find_ext(const uint8_t *cfg, size_t len, uint16_t id, size_t *off, char *why, size_t whylen);

/* The ACS capability and control registers: 1 present (*cap, *ctrl), 0 the
 * function has no ACS, -1 unknown (why). */
int roce_pcicap_acs(const uint8_t *cfg, size_t len, uint16_t *cap, uint16_t *ctrl, char *why, size_t whylen);

/* The same walks over a config space read piece by piece (pcie.c preads
 * sysfs's config file: the headers of the list and the ACS registers, a
 * few dozen bytes instead of 4 KiB, each dword of which is a config cycle
 * on real hardware).  read() copies up to len bytes at off into buf and
 * returns how many it copied: fewer is the end of what can be read (a
 * reader without root gets 64 bytes), said as unknown. */
struct roce_pcicap_src {
	size_t (*read)(void *ctx, size_t off, uint8_t *buf, size_t len);
	void *ctx;
};
int roce_pcicap_acs_src(const struct roce_pcicap_src *src, uint16_t *cap, uint16_t *ctrl, char *why, size_t whylen);

/* "Source Validation, P2P Request Redirect" for the bits of ctrl in mask. */
void roce_pcicap_acs_names(uint16_t ctrl, uint16_t mask, char *out, size_t len);

#endif
