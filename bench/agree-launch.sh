#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Step launch with and without the job-wide agreement (issue 11) in a real
# three-node Slurm (tests/lib/slurmlab.sh, PrologFlags=Alloc): inside one
# --roce=warn allocation, `srun -N3 --roce=warn true` alternating between a
# roce.conf with SharedDir (srun reads three fingerprints and agrees; each
# node restricts its plan) and the same without it, RUNS each; medians,
# quartiles and their ratio (target <= 1.03).
# Usage: bench/agree-launch.sh BUILDDIR [RUNS]
set -u
B=$(cd "$1" && pwd); N=${2:-30}
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"; . "$S/tests/lib/slurmlab.sh"; . "$S/bench/lib/stats.sh"
why=$(lab_can_run) || { echo "bench/agree-launch: $why"; exit 0; }
plugin=$B/spank/.libs/spank_roce.so
[ -f "$plugin" ] || { echo "bench/agree-launch: $plugin not built"; exit 0; }
T=$(mktemp -d /tmp/roce-agree-launch.XXXXXX) && chmod 755 "$T"
trap 'lab_stop; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
printf 'PfcPriority=none\nDrain=no\nStateDir=%s/state\nReportDir=%s/reports\n' "$T" "$T" >"$T/without.conf"
{ cat "$T/without.conf"; echo "SharedDir=$T/shared"; } >"$T/with.conf"
use() { cp "$T/$1.conf" "$T/roce.conf.new" && mv "$T/roce.conf.new" "$T/roce.conf"; }
use with
lab_init "$T/lab" >/dev/null || exit 1
LAB_EXTRA_CONF="PrologFlags=Alloc"
for n in 1 2 3; do mkdir -p "$T/fab$n"; fab_example "$T/fab$n" 2; lab_node node$n "$T/fab$n" eth0=9000 eth1=9000; done
lab_plugstack "optional $plugin config=$T/roce.conf"
lab_start || { lab_logs; exit 1; }
lab_run salloc --no-shell -N3 --roce=warn -J bench >"$T/salloc.out" 2>&1
job=$(grep -o 'job allocation [0-9]*' "$T/salloc.out" | grep -o '[0-9]*$')
[ -n "$job" ] || { cat "$T/salloc.out"; exit 1; }
fp3() { ls "$T/shared/$job/"*.node3 >/dev/null 2>&1; } # docs/agreement.md
lab_poll 60 fp3 || { echo "no fingerprints"; exit 1; }

step() { # step with|without: one step's wall time in microseconds
	local t0 t1
	use "$1"
	t0=$(ms); lab_run srun --jobid="$job" -N3 --roce=warn true >/dev/null 2>"$T/err.$1"; t1=$(ms)
	echo $((t1 - t0)) >>"$T/$1"
}
for i in 1 2; do step without; step with; done
: >"$T/with"; : >"$T/without"
for i in $(seq "$N"); do
	if [ $((i % 2)) = 0 ]; then step without; step with; else step with; step without; fi
done
without=$(median "$T/without"); with=$(median "$T/with")
echo "== srun -N3 --roce=warn true in one allocation (job $job), $N steps each, alternating"
printf '%-36s %10s %10s %10s\n' "" "median ms" "p25 ms" "p75 ms"
row "without SharedDir" "$without" "$(quart "$T/without" 0.25)" "$(quart "$T/without" 0.75)"
row "with SharedDir (agreement)" "$with" "$(quart "$T/with" 0.25)" "$(quart "$T/with" 0.75)"
awk -v a="$with" -v b="$without" 'BEGIN {printf "ratio with/without (medians): %.3f\n", a/b}'
[ ! -s "$T/err.with" ] || { echo "stderr of the last step with SharedDir:"; cat "$T/err.with"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
lab_run scancel "$job"
