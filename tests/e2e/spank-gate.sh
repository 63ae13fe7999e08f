#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Jobs that move off bad nodes, and nodes that come back (issue 28), in a
# real three-node Slurm: PrologFlags=Alloc, SchedulerParameters=
# nohold_on_prolog_fail (else Slurm holds the requeued job), the plugin on a
# `required` plugstack line (Slurm ignores an `optional` plugin's failing job
# prolog: part 16-17), cred_expire=10 (a requeued job waits that long, 120 s
# by default).
#   node1, node2: mlx5_0, mlx5_1 healthy, Weight=10
#   node3: mlx5_1 port 1 DOWN, Weight=1, so the scheduler picks it first
# The prolog gate fails node3's job prolog for a strict job: node3 drained
# with our reason, the job requeued and run to its end on node1 and node2.
# A configuration finding does not fail the prolog.  roce-check --drain (what
# roce-healthcheck runs) resumes node3 after ResumeAfter= passing runs once
# its port is back, leaves an admin's drain alone, and is bounded in time
# when slurmctld does not answer.  roce-prolog as Prolog= gates too (Gate=yes).
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() {
	echo "nodes: $(lab_run sinfo -h -N -o '%N %T %E' 2>&1 | tr '\n' ';')"
	echo "queue: $(lab_run squeue -h -o '%i %T %r %N' 2>&1 | tr '\n' ';')"
}

spank_need_lab
plan 26
spank_workdir spank-gate
for n in 1 2 3; do
	mkdir -p "$W/fab$n"
	fab_example "$W/fab$n" 2
done
fab_port "$W/fab3" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
cat >"$W/roce.conf" <<CONF
PfcPriority=none   # veth has no DCB
Mtu=9000
ReportDir=$W/reports
StateDir=$W/state
CONF
# roce-prolog as Prolog= once $W/program exists (the last part), with Gate=yes
sed 's/^Mtu=9000$/Mtu=9000 Gate=yes/' "$W/roce.conf" >"$W/program.conf"
cat >"$W/prolog.sh" <<EOF
#!/bin/sh
[ -e "$W/program" ] || exit 0
exec "$top_builddir/prolog/roce-prolog" --config "$W/program.conf"
EOF
chmod 755 "$W/prolog.sh"
# MessageTimeout=30: Slurm's clients then wait (and retry a refused
# connection) longer than roce-check's 10 s deadline, which must end them.
LAB_EXTRA_CONF="PrologFlags=Alloc
SchedulerParameters=nohold_on_prolog_fail
MessageTimeout=30
Prolog=$W/prolog.sh"
LAB_AUTHINFO=cred_expire=10
spank_lab_init
lab_node node1 "$W/fab1" eth0=9000 eth1=9000
lab_node node2 "$W/fab2" eth0=9000 eth1=9000
lab_node node3 "$W/fab3" eth0=9000 eth1=9000
lab_node_extra node1 Weight=10
lab_node_extra node2 Weight=10
lab_node_extra node3 Weight=1
spank_lab_start "required $plugin default=off config=$W/roce.conf"

# batch OUT SBATCH-ARGS...: a two-node job that says where each attempt ran,
# runs a step on both nodes and says when it is done; prints the job id once
# the job has left the queue
batch() {
	local out=$1 id; shift
	id=$(lab_run sbatch --parsable -N2 --open-mode=append -o "$out" "$@" --wrap \
		'echo "RAN $SLURM_JOB_NODELIST restart ${SLURM_RESTART_COUNT:-0}"; srun -N2 sh -c "echo STEP \$SLURMD_NODENAME \${NCCL_IB_HCA:-none}" | sort; echo DONE') || return 1
	lab_wait_job "$id" >&2
	echo "$id"
}
job_field() { lab_run scontrol show job "$1" | grep -oE "(^| )$2=[^ ]*" | head -1 | sed 's/^ //; s/^[^=]*=//'; }
settled() { local n; for n in node1 node2 node3; do echo "$n $(lab_node_settled $n)"; done | tr '\n' ' '; }
# healthcheck NODE: roce-check --drain as slurmd runs roce-healthcheck (root,
# only SLURMD_NODENAME, in the node's namespaces); its stderr in $W/err
healthcheck() {
	lab_node_exec "$1" env -i SLURMD_NODENAME="$1" SLURM_CONF="$LAB/slurm.conf" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$top_builddir/prolog/roce-check" --drain --config "$W/roce.conf" >"$W/out" 2>"$W/err"
}
log3=$W/lab/log/slurmd.node3.log

# --- 1-6: the plugin's gate: a strict two-node job is placed on node3 first
id=$(batch "$W/job1.out" --roce=strict)
cp "$W/job1.out" "$W/out"; : >"$W/err"
check "strict -N2: placed on node3 first, whose job prolog failed the gate with the drain reason" \
	'grep -q "roce: node3: job $id: prolog gate: roce: mlx5_1 port 1 DOWN: the job prolog fails" $log3'
check "node3 is drained with our reason, not Slurm's \"Prolog error\"" \
	'[[ $(lab_node_settled node3) == drain* ]] && [ "$(lab_node_reason node3)" = "roce: mlx5_1 port 1 DOWN" ]'
check "the job was requeued once and ran to its end on node1 and node2: COMPLETED 0:0" \
	'[ "$(job_field $id JobState)" = COMPLETED ] && [ "$(job_field $id Restarts)" = 1 ] && [ "$(job_field $id NodeList)" = "node[1-2]" ] && [ "$(job_field $id ExitCode)" = 0:0 ]'
check "its output: the second attempt ran the step on node1 and node2 with their NCCL_IB_HCA, and finished" \
	'grep -qx "RAN node\[1-2\] restart 1" $W/out && grep -qx "STEP node1 =mlx5_0:1,mlx5_1:1" $W/out && grep -qx "STEP node2 =mlx5_0:1,mlx5_1:1" $W/out && [ "$(grep -c "^STEP" $W/out)" = 2 ] && [ "$(tail -1 $W/out)" = DONE ]'
check "node1 and node2 stay idle with no reason" \
	'[ "$(lab_node_settled node1) $(lab_node_settled node2)" = "idle idle" ] && [ "$(lab_node_reason node1)$(lab_node_reason node2)" = nonenone ]'
: >"$W/out"; grep -E 'node[12]' "$W/lab/log/slurmctld.log" | grep -iE 'drain|prolog (error|fail)' >"$W/err"
check "slurmctld drained neither node1 nor node2" '[ ! -s $W/err ]'

# --- 7-8: a configuration finding (MTU below Mtu=9000) is no hardware fault:
# the prolog passes, the strict batch step fails on its own, nothing is requeued or drained
lab_mtu node1 eth0 1500
id=$(lab_run sbatch --parsable -N1 -w node1 --roce=strict -o "$W/job2.out" --wrap 'echo BATCH_RAN')
lab_wait_job "$id"
cp "$W/job2.out" "$W/out"; : >"$W/err"
check "strict, node1 at MTU 1500: the prolog passes (not requeued), the batch step fails in one short line, the fix in slurmd's log" \
	'[ "$(job_field $id JobState)" = FAILED ] && [ "$(job_field $id Restarts)" = 0 ] && ! grep -q BATCH_RAN $W/out && grep -q "roce: node1: mtu mismatch on mlx5_0:1" $W/out && grep -q "mtu fail (mismatch): eth0 MTU is 1500" $W/lab/log/slurmd.node1.log'
check "... and node1 is not drained" \
	'! grep -q "job $id: prolog gate" $W/lab/log/slurmd.node1.log && [ "$(lab_node_settled node1)" = idle ] && [ "$(lab_node_reason node1)" = none ]'
lab_mtu node1 eth0 9000

# --- 9-13: node3 comes back by itself once its port does (ResumeAfter=3, the default)
healthcheck node3
check "health check, port still DOWN: node3 stays drained with our reason, no pass counted" \
	'[ "$(lab_node_reason node3)" = "roce: mlx5_1 port 1 DOWN" ] && [ ! -e $W/state/node3.passes ] && grep -q "^roce-check: drained node3: roce: mlx5_1 port 1 DOWN" $W/err'
fab_port "$W/fab3" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"
healthcheck node3
check "port back, health check 1: still drained, 1 of 3 passes counted" \
	'[[ $(lab_node_state node3) == drain* ]] && [ "$(cat $W/state/node3.passes)" = 1 ] && grep -q "^roce-check: node3 is drained for \"roce: mlx5_1 port 1 DOWN\": passed 1 of the 3 runs in a row that resume it" $W/err'
healthcheck node3
check "health check 2: still drained, 2 of 3" \
	'[[ $(lab_node_state node3) == drain* ]] && [ "$(cat $W/state/node3.passes)" = 2 ]'
healthcheck node3
check "health check 3: node3 resumed, saying why" \
	'grep -q "^roce-check: resumed node3: the check passed 3 runs in a row (ResumeAfter=3) since it was drained for \"roce: mlx5_1 port 1 DOWN\"" $W/err'
check "node3 is idle again, and the count is gone after the next run" \
	'[ "$(lab_node_settled node3)" = idle ] && healthcheck node3 && [ ! -e $W/state/node3.passes ]'

# --- 14-15: an admin's drain is never touched, however often the check passes
lab_run scontrol update nodename=node2 state=drain reason="admin: cable swap" >/dev/null
for i in 1 2 3 4; do healthcheck node2; done
check "four passing health checks on node2 drained by an admin: still drained, the admin's reason kept" \
	'[[ $(lab_node_state node2) == drain* ]] && [ "$(lab_node_reason node2)" = "admin: cable swap" ] && [ ! -e $W/state/node2.passes ]'
check "... and the health check said nothing about resuming it" '! grep -q "resume" $W/err'
lab_resume node2 >/dev/null

# --- 16-17: the README's `optional` plugstack line: Slurm (22.05, 24.11 and
# 26.05 alike) ignores the plugin's failing job prolog: the job starts on
# node3, whose strict step fails; node3 is drained all the same
fab_port "$W/fab3" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
lab_plugstack "optional $plugin default=off config=$W/roce.conf"
release=$(lab_run sinfo -V | awk '{print $NF}')
id=$(batch "$W/job4.out" --roce=strict)
cp "$W/job4.out" "$W/out"; : >"$W/err"
check "optional line: node3's gate drained it with our reason (Slurm $release)" \
	'grep -q "roce: node3: job $id: prolog gate: roce: mlx5_1 port 1 DOWN: the job prolog fails" $log3 && [ "$(lab_node_reason node3)" = "roce: mlx5_1 port 1 DOWN" ]'
check "optional line, Slurm $release: the failing job prolog is ignored: the job ran on node3, whose strict step failed" \
	'[ "$(job_field $id Restarts)" = 0 ] && [ "$(job_field $id NodeList)" = "node[1,3]" ] && grep -q "roce: node3: port_state down on mlx5_1:1" $W/out'

lab_plugstack "required $plugin default=off config=$W/roce.conf"
lab_resume node3 >/dev/null

# --- 18-21: roce-prolog as Prolog= (Gate=yes: every job, also one that asked for nothing)
touch "$W/program"
id=$(batch "$W/job3.out")
cp "$W/job3.out" "$W/out"; : >"$W/err"
check "roce-prolog, Gate=yes, a job without --roce: node3's prolog fails the gate" \
	'grep -q "roce-prolog: job $id on node3: prolog gate: roce: mlx5_1 port 1 DOWN: the prolog fails" $log3'
check "node3 drained with our reason (scontrol from the Prolog)" \
	'[[ $(lab_node_settled node3) == drain* ]] && [ "$(lab_node_reason node3)" = "roce: mlx5_1 port 1 DOWN" ]'
check "the job ran to its end on node1 and node2 after one requeue" \
	'[ "$(job_field $id JobState)" = COMPLETED ] && [ "$(job_field $id Restarts)" = 1 ] && [ "$(job_field $id NodeList)" = "node[1-2]" ] && grep -qx "RAN node\[1-2\] restart 1" $W/out && [ "$(tail -1 $W/out)" = DONE ]'
check "the job did not ask for --roce: its step got no NCCL variables" \
	'grep -qx "STEP node1 none" $W/out && grep -qx "STEP node2 none" $W/out'
rm -f "$W/program"

# --- 22-25: slurmctld does not answer: every sinfo/scontrol is bounded
# stopped (SIGSTOP: connections are accepted, never answered: the hang of
# mej/nhc issue 159), then gone (connections refused)
ctl=$(cat "$LAB/run/slurmctld.pid")
kill -STOP "$ctl"
t0=$(date +%s%N)
healthcheck node3
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill -CONT "$ctl"
echo "# slurmctld stopped: roce-check --drain (port DOWN) took $ms ms"
check "slurmctld stopped, port DOWN: the health check gives up on sinfo at its 10 s deadline ($ms ms)" \
	'[ "$ms" -ge 9500 ] && [ "$ms" -lt 30000 ] && grep -q "^roce-check: cannot read the state of node3 from slurmctld: not draining it (roce: mlx5_1 port 1 DOWN): sinfo did not answer within 10000 ms (killed)" $W/err'
check "... and leaves no sinfo behind" \
	'! pgrep -f "sinfo --noheader --Node --nodes node3" >/dev/null'
lab_kill_pidfile "$LAB/run/slurmctld.pid"
t0=$(date +%s%N)
healthcheck node1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "# slurmctld gone: roce-check --drain (healthy node) took $ms ms"
check "slurmctld gone, a healthy node: a clear message, not counted as a pass, within the bound ($ms ms)" \
	'[ "$ms" -lt 30000 ] && grep -q "^roce-check: cannot read the state of node1 from slurmctld: not counted as a pass: sinfo " $W/err'
check "... no count kept for node1" '[ ! -e $W/state/node1.passes ]'

# --- last: what the sanitizers saw in srun, slurmd and slurmstepd
spank_sanitizer_check
done_testing
