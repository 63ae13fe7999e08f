#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce.conf on a real three-node Slurm (issue 32): NodeName= sections give a
# node class its own keys (node3's 25G port under LinkRate=none, each node
# its own StateDir), and a typo pushed to every node (Ecm=warn for Ecn=warn)
# takes nothing down: steps run with the last good policy, each slurmd logs
# it once, roce-report still reads an old job, roce-check --check-config
# names file:line, the health check says it and checks on; a plugstack
# without the plugin's line is a health-check finding.
#   node1, node2: mlx5_0, mlx5_1 at 100 Gb/s    node3: mlx5_1 at 25 Gb/s
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() { echo "nodes: $(lab_run sinfo -h -N -o '%N %T %E' | tr '\n' ';')"; }

spank_need_lab
plan 20
spank_workdir spank-config
for n in 1 2 3; do mkdir -p "$W/fab$n"; fab_example "$W/fab$n" 2; done
fab_port "$W/fab3" mlx5_1 1 rate="25 Gb/sec (1X EDR)" netdev=eth1
good() {
	cat <<CONF
PfcPriority=none   # veth has no DCB
Mtu=9000
LinkRateAction=fail   # a slow port is left out (the default, warn, keeps it)
ReportDir=$W/reports
StateDir=$W/state
# the lab's nodes share one file system: each its own StateDir
NodeName=node1  StateDir=$W/state1
NodeName=node2  StateDir=$W/state2
NodeName=node3  StateDir=$W/state3
# a node class whose second port is 25G on purpose
NodeName=node[3-9],gpu-a*
LinkRate=none
CONF
}
good >"$W/roce.conf"
spank_lab_init
lab_node node1 "$W/fab1" eth0=9000 eth1=9000
lab_node node2 "$W/fab2" eth0=9000 eth1=9000
lab_node node3 "$W/fab3" eth0=9000 eth1=9000
spank_lab_start
B=$top_builddir/prolog

run() { lab_run_timeout "$LAB_STEP_TIMEOUT" "$@" >"$W/out" 2>"$W/err"; RC=$?; }
srun3() { run srun -N3 "$@" sh -c 'echo "RAN $SLURMD_NODENAME ${NCCL_IB_HCA:-none}"'; }
all_ports() {
	grep -qx "RAN node1 =mlx5_0:1,mlx5_1:1" "$W/out" && grep -qx "RAN node2 =mlx5_0:1,mlx5_1:1" "$W/out" &&
		grep -qx "RAN node3 =mlx5_0:1,mlx5_1:1" "$W/out"
}
# the lines of node N's slurmd log that say roce.conf is bad
bad_lines() { grep -c "error: roce: node$1: $W/roce.conf:2: unknown key \"Ecm\": using its last good copy (saved 20" "$LAB/log/slurmd.node$1.log"; }
health() { # health NODE ARGS...: roce-check as slurmd runs HealthCheckProgram on NODE
	local n=$1; shift
	lab_node_exec "$n" env -i SLURMD_NODENAME="$n" SLURM_CONF="$LAB/slurm.conf" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$B/roce-check" --config "$W/roce.conf" "$@" >"$W/out" 2>"$W/err"
	RC=$?
}

# --- 1-3: NodeName= sections: node3's class keeps its 25G port, each node its own StateDir
id=$(lab_run sbatch --parsable -N3 --roce=warn -o "$W/batch.out" --wrap \
	'srun -N3 sh -c "echo RAN \$SLURMD_NODENAME \${NCCL_IB_HCA:-none}"')
lab_wait_job "$id"
cp "$W/batch.out" "$W/out"; : >"$W/err"
check "NodeName=node[3-9],gpu-a* LinkRate=none: node3 exports its 25G port; node1, node2 both ports" all_ports
check "node3 is not drained for the rate its class has on purpose" \
	'[ "$(lab_node_settled node3)" = idle ] && [ "$(lab_node_reason node3)" = none ]'
check "each node kept the last good roce.conf in the StateDir its section names" \
	'ls $W/state1/policy-*.conf $W/state2/policy-*.conf $W/state3/policy-*.conf && [ ! -e $W/state ]'
lab_poll 60 test -s "$W/reports/$id/node3.json"

# --- 4-11: the typo of the trial, pushed to every node
{ sed -n 1p "$W/roce.conf"; echo "Ecm=warn   # meant Ecn"; sed -n '2,$p' "$W/roce.conf"; } >"$W/roce.conf.new"
mv "$W/roce.conf.new" "$W/roce.conf"
srun3 --roce=warn
check "Ecm=warn: warn steps keep their NCCL variables, from the last good policy (node3's section too)" \
	'[ $RC = 0 ] && all_ports && ! grep -q "roce:" $W/err'
srun3 --roce=strict
check "Ecm=warn: strict steps run, checked with the last good policy" '[ $RC = 0 ] && all_ports'
srun3 --roce=warn
check "one clear line in each slurmd's log, however many steps" \
	'[ "$(bad_lines 1) $(bad_lines 2) $(bad_lines 3)" = "1 1 1" ]'
out=$(lab_run "$B/roce-report" "$id" --config "$W/roce.conf" 2>"$W/err"); rc=$?
echo "$out" >"$W/out"
check "roce-report of a job from before the typo still works, and says what is wrong" \
	'[ $rc = 0 ] && grep -q "^RoCE fabric report for job $id: 3 node(s) node\[1-3\]" $W/out && grep -q "warning: .*roce.conf:2: unknown key \"Ecm\" (ReportDir is read all the same)" $W/err'
run "$B/roce-check" --check-config "$W/roce.conf" --plugstack "$LAB/plugstack.conf"
check "roce-check --check-config names file:line and exits 2" \
	'[ $RC = 2 ] && grep -qx "roce-check: $W/roce.conf:2: unknown key \"Ecm\"" $W/err'
health node3 --health
check "the health check (--health) keeps checking, with node3's last good policy, and says the file is bad" \
	'[ $RC = 0 ] && grep -q "^FAIL    config      roce.conf    $W/roce.conf:2: unknown key \"Ecm\": checked with its last good copy (saved 20" $W/out && grep -q "roce-check: 2 RoCE ports, 2 healthy" $W/out'
health node3
check "a plain roce-check fails on the bad file (exit 1), drains nothing" \
	'[ $RC = 1 ] && [ "$(lab_node_settled node3)" = idle ]'
check "the plugstack line is there: no plugstack finding" '! grep -q plugstack $W/out'

# --- 12-15: fixed, and the same typo again
good >"$W/roce.conf"
srun3 --roce=warn
check "fixed: steps as before, no new log line, the bad version forgotten" \
	'[ $RC = 0 ] && all_ports && [ "$(bad_lines 1)" = 1 ] && [ -z "$(ls $W/state1 | grep bad)" ]'
{ sed -n 1p "$W/roce.conf"; echo "Ecm=warn"; sed -n '2,$p' "$W/roce.conf"; } >"$W/roce.conf.new"
mv "$W/roce.conf.new" "$W/roce.conf"
srun3 --roce=warn
check "the same typo again: said again, once" '[ $RC = 0 ] && all_ports && [ "$(bad_lines 1)" = 2 ]'
run "$B/roce-check" --check-config "$W/roce.conf" --node node3
check "--check-config judges the file whichever node it is for" '[ $RC = 2 ] && grep -q ":2: unknown key" $W/err'
good >"$W/roce.conf"
run "$B/roce-check" --check-config "$W/roce.conf" --node node3 --plugstack "$LAB/plugstack.conf"
check "--check-config on a good file and the lab's plugstack line: exit 0, node3's section named" \
	'[ $RC = 0 ] && grep -q "plugstack.conf:1: the plugin.s words: OK (default=off, 0 roce.conf key(s))" $W/out && grep -q "roce.conf: OK for node node3 (4 NodeName= section(s), 2 naming it)" $W/out'

# --- 16-19: a node whose plugstack does not load the plugin (the file not yet there)
lab_plugstack "# optional $plugin default=off config=$W/roce.conf"
health node1 --health
check "plugstack without the plugin's line: the health check says so, naming the commented line" \
	"[ \$RC = 0 ] && grep -q '^WARN    plugstack   node         no line of $LAB/plugstack.conf or the files it includes loads spank_roce.so ($LAB/plugstack.conf:1 is commented out): steps on this node run unchecked, --roce=strict ones too' \$W/out"
check "a configuration finding: nothing drained" '[ "$(lab_node_settled node1)" = idle ]'
run "$B/roce-check" --check-config "$W/roce.conf" --plugstack "$LAB/plugstack.conf"
check "--check-config warns of it and still judges roce.conf" \
	'[ $RC = 0 ] && grep -q "warning: no line of" $W/err && grep -q "roce.conf: OK" $W/out'
lab_plugstack "optional $plugin default=off config=$W/roce.conf Bogus=1"
run "$B/roce-check" --check-config "$W/roce.conf" --plugstack "$LAB/plugstack.conf"
check "--check-config judges the plugin's words as the plugin does: file:line, exit 2" \
	'[ $RC = 2 ] && grep -qx "roce-check: $LAB/plugstack.conf:1: plugstack argument: unknown key \"Bogus\"" $W/err'

# --- last: what the sanitizers saw in srun, slurmd and slurmstepd
spank_sanitizer_check
done_testing
