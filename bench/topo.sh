#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# GPU locality plan time: the live machine's topology loaded from the
# cached XML export versus a full live hwloc load, and versus loading big
# real-machine XML files (if ../shared/topologies is there).  Medians of N
# round-robin runs, in one process (no fork/exec in the figures).
#
# With BASE=<another build directory> (e.g. main's, configured from its own
# source tree), the same cases side by side in one run: each build's
# topo-bench (compiled from its own tree) runs in ROUNDS short alternating
# rounds (RUNS in all), so that load on a shared machine hits both alike,
# and each case's figure is the median of the round medians, in wall time
# and in the thread's CPU time (both topo-bench sources compiled again with
# CLOCK_THREAD_CPUTIME_ID for CLOCK_MONOTONIC: the cost whatever else the
# machine runs); then roce-check --gpus from both builds, round-robin
# (bench/timeit.c), on a fixture node whose RDMA devices sit at the
# topology's PCI addresses.
# Usage: [BASE=DIR] [ROUNDS=21] bench/topo.sh BUILDDIR [RUNS]
set -eu
B=$(cd "$1" && pwd); N=${2:-101}
S=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# build_bench BUILDDIR OUT [CFLAGS...]: that build's bench/topo-bench.c against its libroce.a
build_bench() {
	local b=$1 out=$2 src
	shift 2
	src=$(sed -n 's/^abs_top_srcdir = //p' "$b/Makefile")
	[ -f "$b/lib/.libs/libroce.a" ] || make -C "$b" lib/libroce.la >/dev/null
	# shellcheck disable=SC2046
	cc -O2 "$@" -I"$b" -I"$src/lib" -o "$out" "$src/bench/topo-bench.c" "$b/lib/.libs/libroce.a" \
		$(pkg-config --cflags --libs hwloc json-c libmnl libibverbs)
}
build_bench "$B" "$T/topo-bench"
xml=()
for f in topo.jrc0386.xml ipa20.xml nvidiaDGX2.xml; do
	[ -r "$S/../shared/topologies/$f" ] && xml+=("$S/../shared/topologies/$f")
done
echo "== topology for the plan, $N runs each, round-robin ($(nproc) CPUs, hwloc $(pkg-config --modversion hwloc))"
if [ -z "${BASE:-}" ]; then
	"$T/topo-bench" "$N" "$T/cache/topology.xml" "${xml[@]}"
	echo "cache file: $(stat -c %s "$T/cache/topology.xml") bytes; XML sizes:"
	for f in "${xml[@]}"; do echo "  $(basename "$f"): $(stat -c %s "$f") bytes"; done
	exit 0
fi

BASE=$(cd "$BASE" && pwd); R=${ROUNDS:-21}
PER=$(((N + R - 1) / R)); [ "$PER" -ge 3 ] || PER=3
printf '#include <time.h>\n#undef CLOCK_MONOTONIC\n#define CLOCK_MONOTONIC CLOCK_THREAD_CPUTIME_ID\n' >"$T/cpu.h"
build_bench "$BASE" "$T/base-wall"
build_bench "$BASE" "$T/base-cpu" -include "$T/cpu.h"
build_bench "$B" "$T/this-cpu" -include "$T/cpu.h"
cp "$T/topo-bench" "$T/this-wall"
echo "   base: $BASE; this: $B; $R alternating rounds of $PER; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$R"); do
	for v in base-wall this-wall base-cpu this-cpu; do
		"$T/$v" "$PER" "$T/cache-${v%-*}/topology.xml" "${xml[@]}" | tail -n +2 | sed "s/^/$v|/" >>"$T/rounds"
	done
done
# "who-clock|case name   median p25 p75" -> per case and clock: median of the round medians, ratio
for clock in wall cpu; do
	grep -- "-$clock|" "$T/rounds" | sed "s/-$clock|/|/" |
	awk -F'|' -v clock="$clock" '
	{ n = split($2, f, " "); name = $2; sub(/ +[0-9.]+ +[0-9.]+ +[0-9.]+ *$/, "", name)
	  v[$1, name] = v[$1, name] " " f[n - 2]; if (!(name in seen)) { seen[name] = 1; order[++k] = name } }
	function med(s,   a, m, i, j, x) { m = split(s, a, " ")
	  for (i = 2; i <= m; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	  return a[int((m + 1) / 2)] }
	END { printf "%-50s %10s %10s %7s\n", "plan, " clock " ms (load + locality + choice)", "base", "this", "ratio"
	      for (i = 1; i <= k; i++) { b = med(v["base", order[i]]); t = med(v["this", order[i]])
	                                  printf "%-50s %10.3f %10.3f %7.3f\n", order[i], b, t, t / b } }'
done

# roce-check end to end, both builds round-robin
# shellcheck source=tests/lib/fabric.sh
. "$S/tests/lib/fabric.sh"
TW=$S/tests/fixtures/topo/two-socket.xml
F=$T/sys; mkdir -p "$F"
while read -r name pci; do
	fab_hca "$F" "$name" "$pci" 1; fab_roce_ipv4 "$F" "$name" 1 "eth${name#mlx5_}" "192.0.2.2${name#mlx5_}"
done <<'HCAS'
mlx5_0 0000:04:00.0
mlx5_1 0000:04:00.1
mlx5_2 0000:88:00.0
mlx5_3 0000:84:00.0
HCAS
fab_gdr "$F"
cc -O2 -o "$T/timeit" "$S/bench/timeit.c"
args=(--config /dev/null -r "$F" -t "$TW" --gpus "2,3" --format env)
live=(--config /dev/null -r "$F" --set "TopologyCache=$T/cache-rc/topology.xml" --gpus 0 --format env)
"$B/prolog/roce-check" "${live[@]}" >/dev/null || true    # write the cache once
echo "== roce-check (fork + exec + collect + check + locality + plan), $N runs each, round-robin"
"$T/timeit" "$N" \
	"base: -t two-socket.xml --gpus 2,3" -- "$BASE/prolog/roce-check" "${args[@]}" ::: \
	"this: -t two-socket.xml --gpus 2,3" -- "$B/prolog/roce-check" "${args[@]}" ::: \
	"base: live through the cache --gpus 0" -- "$BASE/prolog/roce-check" "${live[@]}" ::: \
	"this: live through the cache --gpus 0" -- "$B/prolog/roce-check" "${live[@]}"
