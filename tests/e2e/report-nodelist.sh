#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-report names a job's nodes as Slurm does ("gpu[001,003-005]") with
# libslurm's hostlist on every Slurm release (hostlist_t became a struct in
# 24.05 and the _malloc variant went away): one real fragment from
# roce-prolog/roce-epilog, copied for 150 nodes with every other number,
# so that the ranged list (604 characters) outgrows roce-report's first buffer.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
B="$top_builddir/prolog"

command -v jq >/dev/null || skip_all "needs jq"
netns_setup rnl 2
printf 'ReportDir=%s/reports\nStateDir=%s/state\nPfcPriority=none\n' "$T" "$T" >"$T/roce.conf"
R=$T/sys
mkdir -p "$R"
fab_example "$R" 2
for kind in prolog epilog; do
	ip netns exec "$NS" env SLURM_JOB_ID=301 SLURM_JOB_UID=0 SLURMD_NODENAME=gpu001 \
		"$B/roce-$kind" --config "$T/roce.conf" --sysfs-root "$R" >"$T/$kind.out" 2>&1
done
F=$T/reports/301/gpu001.json
[ -f "$F" ] || { echo "1..1"; echo "not ok 1 - roce-epilog wrote a fragment"; sed 's/^/# /' "$T"/*.out; exit 1; }
echo "1..3"

want=gpu001
for i in $(seq 3 2 299); do
	n=$(printf 'gpu%03d' "$i")
	jq --arg n "$n" '.name = $n' "$F" >"$T/reports/301/$n.json"
	chmod 440 "$T/reports/301/$n.json"
	want="$want,$(printf '%03d' "$i")"
done
want="gpu[${want#gpu}]"
is "$(ls "$T/reports/301" | wc -l)" 150 "150 fragments, one per node"
out=$("$B/roce-report" 301 --config "$T/roce.conf" --format json 2>"$T/err")
got=$(jq -r '.. | objects | select(has("nodelist")) | .nodelist' <<<"$out" 2>/dev/null | head -1)
is "$got" "$want" "JSON: the ${#want}-character node list, ranged by libslurm"
text=$("$B/roce-report" 301 --config "$T/roce.conf" 2>>"$T/err" | head -1)
like "$text" "150 node\\(s\\) gpu\\[001,003,005,.*,297,299\\]" "text: the same list in the heading"
