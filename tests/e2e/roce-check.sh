#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scenario tests of roce-check: fixture sysfs trees (written as the kernel
# writes them) plus real netdevs (veths) in a private network namespace.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
CHECK="$top_builddir/prolog/roce-check"

netns_setup ck 10

# rc NAME ROOT ARGS...: run roce-check in the namespace, set $out and $rc.
run() {
	local root=$1; shift
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$root" "$@" 2>&1)
	rc=$?
}
json_ok() { jq -e . <<<"$1" >/dev/null 2>&1; }
fixture() { # fixture NAME -> a fresh root
	rm -rf "$T/$1"; mkdir -p "$T/$1"; echo "$T/$1"
}

# --- healthy two-port node
R=$(fixture healthy); fab_example "$R" 2
run "$R" --format env --set Mtu=9000
is "$rc" 0 "healthy: exit 0"
is "$out" "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1
NCCL_IB_GID_INDEX=3
NCCL_NET_GDR_LEVEL=PXB
NCCL_SOCKET_IFNAME==eth0,eth1" "healthy: env is exactly the plan"
run "$R" --set Mtu=9000 --mode strict
is "$rc" 0 "healthy: strict exit 0"
like "$out" "PASS +gid +mlx5_1:1 +GID 3 is RoCE v2 192.0.2.11 on eth1" "healthy: GID 3 found"
like "$out" "WARN +pfc .*unknown" "healthy: PFC on veth is unknown (warn), not disabled"
like "$out" "active RDMA MTU is 4096 on every healthy RoCE port" "healthy: RDMA MTU 4096 from netdev MTU 9000"
run "$R" --format json
ok "json: parses" json_ok "$out"
is "$(jq -r '.check.summary.gid_index' <<<"$out")" 3 "json: summary.gid_index"
is "$(jq -r '.node.devices[1].pci_addr' <<<"$out")" "0000:51:00.0" "json: PCI address from the device link"
is "$(jq -r '.node.devices[0].ports[0].gids|length' <<<"$out")" 1 "json: lazy GID read (one entry per port)"
is "$(jq -r '.node.netdevs[0].mtu' <<<"$out")" 9000 "json: netdev MTU from rtnetlink"
is "$(jq -r '.plan.env.NCCL_IB_GID_INDEX' <<<"$out")" 3 "json: plan env"
# veth has no DCB: ETS and buffers are not reported (no keys, no errors), and
# with PFC unknown the ets check says nothing (the pfc finding speaks)
is "$(jq -c '.node.netdevs[0]|[has("ets"), has("buffer"), (.errors // {}|has("ets")), (.errors // {}|has("buffer"))]' <<<"$out")" \
	"[false,false,false,false]" "json: no DCB on veth: ets and buffer left out, not errors"
is "$(jq -r '[.check.findings[]|select(.check=="ets")]|length' <<<"$out")" 0 "no DCB: no ets finding"
run "$R" --format json --gids
is "$(jq -r '.node.devices[0].ports[0].gids|length' <<<"$out")" 4 "--gids: every non-empty entry"
run "$R" --set PfcUnknown=fail
is "$rc" 1 "PfcUnknown=fail in warn mode: every port fails, so the node does"
run "$R" --set PfcUnknown=fail --mode strict
is "$rc" 1 "PfcUnknown=fail in strict mode: exit 1"

# --- GID shifted to 5 by an extra IPv6 address
R=$(fixture shifted); fab_example "$R" 2
for d in 0 1; do
	ll=$(fab_gid_linklocal $d)
	fab_gid "$R" mlx5_$d 1 2 "fd00:0000:0000:0000:0000:0000:0000:000$d" "IB/RoCE v1" eth$d
	fab_gid "$R" mlx5_$d 1 3 "fd00:0000:0000:0000:0000:0000:0000:000$d" "RoCE v2" eth$d
	fab_gid "$R" mlx5_$d 1 4 "$(fab_gid_ipv4 192.0.2.1$d)" "IB/RoCE v1" eth$d
	fab_gid "$R" mlx5_$d 1 5 "$(fab_gid_ipv4 192.0.2.1$d)" "RoCE v2" eth$d
done
run "$R"
is "$rc" 1 "shifted GID: exit 1 (no port usable at index 3)"
like "$out" "FAIL +gid +mlx5_0:1 .*GID 3 is RoCE v2 fd00::.*is at index 5: set GidIndex=5 or GidIndex=auto" "shifted GID: names index 5 and the fix"
run "$R" --set GidIndex=auto --format env
is "$rc" 0 "shifted GID, auto: exit 0"
like "$out" "^NCCL_IB_GID_INDEX=5" "shifted GID, auto: index 5 exported"
run "$R" --set GidIndex=auto --set AddrFamily=ipv6 --format env
like "$out" "NCCL_IB_GID_INDEX=3" "AddrFamily=ipv6: the IPv6 RoCE v2 GID at 3"

# --- auto mode with different indexes on the two ports
fab_gid_clear "$R" mlx5_1 1 2; fab_gid_clear "$R" mlx5_1 1 3
fab_gid "$R" mlx5_1 1 2 "$(fab_gid_ipv4 192.0.2.11)" "IB/RoCE v1" eth1
fab_gid "$R" mlx5_1 1 3 "$(fab_gid_ipv4 192.0.2.11)" "RoCE v2" eth1
fab_gid_clear "$R" mlx5_1 1 4; fab_gid_clear "$R" mlx5_1 1 5
run "$R" --set GidIndex=auto
like "$out" "FAIL +gid .*index 5 on mlx5_0:1 but at 3 on other ports" "auto: differing indexes named"
like "$out" "NCCL_IB_HCA==mlx5_1:1$" "auto: tie goes to the lower index, the other port left out"
like "$out" "NCCL_IB_GID_INDEX=3$" "auto: index of the kept port exported"

# --- port down
R=$(fixture down); fab_example "$R" 2
fab_port "$R" mlx5_1 1 state="1: DOWN" phys="3: Disabled"
run "$R" --format env
is "$rc" 0 "port down, warn: exit 0"
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "port down, warn: mlx5_1 left out"
run "$R" --mode strict
is "$rc" 1 "port down, strict: exit 1"
like "$out" "FAIL +port_state +mlx5_1:1 +mlx5_1 port 1 is DOWN \(phys_state Disabled\): check the cable" "port down: names HCA and fix"
like "$out" "no NCCL environment" "port down, strict: no plan"
run "$R" --mode strict --format json
is "$(jq -r .check.summary.drain_reason <<<"$out")" "roce: mlx5_1 port 1 DOWN" "port down: drain reason names the HCA"
run "$R" --mode strict --format env
is "$out" "" "port down, strict: env prints nothing"
# --health judges hardware as roce-healthcheck (--drain) does, whatever the mode (the NHC line)
run "$R" --health
is "$rc" 1 "--health, one of two ports down (warn mode exits 0): exit 1, as --drain drains it"
R=$(fixture health-config); fab_example "$R" 2
run "$R" --mode strict --set Mtu=4200
is "$rc" 1 "a configuration finding (MTU above the policy's) fails strict"
run "$R" --mode strict --set Mtu=4200 --health
is "$rc" 0 "--health: a configuration finding is nothing to drain for: exit 0"

# --- RoCE v1 only
R=$(fixture v1); fab_example "$R" 1
fab_gid_clear "$R" mlx5_0 1 1; fab_gid_clear "$R" mlx5_0 1 3
run "$R"
is "$rc" 1 "RoCE v1 only: exit 1"
like "$out" "no routable RoCE v2 IPv4 GID: only RoCE v1 GIDs" "RoCE v1 only: explained"

# --- MTU 1500 on one port
ip -n "$NS" link set eth1 mtu 1500
R=$(fixture mtu); fab_example "$R" 2
run "$R" --set Mtu=9000 --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "MTU 1500 on one port: left out in warn mode"
run "$R" --set Mtu=9000
like "$out" "FAIL +mtu +mlx5_1:1 +eth1 MTU is 1500, the policy requires 9000" "MTU: names netdev and values"
run "$R" --format env
is "$rc" 0 "Mtu=0, MTU 9000 vs 1500: exit 0 in warn mode"
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "Mtu=0, MTU 9000 vs 1500: the port off the majority (tie: larger wins) left out"
run "$R"
like "$out" "FAIL +mtu_uniform +mlx5_1:1 +mlx5_1:1 \(eth1\) has active RDMA MTU 1024 \(eth1 MTU 1500\), but most RoCE ports have 4096 \(MTU 9000\).*.ip link set eth1 mtu 9000., and give its switch port the same MTU" "MTU: uniformity names HCA, netdev, both MTUs and the fix"
run "$R" --mode strict
is "$rc" 1 "MTU: uniformity fails strict mode even without Mtu="
ip -n "$NS" link set eth1 mtu 9000

# --- netdev down
ip -n "$NS" link set eth1 down
R=$(fixture ifdown); fab_example "$R" 2
run "$R"
like "$out" "FAIL +netdev +mlx5_1:1 +eth1 \(netdev of mlx5_1 port 1\) is DOWN: .ip link set eth1 up" "netdev down: named"
ip -n "$NS" link set eth1 up

# --- InfiniBand HCA beside RoCE ports
R=$(fixture ib); fab_example "$R" 2
fab_hca "$R" mlx5_2 0000:c1:00.0 1; fab_port "$R" mlx5_2 1 ll=InfiniBand
run "$R" --format env
is "$rc" 0 "IB beside RoCE: exit 0"
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "IB beside RoCE: IB port not in NCCL_IB_HCA"
run "$R"
like "$out" "PASS +link_layer +mlx5_2:1 +mlx5_2 port 1 is InfiniBand, not RoCE" "IB: listed as not RoCE, not failed"

# --- no IPv4 address: only link-local GIDs
R=$(fixture noip); fab_example "$R" 1
fab_gid_clear "$R" mlx5_0 1 2; fab_gid_clear "$R" mlx5_0 1 3
run "$R"
like "$out" "only a link-local RoCE v2 GID, which is not routable: give eth0 an IPv4 address" "no IPv4: explained"

# --- an IPv4 link-local address (169.254/16) on one netdev: its RoCE v2 GID is not routable
R=$(fixture ipv4ll); fab_example "$R" 2
fab_gid "$R" mlx5_1 1 2 "$(fab_gid_ipv4 169.254.1.11)" "IB/RoCE v1" eth1
fab_gid "$R" mlx5_1 1 3 "$(fab_gid_ipv4 169.254.1.11)" "RoCE v2" eth1
run "$R" --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "IPv4 link-local GID: port left out"
run "$R" --format json
like "$(jq -r '.check.findings[]|select(.check=="gid" and .subject=="mlx5_1:1")|.message' <<<"$out")" \
	"only a link-local RoCE v2 GID, which is not routable: give eth1 its routable IPv4 address \(GID 3 is 169.254.1.11" \
	"IPv4 link-local GID: finding names the GID and the fix"
is "$(jq -r .check.summary.drain_reason <<<"$out")" "roce: mlx5_1 port 1 no RoCE v2 GID" "IPv4 link-local GID: drains like a missing address"
run "$R" --set GidIndex=auto --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "IPv4 link-local GID, auto: not picked (NCCL would take it)"

# --- names the kernel never gives: refused, and said
R=$(fixture badnames); fab_example "$R" 2
mkdir -p "$R/class/infiniband/bad"$'\n'"X=1/ports/1" "$(fab_devdir "$R" mlx5_0)/ports/abc"
run "$R" --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "bad names: the good devices and ports still used"
run "$R"
like "$out" "UNKNOWN +devices +node +an entry of the RDMA device list was refused \(.*/class/infiniband/\"bad\\\\nX=1\": not an RDMA device name: ignored\)" "bad device name: named (escaped), refused"
like "$out" "UNKNOWN +device +mlx5_0 +mlx5_0: a port entry was refused \(.*/mlx5_0/ports/\"abc\": not a port number: ignored\)" "bad port name: named, refused"
unlike "$out" "X=1/ports" "bad device name: no path built from it"
run "$R" --format json
ok "bad names: json parses" json_ok "$out"
is "$(jq -r '.node.errors.devices.status' <<<"$out")" malformed "bad device name: devices reading is malformed"

# --- --verbs without a libibverbs device of that name (no RDMA hardware here)
R=$(fixture verbs); fab_example "$R" 1
run "$R" --verbs
like "$out" "WARN +mtu +mlx5_0:1 +mlx5_0 port 1: the libibverbs MTU cross-check was not done: libibverbs has no device mlx5_0" "--verbs: not done, and why"
run "$R" --verbs --format env
is "$rc" 0 "--verbs not done: a warning, exit 0"
run "$R" --verbs --format json
like "$(tr -d ' \n' <<<"$out")" '"errors":\{"verbs":\{"status":"notsupported","why":"libibverbshasnodevicemlx5_0' \
	"--verbs not done: the port's JSON says why under errors.verbs"
# the DMA-BUF probe (ibv_reg_dmabuf_mr, fd -1) needs a device: not probed, said
is "$(jq -r '.node.devices[0].errors.dmabuf.why' <<<"$out")" "libibverbs has no device mlx5_0: DMA-BUF not probed" \
	"--verbs: DMA-BUF not probed without a device, said under errors.dmabuf"
is "$(jq -r '.node.devices[0] | has("dmabuf_verbs")' <<<"$out")" false "--verbs without a device: no probe answer"

# --- relative --sysfs-root (as node_exporter's --path.sysfs)
R=$(fixture relroot); fab_example "$R" 2
out=$(cd "$T" && ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root relroot --format env 2>&1); rc=$?
is "$rc" 0 "relative --sysfs-root: exit 0"
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "relative --sysfs-root: resolved from the current directory"
out=$(cd "$T" && "$CHECK" --config /dev/null --sysfs-root no/such/root 2>&1); rc=$?
is "$rc" 2 "relative --sysfs-root that does not exist: exit 2"
like "$out" "--sysfs-root: cannot resolve \"no/such/root\": No such file or directory" "relative --sysfs-root missing: path named"
printf 'SysfsRoot=relroot\n' >"$T/relroot.conf"
out=$(cd "$T" && "$CHECK" --config "$T/relroot.conf" 2>&1); rc=$?
is "$rc" 2 "roce.conf SysfsRoot stays absolute-only"

# --- 10-HCA node with full tables
R=$(fixture ten); fab_example "$R" 10
run "$R" --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1,mlx5_8:1,mlx5_9:1$" "10 HCAs in natural order"
like "$out" "NCCL_SOCKET_IFNAME==eth0,eth1,eth2,eth3,eth4,eth5,eth6,eth7,eth8,eth9" "10 netdevs"

# --- Hca allow-list naming a missing HCA
R=$(fixture allow); fab_example "$R" 2
run "$R" --set Hca=mlx5_1,mlx5_7 --format json
is "$(jq -r .plan.env.NCCL_IB_HCA <<<"$out")" "=mlx5_1:1" "Hca=: only allowed ports"
like "$(jq -r '.check.findings[]|select(.check=="hca")|.message' <<<"$out")" "mlx5_7 is listed in Hca= but not present" "Hca=: missing HCA named"

# --- Hca= on a node whose class/infiniband is empty: still a drain
R=$(fixture nodev); mkdir -p "$R/class/infiniband"
run "$R" --set Hca=mlx5_0 --format json
is "$(jq -r '.check.findings[]|select(.check=="hca")|.status' <<<"$out")" fail "Hca= absent, no RDMA device at all: hca fails"
is "$(jq -r .check.summary.drain_reason <<<"$out")" "roce: mlx5_0 missing" "Hca= absent, no RDMA device at all: drain reason"
# no class/infiniband at all: ib_core and mlx5_ib did not load (a DKMS build
# that failed on a new kernel): with Hca= the node fails and drains
R=$(fixture nodriver)
run "$R" --set Hca=mlx5_0 --format json
is "$(jq -r '.check.findings[]|select(.check=="hca")|.status' <<<"$out")" fail "Hca=, no class/infiniband (driver not loaded): hca fails"
is "$(jq -r .check.summary.drain_reason <<<"$out")" "roce: RDMA driver not loaded (ib_core, mlx5_ib)" \
	"Hca=, driver not loaded: the drain reason names the drivers"
out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$R" --set Hca=mlx5_0 --health 2>&1); rc=$?
is "$rc" 1 "Hca=, driver not loaded: --health exits 1 (NHC drains)"
like "$out" "FAIL +hca +node +Hca= lists mlx5_0, but no RDMA driver is loaded" "Hca=, driver not loaded: said"
# a listing that failed (EACCES here, as user nobody) is unknown: no drain
R=$(fixture nodev-unreadable); mkdir -p "$R/class/infiniband/mlx5_0"; chmod 700 "$R/class/infiniband"
why=$(netns_nobody_why "$R")
if [ -n "$why" ]; then
	skip "$why"; skip "$why"
else
	out=$(netns_as_nobody "$CHECK" --config /dev/null --sysfs-root "$R" --set Hca=mlx5_0 --format json 2>&1)
	is "$(jq -r '.check.findings[]|select(.check=="hca")|.status' <<<"$out")" unknown "Hca= with a listing that failed (EACCES): unknown"
	is "$(jq -r .check.summary.drain_reason <<<"$out")" null "Hca= with a listing that failed (EACCES): no drain"
fi

# --- traffic class
R=$(fixture tc); fab_example "$R" 1
run "$R" --set TrafficClass=106 --format env
like "$out" "NCCL_IB_TC=106" "TrafficClass exported"

# --- no RDMA at all, no GPUDirect module
R=$(fixture empty)
run "$R"
is "$rc" 1 "no RDMA devices: exit 1"
like "$out" "FAIL +devices +node +no RDMA devices: cannot list .*class/infiniband" "no RDMA devices: explained"
P=$(fixture proc)
run "$R" --proc-root "$P"
like "$out" "WARN +gdr .*no GPUDirect RDMA path: no peer-memory client .*modprobe nvidia_peermem.* and no DMA-BUF \(kernel release unknown: .*osrelease" "no peermem, no DMA-BUF: warn"
run "$R" --proc-root "$P" --format json
is "$(jq -c '.check.findings[]|select(.check=="gdr")|[.status,.cause,.quiet]' <<<"$out")" '["warn","none (no NVIDIA driver)",true]' \
	"no NVIDIA driver: still a warning here, quiet in a job's output (GdrUnknown=)"
run "$R" --proc-root "$P" --set RequireGdr=yes --format json
is "$(jq -r '.check.findings[]|select(.check=="gdr")|.status' <<<"$out")" fail "RequireGdr=yes: fail"
is "$(jq -r '.node.gdr.path' <<<"$out")" none "json: gdr path none"
# a module loaded without its client registered (NVIDIA/nccl#1939)
fab_gdr_module "$R"
fab_dmabuf "$P" 5.10.0-28-amd64
run "$R" --proc-root "$P"
like "$out" "WARN +gdr .*nvidia_peermem is loaded but no peer-memory client is registered.*Linux 5.10.0-28-amd64 is older than 5.12" "module without client: warn"
# DMA-BUF only: the open kernel modules on Linux >= 5.12, no peer-memory module at all
R=$(fixture dmabuf); fab_example "$R" 1; rm -rf "$R/module" "$R/kernel"
fab_dmabuf "$P"
run "$R" --proc-root "$P" --set RequireGdr=yes --format json
is "$(jq -r '.check.findings[]|select(.check=="gdr")|.status' <<<"$out")" pass "DMA-BUF only: RequireGdr=yes passes"
is "$(jq -r '.node.gdr.path' <<<"$out")" dmabuf "json: gdr path dmabuf"
fab_dmabuf "$P" 6.1.0-18-amd64 proprietary
run "$R" --proc-root "$P"
like "$out" "WARN +gdr .*the NVIDIA driver is not the open kernel module" "proprietary driver, no peermem: warn"
# peer memory registered
fab_gdr "$R"
run "$R" --proc-root "$P"
like "$out" "PASS +gdr .*through a peer-memory client \(.*kernel/mm/memory_peers/nv_mem/version\)" "peer memory registered: pass"

# --- PCIe links (/sys/bus/pci/devices as the kernel lays it out)
R=$(fixture pcie); fab_example "$R" 2
run "$R" --mode strict
is "$rc" 0 "pcie: healthy links pass strict"
like "$out" "PASS +pcie_link +mlx5_0 .*0000:41:00.0.*full rate" "pcie: each HCA's links checked"
# an x8 NIC under an x16 port; a Gen5 NIC under a Gen4 port at 16 GT/s is fine
fab_pcie_link "$R" 0000:41:00.0 width=8 maxwidth=16
fab_pcie_link "$R" 0000:51:00.0 cur="16.0 GT/s PCIe" max="32.0 GT/s PCIe"
run "$R"
is "$rc" 0 "pcie: x8 NIC: a warning, exit 0"
like "$out" "WARN +pcie_link +mlx5_0 +mlx5_0 \(0000:41:00.0\) at 16.0 GT/s x8, capable of 16.0 GT/s x16" "pcie: x8 named with both values"
like "$out" "PASS +pcie_link +mlx5_1 " "pcie: Gen5 NIC under a Gen4 port is not degraded"
run "$R" --format env
like "$out" "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1" "pcie: warn keeps the port"
run "$R" --set PcieDegraded=fail --format json
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_0 pcie_link" "PcieDegraded=fail: drains"
is "$(jq -r '.plan.env.NCCL_IB_HCA' <<<"$out")" "=mlx5_1:1" "PcieDegraded=fail: the port is left out"
is "$(jq -r '.node.devices[0].pcie[0].current_width' <<<"$out")" 8 "pcie: json has the link"
run "$R" --set PcieDegraded=ignore
unlike "$out" "pcie_link" "PcieDegraded=ignore: not looked at"
# garbage and missing attributes: unknown, naming the file
printf 'x16 lanes\n' >"$R/bus/pci/devices/0000:41:01.0/max_link_width"
rm "$R/bus/pci/devices/0000:51:00.0/current_link_speed"
run "$R"
like "$out" "UNKNOWN +pcie_link +mlx5_0 .*0000:41:01.0/max_link_width: \"x16 lanes\" is not a PCIe link width" "pcie: garbage width named"
like "$out" "UNKNOWN +pcie_link +mlx5_1 .*0000:51:00.0/current_link_speed" "pcie: missing file named"

# --- ACS on the switch ports above each HCA (config spaces byte-exact,
# fab_pci_config); mlx5_2 behind a switch (c1:00.0 up, c2:01.0 down)
R=$(fixture acs); fab_example "$R" 2
fab_hca "$R" mlx5_2 0000:c3:00.0 1 pci0000:c0/0000:c0:01.0/0000:c1:00.0/0000:c2:01.0
fab_roce_ipv4 "$R" mlx5_2 1 eth2 192.0.2.12
run "$R" --mode strict
is "$rc" 0 "acs: off everywhere passes strict"
like "$out" "PASS +acs +mlx5_2 +mlx5_2: no ACS redirect on the 2 PCIe switch port\(s\) between it and root port 0000:c0:01.0" "acs: the switch's ports checked"
like "$out" "PASS +acs +mlx5_0 +mlx5_0: no PCIe switch between it and root port 0000:41:01.0" "acs: no switch, nothing to check"
# Linux sets SV, RR, CR and UF on every root port with ACS when an IOMMU is
# on: not a finding (traffic through a root port crosses the root complex anyway)
fab_pci_config "$R" 0000:c0:01.0 0x001d
fab_pci_config "$R" 0000:41:01.0 0x001d
run "$R" --mode strict
is "$rc" 0 "acs: redirect on root ports only passes strict"
unlike "$out" "WARN +acs" "acs: root ports are not warned about"
fab_pci_config "$R" 0000:c2:01.0 0x001d
fab_pci_config "$R" 0000:c1:00.0 none
run "$R"
is "$rc" 0 "acs: redirect is a warning, exit 0"
like "$out" "WARN +acs +mlx5_2 +mlx5_2: ACS on switch port 0000:c2:01.0 has Source Validation, P2P Request Redirect, P2P Completion Redirect, Upstream Forwarding set \(control 0x001d\)" "acs: switch port and bits named"
like "$out" "setpci -s 0000:c2:01.0 ECAP_ACS\+6.w=0" "acs: the fix"
unlike "$out" "acs .*0000:c1:00.0" "acs: a switch port without the capability passes"
run "$R" --set Acs=fail --format json
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_2 acs" "Acs=fail: drains"
is "$(jq -r '.node.devices[2].pcie[1].acs.ctrl' <<<"$out")" 29 "acs: json has the control register"
is "$(jq -r '[.node.devices[2].pcie[1,2,3].port_type] | join(",")' <<<"$out")" \
	"switch downstream port,switch upstream port,root port" "acs: json has each bridge's port type"
# what a reader without root gets (64 bytes: drivers/pci/pci-sysfs.c), a
# looping list
head -c 64 "$R/bus/pci/devices/0000:c1:00.0/config" >"$T/short" && cp "$T/short" "$R/bus/pci/devices/0000:c1:00.0/config"
fab_poke "$R/bus/pci/devices/0000:c2:01.0/config" 0x100 01 00 02 10
run "$R"
like "$out" "UNKNOWN +acs +mlx5_2 +mlx5_2: ACS on switch port 0000:c1:00.0 unknown \(.*0000:c1:00.0/config: only 64 of 4096 bytes" "acs: short config space is unknown, file named"
like "$out" "UNKNOWN +acs +mlx5_2 .*0000:c2:01.0/config: the capability list loops" "acs: looping list is unknown"
run "$R" --set Acs=ignore
unlike "$out" " acs " "Acs=ignore: not looked at"

# --- the IOMMU group of each HCA (iommu_group -> kernel/iommu_groups/N/type)
R=$(fixture iommu); fab_example "$R" 2
run "$R" --mode strict
is "$rc" 0 "iommu: no IOMMU passes strict"
like "$out" "PASS +iommu +mlx5_0 +mlx5_0 \(0000:41:00.0\): no IOMMU group" "iommu: no group, no IOMMU"
fab_iommu "$R" 0000:41:00.0 17 DMA-FQ
fab_iommu "$R" 0000:51:00.0 18 identity
run "$R"
is "$rc" 0 "iommu: DMA-FQ is a warning, exit 0"
like "$out" "WARN +iommu +mlx5_0 +mlx5_0 \(0000:41:00.0\): IOMMU group 17 has type DMA-FQ: .*intel_iommu=on iommu=pt" "iommu: DMA-FQ named with the fix"
like "$out" "PASS +iommu +mlx5_1 +mlx5_1 \(0000:51:00.0\): IOMMU group 18 is identity \(passthrough\)" "iommu: identity passes"
fab_iommu "$R" 0000:41:00.0 17 DMA
run "$R" --format json
is "$(jq -c '.node.devices[0].iommu' <<<"$out")" '{"group":"17","type":"DMA"}' "iommu: json has group and type"
run "$R" --mode strict --set Iommu=fail
is "$rc" 1 "Iommu=fail: strict fails"
unlike "$out" "drain" "Iommu=fail: a configuration failure, nothing to drain"
run "$R" --set Iommu=ignore
unlike "$out" " iommu " "Iommu=ignore: not looked at"
rm "$R/kernel/iommu_groups/18/type"
run "$R"
like "$out" "UNKNOWN +iommu +mlx5_1 .*kernel/iommu_groups/18/type" "iommu: missing type file named"

# --- hostile sysfs content
R=$(fixture hostile); fab_example "$R" 2
D=$(fab_devdir "$R" mlx5_0)/ports/1
printf 'garbage\n' >"$D/state"
head -c 1048576 /dev/zero | tr '\0' 'a' >"$D/phys_state"
printf '\x01\x02\xff\n' >"$D/link_layer"
printf '0000:0000:0000:0000:0000:ffff:c000:02\n' >"$D/gids/3"
D1=$(fab_devdir "$R" mlx5_1)
ln -sfn loop2 "$D1/ports/1/gids/3.tmp"; ln -sfn loop1 "$D1/ports/1/loop2"
rm -f "$D1/ports/1/state"; ln -s state "$D1/ports/1/state"
run "$R" --format json
ok "hostile: json still parses" json_ok "$out"
is "$(jq -r '.node.devices[0].ports[0].errors.state.status' <<<"$out")" malformed "hostile: garbage state is malformed"
like "$(jq -r '.node.devices[0].ports[0].errors.phys_state.why' <<<"$out")" "phys_state: value longer than 4096 bytes" "hostile: 1 MiB value refused, file named"
like "$(jq -r '.node.devices[0].ports[0].errors.link_layer.why' <<<"$out")" "link_layer: value is not text" "hostile: binary refused"
like "$(jq -r '.node.devices[1].ports[0].errors.state.why' <<<"$out")" "Too many levels of symbolic links" "hostile: symlink loop reported"
run "$R" --mode strict
is "$rc" 1 "hostile: strict exit 1"
like "$out" "UNKNOWN +link_layer +mlx5_0:1 .*cannot be read \(malformed: .*link_layer: value is not text" "hostile: finding says malformed, names the file"
like "$out" "UNKNOWN +port_state +mlx5_1:1 .*Too many levels of symbolic links" "hostile: symlink loop finding"

# --- link rate: one port of three trained at 25G, a netdev speed that disagrees, a garbage rate
# (LinkRateAction=fail; the default, warn, below)
R=$(fixture linkrate); fab_example "$R" 3
fab_port "$R" mlx5_1 1 rate="25 Gb/sec (1X EDR)" netdev=eth1
run "$R" --set LinkRateAction=fail --format env
is "$rc" 0 "25G port: warn mode still exits 0"
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_2:1$" "25G port: left out of NCCL_IB_HCA"
run "$R" --set LinkRateAction=fail --format json
is "$(jq -r '.node.devices[1].ports[0].rate_mbps' <<<"$out")" 25000 "25G port: json rate_mbps parsed from rate"
is "$(jq -r '.node.devices[1].hca_type + " " + .node.devices[1].board_id + " " + .node.devices[1].fw_ver' <<<"$out")" \
	"MT28908 MT_0000000223 20.39.1002" "json: the device's model and firmware"
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_1 port 1 at 25 Gb/s" "25G port: drain reason names the port and its rate"
is "$(jq -r '.check.findings[]|select(.check=="link_rate" and .subject=="mlx5_1:1")|"\(.status) \(.hardware)"' <<<"$out")" \
	"fail true" "25G port: a failing hardware finding"
# as shipped (LinkRateAction=warn: new in 0.2.0, released at warn): said, kept, nothing drained
run "$R" --format json --mode strict
is "$rc" 0 "LinkRateAction=warn (the default): a 25G port does not fail strict"
is "$(jq -r '.check.findings[]|select(.check=="link_rate" and .subject=="mlx5_1:1")|"\(.status) \(.hardware)"' <<<"$out")" \
	"warn false" "LinkRateAction=warn (the default): a warning, not a hardware fault"
is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "LinkRateAction=warn (the default): no drain"
run "$R" --health
is "$rc" 0 "LinkRateAction=warn (the default): --health exit 0"
run "$R" --set LinkRate=none --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1$" "LinkRate=none: the rate is not judged"
run "$R" --set LinkRate=200 --set LinkRateAction=fail --mode strict
is "$rc" 1 "LinkRate=200: every port is below, strict exit 1"
like "$out" "FAIL +link_rate +mlx5_0:1 +mlx5_0 port 1 runs at 100 Gb/s \(100 Gb/sec \(4X EDR\)\), below LinkRate=200" "LinkRate=200: the minimum named"
fab_port "$R" mlx5_1 1 rate="100 Gb/sec (4X EDR)" netdev=eth1 speed=25000
run "$R"
like "$out" "PASS +link_rate +mlx5_1:1 +mlx5_1 port 1 at 100 Gb/s \(eth1 says 25000 Mb/s: the RDMA port's rate is judged\)" \
	"speed from class/net/eth1/speed disagreeing with the rate: said, the rate judged"
fab_netdev_file "$R" mlx5_1 eth1 speed 100000
run "$R"
like "$out" "PASS +link_rate +mlx5_1:1 +mlx5_1 port 1 at 100 Gb/s$" "speed agreeing with the rate: pass, nothing said"
fab_netdev_file "$R" mlx5_1 eth1 speed "fast"
run "$R" --format json
like "$(jq -r '.node.netdevs[]|select(.name=="eth1")|.errors.speed.why' <<<"$out")" "class/net/eth1/speed: \"fast\" is not a speed in Mb/s" \
	"garbage speed: malformed, file named"
fab_port "$R" mlx5_2 1 rate="fast as light" netdev=eth2
run "$R" --set LinkRateAction=fail --mode strict
is "$rc" 1 "garbage rate: unknown, strict exit 1"
like "$out" "UNKNOWN +link_rate +mlx5_2:1 +mlx5_2 port 1 link rate is unknown \(malformed: .*/ports/1/rate: \"fast as light\" is not" \
	"garbage rate: unknown naming the file"
run "$R" --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1$" "garbage rate: the port is not left out for it (warn mode)"

# --- link rate by role (issue 25): a rail-optimised node, eight 400G compute
# ports each behind a PCIe switch shared with a GPU, two 100G storage ports
# on root ports of their own, all of one adapter model
R=$(fixture rails); mkdir -p "$R"
for i in 0 1 2 3 4 5 6 7; do
	b=$((0x10 + 0x10 * i))
	sw=$(printf 'pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0' $b $b $((b + 1)))
	fab_pci_fn "$R" "$(printf '%s/0000:%02x:01.0/0000:%02x:00.0' "$sw" $((b + 2)) $((b + 3)))"
	gpu=$(printf '0000:%02x:00.0' $((b + 3)))
	printf '0x10de\n' >"$R/bus/pci/devices/$gpu/vendor"
	printf '0x030200\n' >"$R/bus/pci/devices/$gpu/class"
	fab_hca "$R" mlx5_$i "$(printf '0000:%02x:00.0' $((b + 4)))" 1 "$(printf '%s/0000:%02x:02.0' "$sw" $((b + 2)))"
	fab_roce_ipv4 "$R" mlx5_$i 1 eth$i 192.0.2.$((30 + i))
	fab_port "$R" mlx5_$i 1 rate="400 Gb/sec (4X NDR)"
done
for i in 8 9; do
	fab_hca "$R" mlx5_$i "$(printf '0000:%02x:00.0' $((0x11 + 0x10 * i)))" 1
	fab_roce_ipv4 "$R" mlx5_$i 1 eth$i 192.0.2.$((30 + i))
	fab_port "$R" mlx5_$i 1 rate="100 Gb/sec (4X EDR)"
done
fab_gdr "$R"
run "$R" --format json
is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "rails: 8x400G compute + 2x100G storage of one model, no Hca=: no drain"
is "$(jq '[.check.findings[]|select(.check=="link_rate" and .status=="pass")]|length' <<<"$out")" 10 "rails: every rate passes within its role"
is "$(jq -r '.check.findings[]|select(.check=="link_rate" and .subject=="mlx5_9:1")|.message' <<<"$out")" \
	"mlx5_9 port 1 at 100 Gb/s (a host port, no GPU behind its PCIe switch: compared with its role's ports; other MT28908 ports run at 400 Gb/s)" \
	"rails: the storage port's role said"
is "$(jq -r '.node.devices[]|select(.name=="mlx5_2")|.gpu_near' <<<"$out")" "0000:33:00.0" "rails: the GPU behind mlx5_2's switch, from sysfs"
run "$R" --health --mode strict
is "$rc" 0 "rails: --health and strict: exit 0"
fab_port "$R" mlx5_2 1 rate="100 Gb/sec (4X EDR)"
run "$R" --set LinkRateAction=fail --format json
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_2 port 1 at 100 Gb/s" "rails: a 100G compute port among 400G ones drains"
run "$R" --set Hca=mlx5_8,mlx5_9 --health
is "$rc" 0 "rails: Hca= the storage ports: only they are compared"

# --- firmware and driver inventory: mixed firmware on one model, module versions
R=$(fixture firmware); fab_example "$R" 2
printf '20.35.1012\n' >"$(fab_devdir "$R" mlx5_1)/fw_ver"
mkdir -p "$R/module/mlx5_core" "$R/module/mlx5_ib"
printf '24.10-1.1.4\n' >"$R/module/mlx5_core/version"
printf '24.10 1.1.4 ; x\n' >"$R/module/mlx5_ib/version"
run "$R" --mode strict
is "$rc" 0 "mixed firmware: a warning, strict still exits 0"
like "$out" "WARN +firmware +mlx5_0 +MT28908 \(MT_0000000223\) adapters on this node run different firmware \(mlx5_0 20.39.1002, mlx5_1 20.35.1012\)" \
	"mixed firmware: both devices and versions named"
run "$R" --format json
is "$(jq -r '.node.modules.mlx5_core' <<<"$out")" "24.10-1.1.4" "json: mlx5_core's version from module/mlx5_core/version"
like "$(jq -r '.node.errors."module/mlx5_ib".why' <<<"$out")" "module/mlx5_ib/version: \"24.10 1.1.4 ; x\" is not a version" \
	"json: a garbage module version is malformed, file named"
is "$(jq -r '.node.modules|has("nvidia")' <<<"$out")" false "json: a module without a version file is left out"
printf '\x01\x02\n' >"$(fab_devdir "$R" mlx5_1)/fw_ver"
run "$R"
like "$out" "UNKNOWN +firmware +mlx5_1 +mlx5_1 firmware version cannot be read \(malformed: .*mlx5_1/fw_ver: value is not text" \
	"garbage fw_ver: unknown naming the file"

# --- ECN/DCQCN (MLNX_OFED's class/net/<if>/ecn/): RP off on the RoCE priority, absent, garbage
R=$(fixture ecn); fab_example "$R" 2
fab_ecn "$R" mlx5_0 eth0; fab_ecn "$R" mlx5_1 eth1
run "$R" --set PfcPriority=3
like "$out" "PASS +ecn +mlx5_0:1 +ECN notification and reaction points on for priority 3 on eth0" "ecn: on for the PFC priority: pass"
fab_netdev_file "$R" mlx5_1 eth1 ecn/roce_rp/enable/3 0
run "$R" --set Ecn=require --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "ecn: RP off on priority 3: the port is left out (Ecn=require)"
run "$R" --set Ecn=require
like "$out" "FAIL +ecn +mlx5_1:1 +ECN is off on eth1 for priority 3 \(roce_rp\)" "ecn: RP off named, with the netdev and priority"
is "$(grep -o 'echo 1 > [^`]*' <<<"$out")" "echo 1 > /sys/class/net/eth1/ecn/roce_rp/enable/3" "ecn: only RP off: the fix names roce_rp alone"
# new in 0.2.0, so released at warn (NEWS): a PFC-only fabric keeps its ports on upgrade
run "$R" --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "ecn: the default (Ecn=warn) keeps the port"
run "$R"
like "$out" "WARN +ecn +mlx5_1:1 +ECN is off on eth1 for priority 3 \(roce_rp\)" "ecn: the default warns, naming the netdev and priority"
run "$R" --set Ecn=warn --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "Ecn=warn: the port stays"
run "$R" --set Ecn=ignore
unlike "$out" " ecn " "Ecn=ignore: no ecn finding"
fab_netdev_file "$R" mlx5_1 eth1 ecn/roce_rp/enable/3 yes
run "$R" --set Ecn=require
like "$out" "UNKNOWN +ecn +mlx5_1:1 +ECN state of eth1 for priority 3 is unknown \(malformed: .*class/net/eth1/ecn/roce_rp/enable/3: \"yes\" is not 0-1\)" \
	"ecn: garbage value: unknown naming the file"
run "$R" --mode strict --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1$" "ecn: garbage value, Ecn=warn (the default): the port kept, strict runs"
rm -rf "$(cd "$R/class/net/eth1" && pwd -P)/ecn"
run "$R" --mode strict
like "$out" "WARN +ecn +mlx5_1:1 +ECN state of eth1 is unknown: .*class/net/eth1/ecn does not exist \(upstream mlx5" \
	"ecn: no ecn/ (upstream driver): unknown, said as a warning with a hint"
unlike "$out" "(FAIL|UNKNOWN) +ecn" "ecn: absent files neither fail nor count as unknown"
run "$R" --format json
is "$(jq -c '.node.netdevs[]|select(.name=="eth0")|.ecn|[.np_enabled[3], .rp_enabled[3], .cnp_dscp, .cnp_prio]' <<<"$out")" "[1,1,48,6]" \
	"json: the netdev's ECN state"

# --- configuration errors
printf 'GidIndex=3\nMtu=9000\nPfcPriorty=3\n' >"$T/bad.conf"
out=$("$CHECK" --config "$T/bad.conf" 2>&1); rc=$?
is "$rc" 2 "unknown key: exit 2"
like "$out" "bad.conf:3: unknown key \"PfcPriorty\"" "unknown key: file, line and key named"
printf '# site\nGidIndex = 3\n' >"$T/bad2.conf"
out=$("$CHECK" --config "$T/bad2.conf" 2>&1); rc=$?
is "$rc" 2 "spaces around = are refused"
printf 'Mtu=9000x\n' >"$T/bad3.conf"
out=$("$CHECK" --config "$T/bad3.conf" 2>&1)
like "$out" "bad3.conf:1: Mtu: invalid value \"9000x\"" "bad value named"
out=$("$CHECK" --config "$T/nonexistent.conf" 2>&1); rc=$?
is "$rc" 2 "named config missing: exit 2"
out=$("$CHECK" --format yaml 2>&1); rc=$?
is "$rc" 2 "bad --format: exit 2"

done_testing
