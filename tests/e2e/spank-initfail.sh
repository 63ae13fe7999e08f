#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin's slurm_spank_init failing in slurmstepd, in a real one-node
# Slurm: tests/helpers/initfail.c makes Slurm's spank_option_register() refuse
# --roce in the remote context (as when another plugin holds it), so the
# real init returns an error there while the clients still submit.
# Slurm with slurm_spank_init_failure_mode (25.05 and later: the plugin
# sets ESPANK_JOB_FAILURE): the job fails, the node is not drained.  Older
# Slurm drains the node (its only way): shown too, as README says.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() {
	echo "rc=$RC node: $(lab_node_state node1) '$(lab_node_reason node1)'"
	lab_run scontrol show job "${JOB:-0}" 2>/dev/null | grep -E 'JobState|Reason|Restarts' | head -3
	grep -E 'roce|spank' "$LAB/log/slurmd.node1.log" 2>/dev/null | tail -5
}
RC= JOB=

spank_need_lab
spank_workdir spank-initfail
# The shim (tests/helpers/initfail.c) fails --roce while "<its path>.trigger" exists.
SHIM=$top_builddir/tests/helpers/.libs/initfail.so
[ -f "$SHIM" ] || skip_all "$SHIM not built (make check builds it)"
cp "$SHIM" "$W/shim.so" || skip_all "cannot copy $SHIM"
TRIGGER=$W/shim.so.trigger
if nm -D "$plugin" 2>/dev/null | grep -q ' slurm_spank_init_failure_mode$'; then MODE=job; else MODE=node; fi
plan 6

FAB=$W/fab; mkdir -p "$FAB"
fab_example "$FAB" 2
printf 'PfcPriority=none\nReportDir=%s/reports\nStateDir=%s/state\n' "$W" "$W" >"$W/roce.conf"
spank_lab_init
LAB_PRELOAD=${LAB_PRELOAD:+$LAB_PRELOAD:}$W/shim.so
lab_node node1 "$FAB" eth0=9000 eth1=9000
# required: under optional (README's line) Slurm ignores a failing init and
# runs the job unchecked; what follows is the required line's behaviour
spank_lab_start "required $plugin default=off config=$W/roce.conf"

# --- 1: without the trigger the shim changes nothing
run srun --roce=warn sh -c 'echo "TASK_RAN ${NCCL_IB_HCA:-none}"'
check "shim loaded, no trigger: a --roce step runs with its NCCL environment" \
	'[ $RC = 0 ] && grep -qx "TASK_RAN =mlx5_0:1,mlx5_1:1" $W/out'

# --- 2-4: a batch job whose plugin init fails in slurmstepd
touch "$TRIGGER"
run sbatch --parsable -o "$W/batch.%j" --wrap 'echo BATCH_RAN'
JOB=$(cat "$W/out")
job_left_running() {
	case $(lab_run squeue -h -j "$JOB" -o %T 2>/dev/null) in
	"" | PENDING | *REQUEUE* | *HOLD*) return 0 ;;
	esac
	return 1
}
lab_poll 60 job_left_running
sleep 1
state=$(lab_run sacct -n -X -j "$JOB" -o State 2>/dev/null | head -1 | tr -d ' ')
[ -n "$state" ] || state=$(lab_run scontrol show job "$JOB" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
check "batch job: the plugin's init failed in slurmstepd, and says why" \
	'lab_wait_log $LAB/log/slurmd.node1.log "roce: cannot register --roce" 30'
check "batch job: its script never ran" '[ ! -s $W/batch.$JOB ] || ! grep -q BATCH_RAN $W/batch.$JOB'
if [ "$MODE" = job ]; then
	check "slurm_spank_init_failure_mode=ESPANK_JOB_FAILURE: the job FAILED, the node is not drained" \
		'[ "$(lab_run scontrol show job $JOB 2>/dev/null | sed -n "s/.*JobState=\([A-Z_]*\).*/\1/p")" = FAILED ] && [ "$(lab_node_settled node1)" = idle ]'
else
	check "Slurm without slurm_spank_init_failure_mode: the node is drained" \
		'case $(lab_node_settled node1) in drain*) true ;; *) false ;; esac'
fi
lab_run scancel "$JOB" 2>/dev/null
rm -f "$TRIGGER"
lab_resume node1 >/dev/null 2>&1

# --- 5: an srun step whose init fails: the launch fails, the task does not
# run (22.05's srun still exits 0 then: SchedMD bug 7573)
touch "$TRIGGER"
run srun --roce=warn sh -c 'echo TASK_RAN'
rm -f "$TRIGGER"
check "srun step: the launch fails, the task never ran" \
	'grep -q "launch failed" $W/err && ! grep -q TASK_RAN $W/out'
lab_node_settled node1 >/dev/null
lab_resume node1 >/dev/null 2>&1

spank_sanitizer_check
done_testing
