#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job-wide agreement (issue 11) on a real three-node Slurm: every node
# has mlx5_0 and mlx5_1 on eth0/eth1; SharedDir is a directory all nodes see
# (the lab's nodes share the host's file system); PrologFlags=Alloc, so that
# every node's prolog wrote its fingerprint before a step starts.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() {
	echo "nodes: $(lab_run sinfo -h -N -o '%N %T %E' | tr '\n' ';')"
	echo "shared: $(ls "$W/shared" 2>/dev/null | tr '\n' ' ')"
}

spank_need_lab
plan 28
spank_workdir spank-agree
for n in 1 2 3; do mkdir -p "$W/fab$n" && fab_example "$W/fab$n" 2; done
conf() { # conf [EXTRA...]: roce.conf with SharedDir, plus EXTRA lines
	{
		echo "PfcPriority=none   # veth has no DCB"
		echo "Drain=no"
		echo "ReportDir=$W/reports"
		echo "StateDir=$W/state"
		echo "SharedDir=$W/shared"
		printf '%s\n' "$@"
	} >"$W/roce.conf"
}
conf
spank_lab_init
LAB_EXTRA_CONF="PrologFlags=Alloc"
for n in 1 2 3; do lab_node node$n "$W/fab$n" eth0=9000 eth1=9000; done
spank_lab_start
lab_user_add || { echo "Bail out! no test user"; exit 1; }

TASK='echo "RAN $SLURMD_NODENAME ${NCCL_IB_HCA:-none} ${NCCL_SOCKET_IFNAME:-none}"'
srun3() { run srun -N3 "$@" sh -c "$TASK"; }
# sbatch3 MODE [SCRIPT]: a 3-node batch job whose inner srun -N3 runs TASK; output in $W/out
sbatch3() {
	local id
	id=$(lab_run sbatch --parsable -N3 --roce="$1" -o "$W/batch.out" --wrap "${2:-}srun -N3 sh -c '$TASK'")
	lab_wait_job "$id"
	JOB=$id
	cp "$W/batch.out" "$W/out"; : >"$W/err"
	grep -q "^RAN" "$W/out"; RC=$?
}
all3() { # all3 HCA: every node's task got it
	local n
	for n in node1 node2 node3; do grep -q "^RAN $n $1 " "$W/out" || return 1; done
}

# --- 1-2: all healthy: both rails everywhere, no word about it
srun3 --roce=warn
check "all healthy: both rails on every node" '[ $RC = 0 ] && all3 =mlx5_0:1,mlx5_1:1'
check "all healthy: no warning" '! grep -q "roce:" $W/err'

# --- 3-5: node3's mlx5_1 down: the inner srun of a warn batch job gives all three =mlx5_0:1
fab_port "$W/fab3" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
sbatch3 warn
check "node3 mlx5_1 down, warn: all three tasks get =mlx5_0:1 (and eth0 only)" \
	'all3 =mlx5_0:1 && [ $(grep -c "^RAN node.* =mlx5_0:1 =eth0$" $W/out) = 3 ]'
check "one warning names node3 and the missing rail" \
	'[ $(grep -c "roce: warning: node3: mlx5_1:1 missing; every node of the step uses =mlx5_0:1" $W/out) = 1 ]'
check "the job's fingerprints are gone after it" '[ -z "$(ls $W/shared)" ]'

# --- 6-7: the same under strict: the step fails on every node, naming node3
srun3 --roce=strict
check "strict, node3 lacks a rail: the step fails, no task runs" '[ $RC != 0 ] && ! grep -q "^RAN" $W/out'
check "strict: srun names node3 and the rail" \
	'grep -q "roce: node3: mlx5_1:1 missing" $W/err && grep -q "do not agree on the RoCE fabric (--roce=strict): the step does not run" $W/err'
fab_port "$W/fab3" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"

# --- 8-11: node2 at MTU 1500 on both netdevs under Mtu=0: healthy alone, not with the others
lab_mtu node2 eth0 1500; lab_mtu node2 eth1 1500
srun3 --roce=strict
check "strict, node2 at MTU 1500: the step fails, no task runs" '[ $RC != 0 ] && ! grep -q "^RAN" $W/err $W/out'
check "strict: the message names the MTU groups" \
	'grep -q "RDMA MTU 4096 on node\[1,3\]; 1024 on node2" $W/err'
check "a disagreement drains nothing" \
	'[ "$(lab_node_settled node1) $(lab_node_settled node2) $(lab_node_settled node3)" = "idle idle idle" ]'
srun3 --roce=warn
check "warn, node2 at MTU 1500: runs everywhere with both rails and warns about the MTUs" \
	'[ $RC = 0 ] && all3 =mlx5_0:1,mlx5_1:1 && grep -q "roce: warning: the step.s nodes differ where NCCL needs the same: RDMA MTU 4096 on node\[1,3\]; 1024 on node2" $W/err'
lab_mtu node2 eth0 9000; lab_mtu node2 eth1 9000

# --- 12-13: opt-out under warn, refused under strict
fab_port "$W/fab3" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
SLURM_ROCE_AGREE=off srun3 --roce=warn
check "SLURM_ROCE_AGREE=off under warn: each node its own rails, no agreement" \
	'[ $RC = 0 ] && grep -q "^RAN node1 =mlx5_0:1,mlx5_1:1 " $W/out && grep -q "^RAN node3 =mlx5_0:1 " $W/out && ! grep -q "missing" $W/err'
SLURM_ROCE_AGREE=off srun3 --roce=strict
check "SLURM_ROCE_AGREE=off under strict: ignored, said so, the step fails" \
	'[ $RC != 0 ] && grep -q "ignoring SLURM_ROCE_AGREE=off" $W/err && grep -q "roce: node3: mlx5_1:1 missing" $W/err'

# --- 14-15: an unprivileged user's srun reads the fingerprints through their ACL entry
run "${LAB_AS_USER[@]}" srun --chdir=/ -N3 --roce=strict sh -c "$TASK"
check "uid $LAB_UID, strict, node3 lacks a rail: the user's srun read every node and names node3" \
	'[ $RC != 0 ] && ! grep -q "^RAN" $W/out && grep -q "roce: node3: mlx5_1:1 missing" $W/err && ! grep -q "refused\|no fingerprint" $W/err'
run "${LAB_AS_USER[@]}" srun --chdir=/ -N3 --roce=warn sh -c "$TASK"
check "uid $LAB_UID, warn: every task gets =mlx5_0:1" '[ $RC = 0 ] && all3 =mlx5_0:1'

# --- 16: SharedDir unset: today's behaviour
conf "# no SharedDir"; sed -i '/^SharedDir=/d' "$W/roce.conf"
srun3 --roce=warn
check "SharedDir unset: each node its own rails, as before" \
	'[ $RC = 0 ] && grep -q "^RAN node1 =mlx5_0:1,mlx5_1:1 " $W/out && grep -q "^RAN node3 =mlx5_0:1 " $W/out && ! grep -q "fingerprint\|missing" $W/err'
conf
fab_port "$W/fab3" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"

# --- 17-22: fingerprints that are garbage, another job's, or deleted mid-job.
# The batch script waits for $W/go; the test changes node2's file first.
gated() { # gated MODE: a batch job whose inner srun waits for $W/go; sets GATED (its id)
	rm -f "$W/go"
	GATED=$(lab_run sbatch --parsable -N3 --roce="$1" -o "$W/batch.out" --wrap \
		"while [ ! -e $W/go ]; do sleep 0.2; done; srun -N3 sh -c '$TASK'")
	# every node's: a test copies node1's over node2's (at load 10 node1's
	# prolog came after node2's, the copy failed and nothing was refused)
	local n
	for n in node1 node2 node3; do lab_poll 120 entry "$GATED" "$n" >/dev/null; done
}
# entry JOB NODE: the node's fingerprint file (SharedDir/JOB/TIME.DIGEST.NODE: docs/agreement.md)
entry() { ls "$W/shared/$1/"*".$2" 2>/dev/null; }
# replace JOB NODE FILE: the node's fingerprint replaced by FILE's bytes, named after their digest
replace() {
	local e t
	e=$(entry "$1" "$2") && t=$(basename "$e" | cut -d. -f1) || return 1
	rm -f "$e"
	cp "$3" "$W/shared/$1/$t.$(sha256sum <"$3" | cut -c1-32).$2"
}
release() { touch "$W/go"; lab_wait_job "$GATED"; cp "$W/batch.out" "$W/out"; : >"$W/err"; }

echo 'garbage {' >"$W/garbage"
gated warn
replace "$GATED" node2 "$W/garbage"
release
check "warn, node2's fingerprint is garbage: refused, named (once), every node its own rails" \
	'all3 =mlx5_0:1,mlx5_1:1 && grep -q "roce: warning: SharedDir: 1 fingerprint(s) refused.*\.node2: not valid JSON" $W/out && ! grep -q "no fingerprint from" $W/out'
gated strict
replace "$GATED" node2 "$W/garbage"
release
check "strict, node2's fingerprint is garbage: the step fails naming node2" \
	'! grep -q "^RAN" $W/out && grep -q "roce: SharedDir: 1 fingerprint(s) refused.*\.node2: not valid JSON" $W/out && grep -q "the step does not run" $W/out'

# another job's fingerprint under this job's name
gated warn
first=$GATED
touch "$W/go"; lab_wait_job "$first"
gated warn
sed "s/\"job_id\":\"$GATED\"/\"job_id\":\"$first\"/" "$(entry "$GATED" node1)" >"$W/x" && replace "$GATED" node2 "$W/x"
release
check "another job's fingerprint is refused, naming the job id" \
	'grep -q "refused.*\.node2: .*job_id.*$first.*not this job" $W/out'
check "and the step still runs, each node its own rails" 'all3 =mlx5_0:1,mlx5_1:1'

gated warn
rm -f "$(entry "$GATED" node2)"
release
check "a fingerprint deleted mid-job: unknown after TimeoutMs, the step runs with each node's own rails" \
	'all3 =mlx5_0:1,mlx5_1:1 && grep -q "roce: warning: no fingerprint from node2 in SharedDir after [0-9]* ms: the plugin is not loaded there or its prolog failed; each node uses its own rails" $W/out'

# --- 23-28 (issue 31): each problem said once for the step's nodes, by srun.
# PfcUnknown=warn: the veths' missing DCB is a warning on every port of every node.
conf "PfcPriority=3" "PfcUnknown=warn"
PFC="node\[1-3\]: pfc unknown (no DCB) on mlx5_0:1,mlx5_1:1"
roce_lines() { grep -c "roce:" "$@" | awk -F: '{s += $NF} END {print s + 0}'; }
measure() { echo "# $1: $(roce_lines "$2") roce: line(s), $(grep "roce:" "$2" | wc -c) bytes"; }
srun3 --roce=warn
measure "srun -N3 --roce=warn, every node's PFC unknown, SharedDir" "$W/err"
check "every node's PFC unknown, warn: srun says it in one line naming node[1-3], no node repeats it" \
	'[ $RC = 0 ] && all3 =mlx5_0:1,mlx5_1:1 && [ $(grep -c "roce: warning: $PFC$" $W/err) = 1 ] && [ $(roce_lines $W/err) = 1 ]'
check "each node's slurmd log still has the whole finding" \
	'for n in 1 2 3; do grep -q "roce: node$n: mlx5_0:1 pfc warn (unknown (no DCB)): eth0 has no DCB" $W/lab/log/slurmd.node$n.log || exit 1; done'
sbatch3 warn
check "in a batch job: the inner step's one line for node[1-3]; the batch step's own (node1, not launched by srun) is the other" \
	'[ $(grep -c "roce: warning: $PFC$" $W/out) = 1 ] && [ $(roce_lines $W/out) = 2 ] && grep -q "roce: warning: node1: pfc unknown" $W/out'
fab_port "$W/fab3" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
srun3 --roce=warn
measure "srun -N3 --roce=warn, PFC unknown everywhere and node3's mlx5_1 down, SharedDir" "$W/err"
check "node3's mlx5_1 down too: srun names it once, worst first, beside the rail it trims; node3 does not repeat it" \
	'[ $RC = 0 ] && [ $(grep -c "roce: warning: node3: port_state down on mlx5_1:1$" $W/err) = 1 ] && grep -q "roce: warning: node3: mlx5_1:1 missing; every node of the step uses" $W/err && [ "$(grep -n "port_state down" $W/err | cut -d: -f1)" -lt "$(grep -n "pfc unknown" $W/err | head -1 | cut -d: -f1)" ] && [ $(grep -c "port_state" $W/err) = 1 ]'
conf "PfcPriority=3" "PfcUnknown=warn"; sed -i '/^SharedDir=/d' "$W/roce.conf"
srun3 --roce=warn
measure "srun -N3 --roce=warn, the same without SharedDir (each node its own line)" "$W/err"
check "without SharedDir: one short line per node (node3's with its port)" \
	'[ $(roce_lines $W/err) = 3 ] && [ $(grep -c "^roce: warning: node[12]: pfc unknown (no DCB) on mlx5_0:1,mlx5_1:1$" $W/err) = 2 ] && grep -q "^roce: warning: node3: port_state down on mlx5_1:1; pfc unknown (no DCB) on mlx5_0:1" $W/err && [ $(awk "length > 199" $W/err | wc -l) = 0 ]'
fab_port "$W/fab3" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"
conf
srun3 --roce=warn
check "healthy again, SharedDir: no roce: line at all" '[ $RC = 0 ] && [ $(roce_lines $W/err) = 0 ]'

# --- last: what the sanitizers saw in srun, slurmd and slurmstepd
spank_sanitizer_check
done_testing
