#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The path probe (Probe=ip, issue 27) on a real three-node Slurm: each node
# has two ConnectX ports on two rails, 192.0.2.0/26 (eth0) and 192.0.2.64/26
# (eth1), the addresses behind their GIDs on real veths, and each rail is one
# Linux bridge in the controller's namespace (a leaf per rail).  Each node's
# job prolog probes the next node of the job on each rail (UDP, DF, the RoCE
# packet and netdev MTU sizes) and writes the verdicts into its fingerprint;
# srun's agreement leaves a failed rail out (warn) or fails the step (strict).
# SharedDir: a directory all nodes see (the lab's nodes share the host's file
# system).  PrologFlags=Alloc: the prologs run at allocation.
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
check_diag() {
	echo "shared: $(find "$W/shared" 2>/dev/null | tr '\n' ' ')"
	echo "bridges: $(ip -n "$(lab_ns_ctl)" -br link 2>/dev/null | tr '\n' ';')"
}

spank_need_lab
command -v jq >/dev/null || skip_all "needs jq"
plan 18
spank_workdir spank-probe

# node N's fabric: mlx5_0 on eth0 (rail A), mlx5_1 on eth1 (rail B)
fabric() {
	local root=$W/fab$1 i dev
	for i in 0 1; do
		dev=mlx5_$i
		fab_hca "$root" "$dev" "$(printf '0000:%02x:00.0' $((0x41 + i * 0x10)))" 1
		fab_roce_ipv4 "$root" "$dev" 1 "eth$i" "192.0.2.$((64 * i + 10 + $1))"
		fab_standard_counters "$root" "$dev" 1
	done
	fab_gdr "$root"
}
for n in 1 2 3; do fabric $n; done
conf() { # conf PROBE
	printf '%s\n' "PfcPriority=none" "Drain=no" "ReportDir=$W/reports" "StateDir=$W/state" "SharedDir=$W/shared" \
		"TimeoutMs=5000" "TrafficClass=104" "Probe=$1" >"$W/roce.conf"
}
conf ip
spank_lab_init
LAB_EXTRA_CONF="PrologFlags=Alloc"
for n in 1 2 3; do lab_node node$n "$W/fab$n" eth0=9000 eth1=9000; done
# each node's /etc/hosts (its own mount namespace): the names at their Slurm addresses
hosts() { printf '127.0.0.1 localhost\n%s.11 node1\n%s.12 node2\n%s.13 node3\n' "$LAB_NET" "$LAB_NET" "$LAB_NET"; }
for n in 1 2 3; do hosts >"$LAB/hosts.node$n"; done
spank_lab_start
CTL=$(lab_ns_ctl)
# the addresses behind the GIDs, and one bridge per rail joining the nodes' ends (f<node>.<rail>)
for n in 1 2 3; do
	ip -n "$(lab_ns_node node$n)" addr add "192.0.2.$((10 + n))/26" dev eth0 &&
		ip -n "$(lab_ns_node node$n)" addr add "192.0.2.$((74 + n))/26" dev eth1 || { echo "Bail out! addresses"; exit 1; }
done
for r in 0 1; do
	ip -n "$CTL" link add "rail$r" mtu 9000 type bridge && ip -n "$CTL" link set "rail$r" up || { echo "Bail out! bridge"; exit 1; }
	for n in 1 2 3; do ip -n "$CTL" link set "f$n.$r" master "rail$r" || { echo "Bail out! bridge port"; exit 1; }; done
done

# each task also counts the passed probes in its node's fingerprint (SharedDir/<job>/<T>.<D>.<node>)
# and the probe's time on its node: from its probe file (written as it starts) to its fingerprint (after)
TASK='echo "RAN $SLURMD_NODENAME ${NCCL_IB_HCA:-none}"; echo "JOB $SLURM_JOB_ID"; d='"$W"'/shared/$SLURM_JOB_ID; cat $d/[0-9]*.$SLURMD_NODENAME | grep -o "\"probe\":{\"verdict\":\"ok\"}" | wc -l | sed "s/^/OK $SLURMD_NODENAME /"; [ ! -e $d/probe.$SLURMD_NODENAME ] || echo "MS $SLURMD_NODENAME $(stat -c %.3Y $d/probe.$SLURMD_NODENAME) $(stat -c %.3Y $d/[0-9]*.$SLURMD_NODENAME)"'
srun3() { run srun -N3 "$@" sh -c "$TASK"; }
all3() { local n; for n in node1 node2 node3; do grep -q "^RAN $n $1$" "$W/out" || return 1; done; }

# --- 1-3: healthy: every path answered, both rails kept, nothing said
srun3 --roce=strict
check "healthy, strict: the step runs on all three with both rails" '[ $RC = 0 ] && all3 =mlx5_0:1,mlx5_1:1'
check "each node's fingerprint says its two rails' probes passed" \
	'[ $(grep -c "^OK node[1-3] 2$" $W/out) = 3 ]'
echo "# probe time per node (probe file to fingerprint, ms): $(awk '/^MS / {printf "%s %.0f  ", $2, ($4 - $3) * 1000}' "$W/out")"
check "no word from the agreement; the probe files are gone with the job" \
	'! grep -q "roce:" $W/err && lab_poll 20 eval "[ -z \"\$(ls $W/shared)\" ]"'

# --- 4-6: node3's port on rail B's bridge at MTU 1500 between hosts at 9000 (the seed site's outage)
ip -n "$CTL" link set f3.1 mtu 1500
srun3 --roce=warn
check "warn, a 1500 hop on rail B: every node keeps rail A alone" '[ $RC = 0 ] && all3 =mlx5_0:1'
check "the pair, the rail and the largest size that passed are named" \
	'grep -q "roce: warning: path node2 -> node3 on 192.0.2.64/26: largest size that passed 1500 of 9000" $W/err'
# the step's job (srun returns before the epilogs have written: never the newest directory)
J=$(awk '/^JOB / {print $2; exit}' "$W/out")
lab_poll 60 eval '[ "$(ls $W/reports/$J/node*.json 2>/dev/null | wc -l)" = 3 ]'
rep=$("$top_builddir/prolog/roce-report" "$J" --report-dir "$W/reports" 2>&1)
# both paths through node3's port fail: node2 -> node3 and node3 -> node1
check "the job's report names the paths: path_probe on node2's and node3's rail B ports" \
	'grep -q "warn node2 mlx5_1:1 path_probe: path to node3 on 192.0.2.64/26: largest size that passed 1500 of 9000" <<<"$rep" && grep -q "warn node3 mlx5_1:1 path_probe: path to node1 on 192.0.2.64/26: largest size that passed 1500 of 9000" <<<"$rep" && grep -q "info node1 node path_probe: the path probe to the next node passed on every rail" <<<"$rep"'
srun3 --roce=strict
check "strict: the step fails, no task runs, naming the path" \
	'[ $RC != 0 ] && ! grep -q "^RAN" $W/out && grep -q "path node2 -> node3 on 192.0.2.64/26: largest size that passed 1500" $W/err'
ip -n "$CTL" link set f3.1 mtu 9000

# --- 7-8: node3's rail B netdev cabled into rail A's bridge: unreachable, named
ip -n "$CTL" link set f3.1 master rail0
srun3 --roce=warn
check "warn, node3's eth1 on rail A's leaf: rail B left out on every node" '[ $RC = 0 ] && all3 =mlx5_0:1'
check "named: no answer from node3 on rail B" \
	'grep -q "roce: warning: path node2 -> node3 on 192.0.2.64/26: no answer" $W/err'
ip -n "$CTL" link set f3.1 master rail1

# --- 9-10: rail B's bridge re-marks what node2 sends to DSCP 0 (a switch's QoS map), an nftables
# rule on node2's bridge port: RoCE would land on a lossy priority at node3
if command -v nft >/dev/null && nft_remark() { ip netns exec "$CTL" nft -f - <<NFT
table netdev remark {
	chain in {
		type filter hook ingress device "f2.1" priority 0;
		ip dscp set cs0
	}
}
NFT
}; nft_remark 2>"$W/nft.err"; then
	srun3 --roce=warn
	check "warn, DSCP re-marked on rail B: every node keeps rail A alone" '[ $RC = 0 ] && all3 =mlx5_0:1'
	check "named with both values: DSCP 26 sent, 0 arrived" \
		'grep -q "roce: warning: path node2 -> node3 on 192.0.2.64/26: DSCP 26 sent, 0 arrived" $W/err'
	ip netns exec "$CTL" nft delete table netdev remark
else
	skip "no nftables netdev rule here: $(head -c 200 "$W/nft.err" 2>/dev/null)"
	skip "no nftables netdev rule here"
fi

# --- 12-13: node2's /etc/hosts names node3 at an address node3 does not have: said, rails kept
hosts | sed "s/^$LAB_NET.13 node3/192.0.2.99 node3/" >"$LAB/hosts.node2"
srun3 --roce=strict
check "a wrong /etc/hosts entry on node2: the step runs with both rails (said, not failed)" \
	'[ $RC = 0 ] && all3 =mlx5_0:1,mlx5_1:1'
check "named: node2 resolves node3 to 192.0.2.99" \
	'grep -q "roce: warning: node2 resolves node3 to 192.0.2.99, not an address node3 has (/etc/hosts or DNS)" $W/err'
hosts >"$LAB/hosts.node2"

# --- 14-15: healthy again; its report says every probe passed, in one line for the three nodes
srun3 --roce=warn
check "healthy again: both rails" '[ $RC = 0 ] && all3 =mlx5_0:1,mlx5_1:1 && ! grep -q "roce:" $W/err'
# the step's job (srun returns before the epilogs have written: never the newest directory)
J=$(awk '/^JOB / {print $2; exit}' "$W/out")
lab_poll 60 eval '[ "$(ls $W/reports/$J/node*.json 2>/dev/null | wc -l)" = 3 ]'
rep=$("$top_builddir/prolog/roce-report" "$J" --report-dir "$W/reports" --format json 2>&1)
check "report: path_probe info on all three nodes, every rail passed" \
	'[ "$(jq -c "[.nodes[] | .verdicts[] | select(.code == \"path_probe\") | [.severity, .message]] | unique" <<<"$rep")" = "[[\"info\",\"the path probe to the next node passed on every rail (2 ports)\"]]" ] && [ "$(jq "[.nodes[] | .verdicts[] | select(.code == \"path_probe\")] | length" <<<"$rep")" = 3 ]'

# --- 16-17: the cost: a new allocation's start (its prologs probe) against Probe=off, side by side
starts() { # starts N: N allocations' wall time (ms), one per line; "failed" for a run that did not
	local i t0
	for i in $(seq "$1"); do
		t0=$(date +%s%N)
		lab_run srun -N3 --roce=warn true >/dev/null 2>&1 || { echo failed; continue; }
		echo $((($(date +%s%N) - t0) / 1000000))
	done
}
med() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
: >"$W/t.ip"; : >"$W/t.off"
for i in 1 2 3; do
	conf ip; starts 1 >>"$W/t.ip"
	conf off; starts 1 >>"$W/t.off"
done
IP=$(med <"$W/t.ip"); OFF=$(med <"$W/t.off")
echo "# srun -N3 with a new allocation, median of 3: Probe=ip ${IP} ms, Probe=off ${OFF} ms"
# the figures are said, not asserted (a timed test on a shared machine proves nothing); what is
# asserted is that every timed allocation started and ran, with the probe and without
check "every timed allocation ran, Probe=ip and Probe=off alike" \
	'[ "$(grep -cxE "[0-9]+" $W/t.ip)" = 3 ] && [ "$(grep -cxE "[0-9]+" $W/t.off)" = 3 ]'
check "Probe=off: no probe file, no probe in any fingerprint" \
	'srun3 --roce=warn; [ $RC = 0 ] && ! grep -q "^OK node[1-3] [1-9]" $W/out'
conf ip
spank_sanitizer_check
