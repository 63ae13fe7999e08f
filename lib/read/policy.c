/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy.c - the keys of roce.conf and plugstack arguments -> struct roce_policy.
 *
 * Keys are case-insensitive.  Every value must be a simple token
 * (roce_token_ok); anything else is an error naming where it was found and
 * the key, never a silent default.  Reading the file (its lines and
 * NodeName= sections) is policyfile.c's.
 */
#include "config.h"
#include "read/policy.h"
#include "base/printable.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

/* "name:N,..." (N 1-4294967295) of link-quality or loss counters (counter.h;
 * traffic and congestion counters grow on every healthy port): the thresholds,
 * every other counter untracked. */
static int parse_trend_counters(const char *v, uint64_t *threshold)
{
	uint64_t t[ROCE_N_COUNTERS] = { 0 };
	char buf[512], *save = NULL;
	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -1;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':'), *end;
		if (!colon)
			return -1;
		*colon = '\0';
		int c = roce_counter_lookup(item);
		if (c < 0 ||
		    (roce_counter_defs[c].kind != ROCE_KIND_LINK && roce_counter_defs[c].kind != ROCE_KIND_LOSS))
			return -1;
		errno = 0;
		if (!isdigit((unsigned char)colon[1]))
			return -1;
		unsigned long long n = strtoull(colon + 1, &end, 10);
		if (errno || *end || n < 1 || n > UINT32_MAX)
			return -1;
		t[c] = n;
	}
	memcpy(threshold, t, sizeof(t));
	return 0;
}

void roce_policy_defaults(struct roce_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->gid_index = 3;
	p->addr_family = AF_INET;
	p->mtu = 0;
	p->pfc_priority = 3;
	/* quiet: what a supported stack does not expose is not said in every job's output (NEWS) */
	p->pfc_unknown = ROCE_UNKNOWN_QUIET;
	p->ecn_unknown = ROCE_UNKNOWN_QUIET;
	p->ets_unknown = ROCE_UNKNOWN_QUIET;
	p->gdr_unknown = ROCE_UNKNOWN_QUIET;
	p->pcie_unknown = ROCE_UNKNOWN_QUIET;
	p->traffic_class = ROCE_TC_AUTO;
	p->gdr_level = ROCE_GDR_PXB;
	p->hca_ties = ROCE_TIES_BANDWIDTH;
	p->mode = ROCE_MODE_WARN;
	p->require_gdr = false;
	p->pcie_degraded = ROCE_ACTION_WARN;
	p->acs = ROCE_ACTION_WARN;
	p->iommu = ROCE_ACTION_WARN;
	p->ets = ROCE_ACTION_WARN;
	p->timeout_ms = 2000;
	p->drain = true;
	p->gate = false;
	p->resume_after = ROCE_RESUME_AFTER_DEFAULT;
	p->link_rate = ROCE_LINK_RATE_AUTO;
	/* warn since 0.2.0: a check new in a release is first released at warn (NEWS) */
	p->ecn = ROCE_ECN_WARN;
	p->link_rate_action = ROCE_ACTION_WARN;
	p->trust = ROCE_ACTION_WARN;
	p->probe = ROCE_PROBE_OFF; /* opt-in: it sends datagrams between the job's nodes */
	snprintf(p->sysfs_root, sizeof(p->sysfs_root), "/sys");
	snprintf(p->topology_cache, sizeof(p->topology_cache), "%s/cache/slurm-roce/topology.xml", LOCALSTATEDIR);
	snprintf(p->report_dir, sizeof(p->report_dir), "%s/spool/slurm-roce/reports", LOCALSTATEDIR);
	/* tmpfs, cleared at boot: no stale snapshots survive a reboot, and faster. */
	snprintf(p->state_dir, sizeof(p->state_dir), "/run/slurm-roce");
	/* New failing checks ship at warn first. */
	p->trend = ROCE_ACTION_WARN;
	p->trend_window_s = 3600;
	parse_trend_counters(ROCE_TREND_COUNTERS_DEFAULT, p->trend_threshold);
	p->live = true;
}

bool roce_token_ok(const char *s, size_t maxlen)
{
	size_t n = 0;
	if (!s || !*s)
		return false;
	for (; s[n]; n++) {
		unsigned char c = (unsigned char)s[n];
		if (n >= maxlen || c <= 0x20 || c >= 0x7f)
			return false;
		/* No quoting, expansion or second assignments can hide in a token. */
		if (strchr("\"'`$\\;&|<>(){}*?!=#", c))
			return false;
	}
	return true;
}

static const char *const mode_names[] = { "off", "warn", "strict" };
static const char *const gdr_names[] = { "LOC", "PIX", "PXB", "PHB", "SYS" };

const char *roce_mode_name(enum roce_mode m) { return (unsigned)m < 3 ? mode_names[m] : "?"; }

int roce_mode_parse(const char *s, enum roce_mode *out)
{
	for (int i = 0; i < 3; i++)
		if (s && strcasecmp(s, mode_names[i]) == 0) {
			*out = (enum roce_mode)i;
			return 0;
		}
	return -1;
}

const char *roce_gdr_level_name(enum roce_gdr_level l) { return (unsigned)l < 5 ? gdr_names[l] : "?"; }

int roce_gdr_level_parse(const char *s, enum roce_gdr_level *out)
{
	if (!s)
		return -1;
	for (int i = 0; i < 5; i++)
		if (strcasecmp(s, gdr_names[i]) == 0) {
			*out = (enum roce_gdr_level)i;
			return 0;
		}
	/* NCCL's legacy integers: 0=LOC 1=PIX 2=PXB 3=PHB 4=SYS 5=SYS */
	if (s[0] >= '0' && s[0] <= '5' && s[1] == '\0') {
		int v = s[0] - '0';
		*out = (enum roce_gdr_level)(v == 5 ? 4 : v);
		return 0;
	}
	return -1;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || !(isdigit((unsigned char)s[0])))
		return -1;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	if (!strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcmp(s, "1")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcmp(s, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

static int parse_path(const char *s, char *dst, size_t len)
{
	if (s[0] != '/' || strlen(s) >= len || strstr(s, "/../") ||
	    !strcmp(s + strlen(s) - (strlen(s) >= 3 ? 3 : 0), "/.."))
		return -1;
	snprintf(dst, len, "%s", s);
	return 0;
}

/* RDMA device names: what the kernel allows in practice ([A-Za-z0-9_.-]). */
static bool hca_name_ok(const char *s)
{
	if (!*s || strlen(s) >= 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static int parse_hca_list(struct roce_policy *p, const char *v)
{
	char buf[ROCE_HCA_MAX * 65];
	if (strlen(v) >= sizeof(buf))
		return -1;
	snprintf(buf, sizeof(buf), "%s", v);
	p->n_hca = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!hca_name_ok(tok) || p->n_hca >= ROCE_HCA_MAX)
			return -1;
		snprintf(p->hca[p->n_hca++], sizeof(p->hca[0]), "%s", tok);
	}
	return p->n_hca ? 0 : -1;
}

typedef int (*setter_fn)(struct roce_policy *p, const char *v);

/* word (any case: *field = word_value) or a number lo-hi into *field. */
static int parse_word_or_int(const char *v, const char *word, int word_value, long lo, long hi, int *field)
{
	long n;
	if (!strcasecmp(v, word)) {
		*field = word_value;
		return 0;
	}
	if (parse_int(v, lo, hi, &n) < 0)
		return -1;
	*field = (int)n;
	return 0;
}

static int set_gid_index(struct roce_policy *p, const char *v)
{
	return parse_word_or_int(v, "auto", ROCE_GID_AUTO, 0, 255, &p->gid_index);
}

static int set_addr_family(struct roce_policy *p, const char *v)
{
	if (!strcasecmp(v, "ipv4"))
		p->addr_family = AF_INET;
	else if (!strcasecmp(v, "ipv6"))
		p->addr_family = AF_INET6;
	else
		return -1;
	return 0;
}

static int set_mtu(struct roce_policy *p, const char *v)
{
	long n;
	if (parse_int(v, 0, 65535, &n) < 0 || (n != 0 && n < 576))
		return -1;
	p->mtu = (unsigned)n;
	return 0;
}

static int set_pfc_priority(struct roce_policy *p, const char *v)
{
	return parse_word_or_int(v, "none", ROCE_PFC_NONE, 0, 7, &p->pfc_priority);
}

/* quiet, warn, and fail where the key takes it. */
static int parse_unknown(const char *v, bool can_fail, enum roce_unknown_action *out)
{
	if (!strcasecmp(v, "quiet"))
		*out = ROCE_UNKNOWN_QUIET;
	else if (!strcasecmp(v, "warn"))
		*out = ROCE_UNKNOWN_WARN;
	else if (can_fail && !strcasecmp(v, "fail"))
		*out = ROCE_UNKNOWN_FAIL;
	else
		return -1;
	return 0;
}

static int set_pfc_unknown(struct roce_policy *p, const char *v) { return parse_unknown(v, true, &p->pfc_unknown); }
static int set_ecn_unknown(struct roce_policy *p, const char *v) { return parse_unknown(v, false, &p->ecn_unknown); }
static int set_ets_unknown(struct roce_policy *p, const char *v) { return parse_unknown(v, false, &p->ets_unknown); }
static int set_gdr_unknown(struct roce_policy *p, const char *v) { return parse_unknown(v, false, &p->gdr_unknown); }
static int set_pcie_unknown(struct roce_policy *p, const char *v) { return parse_unknown(v, false, &p->pcie_unknown); }

static int parse_action(const char *v, enum roce_action *out)
{
	if (!strcasecmp(v, "warn"))
		*out = ROCE_ACTION_WARN;
	else if (!strcasecmp(v, "fail"))
		*out = ROCE_ACTION_FAIL;
	else if (!strcasecmp(v, "ignore"))
		*out = ROCE_ACTION_IGNORE;
	else
		return -1;
	return 0;
}

static int set_pcie_degraded(struct roce_policy *p, const char *v) { return parse_action(v, &p->pcie_degraded); }
static int set_acs(struct roce_policy *p, const char *v) { return parse_action(v, &p->acs); }
static int set_iommu(struct roce_policy *p, const char *v) { return parse_action(v, &p->iommu); }
static int set_ets(struct roce_policy *p, const char *v) { return parse_action(v, &p->ets); }
static int set_trend(struct roce_policy *p, const char *v) { return parse_action(v, &p->trend); }
static int set_trend_counters(struct roce_policy *p, const char *v)
{
	return parse_trend_counters(v, p->trend_threshold);
}
static int set_trend_window(struct roce_policy *p, const char *v)
{
	long n;
	if (parse_int(v, 1, 2592000, &n) < 0)
		return -1;
	p->trend_window_s = (int)n;
	return 0;
}
static int set_trust(struct roce_policy *p, const char *v) { return parse_action(v, &p->trust); }

/* warn or fail: not judging the rate at all is LinkRate=none. */
static int set_link_rate_action(struct roce_policy *p, const char *v)
{
	enum roce_action a;
	if (parse_action(v, &a) < 0 || a == ROCE_ACTION_IGNORE)
		return -1;
	p->link_rate_action = a;
	return 0;
}

static int set_traffic_class(struct roce_policy *p, const char *v)
{
	return parse_word_or_int(v, "auto", ROCE_TC_AUTO, 0, 255, &p->traffic_class);
}

static int set_ecn(struct roce_policy *p, const char *v)
{
	if (!strcasecmp(v, "require"))
		p->ecn = ROCE_ECN_REQUIRE;
	else if (!strcasecmp(v, "warn"))
		p->ecn = ROCE_ECN_WARN;
	else if (!strcasecmp(v, "ignore"))
		p->ecn = ROCE_ECN_IGNORE;
	else
		return -1;
	return 0;
}

static int set_probe(struct roce_policy *p, const char *v)
{
	if (!strcasecmp(v, "off"))
		p->probe = ROCE_PROBE_OFF;
	else if (!strcasecmp(v, "ip"))
		p->probe = ROCE_PROBE_IP;
	else
		return -1;
	return 0;
}

const char *roce_policy_probe_name(enum roce_probe_mode m) { return m == ROCE_PROBE_IP ? "ip" : "off"; }

static int set_link_rate(struct roce_policy *p, const char *v)
{
	long n;
	if (!strcasecmp(v, "auto") || !strcasecmp(v, "none")) {
		p->link_rate = tolower((unsigned char)v[0]) == 'a' ? ROCE_LINK_RATE_AUTO : ROCE_LINK_RATE_NONE;
		return 0;
	}
	if (parse_int(v, 1, 9999, &n) < 0)
		return -1;
	p->link_rate = (int)n;
	return 0;
}

static int set_hca(struct roce_policy *p, const char *v) { return parse_hca_list(p, v); }

static int set_hca_ties(struct roce_policy *p, const char *v)
{
	if (!strcasecmp(v, "bandwidth"))
		p->hca_ties = ROCE_TIES_BANDWIDTH;
	else if (!strcasecmp(v, "all"))
		p->hca_ties = ROCE_TIES_ALL;
	else
		return -1;
	return 0;
}
static int set_gdr_level(struct roce_policy *p, const char *v) { return roce_gdr_level_parse(v, &p->gdr_level); }

static int set_mode(struct roce_policy *p, const char *v)
{
	enum roce_mode m;
	if (roce_mode_parse(v, &m) < 0)
		return -1;
	p->mode = m;
	return 0;
}

static int set_require_gdr(struct roce_policy *p, const char *v) { return parse_bool(v, &p->require_gdr); }
static int set_drain(struct roce_policy *p, const char *v) { return parse_bool(v, &p->drain); }
static int set_live(struct roce_policy *p, const char *v) { return parse_bool(v, &p->live); }

static int set_gate(struct roce_policy *p, const char *v) { return parse_bool(v, &p->gate); }

static int set_resume_after(struct roce_policy *p, const char *v)
{
	long n;
	if (parse_int(v, 0, ROCE_RESUME_AFTER_MAX, &n) < 0)
		return -1;
	p->resume_after = (unsigned)n;
	return 0;
}

static int set_timeout(struct roce_policy *p, const char *v)
{
	long n;
	if (parse_int(v, 1, 600000, &n) < 0)
		return -1;
	p->timeout_ms = (int)n;
	return 0;
}

static int set_topology_file(struct roce_policy *p, const char *v)
{
	return parse_path(v, p->topology_file, sizeof(p->topology_file));
}
static int set_topology_cache(struct roce_policy *p, const char *v)
{
	return parse_path(v, p->topology_cache, sizeof(p->topology_cache));
}
static int set_report_dir(struct roce_policy *p, const char *v)
{
	return parse_path(v, p->report_dir, sizeof(p->report_dir));
}
static int set_state_dir(struct roce_policy *p, const char *v)
{
	return parse_path(v, p->state_dir, sizeof(p->state_dir));
}
static int set_shared_dir(struct roce_policy *p, const char *v)
{
	return parse_path(v, p->shared_dir, sizeof(p->shared_dir));
}
static int set_sysfs_root(struct roce_policy *p, const char *v)
{
	return parse_path(v, p->sysfs_root, sizeof(p->sysfs_root));
}

/* "[NAME@]SUBNET" */
static int parse_rail(const char *item, struct roce_rail *r)
{
	const char *at = strchr(item, '@'), *net = at ? at + 1 : item;
	size_t nl = at ? (size_t)(at - item) : 0;
	memset(r, 0, sizeof(*r));
	if (at && (nl == 0 || nl >= sizeof(r->name)))
		return -1;
	memcpy(r->name, item, nl);
	if (at && !hca_name_ok(r->name)) /* the same characters as a device name */
		return -1;
	return roce_subnet_parse(net, &r->net) == 0 ? 0 : -1;
}

/* Rails=[NAME@]SUBNET,...: at most 32, no subnet overlapping another, no
 * name twice. */
static int set_rails(struct roce_policy *p, const char *v)
{
	char copy[1024], *save = NULL;
	struct roce_rail rails[ROCE_RAILS_MAX];
	size_t n = 0;
	if (snprintf(copy, sizeof(copy), "%s", v) >= (int)sizeof(copy) || strstr(v, ",,") || v[0] == ',' ||
	    v[strlen(v) - 1] == ',')
		return -1;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == ROCE_RAILS_MAX || parse_rail(tok, &rails[n]) < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (roce_subnet_overlaps(&rails[i].net, &rails[n].net) ||
			    (rails[n].name[0] && strcmp(rails[i].name, rails[n].name) == 0))
				return -1;
		n++;
	}
	memcpy(p->rails, rails, n * sizeof(rails[0]));
	p->n_rails = n;
	return 0;
}

static const struct {
	const char *key;
	setter_fn set;
	const char *valid; /* what to say when the value is bad */
} keys[] = {
	{ "GidIndex", set_gid_index, "0-255 or auto" },
	{ "AddrFamily", set_addr_family, "ipv4 or ipv6" },
	{ "Mtu", set_mtu, "0 (only require uniformity) or 576-65535" },
	{ "PfcPriority", set_pfc_priority, "0-7 or none" },
	{ "PfcUnknown", set_pfc_unknown, "quiet, warn or fail" },
	{ "TrafficClass", set_traffic_class, "auto or 0-255" },
	{ "Ecn", set_ecn, "require, warn or ignore" },
	{ "EcnUnknown", set_ecn_unknown, "quiet or warn" },
	{ "Ets", set_ets, "warn, fail or ignore" },
	{ "EtsUnknown", set_ets_unknown, "quiet or warn" },
	{ "Trend", set_trend, "warn, fail or ignore" },
	{ "TrendCounters", set_trend_counters,
	  "a comma-separated list of COUNTER:N (link-quality or loss counters, N 1-4294967295), e.g. "
	  "symbol_error:10,link_downed:1" },
	{ "TrendWindow", set_trend_window, "1-2592000 (seconds)" },
	{ "Live", set_live, "yes or no" },
	{ "LinkRate", set_link_rate, "auto, none or 1-9999 (Gb/s)" },
	{ "LinkRateAction", set_link_rate_action, "warn or fail" },
	{ "Trust", set_trust, "warn, fail or ignore" },
	{ "Hca", set_hca, "a comma-separated list of up to 32 RDMA device names, e.g. mlx5_0,mlx5_1" },
	{ "GdrLevel", set_gdr_level, "LOC, PIX, PXB, PHB or SYS" },
	{ "HcaTies", set_hca_ties, "bandwidth or all" },
	{ "Mode", set_mode, "off, warn or strict" },
	{ "RequireGdr", set_require_gdr, "yes or no" },
	{ "GdrUnknown", set_gdr_unknown, "quiet or warn" },
	{ "PcieDegraded", set_pcie_degraded, "warn, fail or ignore" },
	{ "PcieUnknown", set_pcie_unknown, "quiet or warn" },
	{ "Acs", set_acs, "warn, fail or ignore" },
	{ "Iommu", set_iommu, "warn, fail or ignore" },
	{ "Drain", set_drain, "yes or no" },
	{ "Gate", set_gate, "yes or no" },
	{ "ResumeAfter", set_resume_after, "0 (never) or 1-1000 (passing health checks in a row)" },
	{ "TimeoutMs", set_timeout, "1-600000 (milliseconds)" },
	{ "TopologyFile", set_topology_file, "an absolute path" },
	{ "TopologyCache", set_topology_cache, "an absolute path" },
	{ "ReportDir", set_report_dir, "an absolute path" },
	{ "StateDir", set_state_dir, "an absolute path" },
	{ "SharedDir", set_shared_dir, "an absolute path" },
	{ "SysfsRoot", set_sysfs_root, "an absolute path" },
	{ "Rails", set_rails,
	  "[NAME@]SUBNET,... in rail order: up to 32 network addresses such as 192.0.2.0/26 (host bits clear, "
	  "none overlapping another), each maybe named (rail0@192.0.2.0/26; names of up to 15 of A-Za-z0-9_.-)" },
	{ "Probe", set_probe, "off or ip" },
};

const char *roce_policy_key_name(const char *key)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcasecmp(key, keys[i].key) == 0)
			return keys[i].key;
	return NULL;
}

int roce_policy_set(struct roce_policy *p, const char *key, const char *value, const char *where,
                    struct roce_error *err)
{
	const char *w = where ? where : "roce";
	char sv[72];
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcasecmp(key, keys[i].key) != 0)
			continue;
		if (!roce_token_ok(value, 1000) || keys[i].set(p, value) < 0) {
			roce_error_set(err, "%s: %s: invalid value \"%s\" (expected %s)", w, keys[i].key,
			               roce_printable(value, sv, sizeof(sv)), keys[i].valid);
			return -1;
		}
		return 0;
	}
	if (strcasecmp(key, ROCE_POLICY_NODENAME) == 0)
		roce_error_set(err,
		               "%s: NodeName= is no key: in roce.conf it starts a line, and a section for the nodes it "
		               "names",
		               w);
	else
		roce_error_set(err, "%s: unknown key \"%s\"", w, roce_printable(key, sv, sizeof(sv)));
	return -1;
}

int roce_policy_set_kv(struct roce_policy *p, const char *kv, const char *where, struct roce_error *err)
{
	const char *eq = strchr(kv, '=');
	char key[64], sv[72];
	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		roce_error_set(err, "%s: \"%s\" is not Key=Value", where ? where : "roce",
		               roce_printable(kv, sv, sizeof(sv)));
		return -1;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	return roce_policy_set(p, key, eq + 1, where, err);
}

int roce_policy_rail_of(const struct roce_policy *p, int family, const uint8_t *addr)
{
	for (size_t i = 0; i < p->n_rails; i++)
		if (roce_subnet_contains(&p->rails[i].net, family, addr))
			return (int)i;
	return -1;
}

bool roce_policy_hca_allowed(const struct roce_policy *p, const char *device)
{
	if (p->n_hca == 0)
		return true;
	for (size_t i = 0; i < p->n_hca; i++)
		if (strcmp(p->hca[i], device) == 0)
			return true;
	return false;
}
