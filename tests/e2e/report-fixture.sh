#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Job fabric report end to end on fixture sysfs trees: roce-prolog, counters
# changed as the kernel would change them, roce-epilog, roce-report in every
# format.  Real netdevs (veths in a private namespace) stand behind the
# fixture's eth* names so the netlink collector answers as on a node.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
B="$top_builddir/prolog"

netns_setup rep 3
netns_veth "$NS" eth3 1500

cat >"$T/roce.conf" <<EOF
ReportDir=$T/reports
StateDir=$T/state
PfcPriority=3
EOF

# job KIND JOBID NODE ROOT: run roce-prolog/epilog as slurmd would; sets $out, $rc.
job() {
	out=$(ip netns exec "$NS" env SLURM_JOB_ID="$2" SLURM_JOB_UID=4001 SLURMD_NODENAME="$3" \
		"$B/roce-$1" --config "$T/roce.conf" --sysfs-root "$4" 2>&1)
	rc=$?
}
report() { # report JOBID ARGS...: sets $out, $rc
	local id=$1; shift
	out=$("$B/roce-report" "$id" --config "$T/roce.conf" "$@" 2>&1)
	rc=$?
}
c() { fab_counter "$R" "$1" 1 "$2" "$3" "$4"; }
jq_parses() { jq -e . >/dev/null 2>&1 <<<"$1"; }

# --- node A: three HCAs; increments, data words, a wrap, a reset, a vanished port
R=$T/a
mkdir -p "$R"
fab_example "$R" 3
c mlx5_0 counters port_xmit_data 1000
c mlx5_0 counters port_rcv_data 2000
c mlx5_0 counters port_xmit_packets 10
c mlx5_0 hw_counters out_of_sequence 4294967290
c mlx5_0 hw_counters np_cnp_sent 5
c mlx5_1 counters port_xmit_data 5000000
c mlx5_1 hw_counters out_of_sequence 100
c mlx5_1 hw_counters rp_cnp_handled 77

job prolog 101 nodeA "$R"
is "$rc" 0 "prolog: exit 0"
is "$out" "" "prolog: silent"
S101=$T/state/101.nodeA.snapshot.json
is "$(stat -c '%a %U' "$T/state" "$S101" | tr '\n' ' ')" "700 root 600 root " "prolog: StateDir 0700, snapshot <job>.<node>.snapshot.json 0600, root"
ok "prolog: snapshot is JSON with 3 ports" test "$(jq '.snapshot.ports|length' "$S101")" = 3
is "$(jq -r '.snapshot.ports[0].netdev_mtu' "$S101")" 9000 "prolog: netdev MTU from rtnetlink in the snapshot"

c mlx5_0 counters port_xmit_data 1250       # +250 words = 1000 bytes
c mlx5_0 counters port_rcv_data 2001        # +1 word = 4 bytes
c mlx5_0 counters port_xmit_packets 13
c mlx5_0 hw_counters out_of_sequence 4      # 32-bit wrap: 6 + 4
c mlx5_1 counters port_xmit_data 10         # driver reload: everything back near 0
c mlx5_1 hw_counters out_of_sequence 3
c mlx5_1 hw_counters rp_cnp_handled 1
rm -rf "$(fab_devdir "$R" mlx5_2)" "$R/class/infiniband/mlx5_2"

job epilog 101 nodeA "$R"
is "$rc" 0 "epilog: exit 0"
is "$out" "" "epilog: silent"
ok "epilog: snapshot removed" test ! -e "$T/state/101.json"
F=$T/reports/101/nodeA.json
ok "epilog: fragment written" test -f "$F"
is "$(stat -c '%a %U %G' "$T/reports" "$T/reports/101" "$F" | tr '\n' ' ')" "751 root root 750 root root 440 root root " \
	"ReportDir 0751 (searched, not listed), job dir 0750 (its user: an ACL entry), fragment 0440 root"
like "$(ls -l "$F")" '^-r--r-----\+' "fragment carries an ACL (the job user's read entry)"
is "$(ls -A "$T/reports/101")" "nodeA.json" "no temporaries left"

report 101 --format json
is "$rc" 0 "report json: exit 0"
ok "report json: parses" jq_parses "$out"
J=$out
q() { jq -c "$1" <<<"$J"; }
is "$(q '[.nodes[0].name, .nodes[0].job_uid, (.nodes[0].ports|length)]')" '["nodeA",4001,3]' "json: node, uid, ports"
is "$(q '.nodes[0].ports[0] | [.device, .port, .netdev, .presence, .reset]')" '["mlx5_0",1,"eth0","present",false]' "json: port identity"
is "$(q '.nodes[0].ports[0].counters | [.port_xmit_bytes, .port_rcv_bytes, .port_xmit_packets, .out_of_sequence, .np_cnp_sent, .link_downed]')" \
	'[1000,4,3,10,0,0]' "json: increments, x4 data words, the 32-bit wrap, unchanged counters"
is "$(q '.nodes[0].ports[0].counters | has("port_xmit_data")')" false "json: word counters only as *_bytes"
is "$(q '.nodes[0].ports[0].counter_status')" '{"out_of_sequence":"wrapped"}' "json: the wrap is named"
is "$(q '.nodes[0].ports[1] | [.reset, .counters.port_xmit_bytes, .counters.out_of_sequence, .counters.rp_cnp_handled, .counter_status.port_xmit_bytes, .counter_status.out_of_sequence]')" \
	'[true,40,3,1,"reset","reset"]' "json: reset port gives counts since the reset, flagged, never huge"
is "$(q '.nodes[0].ports[2] | [.device, .presence, .counters.port_xmit_bytes]')" '["mlx5_2","vanished",null]' "json: vanished port, no numbers"
is "$(q '[.nodes[0].verdicts[] | .subject + " " + .code] | sort')" \
	'["mlx5_0:1 packet_loss","mlx5_1:1 congestion","mlx5_1:1 counter_reset","mlx5_1:1 packet_loss","mlx5_2:1 port_vanished"]' "json: verdicts"
is "$(q '.nodes[0].ports[0].pfc.status')" '"unread"' "json: PFC on a veth is unknown, not zero"
like "$(q '.nodes[0].ports[0].pfc.why')" 'not supported' "json: and says why"
is "$(q '[.nodes[0].gid_index, .nodes[0].ports[0].active_mtu, .nodes[0].pfc_priority]')" '[3,4096,3]' "json: check summary"
is "$(q '[.nodes[0].ports[0].rate_mbps, .nodes[0].ports[0].fw_ver]')" '[100000,"20.39.1002"]' "json: the port's link rate and firmware, from the prolog's model"

# --- node B of the same job: one HCA whose netdev has MTU 1500
R=$T/b
mkdir -p "$R"
fab_hca "$R" mlx5_0 0000:41:00.0 1
fab_roce_ipv4 "$R" mlx5_0 1 eth3 192.0.2.20
fab_standard_counters "$R" mlx5_0 1
fab_port "$R" mlx5_0 1 rate="25 Gb/sec (1X EDR)" netdev=eth3
printf '20.40.1000\n' >"$(fab_devdir "$R" mlx5_0)/fw_ver"
job prolog 101 nodeB "$R"
c mlx5_0 hw_counters rp_cnp_ignored 8
c mlx5_0 counters link_downed 1
job epilog 101 nodeB "$R"
is "$rc" 0 "node B epilog: exit 0"

report 101
is "$rc" 0 "report text: exit 0"
like "$out" "RoCE fabric report for job 101: 2 node\(s\) node\[A-B\]|nodeA,nodeB" "text: both nodes, hostlist-compressed"
like "$out" "RDMA MTU +DIFFERS: 4096 on nodeA; 1024 on nodeB" "text: MTU inconsistency named"
like "$out" "RoCE v2 GID index +3 on every node" "text: GID index consistent"
like "$out" "Link rate \(Gb/s\) +DIFFERS: 100 on nodeA; 25 on nodeB" "text: link rate inconsistency named"
like "$out" "Firmware +DIFFERS: 20.39.1002 on nodeA; 20.40.1000 on nodeB" "text: firmware inconsistency named"
like "$out" "fail link_down on 1 node\(s\): nodeB" "text: job verdict, worst first"
like "$out" "warn nodeB mlx5_0:1 ecn_reaction_disabled: 8 congestion notifications" "text: ECN reaction point verdict"
like "$out" "nodeA +mlx5_0:1 +eth0 +1000 B +4 B" "text: per-port bytes"
like "$out" "nodeA +mlx5_1:1 .* reset$" "text: reset row"

report 101 --format prometheus
is "$rc" 0 "prometheus: exit 0"
like "$out" '^# HELP roce_job_port_counter_delta ' "prometheus: HELP"
like "$out" 'roce_job_port_counter_delta\{slurm_job_id="101",node="nodeA",device="mlx5_0",port="1",counter="port_xmit_bytes"\} 1000' "prometheus: sample with slurm_job_id and node labels"
like "$out" 'roce_job_verdict\{slurm_job_id="101",node="nodeB",subject="mlx5_0:1",code="link_down",severity="fail"\} 1' "prometheus: verdicts"
is "$(grep -c '^# TYPE' <<<"$out")" "$(grep '^# TYPE' <<<"$out" | sort -u | wc -l)" "prometheus: each family announced once"

# --- two jobs on one node, the second inside the first: both flagged shared
R=$T/c
mkdir -p "$R"
fab_example "$R" 1
job prolog 201 nodeC "$R"
job prolog 202 nodeC "$R"
job epilog 202 nodeC "$R"
job epilog 201 nodeC "$R"
report 201 --format json
is "$(jq -c '[.nodes[0].shared_with, [.nodes[0].verdicts[]|select(.code=="shared_node")|.severity]]' <<<"$out")" \
	'[["202"],["warn"]]' "shared: the outer job learns of the inner one"
report 202 --format json
is "$(jq -c '.nodes[0].shared_with' <<<"$out")" '["201"]' "shared: the inner job saw the outer one"
# (the last good copy of roce.conf, policy-HASH.conf, is node state and stays)
ok "shared: no markers left" test -z "$(ls -A "$T/state" | grep -v '^policy-[0-9a-f]*\.conf$')"
echo '{}' >"$T/state/999.json"; touch -d @1000000000 "$T/state/999.json"   # left by a job of an earlier boot
: >"$T/state/555.with.556"   # a marker for a job whose epilog already took its markers
job prolog 203 nodeC "$R"; job epilog 203 nodeC "$R"
ok "stale snapshot from before this boot removed" test ! -e "$T/state/999.json"
ok "orphan marker removed" test ! -e "$T/state/555.with.556"
report 203 --format json
is "$(jq -c '.nodes[0].shared_with' <<<"$out")" '[]' "stale snapshot: does not flag the node as shared"
job prolog 204 nodeC "$R"; job epilog 204 nodeC "$R"
report 204 --format json
is "$(jq -c '.nodes[0].shared_with' <<<"$out")" '[]' "one after the other: not shared"

# --- epilog without a prolog snapshot
job epilog 301 nodeC "$R"
is "$rc" 0 "no snapshot: epilog exit 0"
report 301 --format json
like "$(jq -r '.nodes[0].note' <<<"$out")" '^no prolog snapshot' "no snapshot: noted in the fragment"
is "$(jq -c '.nodes[0].ports[0].counters.port_xmit_bytes' <<<"$out")" null "no snapshot: no numbers invented"
is "$(jq -c '[.nodes[0].verdicts[] | .code + ":" + .severity]' <<<"$out")" '["no_prolog_snapshot:warn"]' "no snapshot: one node verdict naming the cause, no per-port noise"

# --- a StateDir shared by mistake (one directory for nodeC and nodeD): each
# node's snapshot carries its name, so both epilogs count from their own
c mlx5_0 counters port_xmit_data 1000
job prolog 303 nodeC "$R"
job prolog 303 nodeD "$R"
is "$(ls "$T/state" | grep '^303\.' | sort | tr '\n' ' ')" "303.nodeC.snapshot.json 303.nodeD.snapshot.json " \
	"one job on two nodes of one StateDir: a snapshot each"
c mlx5_0 counters port_xmit_data 4000
job epilog 303 nodeC "$R"
c mlx5_0 counters port_xmit_data 5000
job epilog 303 nodeD "$R"
report 303 --format json
is "$(jq -c '[.nodes[] | [.name, .note, .ports[0].counters.port_xmit_bytes]]' <<<"$out")" \
	'[["nodeC",null,12000],["nodeD",null,16000]]' "shared StateDir: each node's deltas from its own snapshot, no note"
is "$(ls "$T/state" | grep -c '^303\.')" 0 "shared StateDir: both snapshots removed by their epilogs"
# a snapshot under the name from before per-node names (a prolog that ran
# before an upgrade) is read, and refused when another node wrote it
job prolog 302 nodeC "$R"
mv "$T/state/302.nodeC.snapshot.json" "$T/state/302.json"
job epilog 302 nodeD "$R"
is "$rc" 0 "another node's snapshot: epilog exit 0"
report 302 --format json
like "$(jq -r '.nodes[0].note' <<<"$out")" '^prolog snapshot 302.json was written by node nodeC, not nodeD: StateDir must be node-local' \
	"another node's snapshot: refused, the note names both nodes and the cause"
is "$(jq -c '.nodes[0].ports[0].counters.port_xmit_bytes' <<<"$out")" null "another node's snapshot: no deltas from it"
c mlx5_0 counters port_xmit_data 5000
job prolog 304 nodeC "$R"
mv "$T/state/304.nodeC.snapshot.json" "$T/state/304.json"
c mlx5_0 counters port_xmit_data 6000
job epilog 304 nodeC "$R"
report 304 --format json
is "$(jq -c '[.nodes[0].note, .nodes[0].ports[0].counters.port_xmit_bytes]' <<<"$out")" '[null,4000]' \
	"a snapshot of the job under the old name (the prolog before an upgrade): its deltas"
ok "... and removed" test ! -e "$T/state/304.json"

# --- what the check saw at prolog and epilog: mlx5_1 down at job start and
# back at the end, mlx5_0's RoCE v2 GIDs gone by the end
R=$T/e
mkdir -p "$R"
fab_example "$R" 2
fab_port "$R" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
job prolog 401 nodeE "$R"
fab_port "$R" mlx5_1 1 state="4: ACTIVE" phys="5: LinkUp"
fab_gid_clear "$R" mlx5_0 1 1; fab_gid_clear "$R" mlx5_0 1 3
job epilog 401 nodeE "$R"
report 401 --format json
is "$(jq -c '[.nodes[0].ports[] | [.state_start, .state_end, .check]]' <<<"$out")" \
	'[["ACTIVE","ACTIVE","fail"],["DOWN","ACTIVE","fail"]]' "port state at prolog and epilog and the worse check, in the fragment"
is "$(jq -c '[.nodes[0].verdicts[] | select(.severity=="fail") | .subject + " " + .code]' <<<"$out")" \
	'["mlx5_0:1 check_failed","mlx5_1:1 port_down"]' "port_down for the port that was down, check_failed for the other failure"
like "$(jq -r '.nodes[0].verdicts[] | select(.code=="port_down") | .message' <<<"$out")" \
	'^the port was DOWN at job start, ACTIVE at job end$' "port_down says when"
like "$(jq -r '.nodes[0].verdicts[] | select(.code=="check_failed") | .message' <<<"$out")" \
	'^the fabric check failed at job end: gid: ' "check_failed names the check and when"
report 401
like "$out" "fail port_down on 1 node\(s\): nodeE" "text: the job verdicts are not \"none\""

# --- issue 12's report verdicts, job 501 on nodeF and nodeG: nodeF's port
# received ECN-marked packets and sent no CNP, its GID 3 was readdressed
# during the job, and it moved no RDMA data; nodeG moved 4 MB each way
R=$T/f
mkdir -p "$R"
fab_example "$R" 1
job prolog 501 nodeF "$R"
c mlx5_0 hw_counters np_ecn_marked_roce_packets 500
fab_roce_ipv4 "$R" mlx5_0 1 eth0 192.0.2.99
job epilog 501 nodeF "$R"
is "$rc" 0 "nodeF epilog: exit 0"
R=$T/g
mkdir -p "$R"
fab_example "$R" 1
job prolog 501 nodeG "$R"
c mlx5_0 counters port_xmit_data 1000000
c mlx5_0 counters port_rcv_data 1000000
c mlx5_0 hw_counters np_ecn_marked_roce_packets 20
c mlx5_0 hw_counters np_cnp_sent 20
job epilog 501 nodeG "$R"
report 501 --format json
is "$rc" 0 "verdicts: report json exit 0"
is "$(jq -c '[.nodes[] | .name as $n | .verdicts[] | select(.code | test("ecn_np_silent|gid_changed|no_rdma_traffic")) | [$n, .subject, .code, .severity]]' <<<"$out")" \
	'[["nodeF","mlx5_0:1","gid_changed","fail"],["nodeF","mlx5_0:1","ecn_np_silent","warn"],["nodeF","node","no_rdma_traffic","warn"]]' \
	"json: ecn_np_silent, gid_changed and no_rdma_traffic on nodeF only"
is "$(jq -r '.nodes[0].verdicts[] | select(.code=="gid_changed") | .message' <<<"$out")" \
	"the RoCE v2 GID was index 3 (192.0.2.10) at job start and index 3 (192.0.2.99) at job end" "gid_changed: both addresses"
report 501
like "$out" "warn nodeF mlx5_0:1 ecn_np_silent: 500 ECN-marked RoCE packets received but no congestion notification" "text: ecn_np_silent names the node, port and count"
like "$out" "fail gid_changed on 1 node\(s\): nodeF" "text: gid_changed among the job verdicts"
like "$out" "warn nodeF node no_rdma_traffic: a 2-node job whose 1 RoCE port\(s\) on this node moved no RDMA data: 0 bytes sent" "text: no_rdma_traffic, a job-level verdict"
like "$out" "NCCL_IB_HCA" "text: no_rdma_traffic's fix"
# one node of the job: nothing to say about RDMA between nodes
rm "$T/reports/501/nodeG.json"
report 501 --format json
is "$(jq -c '[.nodes[0].verdicts[] | select(.code=="no_rdma_traffic")] | length' <<<"$out")" 0 "one fragment: no no_rdma_traffic"

# --- a site that checks no PFC (PfcPriority=none, as on veths with no DCB):
# the report says "not checked", not unknown; one that checks it and cannot
# read it (a veth): unknown
R=$T/nopfc; mkdir -p "$R"; fab_example "$R" 1
cp "$T/roce.conf" "$T/roce.conf.pfc"
sed -i 's/^PfcPriority=3$/PfcPriority=none/' "$T/roce.conf"
job prolog 601 nodeH "$R"; job epilog 601 nodeH "$R"
report 601
like "$out" "PFC priorities +not checked on every node" "PfcPriority=none: PFC priorities not checked, not unknown"
mv "$T/roce.conf.pfc" "$T/roce.conf"
job prolog 602 nodeH "$R"; job epilog 602 nodeH "$R"
report 602
like "$out" "PFC priorities +unknown on every node" "PfcPriority=3 on a veth (no DCB): unknown"

# --- usage
out=$(env -u SLURM_JOB_ID "$B/roce-epilog" --config "$T/roce.conf" 2>&1); rc=$?
is "$rc" 2 "usage: no SLURM_JOB_ID -> 2"
job epilog "../../etc" nodeC "$R"
is "$rc" 2 "usage: job id with a path -> 2"
like "$out" "not 1-10 digits" "usage: says why"
job epilog 302 "../x" "$R"
is "$rc" 2 "usage: node name with a slash -> 2"
report 12_3
is "$rc" 2 "roce-report: array syntax refused with a hint"
like "$out" "squeue -o %A" "roce-report: hint names squeue"
report 999
is "$rc" 1 "roce-report: unknown job -> 1"
out=$("$B/roce-prolog" --bogus 2>&1); rc=$?
is "$rc" 2 "usage: unknown option -> 2"
# --version, as roce-check has it: the package version and the Slurm release built for
for p in roce-prolog roce-epilog roce-report; do
	out=$("$B/$p" --version 2>&1); rc=$?
	is "$rc" 0 "$p --version exits 0"
	like "$out" "^$p \\(slurm-roce\\) [0-9]" "$p --version names itself and the version"
	like "$out" "built for Slurm [0-9][0-9]\\.[0-9][0-9]" "$p --version names the Slurm release built for"
done
done_testing
