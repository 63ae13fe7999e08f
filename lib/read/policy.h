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
#include <stdint.h>
#include "base/counter.h"
#include "base/error.h"
#include "base/subnet.h"

#define ROCE_DEFAULT_CONFIG "/etc/slurm/roce.conf"
#define ROCE_HCA_MAX 32 /* NCCL_IB_HCA takes at most 32 entries */

enum roce_mode { ROCE_MODE_OFF = 0, ROCE_MODE_WARN, ROCE_MODE_STRICT };
enum roce_gdr_level { ROCE_GDR_LOC = 0, ROCE_GDR_PIX, ROCE_GDR_PXB, ROCE_GDR_PHB, ROCE_GDR_SYS };
/* What a state a supported stack simply does not expose gives (the
 * *Unknown= keys: no DCB, no ecn/, no ETS or buffers, no NVIDIA driver, no
 * PCIe path): quiet, a finding with its verdict (never a pass) shown by
 * roce-check, the report and slurmd's log, not in a job's output; warn, said
 * in the job's output too; fail (PfcUnknown= only), the port fails. */
enum roce_unknown_action { ROCE_UNKNOWN_QUIET = 0, ROCE_UNKNOWN_WARN, ROCE_UNKNOWN_FAIL };
enum roce_ecn_policy { ROCE_ECN_REQUIRE = 0, ROCE_ECN_WARN, ROCE_ECN_IGNORE };
/* What a finding of a site-tunable check gives (PcieDegraded=, Acs=, Iommu=, Ets=, Trust=, LinkRateAction=). */
enum roce_action { ROCE_ACTION_WARN = 0, ROCE_ACTION_FAIL, ROCE_ACTION_IGNORE };
/* Probe=: the path probe between the job's nodes in the job prolog (off, or
 * UDP datagrams on each rail's IP path: lib/probe/). */
enum roce_probe_mode { ROCE_PROBE_OFF = 0, ROCE_PROBE_IP };
/* Among HCAs equally near a GPU (HcaTies=): those with the most bandwidth, as NCCL, or all. */
enum roce_hca_ties { ROCE_TIES_BANDWIDTH = 0, ROCE_TIES_ALL };

#define ROCE_GID_AUTO (-1)
#define ROCE_TC_AUTO (-1)
#define ROCE_PFC_NONE (-1)
#define ROCE_LINK_RATE_AUTO (-1)
#define ROCE_LINK_RATE_NONE 0
/* TrendCounters= when roce.conf does not say: the link-quality counters and
 * the growth within TrendWindow= that makes a port sick. */
#define ROCE_TREND_COUNTERS_DEFAULT                                                                         \
	"symbol_error:10,link_downed:1,link_error_recovery:1,port_rcv_errors:10,local_ack_timeout_err:100," \
	"rx_icrc_encapsulated:10"
#define ROCE_RESUME_AFTER_DEFAULT 3
#define ROCE_RESUME_AFTER_MAX 1000

/* Rails=: the site's rails, in order, each a subnet and maybe a name
 * (fingerprint.h: a port is on the rail whose subnet holds its GID's
 * address). */
#define ROCE_RAILS_MAX ROCE_HCA_MAX
#define ROCE_RAIL_NAME_MAX 16
struct roce_rail {
	char name[ROCE_RAIL_NAME_MAX]; /* "" unnamed: the subnet names it */
	struct roce_subnet net;
};

struct roce_policy {
	int gid_index;                        /* 0..255 or ROCE_GID_AUTO */
	int addr_family;                      /* AF_INET or AF_INET6 */
	unsigned mtu;                         /* required netdev MTU, 0 = only uniformity */
	int pfc_priority;                     /* 0..7, ROCE_PFC_NONE = do not check PFC */
	enum roce_unknown_action pfc_unknown; /* a netdev without DCB (quiet) or another unknown PFC state */
	enum roce_unknown_action ecn_unknown; /* no class/net/<if>/ecn/ (upstream mlx5): quiet or warn */
	enum roce_unknown_action ets_unknown; /* ETS or buffers the driver does not report: quiet or warn */
	enum roce_unknown_action gdr_unknown; /* no GPUDirect path on a node without the NVIDIA driver: quiet or warn */
	enum roce_unknown_action pcie_unknown; /* a PCIe path this sysfs does not show: quiet or warn */
	int traffic_class;                     /* 0..255 or ROCE_TC_AUTO */
	char hca[ROCE_HCA_MAX][64];            /* allow-list; n_hca == 0 = every Ethernet port */
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
	bool gate;                         /* Gate=yes: every job's prolog checks the node (else strict jobs') */
	unsigned resume_after;             /* health check: resume our drain after this many passing runs, 0 = never */
	enum roce_ecn_policy ecn;          /* a disabled ECN reaction or notification point: fail, warn, ignore */
	int link_rate;                     /* minimum Gb/s of a RoCE port, ROCE_LINK_RATE_AUTO (as fast as the
	                                   same model's other ports) or ROCE_LINK_RATE_NONE */
	enum roce_action link_rate_action; /* a slow port: warn (kept), or fail (left out, drained) */
	enum roce_action trust;            /* RoCE landing off the PFC priority (qos/trust, dscp2prio, VLAN) */
	char sysfs_root[256];              /* "/sys"; a fixture tree in tests */
	/* The health check's link-quality trend (Trend=, TrendCounters=, TrendWindow=) */
	enum roce_action trend;                    /* what a sick port gives; ignore: no trend kept */
	uint64_t trend_threshold[ROCE_N_COUNTERS]; /* growth within the window that is sick; 0 = not tracked */
	int trend_window_s;                        /* a flap settles after this long without growth */
	bool live; /* the health check samples running jobs for roce-report --live (Live=) */
	struct roce_rail rails[ROCE_RAILS_MAX]; /* Rails=; n_rails 0: each port's own subnet is its rail */
	size_t n_rails;
	enum roce_probe_mode probe; /* Probe=: off, or ip (the prolog probes each rail's path to a ring neighbour) */
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
/* The Rails= entry whose subnet holds addr (4 or 16 bytes of family), -1 none. */
int roce_policy_rail_of(const struct roce_policy *p, int family, const uint8_t *addr);

const char *roce_mode_name(enum roce_mode m);
int roce_mode_parse(const char *s, enum roce_mode *out);    /* "off|warn|strict" */
const char *roce_policy_probe_name(enum roce_probe_mode m); /* "off", "ip" */
const char *roce_gdr_level_name(enum roce_gdr_level l);
int roce_gdr_level_parse(const char *s, enum roce_gdr_level *out); /* names or 0..5 */

/* A value is a "simple token": printable, no white space, no shell or env metacharacters. */
bool roce_token_ok(const char *s, size_t maxlen);

#endif
