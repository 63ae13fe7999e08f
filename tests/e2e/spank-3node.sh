#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The roce SPANK plugin on a real three-node Slurm (started here): every node
# in its own network namespace with its own fixture fabric and veth MTUs.
#   node1: mlx5_0, mlx5_1 on eth0, eth1     node2: mlx5_0 on eth0
#   node3: mlx5_0..mlx5_2 on eth0..eth2     policy: Mtu=9000
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() { echo "nodes: $(lab_run sinfo -h -N -o '%N %T %E' | tr '\n' ';')"; }

spank_need_lab
plan 16
spank_workdir spank-3node
for n in 1 2 3; do mkdir -p "$W/fab$n"; done
fab_example "$W/fab1" 2
fab_example "$W/fab2" 1
fab_example "$W/fab3" 3
cat >"$W/roce.conf" <<CONF
PfcPriority=none   # veth has no DCB
Mtu=9000
ReportDir=$W/reports
StateDir=$W/state
CONF
spank_lab_init
lab_node node1 "$W/fab1" eth0=9000 eth1=9000
lab_node node2 "$W/fab2" eth0=9000
lab_node node3 "$W/fab3" eth0=9000 eth1=9000 eth2=9000
spank_lab_start

# every task prints "RAN <node> <NCCL_IB_HCA>"
srun3() { run srun -N3 "$@" sh -c 'echo "RAN $SLURMD_NODENAME ${NCCL_IB_HCA:-none}"'; }
settled() { local n; for n in node1 node2 node3; do echo "$n $(lab_node_settled $n)"; done | tr '\n' ' '; }

# --- 1: per-node NCCL_IB_HCA follows each node's own devices
srun3 --roce=warn
check "srun -N3 --roce: NCCL_IB_HCA per node" \
	'[ $RC = 0 ] && grep -qx "RAN node1 =mlx5_0:1,mlx5_1:1" $W/out && grep -qx "RAN node2 =mlx5_0:1" $W/out && grep -qx "RAN node3 =mlx5_0:1,mlx5_1:1,mlx5_2:1" $W/out'

# --- 2: sbatch on three nodes: the batch step exports node1's plan, the inner
# step must still get each node's own (values the plugin set are replaced)
id=$(lab_run sbatch --parsable -N3 --roce -o "$W/batch.out" --wrap \
	'echo "BATCH $NCCL_IB_HCA"; srun -N3 sh -c "echo STEP \$SLURMD_NODENAME \$NCCL_IB_HCA"')
lab_wait_job "$id"
cp "$W/batch.out" "$W/out"; : >"$W/err"
check "sbatch -N3 --roce: inner srun gets each node's NCCL_IB_HCA, not the batch node's" \
	'grep -qx "BATCH =mlx5_0:1,mlx5_1:1" $W/out && grep -qx "STEP node1 =mlx5_0:1,mlx5_1:1" $W/out && grep -qx "STEP node2 =mlx5_0:1" $W/out && grep -qx "STEP node3 =mlx5_0:1,mlx5_1:1,mlx5_2:1" $W/out'

# --- 3-8: node2 at MTU 1500
lab_mtu node2 eth0 1500
srun3 --roce=strict
check "strict, node2 at MTU 1500: step fails, non-zero exit" '[ $RC != 0 ] && ! grep -q "RAN node2" $W/out'
check "strict: stderr names node2, its HCA and the check in one short line, no other node; node2's slurmd log has the fix" \
	'grep -q "roce: node2: mtu mismatch on mlx5_0:1$" $W/err && ! grep -q "roce: node[13]" $W/err && grep -q "roce: node2: mlx5_0:1 mtu fail (mismatch): eth0 MTU is 1500, the policy requires 9000.*ip link set eth0 mtu 9000" $W/lab/log/slurmd.node2.log'
check "a configuration problem drains nothing" '[ "$(settled)" = "node1 idle node2 idle node3 idle " ]'
srun3 --roce=warn
check "warn, node2 at MTU 1500: runs on all nodes, node2 without NCCL_IB_HCA, one warning for node2 only" \
	'[ $RC = 0 ] && grep -qx "RAN node1 =mlx5_0:1,mlx5_1:1" $W/out && grep -qx "RAN node2 none" $W/out && grep -qx "RAN node3 =mlx5_0:1,mlx5_1:1,mlx5_2:1" $W/out && [ $(grep -c "^roce: warning: node2: mtu mismatch on mlx5_0:1$" $W/err) = 1 ] && ! grep -q "roce: warning: node[13]" $W/err'
# strict on one node ends the step on every node, whatever KillOnBadExit
# (-K0: the user's "do not kill"): the healthy tasks would otherwise sleep 60 s.
# 1-4 s here; the bound is the sleep itself (a step start at load 10 can take
# tens of seconds), and no task may have finished its sleep.
# The task itself sleeps (exec), as an NCCL rank is the task: under the lab's
# proctrack/linuxproc a grandchild can escape the SIGKILL (it walks /proc
# while the parent dies) and hold the step's output open; seen at load 10: the
# step was cancelled at once, its orphaned `sleep 60` kept srun 61.7 s.
t0=$(date +%s%N)
run srun -N3 -K0 --roce=strict sh -c 'echo "STARTED $SLURMD_NODENAME"; exec sleep 60'
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "# strict on node2, -K0: srun -N3 ended after $ms ms (the healthy tasks would sleep 60 s)"
check "strict on node2, -K0: the healthy tasks on node1 and node3 are ended within seconds, not after their 60 s" \
	'[ $RC != 0 ] && ! grep -q "STARTED node2" $W/out && [ "$ms" -lt 55000 ]'
check "strict: the user's output says which node failed and that the step was ended for it" \
	'grep -q "roce: node2: mtu mismatch" $W/err && grep -q "roce: node2: .*ending step [0-9]*\.[0-9]* on every node" $W/err'
lab_mtu node2 eth0 9000

# --- 9-11: node3's mlx5_2 goes down: node3 is drained, the others are not
fab_port "$W/fab3" mlx5_2 1 state="1: DOWN" phys="3: Disabled"
srun3 --roce=warn
check "warn, node3 mlx5_2 DOWN: node3 runs without mlx5_2" \
	'[ $RC = 0 ] && grep -qx "RAN node3 =mlx5_0:1,mlx5_1:1" $W/out && [ "$(grep "roce:" $W/err)" = "roce: warning: node3: port_state down on mlx5_2:1" ] && grep -q "roce: node3: mlx5_2:1 port_state fail (down): mlx5_2 port 1 is DOWN" $W/lab/log/slurmd.node3.log'
check "node3 drained, reason names the HCA" \
	'[[ $(lab_node_settled node3) == drain* ]] && [ "$(lab_node_reason node3)" = "roce: mlx5_2 port 1 DOWN" ]'
check "node1 and node2 stay idle with no reason" \
	'[ "$(lab_node_settled node1) $(lab_node_settled node2)" = "idle idle" ] && [ "$(lab_node_reason node1)$(lab_node_reason node2)" = nonenone ]'
# the scheduler stops sending work there: a 3-node job cannot start now
run srun -N3 -I3 --roce=warn true
check "a drained node gets no new jobs" '[ $RC != 0 ]'
fab_port "$W/fab3" mlx5_2 1 state="4: ACTIVE" phys="5: LinkUp"
lab_resume node3

# --- 13-14 (issue 31): the default PfcPriority on veths (no DCB), no ecn/
# (upstream mlx5), no NVIDIA driver: a healthy warn job prints nothing, in
# the batch step or its srun; roce-check on a node still shows each unknown
lab_plugstack "optional $plugin default=off config=$W/roce.conf PfcPriority=3"
id=$(lab_run sbatch --parsable -N3 --roce=warn -o "$W/quiet.out" --wrap 'srun -N3 sh -c "echo STEP \$SLURMD_NODENAME"')
lab_wait_job "$id"
cp "$W/quiet.out" "$W/out"; : >"$W/err"
check "a healthy sbatch -N3 --roce=warn job without DCB, ecn/ or NVIDIA driver: no roce: line in its output" \
	'[ $(grep -c "^STEP node[123]$" $W/out) = 3 ] && ! grep -q "roce:" $W/out'
lab_node_exec node3 env -i SLURMD_NODENAME=node3 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	"$top_builddir/prolog/roce-check" --config "$W/roce.conf" --set PfcPriority=3 >"$W/out" 2>"$W/err"
check "roce-check on node3 still shows each unknown: PFC and ECN of its three ports" \
	'[ $(grep -cE "^WARN +pfc +mlx5_[0-2]:1 .*no DCB" $W/out) = 3 ] && [ $(grep -cE "^WARN +ecn +mlx5_[0-2]:1 .*ecn does not exist" $W/out) = 3 ]'
lab_plugstack "optional $plugin default=off config=$W/roce.conf"

# --- 15: over the whole run the good nodes were never drained
: >"$W/out"; grep -E 'node1|node2' "$W/lab/log/slurmctld.log" | grep -i drain >"$W/err"
check "slurmctld never drained node1 or node2" '[ ! -s $W/err ]'

# --- last: what the sanitizers saw in srun, slurmd and slurmstepd
spank_sanitizer_check
done_testing
