/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy.h - the site's RoCE policy: roce.conf (slurm.conf style Key=Value,
 * read by policyfile.h) and plugstack arguments (key=value words) both end
 * up here.
 */
#ifndef ROCE_POLICY_H
#define ROCE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include "base/error.h"

#define ROCE_DEFAULT_CONFIG "/etc/slurm/roce.conf"
#define ROCE_HCA_MAX 32 /* NCCL_IB_HCA takes at most 32 entries */

enum roce_mode { ROCE_MODE_OFF = 0, ROCE_MODE_WARN, ROCE_MODE_STRICT };
enum roce_gdr_level { ROCE_GDR_LOC = 0, ROCE_GDR_PIX, ROCE_GDR_PXB, ROCE_GDR_PHB, ROCE_GDR_SYS };
enum roce_pfc_unknown { ROCE_PFC_UNKNOWN_WARN = 0, ROCE_PFC_UNKNOWN_FAIL };
enum roce_ecn_policy { ROCE_ECN_REQUIRE = 0, ROCE_ECN_WARN, ROCE_ECN_IGNORE };
/* What a finding of a site-tunable check gives (PcieDegraded=, Acs=, Iommu=, Ets=, Trust=, LinkRateAction=). */
enum roce_action { ROCE_ACTION_WARN = 0, ROCE_ACTION_FAIL, ROCE_ACTION_IGNORE };
/* Among HCAs equally near a GPU (HcaTies=): those with the most bandwidth, as NCCL, or all. */
enum roce_hca_ties { ROCE_TIES_BANDWIDTH = 0, ROCE_TIES_ALL };

#define ROCE_GID_AUTO (-1)
#define ROCE_TC_AUTO (-1)
#define ROCE_PFC_NONE (-1)
#define ROCE_LINK_RATE_AUTO (-1)
#define ROCE_LINK_RATE_NONE 0

struct roce_policy {
	int gid_index;    /* 0..255 or ROCE_GID_AUTO */
	int addr_family;  /* AF_INET or AF_INET6 */
	unsigned mtu;     /* required netdev MTU, 0 = only uniformity */
	int pfc_priority; /* 0..7, ROCE_PFC_NONE = do not check PFC */
	enum roce_pfc_unknown pfc_unknown;
	int traffic_class;          /* 0..255 or ROCE_TC_AUTO */
	char hca[ROCE_HCA_MAX][64]; /* allow-list; n_hca == 0 = every Ethernet port */
	size_t n_hca;
	enum roce_gdr_level gdr_level;
	enum roce_hca_ties hca_ties;    /* HcaTies=: which of a GPU's equally near HCAs it gets */
	enum roce_mode mode;            /* warn or strict (off only from the plugin) */
	bool require_gdr;               /* RequireGdr=yes: missing peer-memory module fails */
	enum roce_action pcie_degraded; /* a PCIe link below what both ends can do */
	enum roce_action acs;           /* ACS redirect on a GPUDirect path */
	enum roce_action iommu;         /* IOMMU DMA translation on a GPUDirect path */
	enum roce_action ets; /* the PFC priority's TC at 0 % under ETS, or its buffer shared with lossy priorities */
	int timeout_ms;       /* deadline for all collectors together */
	char topology_file[256];           /* hwloc XML, "" = live topology (cached) */
	char topology_cache[256];          /* where the live topology's XML export is cached */
	char report_dir[256];              /* per-job fabric report fragments */
	char state_dir[256];               /* prolog counter snapshots (root only) */
	char shared_dir[256];              /* node fingerprints for the job-wide agreement, "" = none */
	bool drain;                        /* plugin: drain nodes with broken hardware */
	enum roce_ecn_policy ecn;          /* a disabled ECN reaction or notification point: fail, warn, ignore */
	int link_rate;                     /* minimum Gb/s of a RoCE port, ROCE_LINK_RATE_AUTO (as fast as the
	                                   same model's other ports) or ROCE_LINK_RATE_NONE */
	enum roce_action link_rate_action; /* a slow port: warn (kept), or fail (left out, drained) */
	enum roce_action trust;            /* RoCE landing off the PFC priority (qos/trust, dscp2prio, VLAN) */
	char sysfs_root[256];              /* "/sys"; a fixture tree in tests */
};

void roce_policy_defaults(struct roce_policy *p);

/* Set one key (case-insensitive) from a string; `where` prefixes errors
 * ("roce.conf:12").  Reading a whole roce.conf is policyfile.h's. */
int roce_policy_set(struct roce_policy *p, const char *key, const char *value, const char *where,
                    struct roce_error *err);

/* Split "Key=Value" (as in plugstack args) and set it. */
int roce_policy_set_kv(struct roce_policy *p, const char *kv, const char *where, struct roce_error *err);

/* key's spelling in the key table (case-insensitive lookup), NULL for no key
 * of ours: a problem is then said to be about that key (policyfile.h). */
const char *roce_policy_key_name(const char *key);
/* The word that starts a roce.conf section (policyfile.h), never a key. */
#define ROCE_POLICY_NODENAME "NodeName"

bool roce_policy_hca_allowed(const struct roce_policy *p, const char *device);

const char *roce_mode_name(enum roce_mode m);
int roce_mode_parse(const char *s, enum roce_mode *out); /* "off|warn|strict" */
const char *roce_gdr_level_name(enum roce_gdr_level l);
int roce_gdr_level_parse(const char *s, enum roce_gdr_level *out); /* names or 0..5 */

/* A value is a "simple token": printable, no white space, no shell or env metacharacters. */
bool roce_token_ok(const char *s, size_t maxlen);

#endif
