#!/bin/bash
# GPU locality plan time: the live machine's topology loaded from the
# cached XML export versus a full live hwloc load, and versus loading big
# real-machine XML files (if ../shared/topologies is there).  Medians of N
# round-robin runs, in one process (no fork/exec in the figures).
# Usage: bench/topo.sh BUILDDIR [RUNS]
set -eu
B=$(cd "$1" && pwd); N=${2:-101}
S=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -f "$B/lib/.libs/libroce.a" ] || make -C "$B" lib/libroce.la >/dev/null
# shellcheck disable=SC2046
cc -O2 -I"$B" -I"$S/lib" -o "$T/topo-bench" "$S/bench/topo-bench.c" "$B/lib/.libs/libroce.a" \
	$(pkg-config --cflags --libs hwloc json-c libmnl libibverbs)
xml=()
for f in topo.jrc0386.xml ipa20.xml nvidiaDGX2.xml; do
	[ -r "$S/../shared/topologies/$f" ] && xml+=("$S/../shared/topologies/$f")
done
echo "== topology for the plan, $N runs each, round-robin ($(nproc) CPUs, hwloc $(pkg-config --modversion hwloc))"
"$T/topo-bench" "$N" "$T/cache/topology.xml" "${xml[@]}"
echo "cache file: $(stat -c %s "$T/cache/topology.xml") bytes; XML sizes:"
for f in "${xml[@]}"; do echo "  $(basename "$f"): $(stat -c %s "$f") bytes"; done
