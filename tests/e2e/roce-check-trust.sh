#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-check's trust finding (issue 12): MLNX_OFED's class/net/<if>/qos/trust
# and qos/dscp2prio in fixture trees written as the kernel lays them out,
# with real veths, and a real VLAN with a real egress QoS map, in a private
# network namespace (their IFLA_LINKINFO comes from the kernel).
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
CHECK="$top_builddir/prolog/roce-check"

netns_setup tr 2

# run ROOT ARGS: Trust=fail, what most scenarios here judge; run_default: as
# shipped (Trust=warn: released at warn, NEWS)
run() {
	local root=$1; shift
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$root" --set Trust=fail "$@" 2>&1)
	rc=$?
}
run_default() {
	local root=$1; shift
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$root" "$@" 2>&1)
	rc=$?
}
fixture() { rm -rf "$T/$1"; mkdir -p "$T/$1"; echo "$T/$1"; }
# dscp2prio ROOT DEV NETDEV [DSCP:PRIO...]: mlnx_qos's default map (DSCP / 8), then the changes
dscp2prio() {
	local root=$1 dev=$2 nd=$3 d text="dscp2prio:" kv; shift 3
	local -a map
	for ((d = 0; d < 64; d++)); do map[d]=$((d / 8)); done
	for kv in "$@"; do map[${kv%%:*}]=${kv#*:}; done
	for ((d = 0; d < 64; d++)); do text+=$'\n'"$d ${map[d]}"; done
	fab_netdev_file "$root" "$dev" "$nd" qos/dscp2prio "$text"
}

# --- trust dscp, dscp2prio sends the traffic class's DSCP 26 to the PFC priority 3
R=$(fixture dscp); fab_example "$R" 2
for i in 0 1; do fab_netdev_file "$R" "mlx5_$i" "eth$i" qos/trust dscp; dscp2prio "$R" "mlx5_$i" "eth$i"; done
run "$R"
like "$out" "PASS +trust +mlx5_0:1 +eth0 trusts dscp \(qos/trust\): traffic class 104 is DSCP 26, which qos/dscp2prio maps to the PFC priority 3" \
	"dscp: DSCP 26 -> 3 passes"
run "$R" --format env
like "$out" "^NCCL_IB_TC=104$" "dscp: NCCL_IB_TC derived from dscp2prio (no APP table on a veth)"
unlike "$out" "NCCL_IB_SL" "dscp: no NCCL_IB_SL"
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "dscp: both ports in NCCL_IB_HCA"
run "$R" --format json
is "$(jq -r '.node.netdevs[]|select(.name=="eth1")|.trust.mode' <<<"$out")" dscp "json: the netdev's trust"

# ... and to another priority: fail naming the netdev, the DSCP and the fix
dscp2prio "$R" mlx5_1 eth1 26:5
run "$R" --set TrafficClass=104
like "$out" "FAIL +trust +mlx5_1:1 +eth1 trusts dscp \(qos/trust\): traffic class 104 is DSCP 26, which qos/dscp2prio maps to priority 5, not the PFC priority 3: \`mlnx_qos -i eth1 --dscp2prio set,26,3\`" \
	"dscp: DSCP 26 -> 5 fails with the fix"
run "$R" --set TrafficClass=104 --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "dscp: the port off the PFC priority is left out (warn mode)"
# as shipped, Trust=warn: said, the port kept, strict runs; Trust=ignore: not looked at
run_default "$R" --set TrafficClass=104 --mode strict
is "$rc" 0 "Trust=warn (the default): DSCP 26 -> 5 does not fail strict"
like "$out" "WARN +trust +mlx5_1:1 +eth1 trusts dscp .* not the PFC priority 3: .* \(Trust=warn: the port is kept; Trust=fail leaves it out\)" \
	"Trust=warn (the default): a warning that says how to fail it"
run_default "$R" --set TrafficClass=104 --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "Trust=warn (the default): the port is kept"
run_default "$R" --set TrafficClass=104 --set Trust=ignore
unlike "$out" " trust " "Trust=ignore: no trust finding"

# --- trust pcp, RoCE v2 GIDs on the physical netdevs (untagged): priority 0
R=$(fixture pcp); fab_example "$R" 2
for i in 0 1; do fab_netdev_file "$R" "mlx5_$i" "eth$i" qos/trust pcp; done
run "$R" --set TrafficClass=104
like "$out" "FAIL +trust +mlx5_0:1 +eth0 trusts pcp \(qos/trust\) and the RoCE v2 GID is on eth0, not a VLAN device: untagged RoCE lands on priority 0, not the PFC priority 3; \`mlnx_qos -i eth0 --trust dscp\`" \
	"pcp untagged: fails naming the netdev and pcp, with the fix"
run "$R" --set TrafficClass=104 --mode strict
is "$rc" 1 "pcp untagged: strict mode fails the node"

# --- trust pcp, the RoCE v2 GID on a real VLAN whose egress map sends to priority 3
R=$(fixture vlan); fab_example "$R" 1
fab_netdev_file "$R" mlx5_0 eth0 qos/trust pcp
fab_vlan "$R" eth0 eth0.10
D=$(fab_devdir "$R" mlx5_0)/ports/1
for g in 2 3; do printf 'eth0.10\n' >"$D/gid_attrs/ndevs/$g"; done
# (kernels without 8021q cannot: test_check_trust.c feeds the same VLAN as byte-exact IFLA_LINKINFO)
if ! ip netns exec "$NS" ip link add link eth0 name eth0.10 type vlan id 10 egress-qos-map 0:3 2>/dev/null ||
	! ip netns exec "$NS" ip link set eth0.10 up; then
	for n in 1 2 3 4 5; do skip "pcp VLAN: this kernel makes no VLAN device (8021q)"; done
else
	run "$R" --format env
	like "$out" "^NCCL_IB_SL=3$" "pcp VLAN: NCCL_IB_SL is the PFC priority"
	like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "pcp VLAN: the port is used"
	like "$out" "^NCCL_SOCKET_IFNAME==eth0.10$" "pcp VLAN: the GID's netdev is the VLAN"
	run "$R"
	like "$out" "PASS +trust +mlx5_0:1 +eth0 trusts pcp \(qos/trust\); the RoCE v2 GID is on VLAN eth0.10 \(id 10\), whose egress QoS map reaches priority 3" \
		"pcp VLAN: egress map to 3 passes (trust read through lower_eth0)"
	ip netns exec "$NS" ip link set eth0.10 type vlan egress-qos-map 0:5
	run "$R"
	like "$out" "WARN +trust +mlx5_0:1 .*VLAN eth0.10 \(id 10\), whose egress QoS map sends nothing to the PFC priority 3" \
		"pcp VLAN: an egress map elsewhere warns"
fi

# --- no qos/ (not MLNX_OFED): inferred from the APP table, unreadable on a veth: the pfc finding speaks
R=$(fixture absent); fab_example "$R" 2
run "$R"
unlike "$out" " trust " "absent: no trust finding without qos/trust and a readable APP table"
like "$out" "WARN +pfc .*unknown" "absent: the pfc finding says DCB is unknown, as before"

# --- garbage: unknown naming the file
R=$(fixture garbage); fab_example "$R" 2
fab_netdev_file "$R" mlx5_0 eth0 qos/trust vlan
fab_netdev_file "$R" mlx5_1 eth1 qos/trust dscp
fab_netdev_file "$R" mlx5_1 eth1 qos/dscp2prio $'dscp2prio mapping:\n\tprio:3 dscp:31,30,29,28,27,26,25,24,'
run "$R" --set TrafficClass=104
like "$out" "UNKNOWN +trust +mlx5_0:1 +the priority trust of eth0 is unknown \(malformed: .*/class/net/eth0/qos/trust: \"vlan\" is not pcp or dscp\)" \
	"garbage trust: unknown naming the file"
like "$out" "UNKNOWN +trust +mlx5_1:1 +eth1 trusts dscp \(qos/trust\) but its DSCP-to-priority map is unknown \(qos/dscp2prio: .*/class/net/eth1/qos/dscp2prio: line 2 .* is not \"DSCP PRIO\"" \
	"dscp2prio in another layout: unknown naming the file"
run "$R" --set TrafficClass=104 --format env
unlike "$out" "NCCL_IB_HCA=" "garbage: ports of unknown trust are left out"
run_default "$R" --set TrafficClass=104 --mode strict --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "garbage, Trust=warn (the default): unknown trust warns, the ports kept, strict runs"

# --- EACCES: roce-check as nobody, qos/trust only root may read
R=$(fixture eacces); fab_example "$R" 2
for i in 0 1; do fab_netdev_file "$R" "mlx5_$i" "eth$i" qos/trust dscp; dscp2prio "$R" "mlx5_$i" "eth$i"; done
chmod -R a+rX "$R"; chmod 0400 "$(cd "$R/class/net/eth0" && pwd -P)/qos/trust"
why=$(netns_nobody_why "$R/class/net/eth1/qos/trust")
if [ -n "$why" ]; then
	skip "EACCES: $why"
else
	out=$(netns_as_nobody "$CHECK" --config /dev/null --sysfs-root "$R" --set Trust=fail 2>&1)
	like "$out" "UNKNOWN +trust +mlx5_0:1 +the priority trust of eth0 is unknown \(unreadable: cannot open .*/qos/trust: Permission denied\)" \
		"EACCES (as nobody): unknown naming the file"
	like "$out" "PASS +trust +mlx5_1:1" "EACCES: the other port is judged"
fi

done_testing
