#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost of the live samples (roce-report --live): roce-check --health on
# an 8-HCA node with 0, 1, 8 and 32 running jobs (real prolog snapshots in
# StateDir), Live=yes against Live=no, wall time per health check run; and
# the files each sample writes and reads (strace).
# Usage: bench/live.sh BUILDDIR [RUNS]
set -eu
B=$(cd "$1" && pwd); N=${2:-31}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/netns.sh"
netns_available || { echo "bench/live: needs root and ip netns"; exit 0; }
T=$(mktemp -d); NS=roce-bench-live-$$
trap 'netns_destroy $NS; rm -rf "$T"' EXIT
netns_create "$NS"; for i in $(seq 0 7); do netns_veth "$NS" "eth$i" 9000; done
fab_example "$T/sys" 8
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
C=$B/prolog/roce-check
# jobs K: a StateDir and ReportDir of their own with K running jobs (real prolog snapshots)
jobs() {
	local k=$1 d=$T/jobs$1 j
	mkdir -p "$d"
	printf 'StateDir=%s/state\nReportDir=%s/reports\nPfcPriority=none\nTimeoutMs=20000\n' "$d" "$d" >"$d/roce.conf"
	for ((j = 1; j <= k; j++)); do
		ip netns exec "$NS" env SLURM_JOB_ID=$((1000 + j)) SLURM_JOB_UID=1000 SLURMD_NODENAME=gpu01 \
			"$B/prolog/roce-prolog" --config "$d/roce.conf" --sysfs-root "$T/sys"
	done
	# the first sample of each job (its ReportDir directory made), as on a node after the first run
	ip netns exec "$NS" "$C" --config "$d/roce.conf" -r "$T/sys" --node gpu01 --health >/dev/null 2>&1 || true
}
for k in 0 1 8 32; do jobs "$k"; done
# args LABEL K [ARGS...]: timeit's words for one command
args=()
add() { [ ${#args[@]} -eq 0 ] || args+=(:::); args+=("$1" -- "$C" --config "$T/jobs$2/roce.conf" -r "$T/sys" --node gpu01 --health "${@:3}"); }
add "Live=no, no job" 0 --set Live=no
add "Live=yes, no job" 0
add "Live=yes, 1 job" 1
add "Live=yes, 8 jobs" 8
add "Live=yes, 32 jobs" 32
echo "== roce-check --health, 8 HCAs, $N runs each, round-robin (each run with Live=yes takes a sample of every job)"
ip netns exec "$NS" "$T/timeit" "$N" "${args[@]}"
echo "== CPU time (user + sys, the sampling child included), $N runs each"
for k in 0 32; do
	# shellcheck disable=SC2016
	ip netns exec "$NS" /usr/bin/time -f "$k job(s): %U s user + %S s sys in $N runs" \
		bash -c 'for i in $(seq "$1"); do "$2" --config "$3" -r "$4" --node gpu01 --health >/dev/null 2>&1; done' \
		_ "$N" "$C" "$T/jobs$k/roce.conf" "$T/sys"
done
echo "== files of one sample (strace -f), 1 job"
ip netns exec "$NS" strace -f -qq -o "$T/trace" -e trace=openat,linkat,renameat,renameat2,unlinkat,mkdirat,fsync \
	"$C" --config "$T/jobs1/roce.conf" -r "$T/sys" --node gpu01 --health >/dev/null 2>&1 || true
echo "StateDir/ReportDir opens and writes:"
grep -E "jobs1/(state|reports)|1001|gpu01.live|O_TMPFILE|linkat|rename" "$T/trace" | grep -v ENOENT | sed 's/^[0-9]* //' | cut -c1-150
echo "sizes: live file $(stat -c %s "$T/jobs1/reports/1001/gpu01.live") B, StateDir sample $(stat -c %s "$T/jobs1/state/1001.sample.json") B, prolog snapshot $(stat -c %s "$T/jobs1/state/1001.json") B"
