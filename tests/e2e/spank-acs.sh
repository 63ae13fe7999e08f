#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The roce plugin and ACS in a real one-node Slurm (as spank-gpus.sh: the
# project's two-socket topology, the step's GPUs from SLURM_STEP_GPUS).
# Here the node's sysfs also has the PCIe path of GPU 2 (83:00.0) and of
# mlx5_3 (84:00.0) as the XML has them, below one switch (81:00.0 up,
# 82:08.0 and 82:10.0 down; tests/lib/slurmlab.sh puts the fixture's
# bus/pci/devices links into the node's /sys).  With ACS redirect on GPU 2's
# switch port the step still gets mlx5_3, at a GDR level below PIX, and a
# warning naming the port; with ACS off, PIX.  GPU 2's own link at x8:
# the step's warning names the GPU (issue 13).
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
spank_need_lab
spank_need_two_socket
[ -e /sys/devices/pci0000:80 ] && skip_all "this machine has a PCI root pci0000:80 (the fixture's)"
plan 7
spank_workdir spank-acs
FAB=$W/fab
mkdir -p "$FAB"
for h in mlx5_0=0000:04:00.0 mlx5_1=0000:04:00.1 mlx5_2=0000:88:00.0; do
	name=${h%%=*}; n=${name##*_}
	fab_hca "$FAB" "$name" "${h#*=}" 1
	fab_roce_ipv4 "$FAB" "$name" 1 "eth$n" "192.0.2.$((20 + n))"
done
fab_hca "$FAB" mlx5_3 0000:84:00.0 1 pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:10.0
fab_roce_ipv4 "$FAB" mlx5_3 1 eth3 192.0.2.23
fab_pci_fn "$FAB" pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:08.0/0000:83:00.0
fab_gdr "$FAB"
printf 'PfcPriority=none\nTopologyFile=%s\nReportDir=%s/reports\nStateDir=%s/state\n' "$XML" "$W" "$W" >"$W/roce.conf"
spank_lab_init
lab_node node1 "$FAB" eth0=9000 eth1=9000 eth2=9000 eth3=9000
spank_lab_start

nccl() { run srun "$@" sh -c 'echo "HCA=${NCCL_IB_HCA:-none} GDR=${NCCL_NET_GDR_LEVEL:-none}"'; }

nccl --roce --export=ALL,SLURM_STEP_GPUS=2
check "ACS off: step GPU 2 gets its PIX NIC mlx5_3 at PIX" 'grep -qx "HCA==mlx5_3:1 GDR=PIX" $W/out'
check "ACS off: no ACS warning" '! grep -q "ACS" $W/err'
# Source Validation, Request and Completion Redirect, Upstream Forwarding on
# GPU 2's switch port, as Linux sets them with an IOMMU (the fixture is the
# node's /sys: the next step reads it)
fab_pci_config "$FAB" 0000:82:08.0 0x001d
nccl --roce --export=ALL,SLURM_STEP_GPUS=2
check "ACS on GPU 2's switch port: still mlx5_3, GDR level lowered to LOC" 'grep -qx "HCA==mlx5_3:1 GDR=LOC" $W/out'
check "ACS: the step's one short warning names the check and its cause, slurmd's log the GPU, the switch port and the HCA" \
	'[ "$(grep "roce:" $W/err)" = "roce: warning: node1: locality GDR lowered (ACS)" ] && grep -q "roce: node1: node locality warn (GDR lowered (ACS)): GPU 2 (0000:83:00.0): ACS redirect on bridge 0000:82:08.0 between it and mlx5_3" $LAB/log/slurmd.node1.log'
nccl --roce --export=ALL,SLURM_STEP_GPUS=3
check "ACS: GPU 3 behind the other switch keeps PIX" 'grep -qx "HCA==mlx5_2:1 GDR=PIX" $W/out'

fab_pcie_link "$FAB" 0000:83:00.0 width=8 maxwidth=16
nccl --roce --export=ALL,SLURM_STEP_GPUS=2
check "GPU 2's own link at x8: the step's warning names the GPU, slurmd's log both widths" \
	'grep -q "^roce: warning: node1: .*pcie_link narrow on GPU2" $W/err && grep -q "roce: node1: GPU2 pcie_link warn (narrow): GPU 2 (0000:83:00.0) at 16.0 GT/s x8, capable of 16.0 GT/s x16" $LAB/log/slurmd.node1.log'

spank_sanitizer_check
done_testing
