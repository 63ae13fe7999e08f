#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Load on a real local Slurm (tests/lib/slurmlab.sh) with the roce plugin on
# for every job (plugstack `required spank_roce.so default=warn`, job reports
# written by its job_prolog/job_epilog):
#   1. LOAD_JOBS short batch jobs (one array, --roce, one CPU each);
#   2. LOAD_BURSTS bursts of LOAD_STEPS concurrent steps (srun --overlap ... &
#      ... wait) inside one allocation each;
# while a sampler reads slurmd's and every slurmstepd's open fds and RSS.
# Prints slurmd fds/RSS before, after and at peak, slurmstepd peaks during
# the bursts, report fragments against jobs (exactly one per job and node:
# none lost, none duplicated, no temporary left), StateDir left empty, and
# drained nodes (must be none).  Stops by itself: every wait is bounded by
# LOAD_DEADLINE seconds in all.
#
# Usage: bench/load.sh BUILDDIR
#   LOAD_JOBS=1000 LOAD_BURSTS=3 LOAD_STEPS=64 LOAD_NODES=1 (1 to 3: three
#   nodes, each in its own netns with a private tmpfs StateDir)
#   LOAD_DEADLINE=600  LOAD_BASELINE=1: the same load with an empty
#   plugstack.conf, for comparison (reports are then not expected)
#   LOAD_RESULTS=FILE: also write the figures as key=value lines
#   (tests/e2e/load-smoke.sh reads them)
# Exit 0 when every check held, 1 otherwise (figures are printed either way).
set -u
B=$(cd "${1:?usage: bench/load.sh BUILDDIR}" && pwd)
S=$(cd "$(dirname "$0")/.." && pwd)
. "$S/tests/lib/fabric.sh"
. "$S/tests/lib/slurmlab.sh"
. "$S/bench/lib/load.sh"

JOBS=${LOAD_JOBS:-1000} BURSTS=${LOAD_BURSTS:-3} STEPS=${LOAD_STEPS:-64}
NODES=${LOAD_NODES:-1} DEADLINE=${LOAD_DEADLINE:-600} BASELINE=${LOAD_BASELINE:-0}
RESULTS=${LOAD_RESULTS:-/dev/null}
why=$(lab_can_run) || { echo "bench/load: $why"; exit 0; }
plugin=$B/spank/.libs/spank_roce.so
[ -f "$plugin" ] || { echo "bench/load: $plugin not built"; exit 0; }
[[ $NODES =~ ^[123]$ ]] || { echo "bench/load: LOAD_NODES must be 1, 2 or 3"; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/roce-load.XXXXXX") && chmod 755 "$W"   # munged wants o+x
SAMPLER=
trap 'load_stop_sampler; lab_stop; [ "${KEEP:-0}" = 1 ] || rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
T0=$(date +%s)
left() { echo $((DEADLINE - ($(date +%s) - T0))); }   # seconds left in the budget

cat >"$W/roce.conf" <<CONF
PfcPriority=none   # veth has no DCB
ReportDir=$W/reports
StateDir=$W/state
CONF
# slurmd at info: the plugin's one verdict line per step, not the debug flood.
# MaxArraySize: LOAD_JOBS may exceed the default 1001.
LAB_SLURMD_DEBUG=info
# batch_sched_delay=0: without a job_prolog plugin slurmctld otherwise starts
# batch jobs only every 3 s (seen), which would make the baseline scheduler-bound.
LAB_EXTRA_CONF="MaxArraySize=$((JOBS + 1))
MinJobAge=3600
SchedulerParameters=batch_sched_delay=0"
lab_init "$W/lab" >/dev/null || { echo "bench/load: lab_init failed"; exit 1; }
lab_sanitize "$plugin" && echo "bench/load: sanitizer build: ASan/UBSan preloaded (slow)"
NODE_LIST=()
for i in $(seq "$NODES"); do
	mkdir -p "$W/fab$i"; fab_example "$W/fab$i" 2
	lab_node "node$i" "$W/fab$i" eth0=9000 eth1=9000
	NODE_LIST+=("node$i")
done
if [ "$BASELINE" = 1 ]; then
	lab_plugstack ""
	ROCE=
else
	lab_plugstack "required $plugin default=warn config=$W/roce.conf"
	ROCE=--roce
fi
lab_start || { lab_logs; exit 1; }
# Each node its own StateDir (a tmpfs, as /run is) in its private mount
# namespace: prolog snapshots of one job on three "nodes" of this one machine
# must not meet.  slurmd and its slurmstepds see it; nobody else does.
mkdir -p "$W/state"
for n in "${NODE_LIST[@]}"; do
	lab_node_exec "$n" mount -t tmpfs -o mode=700,size=16m "roce-state-$n" "$W/state" ||
		{ echo "bench/load: cannot mount a StateDir for $n"; exit 1; }
done

echo "bench/load: $NODES node(s), $JOBS jobs, $BURSTS bursts of $STEPS steps, plugin $([ "$BASELINE" = 1 ] && echo OFF || echo 'on (default=warn)'), deadline ${DEADLINE}s"
mkdir -p "$W/jobs" "$W/bursts"

# --- warm-up: slurmd has loaded everything it loads once (plugins, libraries, caches)
load_submit_array "$W/warm" 4 || { echo "bench/load: warm-up submission failed"; exit 1; }
load_wait_queue_empty 60 || { echo "bench/load: warm-up jobs stuck"; exit 1; }
load_burst 1 4 "$W/bursts/warm" 60 >/dev/null
load_wait_settled 30
load_start_sampler "$W/samples"
sleep 1
for n in "${NODE_LIST[@]}"; do load_proc_figures "$(load_slurmd_pid "$n")" >"$W/before.$n"; done

# --- 1. many short jobs, in two halves: growth that goes on in the second
# half is a leak; growth in the first only is a high-water mark
JOBS_SECS=0
for half in 1 2; do
	count=$(( half == 1 ? JOBS / 2 : JOBS - JOBS / 2 ))
	[ "$count" -gt 0 ] || continue
	t=$(date +%s)
	load_set_phase "jobs:$half"
	load_submit_array "$W/jobs" "$count" || { echo "bench/load: submission failed"; exit 1; }
	if ! load_wait_queue_empty "$(left)"; then
		echo "bench/load: DEADLINE: jobs still queued after ${DEADLINE}s, cancelling them"
		lab_run scancel "$(tail -1 "$W/arrays")"
	fi
	JOBS_SECS=$((JOBS_SECS + $(date +%s) - t))
	load_set_phase idle
	load_wait_settled 60
	sleep 1
	for n in "${NODE_LIST[@]}"; do load_proc_figures "$(load_slurmd_pid "$n")" >"$W/half$half.$n"; done
done

# --- 2. bursts of concurrent steps in one allocation each
STEPS_OK=0 BURST_SECS=""
for b in $(seq "$BURSTS"); do
	[ "$(left)" -gt 30 ] || { echo "bench/load: DEADLINE: skipping bursts $b..$BURSTS"; break; }
	for n in "${NODE_LIST[@]}"; do
		kill -0 "$(load_slurmd_pid "$n")" 2>/dev/null || { echo "bench/load: slurmd on $n is gone: skipping bursts $b..$BURSTS"; break 2; }
	done
	t=$(date +%s%N)
	ok_steps=$(load_burst "$NODES" "$STEPS" "$W/bursts/$b" "$(($(left) < 300 ? $(left) : 300))")
	BURST_SECS="$BURST_SECS $(( ($(date +%s%N) - t) / 1000000 ))ms"
	STEPS_OK=$((STEPS_OK + ok_steps))
done
load_wait_settled 60
sleep 2   # epilogs of the last allocation, slurmd's own housekeeping
for n in "${NODE_LIST[@]}"; do load_proc_figures "$(load_slurmd_pid "$n")" >"$W/after.$n"; done
load_stop_sampler

load_report
