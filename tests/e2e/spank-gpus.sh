#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The roce plugin with GPU-to-NIC locality in a real one-node Slurm: the
# node's fixture HCAs sit at the PCI addresses of the project's two-socket
# hwloc topology (tests/fixtures/topo/two-socket.xml, TopologyFile=), and the
# step's GPUs come from SLURM_STEP_GPUS as Slurm sets it for GPU jobs (here
# passed through srun's environment: this lab has no GPUs for Slurm to allocate).
set -u
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/spanktest.sh"
spank_need_lab
spank_need_two_socket
plan 5
spank_workdir spank-gpus
spank_two_socket_fabric
spank_lab_init
lab_node node1 "$FAB" eth0=9000 eth1=9000 eth2=9000 eth3=9000
spank_lab_start

nccl() { run srun "$@" sh -c 'echo "HCA=${NCCL_IB_HCA:-none} GDR=${NCCL_NET_GDR_LEVEL:-none}"'; }

nccl --roce
check "no GPUs: every healthy HCA in device order, the policy's GDR level" \
	'grep -qx "HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1 GDR=PXB" $W/out'
nccl --roce --export=ALL,SLURM_STEP_GPUS=2
check "step GPU 2: its PIX NIC mlx5_3 only, GDR level PIX" 'grep -qx "HCA==mlx5_3:1 GDR=PIX" $W/out'
SLURM_STEP_GPUS=0,2 nccl --roce
check "step GPUs 0,2: nearest NICs in GPU order" 'grep -qx "HCA==mlx5_0:1,mlx5_1:1,mlx5_3:1 GDR=PIX" $W/out'
nccl --roce --export=ALL,SLURM_STEP_GPUS='0;reboot'
check "garbage GPU list: every healthy HCA, a warning names it" \
	'grep -qx "HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1 GDR=PXB" $W/out && grep -q "^roce: warning: node1: .*GPU list not understood" $W/err'

spank_sanitizer_check
done_testing
