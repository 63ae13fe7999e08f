#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Step launch overhead of the roce SPANK plugin in a real one-node Slurm
# (tests/lib/slurmlab.sh) whose node sees the example fabric at /sys:
# `srun --jobid=J true` inside one allocation, alternating without and with
# --roce=warn, RUNS each; medians, ratio, and the plugin's own time per node
# and step (its "step setup took X ms" debug line in the slurmd log).
# Usage: bench/launch.sh BUILDDIR [RUNS]
set -u
B=$(cd "$1" && pwd); N=${2:-60}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/slurmlab.sh"; . "$S/bench/lib/stats.sh"
why=$(lab_can_run) || { echo "bench/launch: $why"; exit 0; }
plugin=$B/spank/.libs/spank_roce.so
[ -f "$plugin" ] || { echo "bench/launch: $plugin not built"; exit 0; }
T=$(mktemp -d /tmp/roce-launch.XXXXXX) && chmod 755 "$T"
trap 'lab_stop; [ "${KEEP:-0}" = 1 ] && cp "$T/lab/log/slurmd.node1.log" /tmp/launch-slurmd.log; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$T/fab"; fab_example "$T/fab" 2
printf 'PfcPriority=none\nMtu=9000\n' >"$T/roce.conf"
lab_init "$T/lab" >/dev/null || exit 1
lab_node node1 "$T/fab" eth0=9000 eth1=9000
lab_plugstack "optional $plugin default=off config=$T/roce.conf"
lab_start || { lab_logs; exit 1; }
lab_run salloc --no-shell -N1 -J bench >"$T/salloc.out" 2>&1
job=$(grep -o 'job allocation [0-9]*' "$T/salloc.out" | grep -o '[0-9]*$')
[ -n "$job" ] || { cat "$T/salloc.out"; exit 1; }

step() { # step OUTFILE [srun options]: one step's wall time in microseconds
	local out=$1 t0 t1; shift
	t0=$(ms); lab_run srun --jobid="$job" -N1 "$@" true >/dev/null 2>&1; t1=$(ms)
	echo $((t1 - t0)) >>"$out"
}
for i in 1 2 3; do step "$T/warmup"; step "$T/warmup" --roce=warn; done
for i in $(seq "$N"); do
	if [ $((i % 2)) = 0 ]; then step "$T/without"; step "$T/with" --roce=warn
	else step "$T/with" --roce=warn; step "$T/without"; fi
done
without=$(median "$T/without"); with=$(median "$T/with")
echo "== step launch in one allocation (job $job), $N steps each, alternating"
printf '%-28s %10s %10s %10s\n' "" "median ms" "p25 ms" "p75 ms"
row "srun true" "$without" "$(quart "$T/without" 0.25)" "$(quart "$T/without" 0.75)"
row "srun --roce=warn true" "$with" "$(quart "$T/with" 0.25)" "$(quart "$T/with" 0.75)"
awk -v a="$with" -v b="$without" 'BEGIN {printf "ratio with/without (medians): %.3f\n", a/b}'
grep "\[$job\.[0-9]*\] debug:  roce: node1: step setup took" "$T/lab/log/slurmd.node1.log" |
	sed 's/.*took \([0-9.]*\) ms (cpu \([0-9.]*\) ms.*/\1 \2/' >"$T/plugin"
cut -d' ' -f1 "$T/plugin" >"$T/plugin.wall"; cut -d' ' -f2 "$T/plugin" >"$T/plugin.cpu"
echo "plugin per node and step (policy, fork, collect, check, plan, setenv; $(wc -l <"$T/plugin") steps):"
printf '  wall: median %.3f ms, p75 %.3f ms (includes waiting for a CPU)\n' "$(median "$T/plugin.wall")" "$(quart "$T/plugin.wall" 0.75)"
printf '  cpu:  median %.3f ms, p75 %.3f ms (slurmstepd thread + worker process)\n' "$(median "$T/plugin.cpu")" "$(quart "$T/plugin.cpu" 0.75)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
lab_run scancel "$job"
