#!/bin/bash
# The roce plugin's deadline in a real one-node Slurm: the node's fixture is
# served through faultfs (tests/fault/faultfs.c, FUSE) where reading
# mlx5_0's port state blocks for HANG seconds in D state, as a stuck firmware
# command does.  With TimeoutMs=300 the step must not wait for it: warn runs
# with a warning and no NCCL environment, strict fails; nothing is drained.
# The job prolog/epilog (fabric report) give up too, after TimeoutMs + 1 s / 3 s.
set -u
top_srcdir=$(cd "${top_srcdir:-$(dirname "$0")/../..}" && pwd)   # no "..": paths go into roce.conf
top_builddir=$(cd "${top_builddir:-$top_srcdir/build}" && pwd)
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/slurmlab.sh"

N=0
ok() { N=$((N + 1)); echo "ok $N - $1"; }
not_ok() { N=$((N + 1)); echo "not ok $N - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
check() { # check NAME 'SHELL CONDITION'
	local name=$1; shift
	if eval "$1"; then ok "$name"; else not_ok "$name" "rc=$RC ms=$MS" "stdout: $(head -20 "$W/out" 2>/dev/null)" "stderr: $(head -20 "$W/err" 2>/dev/null)"; fi
}

PLAN=5
HANG=8
plugin=$top_builddir/spank/.libs/spank_roce.so
if ! why=$(lab_can_run); then echo "1..0 # SKIP $why"; exit 0; fi
[ -f "$plugin" ] || { echo "1..0 # SKIP $plugin not built"; exit 0; }
[ -c /dev/fuse ] || { echo "1..0 # SKIP no /dev/fuse"; exit 0; }
pkg-config --exists fuse3 2>/dev/null || { echo "1..0 # SKIP libfuse3-dev not installed"; exit 0; }

W=$(mktemp -d "${TMPDIR:-/tmp}/spank-timeout.XXXXXX") && chmod 755 "$W"  # munged wants o+x on its socket path
FS_PID=""
unmount() {
	[ -n "$FS_PID" ] && { kill "$FS_PID" 2>/dev/null; wait "$FS_PID" 2>/dev/null; }
	grep -q " $W/mnt fuse" /proc/mounts && { fusermount3 -u "$W/mnt" 2>/dev/null || umount -l "$W/mnt"; }
	return 0
}
trap 'lab_stop; unmount; [ "${KEEP:-0}" = 1 ] || rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
${CC:-cc} -O1 $(pkg-config --cflags fuse3) -o "$W/faultfs" "$top_srcdir/tests/fault/faultfs.c" \
	$(pkg-config --libs fuse3) 2>"$W/cc.log" || { echo "1..0 # SKIP cannot build faultfs: $(head -1 "$W/cc.log")"; exit 0; }
mkdir -p "$W/fab" "$W/mnt"
fab_example "$W/fab" 2
"$W/faultfs" "$W/fab" "$W/mnt" "hang=$HANG:mlx5_0/ports/1/state" 2>"$W/faultfs.log" &
FS_PID=$!
for i in $(seq 50); do grep -q " $W/mnt fuse" /proc/mounts && break; sleep 0.1; done
grep -q " $W/mnt fuse" /proc/mounts || { echo "1..0 # SKIP faultfs did not mount: $(tail -1 "$W/faultfs.log")"; exit 0; }
echo "1..$PLAN"

printf 'PfcPriority=none\nTimeoutMs=300\nReportDir=%s/reports\nStateDir=%s/state\n' "$W" "$W" >"$W/roce.conf"
lab_init "$W/lab" >/dev/null || { echo "Bail out! lab_init failed"; exit 1; }
SAN=0; lab_sanitize "$plugin" && SAN=1
lab_node node1 "$W/mnt" eth0=9000 eth1=9000
lab_plugstack "required $plugin config=$W/roce.conf"
lab_start || { lab_logs >&2; echo "Bail out! cluster did not start"; exit 1; }

run() { local t0; t0=$(date +%s%N); lab_run_timeout 60 "$@" >"$W/out" 2>"$W/err"; RC=$?; MS=$(( ($(date +%s%N) - t0) / 1000000 )); }

run srun --roce=warn sh -c 'echo "JOB $SLURM_JOB_ID"; echo "TASK_RAN ${NCCL_IB_HCA:-none}"'
J=$(sed -n 's/^JOB \([0-9][0-9]*\)$/\1/p' "$W/out" | head -1)
check "warn, hung sysfs read: the step runs without NCCL environment" '[ $RC = 0 ] && grep -qx "TASK_RAN none" $W/out'
check "warn: one warning names the deadline" \
	'[ $(grep -c "roce: warning: node1: cannot check the RoCE fabric, no NCCL environment set: the fabric check did not finish within 800 ms (TimeoutMs=300)" $W/err) = 1 ]'
log=$W/lab/log/slurmd.node1.log
# The step gives up at TimeoutMs + 500 ms: its setup time is at least that,
# and far below HANG (up to 2999 ms: a loaded 2-core machine under ASan
# overshoots a deadline by a few hundred ms).
echo "# warn step: srun ${MS} ms; $(grep -o "step setup took [0-9.]* ms" "$log" | head -1)"
check "neither the step nor the prolog waited for the hung read (${HANG}s)" \
	'[ -n "$J" ] && [ $MS -lt $(( (HANG - 3) * 1000 )) ] && grep -Eq "\[$J\.0\] .*step setup took ([89][0-9]{2}|[12][0-9]{3})\.[0-9]+ ms" $log && grep -q "job $J: prolog: no fabric report: not done within 1300 ms" $log'
# the epilog runs after srun returned: wait for its verdict, then for the node
lab_wait_log "$log" "job $J: epilog: no fabric report: not done within 3300 ms"
lab_node_settled node1 >/dev/null
run srun --roce=strict sh -c 'echo TASK_RAN'
echo "# strict step: srun ${MS} ms"
check "strict, hung sysfs read: the step fails, quickly, with the reason" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "cannot check the RoCE fabric (--roce=strict): the fabric check did not finish" $W/err && [ $MS -lt $(( (HANG - 3) * 1000 )) ]'
check "a timeout drains nothing; the epilog gave up too" \
	'[ "$(lab_node_settled node1)" = idle ] && grep -q "job $J: epilog: no fabric report: not done within 3300 ms" $log'
if [ "$SAN" = 1 ] && [ -n "$(lab_sanitizer_reports)" ]; then echo "# sanitizer reports:"; lab_sanitizer_reports | sed 's/^/# /'; echo "not ok - sanitizer reports"; fi
[ "$N" = "$PLAN" ] || { echo "# planned $PLAN, ran $N"; exit 1; }
