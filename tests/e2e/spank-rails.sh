#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Rails by identity and why the step's nodes cannot agree (issues 26 and 32),
# on a real three-node Slurm with SharedDir on a real CephFS (tests/lib/ceph.sh:
# each node its own ceph-fuse client, srun another one).  Each node has two
# ConnectX ports on two rails, 192.0.2.0/26 (eth0) and 192.0.2.64/26 (eth1),
# with the addresses on its real veths; node2's devices are named the other way
# round (its first slot is mlx5_1).  PrologFlags=Alloc until the last checks.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
. "$top_srcdir/tests/lib/ceph.sh"
check_diag() {
	echo "shared: $(find "$C/shared" 2>/dev/null | tr '\n' ' ')"
}

spank_need_lab
why=$(ceph_can_run) || skip_all "$why"
command -v jq >/dev/null || skip_all "needs jq"
plan 27
spank_workdir spank-rails
FAULTFS="$top_builddir/tests/helpers/faultfs"
spank_on_exit() {
	grep -q " $C/shared fuse.faultfs" /proc/mounts && { fusermount3 -uz "$C/shared" 2>/dev/null || umount -l "$C/shared"; }
	grep -q " $W/backing " /proc/mounts && umount -l "$W/backing"
	ceph_stop
}
ceph_start "$W/ceph" || { echo "Bail out! the one-host Ceph did not start"; exit 1; }
C=$W/cephfs

# node N's fabric: SLOT0 and SLOT1 name the devices at PCI 0000:41 (eth0, rail A) and 0000:51 (eth1, rail B)
fabric() {
	local root=$W/fab$1 i=0 dev
	for dev in $2 $3; do
		fab_hca "$root" "$dev" "$(printf '0000:%02x:00.0' $((0x41 + i * 0x10)))" 1
		fab_roce_ipv4 "$root" "$dev" 1 "eth$i" "192.0.2.$((64 * i + 10 + $1))"
		fab_standard_counters "$root" "$dev" 1
		i=$((i + 1))
	done
	fab_gdr "$root"
}
fabric 1 mlx5_0 mlx5_1
fabric 2 mlx5_1 mlx5_0
fabric 3 mlx5_0 mlx5_1
# TimeoutMs=5000: each node's job prolog writes to CephFS within its deadline (TimeoutMs + 1 s), and
# under ASan on a loaded 2-CPU machine 3 s was not always enough (CI: node2's write still in flight)
printf '%s\n' "PfcPriority=none" "Drain=no" "ReportDir=$W/reports" "StateDir=$W/state" "SharedDir=$C/shared" \
	"TimeoutMs=5000" >"$W/roce.conf"
spank_lab_init
LAB_EXTRA_CONF="PrologFlags=Alloc"
LAB_CEPH_MNT=$C
for n in 1 2 3; do lab_node node$n "$W/fab$n" eth0=9000 eth1=9000; done
spank_lab_start
ceph_mount "$C" login || { echo "Bail out! no ceph-fuse client for srun"; exit 1; }
# the addresses behind the GIDs: rail A 192.0.2.0/26 on eth0, rail B 192.0.2.64/26 on eth1
addr() { ip -n "$(lab_ns_node "node$1")" addr "$2" "192.0.2.$3/26" dev "$4"; }
for n in 1 2 3; do addr $n add $((10 + n)) eth0 && addr $n add $((74 + n)) eth1 || { echo "Bail out! addresses"; exit 1; }; done

TASK='echo "RAN $SLURMD_NODENAME ${NCCL_IB_HCA:-none} ${NCCL_SOCKET_IFNAME:-none}"'
srunN() { local n=$1; shift; run srun -N"$n" "$@" sh -c "$TASK"; }
got() { grep "^RAN $1 " "$W/out" | cut -d' ' -f3-; }
# sbatch3 OPTIONS... -- SRUN-OPTIONS: a 3-node batch job whose inner srun runs TASK; its output in $W/out
sbatch3() {
	local id opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	id=$(lab_run sbatch --parsable -N3 "${opts[@]}" -o "$W/batch.out" --wrap "srun -N3 $* sh -c '$TASK'")
	lab_wait_job "$id"
	cp "$W/batch.out" "$W/out"; : >"$W/err"
}
roce_lines() { grep -c "roce:" "$W/out" "$W/err" | awk -F: '{s += $2} END {print s}'; }

# --- 1-4: the same subnets under swapped device names: every rail agreed, each node its own names
srunN 3 --roce=strict
check "strict, node2's devices named the other way round: the step runs on all three" '[ $RC = 0 ] && [ $(grep -c "^RAN" $W/out) = 3 ]'
check "node1 and node3 export =mlx5_0:1,mlx5_1:1 (eth0, eth1)" \
	'[ "$(got node1)" = "=mlx5_0:1,mlx5_1:1 =eth0,eth1" ] && [ "$(got node3)" = "=mlx5_0:1,mlx5_1:1 =eth0,eth1" ]'
check "node2 exports its own names in rail order: =mlx5_1:1,mlx5_0:1 (eth0, eth1)" \
	'[ "$(got node2)" = "=mlx5_1:1,mlx5_0:1 =eth0,eth1" ]'
check "no word from the agreement" '! grep -q "roce:" $W/err'

# --- 5-8: node3's eth1 address moved to rail A's subnet (its GID with it): a crossed rail
addr 3 del 77 eth1 && addr 3 add 52 eth1
fab_roce_ipv4 "$W/fab3" mlx5_1 1 eth1 192.0.2.52
CROSSED="node3: mlx5_1:1 is on 192.0.2.0/26 at 192.0.2.64/26's place (a crossed cable or address)"
srunN 3 --roce=warn
check "warn, node3's mlx5_1 on rail A's subnet: named as a crossed rail, in one line" \
	'[ $RC = 0 ] && [ $(grep -c "roce: warning: $CROSSED; every node of the step uses the rails 192.0.2.0/26" $W/err) = 1 ] && [ $(roce_lines) = 1 ]'
check "warn trims it: every node exports its rail A port alone, under its own name" \
	'[ "$(got node1)" = "=mlx5_0:1 =eth0" ] && [ "$(got node2)" = "=mlx5_1:1 =eth0" ] && [ "$(got node3)" = "=mlx5_0:1 =eth0" ]'
srunN 3 --roce=strict
check "strict: the step fails, no task runs" '[ $RC != 0 ] && ! grep -q "^RAN" $W/out'
check "strict: srun names the crossed rail" \
	'grep -q "roce: $CROSSED" $W/err && grep -q "do not agree on the RoCE fabric (--roce=strict): the step does not run" $W/err'
fab_roce_ipv4 "$W/fab3" mlx5_1 1 eth1 192.0.2.77
addr 3 del 52 eth1 && addr 3 add 77 eth1

# --- 9-12: node3's ports at 25 Gb/s beside 100 Gb/s nodes; node2 on other firmware
for d in mlx5_0 mlx5_1; do fab_port "$W/fab3" $d 1 rate="25 Gb/sec (1X EDR)"; done
for d in mlx5_0 mlx5_1; do printf '20.40.1000\n' >"$(fab_devdir "$W/fab2" $d)/fw_ver"; done
RATE="the step's nodes differ: link rate 100 Gb/s on node\[1-2\]; 25 Gb/s on node3"
FW="the step's nodes differ: firmware of MT28908 (MT_0000000223) 20.39.1002 on node\[1,3\]; 20.40.1000 on node2"
srunN 3 --roce=warn
check "warn: one line names the link rate groups, one the firmware groups; both rails everywhere" \
	'[ $RC = 0 ] && grep -q "roce: warning: $RATE$" $W/err && grep -q "roce: warning: $FW$" $W/err && [ $(roce_lines) = 2 ] && [ "$(got node3)" = "=mlx5_0:1,mlx5_1:1 =eth0,eth1" ]'
check "each line is short (under 200 characters)" '[ $(awk "length > 199" $W/err | wc -l) = 0 ]'
srunN 3 --roce=strict
check "strict names them too, and runs (NCCL runs with them: spank-roce(8))" \
	'[ $RC = 0 ] && [ $(grep -c "^RAN" $W/out) = 3 ] && grep -q "roce: warning: $RATE$" $W/err && grep -q "roce: warning: $FW$" $W/err'
check "strict: no failure said" '! grep -q "does not run" $W/err'
for d in mlx5_0 mlx5_1; do fab_port "$W/fab3" $d 1 rate="100 Gb/sec (4X EDR)"; done
for d in mlx5_0 mlx5_1; do printf '20.39.1002\n' >"$(fab_devdir "$W/fab2" $d)/fw_ver"; done

# --- 13-16: an allocation whose mode was off wrote no fingerprint: said as that, in one line
OFF="no fingerprint in SharedDir: the allocation's mode was off (--roce=off, or no --roce and default=off)"
sbatch3 --roce=off -- --roce=strict
check "sbatch --roce=off, srun --roce=strict: one line says the allocation's mode was off" \
	'[ $(grep -c "roce: $OFF" $W/out) = 1 ] && ! grep -q "no fingerprint from" $W/out'
check "strict then fails: no task runs" '! grep -q "^RAN" $W/out && grep -q "the step does not run" $W/out'
sbatch3 -- --roce=warn
check "no --roce at allocation under the shipped default=off: the same line under warn" \
	'[ $(grep -c "roce: warning: $OFF; each node uses its own rails" $W/out) = 1 ] && [ $(grep -c "roce:" $W/out) = 1 ]'
check "and the step runs, each node its own rails (node2's in its own order)" \
	'[ "$(got node2)" = "=mlx5_0:1,mlx5_1:1 =eth1,eth0" ] && [ "$(got node1)" = "=mlx5_0:1,mlx5_1:1 =eth0,eth1" ]'

# salloc as sbatch: its --roce reaches the inner srun, fingerprints or none
run salloc -N3 --roce=warn srun -N3 --roce=strict sh -c "$TASK"
check "salloc --roce=warn, srun --roce=strict: the prologs wrote, the nodes agree, no word" \
	'[ $RC = 0 ] && [ "$(got node2)" = "=mlx5_1:1,mlx5_0:1 =eth0,eth1" ] && ! grep -q "roce:" $W/err'
run salloc -N3 --roce=off srun -N3 --roce=strict sh -c "$TASK"
check "salloc --roce=off, srun --roce=strict: the same line as sbatch's, the step fails" \
	'[ $RC != 0 ] && [ $(grep -c "roce: $OFF" $W/err) = 1 ] && ! grep -q "^RAN" $W/out'

# --- 19-20: the plugin not loaded on node3 (its plugstack without the line): strict fails, naming it
lab_node_exec node3 mount --bind /dev/null "$LAB/plugstack.conf"
srunN 3 --roce=strict
check "strict, no plugin on node3: the step fails" '[ $RC != 0 ] && ! grep -q "^RAN node[12]" $W/out'
check "srun says node3 wrote no fingerprint: the plugin is not loaded there or its prolog failed" \
	'grep -q "roce: no fingerprint from node3 in SharedDir after [0-9]* ms: the plugin is not loaded there or its prolog failed$" $W/err'
lab_node_exec node3 umount "$LAB/plugstack.conf"

# --- 21 (issue 31): every node's PFC unknown (PfcUnknown=warn; veths have no DCB), on CephFS:
# srun says it once, for node[1-3], whatever each node calls its devices
sed -i 's/^PfcPriority=none$/PfcPriority=3\nPfcUnknown=warn/' "$W/roce.conf"
srunN 3 --roce=warn
check "every node's PFC unknown: one line from srun for node[1-3] (node2's devices in its own names), none from the nodes" \
	'[ $RC = 0 ] && [ "$(grep "roce:" $W/err)" = "srun: roce: warning: node[1-3]: pfc unknown (no DCB) on mlx5_0:1,mlx5_1:1" ]'
sed -i '/^PfcUnknown=warn$/d; s/^PfcPriority=3$/PfcPriority=none/' "$W/roce.conf"

# --- 22-23: fingerprint reads stalled 60 s (faultfs between srun and CephFS): srun is bounded by its
# wait (TimeoutMs, or up to twice that and 1 s in a new allocation: spank-roce(8); 11 s here) and 500 ms
if [ -x "$FAULTFS" ]; then
	t0=$(date +%s%3N); srunN 2 --roce=warn; base=$(($(date +%s%3N) - t0))
	mkdir -p "$W/backing" && mount --bind "$C/shared" "$W/backing"
	"$FAULTFS" "$W/backing" "$C/shared" 'hang=60:[0-9]*.node[0-9]' 2>"$W/faultfs.log" &
	fpid=$!
	lab_poll 10 sh -c "grep -q ' $C/shared fuse' /proc/mounts"
	t0=$(date +%s%3N); srunN 2 --roce=warn; took=$(($(date +%s%3N) - t0))
	echo "# a 2-node srun: $base ms; with fingerprint reads stalled 60 s: $took ms (TimeoutMs 5000: a new allocation waits 11 s at most, and 500 ms)"
	check "reads stalled 60 s: srun returns at its deadline (11.5 s and its own start), long before the stall ends" \
		'[ $RC = 0 ] && [ $took -lt 40000 ]'
	check "the step's nodes are unknown, said in one line; each uses its own rails" \
		'grep -q "roce: warning: the step.s nodes cannot be compared: SharedDir did not answer within [0-9]* ms (a stalled file system?); each node uses its own rails" $W/err && [ $(grep -c "^RAN" $W/out) = 2 ]'
	fusermount3 -uz "$C/shared" 2>/dev/null || umount -l "$C/shared"
	umount -l "$W/backing"
	# srun left its reader asleep in the stalled read (abandoned by design):
	# ending the file system ends that read, and the reader with it
	kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null
	lab_poll 20 sh -c '! pgrep -x srun >/dev/null'
else
	skip "tests/helpers/faultfs not built (configure found no libfuse3-dev)" 2
fi

# --- 23-25: slurm.conf without PrologFlags=Alloc: srun reads slurmctld's flags and says so, in one line
sed -i '/^PrologFlags=Alloc/d' "$LAB/slurm.conf"
lab_run scontrol reconfigure >/dev/null 2>&1
lab_poll 30 sh -c "! SLURM_CONF=$LAB/slurm.conf nsenter --net=/run/netns/$(lab_ns_ctl) scontrol show config | grep -q '^PrologFlags *= *Alloc'"
ALLOC="SharedDir needs PrologFlags=Alloc in slurm.conf: no fingerprint from node\[1-2\]"
srunN 2 -w node1,node2 --roce=strict
check "no PrologFlags=Alloc, strict: one line says SharedDir needs it" \
	'[ $(grep -c "roce: $ALLOC$" $W/err) = 1 ] && ! grep -q "TimeoutMs" $W/err'
check "strict then fails" '[ $RC != 0 ] && ! grep -q "^RAN" $W/out'
srunN 2 -w node1,node2 --roce=warn
check "warn: the same line, and the step runs on each node's own rails" \
	'[ $RC = 0 ] && grep -q "roce: warning: $ALLOC; each node uses its own rails" $W/err && [ $(grep -c "^RAN" $W/out) = 2 ]'

# --- last: what the sanitizers saw
spank_sanitizer_check
done_testing
