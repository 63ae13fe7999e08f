#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The roce plugin's deadlines in a real one-node Slurm: the node's fixture is
# served through faultfs (tests/helpers/faultfs.c, FUSE) where every read of
# mlx5_0's port state blocks for HANG seconds in D state, as a stuck firmware
# command does.  With TimeoutMs=300 nothing waits for it: the job prolog
# gives up after TimeoutMs + 1 s, a step after TimeoutMs + 500 ms (warn runs
# without NCCL environment, strict fails); nothing is drained.  A check
# process abandoned asleep in the read is recorded in StateDir: while it
# lives, later steps, prologs and epilogs answer at once instead of each
# leaving one more stuck process behind.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() { echo "rc=$RC ms=$MS"; }
RC= MS=

# HANG leaves room on a slow machine: the epilog, after srun returned (up
# to 3.7 s under load and ASan), must still find the prolog's read asleep.
HANG=15
spank_need_lab
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
FAULTFS="$top_builddir/tests/helpers/faultfs"
[ -x "$FAULTFS" ] || skip_all "tests/helpers/faultfs not built (configure found no libfuse3-dev)"

spank_workdir spank-timeout
FS_PID=""
spank_on_exit() { # after lab_stop: nothing reads the mount any more
	[ -n "$FS_PID" ] && { kill "$FS_PID" 2>/dev/null; wait "$FS_PID" 2>/dev/null; }
	grep -q " $W/mnt fuse" /proc/mounts && { fusermount3 -u "$W/mnt" 2>/dev/null || umount -l "$W/mnt"; }
	return 0
}
mkdir -p "$W/fab" "$W/mnt"
fab_example "$W/fab" 2
"$FAULTFS" "$W/fab" "$W/mnt" "hang=$HANG:mlx5_0/ports/1/state" 2>"$W/faultfs.log" &
FS_PID=$!
mounted() { grep -q " $W/mnt fuse" /proc/mounts; }
lab_poll 30 mounted || skip_all "faultfs did not mount: $(tail -1 "$W/faultfs.log")"
plan 12

printf 'PfcPriority=none\nTimeoutMs=300\nReportDir=%s/reports\nStateDir=%s/state\n' "$W" "$W" >"$W/roce.conf"
spank_lab_init
lab_node node1 "$W/mnt" eth0=9000 eth1=9000
spank_lab_start

run() { local t0; t0=$(date +%s%N); lab_run_timeout "$LAB_STEP_TIMEOUT" "$@" >"$W/out" 2>"$W/err"; RC=$?; MS=$(( ($(date +%s%N) - t0) / 1000000 )); }

log=$W/lab/log/slurmd.node1.log
marker=$W/state/collector.stuck   # SysfsRoot is /sys in the node's mount namespace
stuck_pid() { cut -d' ' -f1 "$marker" 2>/dev/null; }

# --- 1-4. a job with --roce: the prolog's snapshot hangs and is abandoned at
# TimeoutMs + 1 s; the step and the epilog find it still stuck and do not wait
run srun --roce=warn sh -c 'echo "JOB $SLURM_JOB_ID"; echo "TASK_RAN ${NCCL_IB_HCA:-none}"'
J=$(sed -n 's/^JOB \([0-9][0-9]*\)$/\1/p' "$W/out" | head -1)
P1=$(stuck_pid)
echo "# job $J: srun ${MS} ms; stuck pid ${P1:-none}; $(grep -o "\[$J\.0\] .*step setup took [0-9.]* ms" "$log" | head -1)"
check "prolog: no fabric report after its deadline (1300 ms), the stuck snapshot recorded in StateDir" \
	'[ -n "$J" ] && grep -q "job $J: prolog: no fabric report: the counter snapshot did not finish within 1300 ms (TimeoutMs=300)" $log && [ -n "$P1" ] && kill -0 $P1'
check "warn step after it: runs at once without NCCL environment, one warning naming the stuck pid" \
	'[ $RC = 0 ] && grep -qx "TASK_RAN none" $W/out && [ $(grep -c "roce: warning: node1: cannot check the RoCE fabric, no NCCL environment set: an earlier fabric check (pid $P1, started [0-9]* s ago) is still stuck in a sysfs or netlink read" $W/err) = 1 ]'
check "the step started no check of its own (setup well under its 800 ms deadline)" \
	'grep -Eq "\[$J\.0\] .*step setup took ([0-9]{1,2}|[0-7][0-9]{2})\.[0-9]+ ms" $log && [ $MS -lt $(( (HANG - 3) * 1000 )) ]'
lab_wait_log "$log" "job $J: epilog: no fabric report"
check "epilog: answers at once, naming the stuck check" \
	'grep -q "job $J: epilog: no fabric report: an earlier fabric check (pid $P1" $log'

# --- 5-8. once that process is gone, a step's own check hangs: abandoned at
# TimeoutMs + 500 ms; the next step finds it stuck.  (The job prolog runs at
# the first step and takes that step's options: a first step without --roce
# makes it snapshot nothing, so step 1's check is the first to read.)
lab_poll $((HANG + 20)) lab_gone "$P1"
lab_node_settled node1 >/dev/null
# The prolog's abandoned snapshot left the record that makes later checks
# fork their worker; without it (a node where nothing was late before) the
# step's check runs in a task sharing slurmstepd's memory, killed at its
# deadline inside the hung read: the same guarantees, checked below.
check "the abandoned prolog snapshot was recorded as late" 'test -f $W/state/collector.late'
rm -f "$W/state/collector.late"
lab_run salloc --no-shell -N1 -J hang >"$W/salloc.out" 2>&1
A=$(grep -o 'job allocation [0-9]*' "$W/salloc.out" | grep -o '[0-9]*$')
lab_run_timeout "$LAB_STEP_TIMEOUT" srun --jobid="$A" true >/dev/null 2>&1
run srun --jobid="$A" --roce=warn sh -c 'echo "TASK_RAN ${NCCL_IB_HCA:-none}"'
P2=$(stuck_pid)
echo "# job $A step 1: srun ${MS} ms; stuck pid ${P2:-none} (first: ${P1:-none}); $(grep -o "\[$A\.1\] .*step setup took [0-9.]* ms" "$log" | head -1)"
check "warn, hung read in the step's own check: the step runs without NCCL environment after its deadline" \
	'[ -n "$A" ] && [ $RC = 0 ] && grep -qx "TASK_RAN none" $W/out && [ $(grep -c "roce: warning: node1: cannot check the RoCE fabric, no NCCL environment set: the fabric check did not finish within 800 ms (TimeoutMs=300)" $W/err) = 1 ]'
# The step gives up at TimeoutMs + 500 ms: its setup time is at least that,
# and far below HANG (up to 2999 ms: a loaded 2-core machine under ASan
# overshoots a deadline by a few hundred ms).
check "the step waited its deadline, not the hung read (${HANG}s); its check is recorded as stuck" \
	'[ $MS -lt $(( (HANG - 3) * 1000 )) ] && grep -Eq "\[$A\.1\] .*step setup took ([89][0-9]{2}|[12][0-9]{3})\.[0-9]+ ms" $log && [ -n "$P2" ] && [ "$P2" != "$P1" ] && kill -0 $P2'
check "and as late: later checks on this node fork their worker" 'test -f $W/state/collector.late'
run srun --jobid="$A" --roce=strict sh -c 'echo TASK_RAN'
echo "# job $A step 2: srun ${MS} ms; $(grep -o "\[$A\.2\] .*step setup took [0-9.]* ms" "$log" | head -1)"
check "strict while it is stuck: the step fails at once, naming the stuck check" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "cannot check the RoCE fabric (--roce=strict): an earlier fabric check (pid $P2, started [0-9]* s ago) is still stuck" $W/err && grep -Eq "\[$A\.2\] .*step setup took ([0-9]{1,2}|[0-7][0-9]{2})\.[0-9]+ ms" $log'
lab_run scancel "$A"
lab_wait_job "$A" 60
check "timeouts and stuck checks drain nothing" '[ "$(lab_node_settled node1)" = idle ]'
# this lab's processes only (make -j2 runs other labs next to this one)
lab_stuck() { local p; for p in $(ip netns pids "$(lab_ns_node node1)"); do ps -o stat=,args= -p "$p"; done | grep -c "^D.*slurmstepd"; }
echo "# slurmstepd processes of this lab in D state: $(lab_stuck)"
check "only the abandoned check of step 1 lingers (the first is gone; step 2 started none)" \
	'[ $(lab_stuck) -le 1 ]'
spank_sanitizer_check
done_testing
