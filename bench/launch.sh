#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Step launch overhead of the roce SPANK plugin in a real one-node Slurm
# (tests/lib/slurmlab.sh) whose node sees the example fabric at /sys:
# `srun --jobid=J true` inside one allocation, alternating without and with
# --roce=warn, RUNS each; medians, ratio, and the plugin's own time per node
# and step (its "step setup took X ms" debug line in the slurmd log).
#
# With BEFORE_BUILDDIR (e.g. a build of the first round, 9f5aa3e), both
# builds' plugins take turns in the same allocation: plugstack.conf, which
# srun and each step's slurmstepd read anew, names one or the other before
# each pair of steps (the order alternating round by round), so that a
# loaded machine slows both alike; each build gets its own medians and
# ratio, then before / this.
# Usage: bench/launch.sh BUILDDIR [BEFORE_BUILDDIR] [RUNS]
set -u
B=$(cd "$1" && pwd)
A=""
if [ $# -ge 2 ] && [ -d "$2" ]; then
	A=$(cd "$2" && pwd); N=${3:-60}
else
	N=${2:-60}
fi
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/slurmlab.sh"; . "$S/bench/lib/stats.sh"
why=$(lab_can_run) || { echo "bench/launch: $why"; exit 0; }
declare -A plugin=([this]=$B/spank/.libs/spank_roce.so)
builds="this"
[ -z "$A" ] || { plugin[before]=$A/spank/.libs/spank_roce.so; builds="this before"; }
for b in $builds; do
	[ -f "${plugin[$b]}" ] || { echo "bench/launch: ${plugin[$b]} not built"; exit 0; }
done
T=$(mktemp -d /tmp/roce-launch.XXXXXX) && chmod 755 "$T"
trap 'lab_stop; [ "${KEEP:-0}" = 1 ] && cp "$T/lab/log/slurmd.node1.log" /tmp/launch-slurmd.log; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$T/fab"; fab_example "$T/fab" 2
printf 'PfcPriority=none\nMtu=9000\n' >"$T/roce.conf"
lab_init "$T/lab" >/dev/null || exit 1
lab_node node1 "$T/fab" eth0=9000 eth1=9000
use() { lab_plugstack "optional ${plugin[$1]} default=off config=$T/roce.conf"; }
use this
lab_start || { lab_logs; exit 1; }
lab_run salloc --no-shell -N1 -J bench >"$T/salloc.out" 2>&1
job=$(grep -o 'job allocation [0-9]*' "$T/salloc.out" | grep -o '[0-9]*$')
[ -n "$job" ] || { cat "$T/salloc.out"; exit 1; }

# step BUILD WITH(0|1): one step's wall time in microseconds into $T/BUILD.with|without;
# the builds of the --roce steps, in order, into $T/order
step() {
	local b=$1 t0 t1 out=$T/$1.without opt=()
	[ "$2" = 1 ] && { out=$T/$1.with; opt=(--roce=warn); echo "$b" >>"$T/order"; }
	t0=$(ms); lab_run srun --jobid="$job" -N1 "${opt[@]}" true >/dev/null 2>&1; t1=$(ms)
	echo $((t1 - t0)) >>"$out"
}
pair() { # pair BUILD ROUND: without and with, in an order that alternates
	use "$1"
	if [ $(($2 % 2)) = 0 ]; then step "$1" 0; step "$1" 1; else step "$1" 1; step "$1" 0; fi
}
for b in $builds; do for i in 1 2 3; do pair "$b" "$i"; done; done
: >"$T/order"; for b in $builds; do : >"$T/$b.with"; : >"$T/$b.without"; done
# the warm-up's --roce steps are in the log too: their lines are skipped below
warm=$(grep -c "\[$job\.[0-9]*\] debug:  roce: node1: step setup took" "$T/lab/log/slurmd.node1.log")
for i in $(seq "$N"); do
	if [ -z "$A" ]; then pair this "$i"
	elif [ $((i % 2)) = 0 ]; then pair this "$i"; pair before "$i"
	else pair before "$i"; pair this "$i"; fi
done
echo "== step launch in one allocation (job $job), $N steps each, alternating; load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
[ -z "$A" ] || echo "   this build: $B; [before]: $A"
grep "\[$job\.[0-9]*\] debug:  roce: node1: step setup took" "$T/lab/log/slurmd.node1.log" | tail -n +$((warm + 1)) |
	sed 's/.*took \([0-9.]*\) ms (cpu \([0-9.]*\) ms.*/\1 \2/' | paste -d' ' "$T/order" - >"$T/plugin"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.3f", a / b; else print "-"}'; }
for b in $builds; do
	tag=$([ "$b" = this ] || echo " [$b]")
	printf '%-36s %10s %10s %10s\n' "" "median ms" "p25 ms" "p75 ms"
	row "srun true$tag" "$(median "$T/$b.without")" "$(quart "$T/$b.without" 0.25)" "$(quart "$T/$b.without" 0.75)"
	row "srun --roce=warn true$tag" "$(median "$T/$b.with")" "$(quart "$T/$b.with" 0.25)" "$(quart "$T/$b.with" 0.75)"
	echo "ratio with/without (medians)$tag: $(ratio "$(median "$T/$b.with")" "$(median "$T/$b.without")")"
	awk -v b="$b" '$1 == b {print $2}' "$T/plugin" >"$T/$b.wall"; awk -v b="$b" '$1 == b {print $3}' "$T/plugin" >"$T/$b.cpu"
	echo "plugin per node and step$tag ($(wc -l <"$T/$b.wall") steps: policy, worker, collect, check, plan, setenv):"
	printf '  wall: median %.3f ms, p75 %.3f ms (includes waiting for a CPU)\n' "$(median "$T/$b.wall")" "$(quart "$T/$b.wall" 0.75)"
	printf '  cpu:  median %.3f ms, p75 %.3f ms (slurmstepd thread + worker)\n' "$(median "$T/$b.cpu")" "$(quart "$T/$b.cpu" 0.75)"
done
if [ -n "$A" ]; then
	echo "before / this (medians; > 1: this build is faster): plugin wall $(ratio "$(median "$T/before.wall")" "$(median "$T/this.wall")"), plugin cpu $(ratio "$(median "$T/before.cpu")" "$(median "$T/this.cpu")"), srun --roce=warn $(ratio "$(median "$T/before.with")" "$(median "$T/this.with")")"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
lab_run scancel "$job"
