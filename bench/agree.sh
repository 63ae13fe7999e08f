#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/agree.sh BUILDDIR - the job-wide agreement's srun side (issue 11):
# read N synthetic fingerprints from a local SharedDir and agree on them, in
# process (bench/agree.c: the same lib/agree/shareddir.c and lib/agree/agree.c srun runs),
# for N = 1024, 4096 and 16384, sizes taken in turn; median wall, CPU and
# max RSS of RUNS runs each, and RSS per node (flat if memory is linear).
# Target: under 1 s for 16384 nodes.
set -u
B=${1:?usage: bench/agree.sh BUILDDIR}
S=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-5}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
# shellcheck disable=SC2046
cc -O2 -I"$B" -I"$S/lib" -o "$T/agree" "$S/bench/agree.c" "$B/lib/.libs/libroce.a" \
	$(pkg-config --libs libmnl json-c hwloc libibverbs) -lacl 2>/dev/null ||
	cc -O2 -I"$B" -I"$S/lib" -o "$T/agree" "$S/bench/agree.c" "$B/lib/.libs/libroce.a" \
		$(pkg-config --libs libmnl json-c hwloc libibverbs) || { echo "cannot build bench/agree.c"; exit 1; }
SIZES="1024 4096 16384"
for n in $SIZES; do
	"$T/agree" "$T/d$n" "$n" write || exit 1
done
echo "fingerprint of an 8-rail node: $(wc -c <"$T/d1024/4242.gpu00001.json") bytes"
for r in $(seq "$RUNS"); do
	for n in $SIZES; do "$T/agree" "$T/d$n" "$n" gather >>"$T/r$n" || exit 1; done
done
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '%7s %10s %10s %12s %12s %6s\n' nodes wall_ms cpu_ms maxrss_kib kib_per_node rails
for n in $SIZES; do
	w=$(cut -d' ' -f1 "$T/r$n" | med); c=$(cut -d' ' -f2 "$T/r$n" | med); m=$(cut -d' ' -f3 "$T/r$n" | med)
	printf '%7s %10s %10s %12s %12.2f %6s\n' "$n" "$w" "$c" "$m" "$(awk -v m="$m" -v n="$n" 'BEGIN { print m / n }')" \
		"$(cut -d' ' -f4 "$T/r$n" | head -1)"
done
