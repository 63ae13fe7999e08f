#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-check on real machines (issue 25): captures nobody here wrote (lspci
# -vvv, nvidia-smi -q, ibstat, a /sys/class/infiniband copy, an
# hwloc-gather-topology tarball), turned into sysfs trees and topologies at
# test time by tests/lib/captures.sh, each with what a careful admin would
# expect of that machine.  The captures are in the project, tests/captures/
# (tests/captures.md lists each with its source and licence; CAPTURES=DIR
# overrides).  Netdevs are veths in a network
# namespace (no DCB: PFC is unknown, a warning, on every RoCE port).
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/captures.sh"
CHECK="$top_builddir/prolog/roce-check"

# the captures ship with the project: missing ones are a fault, not a skip
if ! cap_available; then
	fail "the captures of real machines are at $CAPTURES (tests/captures/, see tests/captures.md)"
	done_testing; exit
fi
command -v jq >/dev/null || skip_all "needs jq"
netns_setup cap 14
netns_veth "$NS" bond0 9000 || skip_all "cannot create veth bond0"
ok "every capture is byte for byte its source's (sha256 in SOURCES.txt)" \
	bash -c 'cd "$1" && grep -v "^#" SOURCES.txt | awk -F "\t" "{ print \$5 \"  \" \$1 }" | sha256sum --check --quiet --strict' _ "$CAPTURES"

run() { # run ROOT ARGS...: roce-check on ROOT in the namespace; $out, $rc
	local root=$1; shift
	out=$(ip netns exec "$NS" "$CHECK" --config /dev/null --sysfs-root "$root" "$@" 2>&1)
	rc=$?
}
lines() { grep -cE "$1" <<<"$out"; }
machine() { # machine NAME: $R a fresh root, the counters of captures.sh reset
	cap_reset
	R=$T/$1
	rm -rf "$R"; mkdir -p "$R"
}
C=$CAPTURES

# ---------------------------------------------------------------- Dell XE9680, 8x H100 SXM
# lspci -vvv (PCIe tree, link states, ACS, VPD) and nvidia-smi -q (same bus
# ids): 8 GPUs and 8 ConnectX-7 at Gen5 x16 behind PEX890xx switches, a dual-port
# ConnectX-6 Dx at Gen4 under the switches of GPU 0 and GPU 4 (its downstream
# port "downgraded" to 16 GT/s by the card, not a fault).  Healthy.
machine xe9680
cap_lspci "$R" "$C/gpud-xe9680-h100/lspci-vvv"
cap_nvsmi "$R" "$C/gpud-xe9680-h100/nvidia-smi-query.535.161.08.out.0.valid"
cap_lspci_xml "$C/gpud-xe9680-h100/lspci-vvv" "$T/xe9680.xml"
fab_gdr "$R"
X=$T/xe9680.xml
is "$(ls "$R/class/infiniband" | wc -l)" 12 "xe9680: 12 RDMA functions (8 ConnectX-7, 2x2 ConnectX-6 Dx)"
run "$R" -t "$X" --set Mode=strict
is "$rc" 0 "xe9680: strict, healthy: exit 0"
is "$(lines '^PASS +pcie_link +GPU[0-7] .*at full rate \(its own: 32.0 GT/s x16\)$')" 8 "xe9680: the 8 GPUs at Gen5 x16, full rate"
is "$(lines '^PASS +pcie_link +mlx5_')" 12 "xe9680: the 12 HCA paths pass (a Gen4 card under a Gen5 port is not degraded)"
is "$(lines '^(WARN|FAIL|UNKNOWN) +(pcie_link|link_rate|acs|iommu|firmware) ')" 0 "xe9680: no PCIe, rate, ACS, IOMMU or firmware finding"
is "$(lines '^PASS +acs +mlx5_0 +mlx5_0: no ACS redirect on the 2 PCIe switch port\(s\)')" 1 "xe9680: ACS read from the captured registers (off)"
run "$R" -t "$X" --health
is "$rc" 0 "xe9680: --health: nothing to drain"
# NCCL's tie-break: GPU 0's ConnectX-7 (400G) and ConnectX-6 Dx (100G) are both PIX
run "$R" -t "$X" --gpus 0 --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1$" "xe9680: --gpus 0 gets the ConnectX-7 alone"
like "$out" "^NCCL_NET_GDR_LEVEL=PIX$" "xe9680: ... at PIX"
run "$R" -t "$X" --gpus 0,4 --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_6:1$" "xe9680: GPUs 0 and 4: their ConnectX-7s"
run "$R" -t "$X" --gpus 0 --set HcaTies=all --format env
like "$out" "^NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1$" "xe9680: HcaTies=all keeps every equally near HCA"
run "$R" -t "$X" --gpus 0 --matrix
like "$out" "  mlx5_0     384 Gb/s \(port 400 Gb/s, PCIe 384 Gb/s\)" "xe9680: --matrix: the ConnectX-7's bandwidth (its PCIe link as NCCL counts it)"
like "$out" "  mlx5_1     100 Gb/s \(port 100 Gb/s, PCIe 192 Gb/s\)" "xe9680: --matrix: the ConnectX-6 Dx's"
like "$out" "  GPU0  PIX: mlx5_0 \(384 Gb/s\); as near, less bandwidth, left out: mlx5_1 \(100 Gb/s\), mlx5_2 \(100 Gb/s\)" "xe9680: --matrix says why"
run "$R" -t "$X" --gpus 0 --format json
is "$(jq -c '.choice.gpus[0] | [.hcas, .slower]' <<<"$out")" '[["mlx5_0"],["mlx5_1","mlx5_2"]]' "xe9680: json: chosen and left out"

# The same machine with ConnectX-7s in the storage slots (the same adapter
# model as the compute ports, at 100G): a host port beside a faster rail under
# GPU 0's and GPU 4's switches is another role; never drained.
for d in mlx5_1 mlx5_2 mlx5_7 mlx5_8; do
	printf 'MT4129\n' >"$(fab_devdir "$R" $d)/hca_type"
	printf 'MCX75310AAS-NEAT\n' >"$(fab_devdir "$R" $d)/board_id"
done
run "$R" --set Mode=strict --format json
is "$rc" 0 "xe9680, storage of the compute model at 100G: strict exit 0"
is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "... no drain"
is "$(jq -r '.check.findings[] | select(.check == "link_rate" and .device == "mlx5_1") | .message' <<<"$out")" \
	"mlx5_1 port 1 at 100 Gb/s (a host port, beside a faster port under GPU 0000:19:00.0's switch: compared with its role's ports; other MT4129 ports run at 400 Gb/s)" \
	"... said with its role"
is "$(jq -r '.node.devices[] | select(.name == "mlx5_3") | .gpu_near' <<<"$out")" "0000:3b:00.0" "... each port's GPU neighbourhood read from sysfs"
# a compute rail that trained at 100G is warned about (LinkRateAction=warn,
# the default: released at warn), and with LinkRateAction=fail fails and drains
fab_port "$R" mlx5_4 1 rate="100 Gb/sec (4X EDR)"
run "$R" --format json
like "$(jq -r '.check.findings[] | select(.check == "link_rate" and .status == "warn") | .message' <<<"$out")" \
	"ports of its role on this node run at 400 Gb/s \(a GPU's rail, beside GPU 0000:4c:00.0\).*the port is kept" \
	"xe9680: a 100G rail among 400G ones: warned by default, kept"
run "$R" --set LinkRateAction=fail --format json
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_4 port 1 at 100 Gb/s" "xe9680: a 100G rail among 400G ones drains (LinkRateAction=fail)"
like "$(jq -r '.check.findings[] | select(.check == "link_rate" and .status == "fail") | .message' <<<"$out")" \
	"ports of its role on this node run at 400 Gb/s \(a GPU's rail, beside GPU 0000:4c:00.0\)" "... named as a GPU's rail"
# in a container's view (no bus/pci/devices): each device's PCIe path one
# unknown, set aside; the 100G ports' role cannot be told: warned, not drained
rm -rf "$R/bus/pci"
run "$R" --set Mode=strict --format json
is "$(jq '[.check.findings[] | select(.check == "pcie_link" and .status == "unknown" and .aside)] | length' <<<"$out")" 12 "container view: one UNKNOWN pcie_link per device, set aside"
is "$(jq '[.check.findings[] | select(.check == "acs" or .check == "iommu")] | length' <<<"$out")" 0 "... and no ACS or IOMMU line besides"
is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "... nothing drained (the 100G ports' role unknown)"
is "$(jq '[.check.findings[] | select(.check == "link_rate" and .status == "warn")] | length' <<<"$out")" 5 "... the slower ports warned, roles unknown"
is "$rc" 0 "... strict exit status unchanged by the unknowns"

# ---------------------------------------------------------------- GPUs from nvidia-smi -q
# Each GPU below a root port of its own whose maximum is the capture's Host
# Max.  No RDMA device: the devices check fails (not a drain); the GPUs' links
# are what is looked at, every GPU of the topology (no --gpus).
gpus() { # gpus NAME FILE [SECTION]: $R, $X of the machine
	machine "$1"
	cap_nvsmi "$R" "$2" "${3:-}"
	cap_nvsmi_xml "$2" "$T/$1.xml" "${3:-}"
	X=$T/$1.xml
	fab_gdr "$R"
}
idle='full width at a lower speed, which is how an idle NVIDIA GPU saves power'
# 8x RTX 4090: P2 GPUs at Gen4 x16, P8 ones at Gen1 x16 (power management)
gpus rtx4090-a "$C/gpud-rtx4090-a/nvidia-smi-query.535.154.05.out.0.valid"
run "$R" -t "$X"
is "$(lines "^PASS +pcie_link +GPU[0-7] .*at 2.5 GT/s x16, capable of 16.0 GT/s x16: $idle")" 3 "rtx4090-a: the 3 idle (P8) GPUs at Gen1 x16 pass"
is "$(lines '^PASS +pcie_link +GPU[0-7] .*at full rate')" 5 "rtx4090-a: the 5 busy (P2) ones at Gen4 x16"
is "$(lines '^(WARN|FAIL) +pcie_link ')" 0 "rtx4090-a: no warning"
run "$R" -t "$X" --set PcieDegraded=fail --health
is "$rc" 0 "rtx4090-a: PcieDegraded=fail drains nothing"
like "$out" "FAIL +devices .*no RDMA devices" "rtx4090-a: no RDMA device (the capture has none): said, not drained"
gpus rtx4090-a1 "$C/gpud-rtx4090-a/nvidia-smi-query.535.154.05.out.1.valid"
run "$R" -t "$X" --set PcieDegraded=fail
is "$(lines "^PASS +pcie_link +GPU[0-7] .*$idle")" 6 "rtx4090-a, later: six idle at Gen1, passing under PcieDegraded=fail"
# the same GPU at x8 of x16 (a riser fault, written into the capture's tree) warns, and only it drains
fab_pcie_link "$R" 0000:81:00.0 cur="2.5 GT/s PCIe" width=8 max="16.0 GT/s PCIe" maxwidth=16
run "$R" -t "$X"
like "$out" "WARN +pcie_link +GPU4 +GPU 4 \(0000:81:00.0\) at 2.5 GT/s x8, capable of 16.0 GT/s x16 \(the lower of both ends' maxima\): it runs on 8 of 16 lanes" "rtx4090-a: an idle GPU at x8 of x16 warns"
run "$R" -t "$X" --set PcieDegraded=fail --format json
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: GPU4 pcie_link" "rtx4090-a: PcieDegraded=fail drains for the x8 one alone"
# 8x RTX 4090 in Gen5 slots (Host Max 5), all idle at Gen1
gpus rtx4090-b "$C/gpud-rtx4090-b/nvidia-smi-query.535.154.05.out.0.valid.4090"
run "$R" -t "$X" --set PcieDegraded=fail --health
is "$(lines "^PASS +pcie_link +GPU[0-7] .*at 2.5 GT/s x16, capable of 16.0 GT/s x16: $idle")" 8 "rtx4090-b: 8 idle GPUs pass (the lower of Gen4 card and Gen5 slot)"
is "$rc" 0 "rtx4090-b: nothing drained"
gpus rtx4090-b3 "$C/gpud-rtx4090-b/nvidia-smi-query.535.154.05.out.3.valid"
run "$R" -t "$X"
is "$(lines "^PASS +pcie_link +GPU[0-7] .*$idle")" 8 "rtx4090-b, later: the same"
# HGX H100 (8 SXM, P0, Gen5 x16, Host Max N/A)
gpus hgx-h100-b "$C/gpud-hgx-h100-b/nvidia-smi-query.535.183.01.out.0.valid"
run "$R" -t "$X"
is "$(lines '^PASS +pcie_link +GPU[0-7] .*at full rate \(its own: 32.0 GT/s x16\)$')" 8 "hgx-h100-b: 8 GPUs at Gen5 x16"
# TITAN V idle: Gen1 of Gen3
gpus titanv "$C/gpud-titanv/nvidia-smi-query.560.35.03.out.0.valid"
run "$R" -t "$X" --set PcieDegraded=fail --health
like "$out" "PASS +pcie_link +GPU0 +GPU 0 \(0000:01:00.0\) at 2.5 GT/s x16, capable of 8.0 GT/s x16: $idle" "titanv: idle at Gen1 of Gen3 passes"
is "$rc" 0 "titanv: nothing drained"
# A10 in P8 that kept Gen4
gpus a10 "$C/gpud-a10/nvidia-smi-query.535.129.03.out.0.valid.a10"
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 +GPU 0 \(0000:07:00.0\): 1 PCIe link\(s\) up to root port 0000:06:01.0 at full rate \(its own: 16.0 GT/s x16\)" "a10: P8 at Gen4: full rate"
# RTX 2080 SUPER idle (P8, Gen1 of 3, Host Max 4) and under load (P2, Gen3)
gpus rtx2080s-idle "$C/nge-rtx2080s/linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05.txt" idle
run "$R" -t "$X" --set PcieDegraded=fail --health
like "$out" "PASS +pcie_link +GPU0 .*at 2.5 GT/s x16, capable of 8.0 GT/s x16: $idle" "rtx2080s idle: Gen1 x16 passes"
is "$rc" 0 "rtx2080s idle: nothing drained"
gpus rtx2080s-load "$C/nge-rtx2080s/linux-x86_64__nvidia-geforce-rtx-2080-super__595.71.05.txt" load
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 .*at full rate \(its own: 8.0 GT/s x16\)$" "rtx2080s under load: retrained to Gen3, full rate"
gpus rtx2080s-610 "$C/nge-rtx2080s/linux-x86_64__nvidia-geforce-rtx-2080-super__610.57.04.txt" idle
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 .*$idle" "rtx2080s, driver 610 idle: the same"
gpus rtx4080s "$C/nge-rtx4080s/linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt" idle
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 .*at 2.5 GT/s x16, capable of 16.0 GT/s x16: $idle" "rtx4080s idle: Gen1 of Gen4 passes"
gpus rtx4080s-load "$C/nge-rtx4080s/linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt" load
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 .*at full rate \(its own: 16.0 GT/s x16\)$" "rtx4080s under load: Gen4 x16"
# datacenter parts that did not drop the link when idle
gpus h200 "$C/nge-h200/linux-x86_64__nvidia-h200__590.48.01.txt" idle
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 +GPU 0 \(0000:83:00.0\): .*at full rate \(its own: 32.0 GT/s x16\)$" "h200 idle: Gen5 x16"
gpus l40s "$C/nge-l40s/linux-x86_64__nvidia-l40s__595.80.txt" idle
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 .*at full rate \(its own: 16.0 GT/s x16\)$" "l40s idle: Gen4 x16"
# an H100 passed through to a VM: on the guest's host bridge
gpus h100-vm "$C/nge-h100-vm/linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt" idle
run "$R" -t "$X"
like "$out" "PASS +pcie_link +GPU0 +GPU 0 \(0000:00:09.0\) is on the host bridge: no PCIe link to check" "h100-vm: no link of its own"

# ---------------------------------------------------------------- GB200 compute tray (plain lspci)
# Four GB200 GPUs (10de:2941), each alone on a PCI domain below an NVIDIA
# root port: attached over NVLink-C2C.  The dump has no link states.
machine gb200
cap_lspci "$R" "$C/gpud-gb200/lspci.gb200"
cap_lspci_xml "$C/gpud-gb200/lspci.gb200" "$T/gb200.xml"
fab_gdr "$R"
run "$R" -t "$T/gb200.xml" --set PcieDegraded=fail
is "$(lines '^PASS +pcie_link +GPU[0-3] +GPU [0-3] \(00(08|09|18|19):01:00.0\) is attached over NVLink-C2C \(GB200, 10de:2941\): its PCIe function is not its data path, so its PCIe link gets no verdict$')" 4 "gb200: the 4 C2C GPUs get no link verdict, a line says why"
is "$(lines '^(WARN|FAIL|UNKNOWN) +(pcie_link|iommu) +GPU')" 0 "gb200: nothing else about their links"
is "$(grep -oE '^UNKNOWN +pcie_link +mlx5_[0-9]+ .*link state unknown' <<<"$out" | awk '{print $3}' | sort -u | wc -l)" 8 "gb200: the NICs' links unknown (a plain lspci shows no link state)"
run "$R" -t "$T/gb200.xml" --set PcieDegraded=fail --health
is "$rc" 0 "gb200: nothing drained"

# ---------------------------------------------------------------- RoCE nodes from ibstat
# Devices without PCI addresses in the capture get a root port each; an H100
# node's eight ConnectX-7 (MT4129) sit behind a PCIe switch shared with a
# GPU each, as on every HGX H100 baseboard (ibnode NAME FILE MT4129).
ibnode() { machine "$1"; CAP_GPU_RAILS=${3:-}; cap_ibstat "$R" "$2"; fab_gdr "$R"; }
# 8x ConnectX-7 400G (compute) + 4x ConnectX-6 Dx 100G (storage): healthy
ibnode roce-a "$C/gpud-h100-roce-a/ibstat.47.0.h100.all.active.0" MT4129
run "$R" --set Mode=strict --format json
is "$rc" 0 "roce-a: 8x400G + 4x100G RoCE: strict exit 0"
is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "roce-a: no drain"
is "$(jq '[.check.findings[] | select(.check == "link_rate" and .status == "pass")] | length' <<<"$out")" 12 "roce-a: every port's rate passes (two models, two rates)"
is "$(jq -r '.plan.env.NCCL_IB_HCA' <<<"$out" | tr ',' '\n' | wc -l)" 12 "roce-a: every port in NCCL_IB_HCA"
# the same layout with 2 compute rails down (Disabled), then one Polling
ibnode roce-b "$C/gpud-h100-roce-b/ibstat.47.0.h100.some.down.1" MT4129
run "$R" --health
is "$rc" 1 "roce-b: 2 of 8 compute rails down: --health drains"
run "$R" --format json
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_5 port 1 DOWN (+1 more)" "roce-b: the drain reason names the first"
is "$rc" 0 "roce-b: warn mode: the job runs on the healthy ports"
ibnode roce-b-polling "$C/gpud-h100-roce-b/ibstat.47.0.h100.some.down.with.polling.1" MT4129
run "$R" --format json
like "$(jq -r '.check.findings[] | select(.subject == "mlx5_11:1" and .check == "port_state") | .message' <<<"$out")" "mlx5_11 port 1 is DOWN \(phys_state Polling\)" "roce-b later: the Polling port named"
is "$(jq -r '.check.summary.drain_reason' <<<"$out")" "roce: mlx5_5 port 1 DOWN (+1 more)" "roce-b later: still drained"
# InfiniBand compute, one RoCE storage port up and three down: the site uses mlx5_1 (Hca=)
ibnode ib-c "$C/gpud-h100-ib-c/ibstat.47.0.h100.some.down.0" MT4129
run "$R" --set Hca=mlx5_1 --set Mode=strict
is "$rc" 0 "ib-c: IB compute + the storage port the site uses (Hca=mlx5_1): strict exit 0"
is "$(lines '^PASS +link_layer +mlx5_[0-9]+:1 .*InfiniBand, not RoCE')" 8 "ib-c: the 8 InfiniBand ports left out, not failed"
# without Hca=: the three unplugged storage ports are host ports (no GPU
# behind their switches; the GPU rails are the InfiniBand adapters): said,
# left out, nothing drained, strict runs on the one that is up
run "$R" --health
is "$rc" 0 "ib-c, no Hca=: three storage ports down: --health does not drain"
run "$R" --set Mode=strict --format json
is "$rc" 0 "ib-c, no Hca=: strict exit 0"
is "$(jq -r '[.check.findings[] | select(.check == "port_state" and .status == "warn") | .subject] | join(" ")' <<<"$out")" \
	"mlx5_2:1 mlx5_7:1 mlx5_8:1" "ib-c, no Hca=: each down storage port warned"
like "$(jq -r '.check.findings[] | select(.subject == "mlx5_7:1" and .check == "port_state") | .message' <<<"$out")" \
	"mlx5_7 port 1 is DOWN \(phys_state Disabled\): a host port \(no GPU behind its PCIe switch" "ib-c, no Hca=: why it is not drained"
is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "ib-c, no Hca=: no drain reason"
is "$(jq -r '.plan.env.NCCL_IB_HCA' <<<"$out")" "=mlx5_1:1" "ib-c, no Hca=: the storage port that is up"
# a cloud VM's virtual functions (MT4126) on the guest's host bridge
ibnode a100-vm "$C/gpud-a100-mixed/ibstat.47.0.a100.all.active.0"
run "$R" --set Mode=strict
is "$rc" 0 "a100-vm: 1 Ethernet + 8 InfiniBand VFs: strict exit 0"
is "$(lines '^PASS +pcie_link +mlx5_[0-8] .*is on the host bridge: no PCIe link to check')" 9 "a100-vm: VFs have no PCIe link to judge"
is "$(lines '^WARN +firmware ')" 0 "a100-vm: ConnectX-6 Dx and ConnectX-7 VFs (same CA type, other firmware) are not one model"

# ---------------------------------------------------------------- RoCE LAG: mlx5_bond_0
# A copy of /sys/class/infiniband: 8x ConnectX-7 InfiniBand and mlx5_bond_0
# (BlueField-3, Ethernet, 200 Gb/sec (2X NDR)).  The bond and its members are
# not in the capture: bond0 over eth0 and eth1 (cap_bond).
machine ib-bond
cap_ibclass "$R" "$C/gpud-h100-ib-bond/sys-class-infiniband"
cap_bond "$R" mlx5_bond_0 bond0 eth0 eth1
fab_gdr "$R"
is "$(cat "$(fab_devdir "$R" mlx5_bond_0)/ports/1/rate")" "200 Gb/sec (2X NDR)" "ib-bond: the captured files, byte for byte"
run "$R" --set Mode=strict
is "$rc" 0 "ib-bond: a healthy bond passes (strict)"
like "$out" "PASS +netdev +mlx5_bond_0:1 +bond0 is up, MTU 9000" "ib-bond: port state and MTU on the bond's netdev"
is "$(lines '^WARN +pfc +mlx5_bond_0:1 +eth[01] has no DCB')" 2 "ib-bond: PFC asked of each member (veths: no DCB), not of bond0"
is "$(lines 'pfc .*bond0')" 0 "ib-bond: ... never of the bond"
like "$out" "NCCL_IB_HCA==mlx5_bond_0:1" "ib-bond: the LAG device is the RoCE rail"
run "$R" --format json
is "$(jq -c '.node.netdevs[] | select(.name == "bond0") | .members' <<<"$out")" '["eth0","eth1"]' "ib-bond: json: the bond's members"
# ECN on each member: one with the reaction point off on the RoCE priority fails, naming it
for m in eth0 eth1; do
	for p in 0 1 2 3 4 5 6 7; do
		mkdir -p "$R/class/net/$m/ecn/roce_np/enable" "$R/class/net/$m/ecn/roce_rp/enable"
		echo 1 >"$R/class/net/$m/ecn/roce_np/enable/$p"
		echo 1 >"$R/class/net/$m/ecn/roce_rp/enable/$p"
	done
	echo 48 >"$R/class/net/$m/ecn/roce_np/cnp_dscp"
	echo 6 >"$R/class/net/$m/ecn/roce_np/cnp_802p_prio"
done
run "$R"
is "$(lines '^PASS +ecn +mlx5_bond_0:1 +ECN notification and reaction points on for priority 3 on eth[01]$')" 2 "ib-bond: ECN read on both members"
echo 0 >"$R/class/net/eth1/ecn/roce_rp/enable/3"
run "$R" --set Mode=strict --set Ecn=require
like "$out" "FAIL +ecn +mlx5_bond_0:1 +ECN is off on eth1 for priority 3 \(roce_rp\)" "ib-bond: a member without ECN on the priority fails, named"
is "$rc" 1 "ib-bond: ... strict exit 1"

# ---------------------------------------------------------------- DGX A100 storage bond (gcm)
# ip -j dumps of a DGX A100: bond front0 over enp97s0f0 and enp225s0f0 at MTU
# 9192 (the hand-made variant: MTU 1500).  As RoCE LAG on a ConnectX-6 pair.
for v in good mtu_bad; do
	machine "gcm-$v"
	json=$C/gcm-dgx-a100/eth_learn_$v.json
	bond=$(jq -r '.intf_status[] | select(.flags | index("MASTER")) | .ifname' "$json")
	members=$(jq -r --arg b "$bond" '.intf_status[] | select(.main == $b) | .ifname' "$json" | tr '\n' ' ')
	mtu=$(jq -r --arg b "$bond" '.intf_status[] | select(.ifname == $b) | .mtu' "$json")
	cap_fn "$R" pci0000:60/0000:60:01.0/0000:61:00.0
	cap_device "$R" mlx5_bond_0 0000:61:00.0 MT4123 MT_0000000223 20.39.1002
	cap_port "$R" mlx5_bond_0 1 Active LinkUp 200 Ethernet
	cap_bond "$R" mlx5_bond_0 "$bond" $members
	fab_gdr "$R"
	for n in "$bond" $members; do
		ip -n "$NS" link show "$n" >/dev/null 2>&1 || netns_veth "$NS" "$n" "$mtu"
		ip -n "$NS" link set "$n" mtu "$mtu"
	done
	run "$R" --set Mtu=9192 --format json
	if [ "$v" = good ]; then
		is "$bond:$(jq -r '[.node.netdevs[] | select(.name == "front0") | .members[]] | join(",")' <<<"$out")" \
			"front0:enp97s0f0,enp225s0f0" "gcm good: the bond and members of the dump"
		is "$(jq '[.check.findings[] | select(.status == "fail")] | length' <<<"$out")" 0 "gcm good: MTU 9192 as the spec says: no failure"
	else
		like "$(jq -r '.check.findings[] | select(.check == "mtu" and .status == "fail") | .message' <<<"$out")" \
			"front0 MTU is 1500, the policy requires 9192" "gcm mtu_bad: the bond's MTU fails (configuration)"
		is "$(jq -r '.check.summary.drain_reason // "none"' <<<"$out")" none "gcm mtu_bad: ... never drained"
	fi
done

# ---------------------------------------------------------------- SX-Aurora host (hwloc-gather tarball)
# A real sysfs tree: 8 NEC vector engines and 2 Mellanox InfiniBand HCAs
# behind PLX switches at 8 GT/s x16, an X722 (iWARP RDMA, given as irdma0
# here) at 2.5 GT/s below a port that can do no more.  Config spaces of 64
# bytes: gathered without root.
machine aurora
S=$(cap_hwloc_tarball "$R" "$C/hwloc-aurora-8ve/32intel64-2p8co2t+8ve.tar.bz2")
cap_device "$S" mlx5_0 0000:1a:00.0 MT4115 MT_2180110032 12.28.2006
cap_port "$S" mlx5_0 1 Active LinkUp 100 InfiniBand
cap_device "$S" mlx5_1 0000:3e:00.0 MT4115 MT_2180110032 12.28.2006
cap_port "$S" mlx5_1 1 Active LinkUp 100 InfiniBand
cap_device "$S" irdma0 0000:60:00.0 X722 X722 1.0
cap_port "$S" irdma0 1 Active LinkUp 10 Ethernet
run "$S"
like "$out" "PASS +pcie_link +mlx5_0 +mlx5_0 \(0000:1a:00.0\): 2 PCIe link\(s\) up to root port 0000:17:00.0 at full rate \(its own: 8.0 GT/s x16\)$" "aurora: an HCA behind a PLX switch at Gen3 x16 (real sysfs)"
like "$out" "PASS +pcie_link +irdma0 +irdma0 \(0000:60:00.0\): .*at full rate \(its own: 2.5 GT/s x1\); its port 0000:5f:03.0 can do 2.5 GT/s x1, the device 8.0 GT/s x1: a cap of the platform, not a fault" "aurora: the X722 at 2.5 GT/s: the platform's cap, said"
is "$(lines '^UNKNOWN +acs +mlx5_[01] .*only 64 of 4096 bytes')" 4 "aurora: ACS unknown on the switch ports (gathered without root)"
run "$S" --health
is "$rc" 0 "aurora: nothing drained"

done_testing
