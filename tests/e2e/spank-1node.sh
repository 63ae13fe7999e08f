#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The roce SPANK plugin in a real one-node Slurm (started here) whose node
# sees a fixture fabric at /sys/class/infiniband and real veths eth0/eth1.
# Checks task output, stderr and node state, not only exit codes: srun can
# exit 0 after a failed launch.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() {
	echo "node1 now: $(lab_run sinfo -h -N -o '%T, reason: %E' 2>&1)"
	echo "queue: $(lab_run squeue -h -o '%i %j %T %r' 2>&1 | tr '\n' ';')"
}

spank_need_lab
plan 42
spank_workdir spank-1node
FAB=$W/fab
mkdir -p "$FAB"
fab_example "$FAB" 2
cat >"$W/roce.conf" <<CONF
# veth has no DCB: PFC cannot be checked here
PfcPriority=none
Mode=warn
# a slow port left out and drained (the default, warn, only says it: roce-check.sh)
LinkRateAction=fail
ReportDir=$W/reports
StateDir=$W/state
CONF
spank_lab_init
lab_user_add || { echo "Bail out! no test user"; exit 1; }
lab_node node1 "$FAB" eth0=9000 eth1=9000
spank_lab_start

srun_env() { run srun -N1 "$@" sh -c 'env | grep -E "^(NCCL_|ROCE_)" | sort; echo "JOB $SLURM_JOB_ID"; echo TASK_RAN'; }
job_of_out() { sed -n 's/^JOB \([0-9][0-9]*\)$/\1/p' "$W/out" | head -1; }
batch() { # batch OUT-FILE SBATCH-ARGS... -- script via --wrap
	local out=$1; shift
	local id; id=$(lab_run sbatch --parsable -o "$out" "$@") || return 1
	lab_wait_job "$id" >&2
	echo "$id"
}
state() { lab_node_state node1; }
log=$W/lab/log/slurmd.node1.log
# no line the plugin prints to a job's output is longer than 200 characters (issue 31)
short_lines() { ! grep "roce:" "$1" | sed 's/^srun: \(error: \)\{0,1\}//' | grep -q '.\{201\}'; }

# --- 1-3: the option is in every client's help
for c in srun sbatch salloc; do
	run "$c" --help
	check "$c --help lists --roce" 'grep -q -- "--roce=\[off|warn|strict\]" $W/out'
done

# --- 4: srun --roce: the validated NCCL environment
srun_env --roce
check "srun --roce exports NCCL_IB_HCA, GID index, socket ifname" \
	'[ $RC = 0 ] && grep -qx "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" $W/out && grep -qx NCCL_IB_GID_INDEX=3 $W/out && grep -qx "NCCL_SOCKET_IFNAME==eth0,eth1" $W/out'
# --- 5: one info line per step with the verdict, timing at debug (this job's
# only step; slurmstepd writes both lines before the task starts)
jid=$(job_of_out)
check "slurmd log: one verdict line per step, plugin time at debug" \
	'[ -n "$jid" ] && [ $(grep -c "\[$jid\.0\] .*roce: node1: job $jid mode warn: ok" $log) = 1 ] && grep -q "\[$jid\.0\] .*roce: node1: step setup took" $log'

# --- 6-7: off and no option export nothing
srun_env --roce=off
check "--roce=off exports nothing" 'grep -qx TASK_RAN $W/out && ! grep -q NCCL_ $W/out && ! grep -q ROCE_ $W/out'
srun_env
check "no option (site default off) exports nothing" 'grep -qx TASK_RAN $W/out && ! grep -q NCCL_ $W/out'

# --- site-wide enablement: default=warn in plugstack.conf; --roce=off still opts out
lab_plugstack "optional $plugin default=warn config=$W/roce.conf"
srun_env
check "default=warn: a job without the option is checked and gets NCCL_IB_HCA" 'grep -qx "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" $W/out'
srun_env --roce=off
check "default=warn: --roce=off opts out" 'grep -qx TASK_RAN $W/out && ! grep -q NCCL_ $W/out'
lab_plugstack "optional $plugin default=off config=$W/roce.conf"

# --- salloc --roce=strict: steps inside the allocation inherit the mode
run salloc -N1 --roce=strict srun sh -c 'echo "STEP $SLURM_JOB_ID ${NCCL_IB_HCA:-none}"'
jid=$(sed -n 's/^STEP \([0-9][0-9]*\) .*/\1/p' "$W/out" | head -1)
check "salloc --roce=strict: the step inside gets the environment, mode strict" \
	'[ -n "$jid" ] && grep -qx "STEP $jid =mlx5_0:1,mlx5_1:1" $W/out && grep -Eq "\[$jid\.0\] roce: node1: job $jid mode strict: ok" $log'

# --- 8: SLURM_ROCE for users who cannot pass options
SLURM_ROCE=warn srun_env
check "SLURM_ROCE=warn enables the plugin" 'grep -qx "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" $W/out'

# --- 9-10: a user-set NCCL_IB_HCA survives, with one warning naming both values
NCCL_IB_HCA=mlx5_7 srun_env --roce
check "user-set NCCL_IB_HCA survives, others still exported" \
	'grep -qx NCCL_IB_HCA=mlx5_7 $W/out && grep -qx NCCL_IB_GID_INDEX=3 $W/out'
check "one warning names the user's and the checked value" \
	'[ $(grep -c "keeping your NCCL_IB_HCA=mlx5_7; the checked value is =mlx5_0:1,mlx5_1:1" $W/err) = 1 ]'

# --- 11-14: bad values refused at submission, listing the valid ones
run srun --roce=bogus sh -c 'echo TASK_RAN'
check "srun --roce=bogus refused" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "valid values are off, warn and strict" $W/err'
# Judged by this job's own name: earlier steps may still be COMPLETING in squeue.
run sbatch --roce=bogus -J roce-bogus-probe --wrap true
check "sbatch --roce=bogus refused" \
	'[ $RC != 0 ] && grep -q "invalid --roce value \"bogus\"" $W/err && ! grep -q "Submitted batch job" $W/out && [ -z "$(lab_run squeue -h -n roce-bogus-probe)" ]'
run salloc "--roce=warn;id" true
check "salloc --roce='warn;id' refused" '[ $RC != 0 ] && grep -q "valid values are off" $W/err'
SLURM_ROCE=strictt run srun sh -c 'echo TASK_RAN'
check "SLURM_ROCE=strictt refused" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "invalid SLURM_ROCE=\"strictt\"" $W/err'
SLURM_ROCE=strictt run sbatch --parsable -o /dev/null --wrap true
check "sbatch with SLURM_ROCE=strictt refused: no job submitted" \
	'[ $RC != 0 ] && ! grep -q "^[0-9]" $W/out && grep -q "invalid SLURM_ROCE=\"strictt\"" $W/err'

# --- a value that got around the client (--export sets it only in the job): warned, ignored
run srun --export=ALL,SLURM_ROCE=bogus sh -c 'echo "TASK_RAN ${NCCL_IB_HCA:-none}"'
check "SLURM_ROCE=bogus in the job only: task runs unchecked, one warning naming the value" \
	'[ $RC = 0 ] && grep -qx "TASK_RAN none" $W/out && [ $(grep -c "roce: node1: ignoring SLURM_ROCE=\"bogus\": valid values are off, warn and strict" $W/err) = 1 ]'

# --- 15-16: sbatch --roce: batch script and its inner srun steps
id=$(batch "$W/batch.out" --roce=strict --wrap 'env | grep ^NCCL_IB_HCA= | sed s/^/BATCH:/; srun sh -c "env | grep ^NCCL_IB_HCA= | sed s/^/STEP:/"')
cp "$W/batch.out" "$W/out" 2>/dev/null; : >"$W/err"
check "sbatch --roce: batch script and inner srun get NCCL_IB_HCA" \
	'grep -qx "BATCH:NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" $W/out && grep -qx "STEP:NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" $W/out'
check "the inner srun step inherits the mode (strict) from sbatch" \
	'grep -q "\[$id.0\] roce: node1: job $id mode strict: ok" $log'

# --- 17-19: strict on a broken fabric: mlx5_1 lost its RoCE v2 GIDs
fab_gid_clear "$FAB" mlx5_1 1 1; fab_gid_clear "$FAB" mlx5_1 1 3
run srun --roce=strict sh -c 'echo TASK_RAN'
check "strict on a bad fabric: step fails, non-zero exit, node/HCA/check on stderr in one short line, the fix in slurmd's log" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && [ $(grep -c "roce: node1: gid missing on mlx5_1:1$" $W/err) = 1 ] && grep -q "does not run" $W/err && grep -q "roce: node1: mlx5_1:1 gid fail (missing): .*RoCE v2.*(check " $log && short_lines $W/err'
check "hardware fault drains the node, reason names the HCA" \
	'[[ $(lab_node_state node1) == drain* ]] && [ "$(lab_node_reason node1)" = "roce: mlx5_1 port 1 no RoCE v2 GID" ]'
lab_resume node1
id=$(batch "$W/batch2.out" --roce=strict --wrap 'echo BATCH_RAN')
cp "$W/batch2.out" "$W/out" 2>/dev/null; : >"$W/err"
check "sbatch --roce=strict on a bad fabric: job FAILED, message in the batch output" \
	'! grep -q BATCH_RAN $W/out && grep -q "roce: node1: gid missing on mlx5_1:1" $W/out && lab_run scontrol show job $id | grep -q "JobState=FAILED"'
fab_roce_ipv4 "$FAB" mlx5_1 1 eth1 192.0.2.11
lab_resume node1

# --- 20-21: warn with a port down: that HCA is left out, one warning line
fab_port "$FAB" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
srun_env --roce=warn
check "warn with mlx5_1 DOWN: task runs with NCCL_IB_HCA==mlx5_0:1 and one warning" \
	'grep -qx TASK_RAN $W/out && grep -qx "NCCL_IB_HCA==mlx5_0:1" $W/out && [ $(grep -c "^roce: warning: node1: port_state down on mlx5_1:1$" $W/err) = 1 ] && [ $(grep -c "roce:" $W/err) = 1 ]'
check "port down drains the node with 'roce: mlx5_1 port 1 DOWN'" \
	'[ "$(lab_node_reason node1)" = "roce: mlx5_1 port 1 DOWN" ]'
# roce-check --drain (what roce-healthcheck runs, as slurmd runs it) never
# touches a node drained for another reason, and drains one that is not
healthcheck() {
	lab_node_exec node1 env -i SLURMD_NODENAME=node1 SLURM_CONF="$LAB/slurm.conf" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$top_builddir/prolog/roce-check" --drain --config "$W/roce.conf" >"$W/out" 2>"$W/err"
}
lab_resume node1
lab_run scontrol update nodename=node1 state=drain reason="admin: firmware update"
healthcheck
check "roce-check --drain, mlx5_1 DOWN on a node an admin drained: the admin's reason stays" \
	'[ "$(lab_node_reason node1)" = "admin: firmware update" ] && grep -q "^roce-check: node1 is already drained|admin: firmware update.*left alone" $W/err'
lab_resume node1
healthcheck
check "roce-check --drain, mlx5_1 DOWN on an idle node: drained with its reason" \
	'[ "$(lab_node_reason node1)" = "roce: mlx5_1 port 1 DOWN" ] && grep -q "^roce-check: drained node1" $W/err'
# The plugin's own drain too: an admin drains the node while a job runs on
# it, and the job's next step finds mlx5_1 DOWN.
lab_resume node1
run salloc -N1 --roce=warn sh -c 'scontrol update nodename=node1 state=drain reason="admin: firmware update" && srun sh -c "echo TASK_RAN"'
check "plugin, mlx5_1 DOWN on a node an admin drained during the job: the admin's reason stays" \
	'grep -qx TASK_RAN $W/out && [ "$(lab_node_reason node1)" = "admin: firmware update" ] && grep -q "roce: node1: already drained for \"admin: firmware update\": left alone (roce: mlx5_1 port 1 DOWN)" $log'
fab_port "$FAB" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"
lab_resume node1

# --- 22: an unprivileged user's job (srun run as that user: no srun --uid
# from 24.11 on): tasks run as that user, the drain (init_post_opt, root) still happens
lab_node_settled node1 >/dev/null
fab_port "$FAB" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
run "${LAB_AS_USER[@]}" srun --chdir=/ --roce=warn sh -c 'echo "UID $(id -u) ${NCCL_IB_HCA:-none}"'
check "job of uid $LAB_UID with mlx5_1 DOWN: runs as that user with =mlx5_0:1, node drained" \
	'[ $RC = 0 ] && grep -qx "UID $LAB_UID =mlx5_0:1" $W/out && [ "$(lab_node_reason node1)" = "roce: mlx5_1 port 1 DOWN" ]'
fab_port "$FAB" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"
lab_resume node1

# --- a port that trained at 25G beside a 100G port of the same model (LinkRate=auto):
# left out in warn mode, the node drained with the port and its rate
lab_node_settled node1 >/dev/null
fab_port "$FAB" mlx5_1 1 rate="25 Gb/sec (1X EDR)"
srun_env --roce=warn
check "warn with mlx5_1 at 25 Gb/s: NCCL_IB_HCA==mlx5_0:1, drained 'roce: mlx5_1 port 1 at 25 Gb/s'" \
	'grep -qx TASK_RAN $W/out && grep -qx "NCCL_IB_HCA==mlx5_0:1" $W/out && grep -q "^roce: warning: node1: link_rate slow on mlx5_1:1$" $W/err && grep -q "roce: node1: mlx5_1:1 link_rate fail (slow): mlx5_1 port 1 runs at 25 Gb/s" $log && [ "$(lab_node_reason node1)" = "roce: mlx5_1 port 1 at 25 Gb/s" ]'
fab_port "$FAB" mlx5_1 1 rate="100 Gb/sec (4X EDR)"
lab_resume node1

# --- 23: a configuration problem (MTU below policy) fails strict without draining
lab_plugstack "optional $plugin default=off config=$W/roce.conf Mtu=4200"
run srun --roce=strict sh -c 'echo TASK_RAN'
check "strict, MTU 9000 vs policy Mtu=4200: fails naming the check (the fix in slurmd's log), node not drained" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "roce: node1: mtu mismatch on mlx5_0:1,mlx5_1:1$" $W/err && grep -q "mtu fail (mismatch): .*ip link set eth0 mtu 4200" $log && [ "$(lab_node_settled node1)" = idle ]'
lab_plugstack "optional $plugin default=off config=$W/roce.conf"

# --- a broken site configuration: warn degrades to a warning, strict fails; nothing drains
lab_plugstack "optional $plugin default=off config=$W/roce.conf Mtu=jumbo"
srun_env --roce=warn
check "bad plugstack value, warn: task runs without NCCL env, warning names the key" \
	'grep -qx TASK_RAN $W/out && ! grep -q NCCL_ $W/out && grep -q "roce: warning: node1: cannot check the RoCE fabric.*Mtu: invalid value \"jumbo\"" $W/err'
run srun --roce=strict sh -c 'echo TASK_RAN'
check "bad plugstack value, strict: step fails naming the key, node not drained" \
	'[ $RC != 0 ] && ! grep -q TASK_RAN $W/out && grep -q "Mtu: invalid value \"jumbo\"" $W/err && [ "$(lab_node_settled node1)" = idle ]'
lab_plugstack "optional $plugin default=off config=$W/roce.conf turbo"
srun_env --roce=warn
check "plugstack word that is not key=value: srun says so, warn job runs with a warning" \
	'grep -qx TASK_RAN $W/out && grep -q "^srun: error: roce: plugstack.conf: plugstack argument \"turbo\" is not Key=Value" $W/err && grep -q "roce: warning: node1: cannot check the RoCE fabric.*\"turbo\"" $W/err'
# a misspelt key must not silently turn site-wide checking off
lab_plugstack "optional $plugin defualt=warn config=$W/roce.conf"
srun_env
check "misspelt plugstack key (defualt=warn): srun names it" \
	'grep -q "^srun: error: roce: plugstack.conf: plugstack argument: unknown key \"defualt\"" $W/err'
lab_plugstack "optional $plugin default=off config=$W/roce.conf"

# --- 24-25: job_prolog/job_epilog write the job's fabric report (--roce jobs only)
id=$(batch "$W/rep.out" --roce --wrap 'true')
: >"$W/out"; ls -lR "$W/reports" >"$W/err" 2>&1
check "sbatch --roce: job_epilog wrote reports/<job>/node1.json" \
	'lab_wait_file $W/reports/$id/node1.json && grep -q "\"node1\"" $W/reports/$id/node1.json'
id2=$(batch "$W/rep2.out" --roce=off --wrap 'true')
sleep 0.5
check "--roce=off: no report" '[ ! -e $W/reports/$id2 ]'

# --- the job's report says what it ran with: the step's record in StateDir,
# taken into the fragment by the job epilog, shown by roce-report
NCCL_IB_HCA=mlx5_7 srun_env --roce
jid=$(job_of_out)
check "user-set NCCL_IB_HCA job: fragment written" \
	'[ -n "$jid" ] && lab_wait_file $W/reports/$jid/node1.json'
rep=$("$top_builddir/prolog/roce-report" "$jid" --report-dir "$W/reports" --format json 2>&1)
check "report: ran_with has the user's NCCL_IB_HCA beside the checked value, and the exported GID index" \
	'[ "$(jq -c "[.nodes[0].ran_with[] | select(.name == \"NCCL_IB_HCA\" or .name == \"NCCL_IB_GID_INDEX\") | [.name, .value, .checked, .user]]" <<<"$rep")" = "[[\"NCCL_IB_HCA\",\"mlx5_7\",\"=mlx5_0:1,mlx5_1:1\",true],[\"NCCL_IB_GID_INDEX\",\"3\",\"3\",false]]" ]'
rep=$("$top_builddir/prolog/roce-report" "$jid" --report-dir "$W/reports" 2>&1)
# Nothing of the job stays in StateDir; the last good policy copy and the
# health check's trend state (trend.json, from the roce-check --drain runs
# above) are the node's, not a job's.
check "report: user_override names the variable, both values and the node" \
	'grep -q "warn user_override on 1 node(s): node1" <<<"$rep" && grep -q "NCCL_IB_HCA user_override: the job set NCCL_IB_HCA=mlx5_7 itself; the check chose =mlx5_0:1,mlx5_1:1" <<<"$rep" && grep -qE "^  NCCL_IB_HCA +mlx5_7 \(the job.s own; checked: =mlx5_0:1,mlx5_1:1\) on node1" <<<"$rep" && [ -z "$(ls -A $W/state | grep -v -e "^policy-[0-9a-f]*\.conf$" -e "^trend\.json$")" ]'

# --- last: what the sanitizers saw in srun, slurmd and slurmstepd
spank_sanitizer_check
done_testing
